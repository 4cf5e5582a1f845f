"""The figures behind the workload's estimates: the GPUs that meet a deadline, the derived serving rule where no
measured point matches, and the assumptions each estimate lists with its sources (``{"name", "value", "source"}``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from functools import partial

from engines.findings.params.workload import DerivedFields, MeasuredFields

from .context import GroupContext
from .serving import (
    DERIVED_OUTPUT_SHARE,
    DERIVED_RULE,
    MEMORY_BANDWIDTH_TBS,
    NIM_SOURCE,
    TTFT_LIMIT_MS,
    Throughput,
    derived_throughput,
    kv_bytes_per_token,
    measured_row,
    median_abs_error,
)
from .sizing import Assumption, Sizing
from .training import (
    ACTIVATION_SOURCE,
    FLOPS_SOURCE,
    RECOMPUTE_FACTOR,
    SEQUENCE_SOURCE,
    TRAINING_SEQUENCE_TOKENS,
    Plan,
    TrainingTime,
    Utilisation,
    gpus_for_deadline,
    training_time,
)


def deadline_gpus(
    sizing: Sizing,
    plan: Plan,
    plan_at: Callable[[int], Plan | None],
    per_node: int,
    util: Utilisation,
    tokens: float,
    target_days: float,
    gpu_hours: float,
) -> int:
    """The fewest whole nodes' GPUs of the design's node shape whose estimated time (re-planned at each size, the
    same estimate as the design's own) is within ``target_days``: more than the design has when it is too slow,
    fewer when it is faster than asked, never fewer than the memory needs. ``plan_at``: the parallelism plan at a
    GPU count (None where the memory does not hold it)."""

    def days_at(gpus: int) -> float:
        p = plan_at(gpus)
        used = p.gpus if p is not None else gpus
        return training_time(
            tokens_billion=tokens,
            params_billion=sizing.params_billion,
            mode=sizing.mode,
            gpus=used,
            peak_tflops=util.peak_tflops,
            peak_precision=util.precision,
            checkpointing=p.checkpointing if p is not None else True,
            mfu=util.mfu,
            mfu_range=util.mfu_range,
        ).days

    return gpus_for_deadline(
        target_days=target_days,
        days_at=days_at,
        gpus_now=min(plan.gpus, sizing.min_gpus),
        per_node=per_node,
        least_gpu_hours=gpu_hours / (RECOMPUTE_FACTOR if plan.checkpointing else 1.0),
    )


def training_assumptions(est: TrainingTime, gpu: str, precision: str, util: Utilisation) -> tuple[Assumption, ...]:
    """The figures the time estimate rests on, each with its source (contract: ``{"name", "value", "source"}``)."""
    peak_note = ""
    if precision == "fp8" and util.precision != "fp8":
        peak_note = "; this GPU has no sourced FP8 peak, so FP8 work is estimated at its BF16 peak"
    return (
        {
            "name": "flops_per_token",
            "value": est.flops_per_token,
            "source": f"{FLOPS_SOURCE}; layers and width of {est.architecture}",
        },
        {"name": "sequence_tokens", "value": TRAINING_SEQUENCE_TOKENS, "source": SEQUENCE_SOURCE},
        {
            "name": "peak_dense_tflops_per_gpu",
            "value": est.peak_tflops,
            "source": f"catalogue: {gpu} {util.precision}_dense_tflops (NVIDIA figures){peak_note}",
        },
        {"name": "peak_precision", "value": util.precision, "source": "the workload's precision (training.py)"},
        {"name": "mfu", "value": util.mfu, "source": util.source},
        {"name": "mfu_range", "value": list(util.mfu_range), "source": util.source},
        {
            "name": "activation_recompute_factor",
            "value": RECOMPUTE_FACTOR if est.checkpointing else 1.0,
            "source": ACTIVATION_SOURCE,
        },
        {"name": "gpus", "value": est.gpus, "source": "the parallelism plan's GPUs"},
    )


def derived_estimate(
    sizing: Sizing, plan: Plan, gpu_groups: list[GroupContext], concurrency: int, domain: int
) -> tuple[DerivedFields, Sizing]:
    """Where no measured point matches: the replicas and tokens/s by the derived rule (serving.derived_throughput),
    labelled as derived, on replicas of the plan's shape (tensor x pipeline GPUs); nothing when the design mixes GPU
    parts or its GPU's memory bandwidth or peak is not sourced."""
    specs = {c.gpus[0].spec.part_number: c.gpus[0].spec for c in gpu_groups}
    if len(specs) != 1:
        return {"derived": False}, sizing
    ((part, spec),) = specs.items()
    bandwidth = MEMORY_BANDWIDTH_TBS.get(part)
    peak = spec.fp8_dense_tflops if sizing.precision == "fp8" else spec.bf16_dense_tflops
    if not bandwidth or not peak or not sizing.context_tokens:
        return {"derived": False}, sizing
    per_replica = plan.tensor * plan.pipeline
    output = max(1, round(sizing.context_tokens * DERIVED_OUTPUT_SHARE))
    shape = partial(
        derived_throughput,
        params_billion=sizing.params_billion,
        precision=sizing.precision,
        gpus=per_replica,
        memory_gb=sizing.gpu_memory_gb,
        bandwidth_tbs=bandwidth,
        peak_tflops=peak,
        input_tokens=sizing.context_tokens - output,
        output_tokens=output,
        kv_bytes_per_token=kv_bytes_per_token(sizing.params_billion, sizing.precision),
    )
    full = shape()
    if full.sequences < 1:
        return {"derived": False}, sizing
    replicas = max(1, math.ceil(concurrency / full.sequences))
    rate = replicas * shape(concurrency=concurrency / replicas).tokens_per_second
    error = median_abs_error()
    measured, row_params = _measured(part, sizing, domain, sizing.context_tokens)
    sizing = replace(
        sizing,
        derived_replicas_needed=replicas,
        derived_gpus_needed=replicas * per_replica,
        derived_tokens_per_second=rate,
        assumptions=(
            {"name": "serving_rule", "value": "derived", "source": DERIVED_RULE},
            {"name": "memory_bandwidth_tbs_per_gpu", "value": bandwidth, "source": "engines/node/serving.py"},
            {"name": "sequences_per_replica", "value": full.sequences, "source": "the KV cache the replica holds"},
            {"name": "output_share", "value": round(DERIVED_OUTPUT_SHARE, 3), "source": NIM_SOURCE},
            {"name": "median_error_held_back", "value": round(error, 2), "source": "bench/serving_error.py"},
            *measured,
        ),
    )
    derived: DerivedFields = {
        "derived": True,
        "derived_replicas": replicas,
        "derived_tp": per_replica,
        "derived_gpus": replicas * per_replica,
        "derived_tps": rate,
        "derived_error": error,
        **row_params,
    }
    return derived, sizing


def _measured(
    part: str, sizing: Sizing, domain: int, context_tokens: int
) -> tuple[tuple[Assumption, ...], MeasuredFields]:
    """The measured row beside a derived estimate, if any: as an assumption, and as the finding's parameters."""
    row = measured_row(part, sizing.precision, sizing.params_billion, domain, context_tokens)
    if row is None:
        return (), {"measured_tps": None}
    measured: tuple[Assumption, ...] = (
        {
            "name": "measured_max_tokens_per_second_per_replica",
            "value": row.tokens_per_second,
            "source": f"{row.source}: {row.model}, {row.gpus} x {row.gpu_part}, {row.precision}, "
            f"{row.input_tokens} input / {row.output_tokens} output tokens, maximum load",
        },
    )
    return measured, {
        "measured_tps": row.tokens_per_second,
        "measured_model": row.model,
        "measured_gpus": row.gpus,
        "measured_input": row.input_tokens,
        "measured_output": row.output_tokens,
    }


def serving_assumptions(est: Throughput) -> tuple[Assumption, ...]:
    """The figures the replica estimate rests on, each with its source (``{"name", "value", "source"}``)."""
    point, source = est.point, est.point.source
    return (
        {
            "name": "serving_benchmark",
            "value": f"{point.model}, {point.gpus_per_replica} x {point.gpu_label}, {point.precision} TP"
            f"{point.gpus_per_replica}, {point.input_tokens} input / {point.output_tokens} output tokens",
            "source": source,
        },
        {
            "name": "concurrency_per_replica",
            "value": est.per_replica,
            "source": f"{source}; the last measured level with a time to first token under {TTFT_LIMIT_MS:,.0f} ms "
            f"({est.ttft_ms} ms)",
        },
        {"name": "ttft_limit_ms", "value": TTFT_LIMIT_MS, "source": "engines/node/serving.py: about a second"},
        {
            "name": "tokens_per_second",
            "value": round(est.tokens_per_second),
            "source": f"{source}; the replicas' measured tokens/s at their load, linear between measured levels",
        },
        {"name": "replicas", "value": est.replicas, "source": "concurrency / requests per replica, rounded up"},
    )
