"""Inference throughput: how many replicas a concurrency needs, from a sourced serving benchmark.

Pure arithmetic and data beside sizing.py and training.py. No Django.

The only figures used are measured ones whose hardware (GPU model and count), precision and tensor-parallel degree
the source states (catalog/seed/FACTS.md, key ``NV-NIM-PERF``): NVIDIA's NIM LLM benchmarking page, "Performance"
(docs.nvidia.com/nim/benchmarking/llm/1.0.0/performance), Llama-3.3-70b-instruct on NIM 1.8.0, "2 x H100 80G",
"fp8 TP2", 5,000 input and 500 output tokens per request, concurrency 1 to 250 with the time to first token (TTFT)
and the throughput (tokens/s) at each level. Past 50 concurrent requests the throughput hardly grows (814 -> 917
-> 921 tokens/s) while the TTFT jumps from 0.8 s to 8 s and beyond: requests queue. A replica is therefore sized at
the last measured level whose TTFT stays under a second (``TTFT_LIMIT_MS``), 50 requests here.

A design matches a point only when every GPU group has the point's GPU part, the workload's precision is the
point's, the model is within 5 % of the point's size (``SIZE_TOLERANCE``), the NVLink domain holds the point's
tensor degree, and the workload's context (tokens per sequence, when given) is no longer than the point's input plus
output tokens; a shorter context only errs on the safe side. Between two measured levels the throughput is
interpolated linearly; it is never extrapolated beyond the measured levels.

Every other combination (H200, Blackwell, other sizes, BF16, longer contexts) gets no measured estimate; instead a
**derived** one (``derived_throughput``), reported apart from the measured figures and labelled as derived: decode
bound by memory bandwidth, prefill by compute, with three efficiencies fitted on TensorRT-LLM's measured H100 FP8
rows (``MEASURED_THROUGHPUT``, key ``TRTLLM-PERF``) and checked on the rows held back from the fit (its H200 rows and
the NIM page's saturation point): 16 % median error, 47 % at worst (``bench/serving_error.py`` prints each row). A
GPU whose memory bandwidth or peak is not sourced gets neither: the throughput stays unknown, visibly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .sizing import kv_model

TTFT_LIMIT_MS = 1000.0  # "about a second": the last measured level under it, before the queue builds
SIZE_TOLERANCE = 0.05  # a model within 5 % of the benchmarked size counts as that size
SOURCE_KEY = "NV-NIM-PERF"


@dataclass(frozen=True)
class Level:
    """One measured row: ``concurrency`` requests in flight, their mean TTFT and the replica's tokens/s."""

    concurrency: int
    ttft_ms: float
    tokens_per_second: float


@dataclass(frozen=True)
class ServingPoint:
    """A measured replica: one model on ``gpus_per_replica`` GPUs of one part, at one precision and request shape."""

    model: str
    params_billion: float
    gpu_part: str  # the catalogue part whose GPUs the source names
    gpu_label: str  # as the source names them
    gpus_per_replica: int  # the tensor-parallel degree (TP) of the measured replica
    precision: str
    input_tokens: int
    output_tokens: int
    levels: tuple[Level, ...]
    source: str

    @property
    def context_tokens(self) -> int:
        return self.input_tokens + self.output_tokens

    def served(self) -> Level:
        """The last measured level whose TTFT stays under ``TTFT_LIMIT_MS`` (levels are in rising concurrency)."""
        best = self.levels[0]
        for level in self.levels:
            if level.ttft_ms > TTFT_LIMIT_MS:
                break
            best = level
        return best

    def tokens_per_second(self, concurrency: float) -> float:
        """A replica's tokens/s at ``concurrency`` requests, linear between measured levels (never beyond them)."""
        levels = self.levels
        if not levels[0].concurrency <= concurrency <= levels[-1].concurrency:
            raise ValueError(f"concurrency {concurrency} outside the measured levels")
        for low, high in zip(levels, levels[1:], strict=False):
            if concurrency <= high.concurrency:
                share = (concurrency - low.concurrency) / (high.concurrency - low.concurrency)
                return low.tokens_per_second + share * (high.tokens_per_second - low.tokens_per_second)
        return levels[-1].tokens_per_second


NIM_SOURCE = (
    "NVIDIA NIM LLM benchmarking, Performance (docs.nvidia.com/nim/benchmarking/llm/1.0.0/performance): "
    "Llama-3.3-70b-instruct, NIM 1.8.0, 2 x H100 80G, fp8 TP2, 5000 input / 500 output tokens [NV-NIM-PERF]"
)

SERVING_POINTS = (
    ServingPoint(
        model="Llama-3.3-70b-instruct",
        params_billion=70.0,
        gpu_part="HGX-H100-8GPU",
        gpu_label="H100 80G",
        gpus_per_replica=2,
        precision="fp8",
        input_tokens=5000,
        output_tokens=500,
        levels=(
            Level(1, 406.77, 51.67),
            Level(5, 546.7, 218.48),
            Level(25, 688.69, 623.4),
            Level(50, 834.51, 814.37),
            Level(100, 7996.25, 917.26),
            Level(150, 34794.22, 920.9),
            Level(200, 61680.22, 920.54),
            Level(250, 88605.32, 920.12),
        ),
        source=NIM_SOURCE,
    ),
)


def serving_point(
    gpu_parts: set[str], precision: str, params_billion: float, domain: int, context_tokens: int | None
) -> ServingPoint | None:
    """The sourced point that matches the design and workload exactly (module docstring), or None."""
    for point in SERVING_POINTS:
        if (
            gpu_parts == {point.gpu_part}
            and precision == point.precision
            and abs(params_billion - point.params_billion) <= SIZE_TOLERANCE * point.params_billion
            and domain >= point.gpus_per_replica
            and (context_tokens is None or context_tokens <= point.context_tokens)
        ):
            return point
    return None


@dataclass(frozen=True, kw_only=True)
class Throughput:
    """The replicas a concurrency needs at the point's served level, and the tokens/s they deliver (an estimate)."""

    point: ServingPoint
    concurrency: int
    per_replica: int  # requests one replica serves with its TTFT under the limit
    ttft_ms: float  # the measured TTFT at that level
    replicas: int
    gpus: int
    tokens_per_second: float
    design_replicas: int  # replicas of the point's shape the design's GPUs hold


def size_replicas(point: ServingPoint, concurrency: int, design_gpus: int) -> Throughput:
    """Replicas for ``concurrency`` requests, each loaded evenly and at most at the served level."""
    served = point.served()
    replicas = max(1, math.ceil(concurrency / served.concurrency))
    load = concurrency / replicas  # between the first measured level and the served one
    load = max(load, point.levels[0].concurrency)
    return Throughput(
        point=point,
        concurrency=concurrency,
        per_replica=served.concurrency,
        ttft_ms=served.ttft_ms,
        replicas=replicas,
        gpus=replicas * point.gpus_per_replica,
        tokens_per_second=replicas * point.tokens_per_second(load),
        design_replicas=design_gpus // point.gpus_per_replica,
    )


# --- measured throughput points and the derived rule -------------------------------------------------------------

TRTLLM_SOURCE = (
    "NVIDIA TensorRT-LLM, Performance Overview (docs/source/performance/perf-overview.md, v1.0, trtllm-bench "
    "throughput, PyTorch backend): total output tokens/s of one replica at maximum load, FP8 models "
    "(nvidia/Llama-3.1-8B-Instruct-FP8, Llama-3.3-70B-Instruct-FP8, Llama-3.1-405B-Instruct-FP8) [TRTLLM-PERF]"
)

# Memory bandwidth per GPU, TB/s: the catalogue's GPU descriptions (NVIDIA datasheets, NV-DS) for A100 80 GB (2,039
# GB/s), H100 SXM (3.35), H200 SXM (4.8), H100 NVL (3.9), L40S (0.864) and RTX PRO 6000 (1.597); Glenn K. Lockwood's
# B200 and B300 pages (GK-B200, GK-B300): "8 TB/s (max)" for B200, B300 and their GB200/GB300 variants. H200 NVL
# is left out: its sources conflict (4.8 or 4.2 TB/s).
MEMORY_BANDWIDTH_TBS = {
    "HGX-A100-8GPU": 2.039,
    "HGX-H100-8GPU": 3.35,
    "HGX-H200-8GPU": 4.8,
    "H100-NVL": 3.9,
    "L40S": 0.864,
    "RTX-PRO-6000-SE": 1.597,
    "HGX-B200-8GPU": 8.0,
    "HGX-B300-8GPU": 8.0,
    "GB200-NVL72-GPUS": 8.0,
    "GB300-NVL72-GPUS": 8.0,
}


@dataclass(frozen=True)
class MeasuredThroughput:
    """One published row: a replica of ``gpus`` GPUs of one part (tensor parallel), its precision and request shape,
    and the output tokens/s it delivers at maximum load."""

    model: str
    params_billion: float
    gpu_part: str
    gpus: int
    precision: str
    input_tokens: int
    output_tokens: int
    tokens_per_second: float
    source: str = TRTLLM_SOURCE


_SHAPES = ((128, 128), (128, 2048), (128, 4096), (500, 2000), (1000, 1000), (1000, 2000), (2048, 128), (2048, 2048),
           (5000, 500), (20000, 2000))  # fmt: skip


def _rows(
    model: str, params: float, part: str, gpus: int, values: tuple[float | None, ...]
) -> tuple[MeasuredThroughput, ...]:
    return tuple(
        MeasuredThroughput(model, params, part, gpus, "fp8", isl, osl, tps)
        for (isl, osl), tps in zip(_SHAPES, values, strict=True)
        if tps is not None
    )


# The TensorRT-LLM tables, column by column (ISL/OSL rows in the order of _SHAPES; a blank cell is None).
MEASURED_THROUGHPUT: tuple[MeasuredThroughput, ...] = (
    *_rows("Llama 3.1 8B", 8.0, "HGX-H100-8GPU", 1,
           (28312, 22714, 14325, 17660, 15220, 13899, 3450, 9305, 3459, 1351)),
    *_rows("Llama 3.1 8B", 8.0, "HGX-H200-8GPU", 1,
           (27911, 26221, 18027, 20770, 17744, 16828, 3538, 12194, 3902, 1804)),
    *_rows("Llama 3.3 70B", 70.0, "HGX-H100-8GPU", 2,
           (6378, 6651, 4199, 5222, 4205, 4146, 762, 3082, 898, 437)),
    *_rows("Llama 3.3 70B", 70.0, "HGX-H200-8GPU", 1,
           (3803, 4336, 2872, 3666, 2909, 2994, 442, 2003, 566, 283)),
    *_rows("Llama 3.1 405B", 405.0, "HGX-H100-8GPU", 8,
           (3627, 4340, 3116, 3994, 2919, 2895, 453, 2296, 610, 345)),
    *_rows("Llama 3.1 405B", 405.0, "HGX-H200-8GPU", 8,
           (3814, 5348, 4741, 4724, 3330, 3722, 456, 2948, 650, 505)),
)  # fmt: skip

# The rule is fitted on the H100 rows; the H200 rows and NVIDIA's NIM saturation point are held back to check it.
FIT_PART = "HGX-H100-8GPU"

# Efficiencies of the roofline below, fitted on the H100 rows (bench/serving_error.py prints the fit and the error
# on the held-back rows): the share of peak memory bandwidth a decode step reads at, of the dense tensor peak that
# batched decode computes at, and of the dense tensor peak that prefill (large matrix products) computes at.
BANDWIDTH_EFFICIENCY = 0.70
COMPUTE_EFFICIENCY = 0.20
PREFILL_EFFICIENCY = 0.50
KV_CACHE_FRACTION = 0.90  # of each GPU's memory: TensorRT-LLM's default kv_cache_free_gpu_mem_fraction (0.90)
DERIVED_OUTPUT_SHARE = 500 / 5500  # a workload's context split as NVIDIA's NIM benchmark splits it: 5,000 in, 500 out


@dataclass(frozen=True, kw_only=True)
class Derived:
    """A replica's estimated throughput from the rule (``derived_throughput``), not a measured point."""

    tokens_per_second: float  # output tokens/s of one replica at its load
    sequences: int  # sequences its KV cache holds at the request's length (the most it serves at once)
    step_ms: float  # one decode step at that load
    prefill_ms: float  # one request's prefill


def derived_throughput(
    *,
    params_billion: float,
    precision: str,
    gpus: int,
    memory_gb: float,
    bandwidth_tbs: float,
    peak_tflops: float,
    input_tokens: int,
    output_tokens: int,
    kv_bytes_per_token: float,
    concurrency: float | None = None,
    bandwidth_efficiency: float = BANDWIDTH_EFFICIENCY,
    compute_efficiency: float = COMPUTE_EFFICIENCY,
    prefill_efficiency: float = PREFILL_EFFICIENCY,
) -> Derived:
    """Output tokens/s of one replica of ``gpus`` GPUs serving requests of ``input_tokens`` in and ``output_tokens``
    out, by the rule: **decode is bound by memory bandwidth** (each step reads the weights and every sequence's KV
    cache, at ``bandwidth_efficiency`` of the peak) or, for large batches, by compute (2 FLOPs per parameter and
    token at ``compute_efficiency`` of the dense peak); **prefill is bound by compute** (2 FLOPs per parameter and
    input token at ``prefill_efficiency`` of the dense peak). The batch is the sequences the KV cache holds
    (``KV_CACHE_FRACTION`` of the memory less the weights, each sequence at its mean length, input plus half the
    output), or ``concurrency`` when fewer. A round serves each of the batch's requests its prefill and
    ``output_tokens`` decode steps.
    """
    weights = params_billion * 1e9 * WEIGHT_BYTES_FOR_SERVING[precision]
    flops_per_token = 2 * params_billion * 1e9
    mean_length = input_tokens + output_tokens / 2
    free = gpus * memory_gb * 1e9 * KV_CACHE_FRACTION - weights
    sequences = max(0, int(free / (mean_length * kv_bytes_per_token)))
    batch = min(sequences, concurrency) if concurrency else sequences
    batch = max(batch, 1)
    bandwidth = gpus * bandwidth_tbs * 1e12 * bandwidth_efficiency
    compute = gpus * peak_tflops * 1e12 * compute_efficiency
    step = max((weights + batch * mean_length * kv_bytes_per_token) / bandwidth, batch * flops_per_token / compute)
    prefill = input_tokens * flops_per_token / (gpus * peak_tflops * 1e12 * prefill_efficiency)
    tokens = batch * output_tokens / (batch * prefill + output_tokens * step)
    return Derived(tokens_per_second=tokens, sequences=sequences, step_ms=step * 1e3, prefill_ms=prefill * 1e3)


WEIGHT_BYTES_FOR_SERVING = {"bf16": 2.0, "fp8": 1.0, "int4": 0.5}


def kv_bytes_per_token(params_billion: float, precision: str) -> float:
    """KV cache bytes per token on the nearest Llama 3.1 architecture (sizing.kv_model): K and V per layer and KV
    head, 2 bytes (BF16 cache), or 1 byte with FP8 weights (an FP8 cache, as NVIDIA's FP8 checkpoints serve)."""
    _name, layers, kv_heads, head_dim = kv_model(params_billion)
    return 2 * layers * kv_heads * head_dim * (1.0 if precision == "fp8" else 2.0)


def predict(
    point: MeasuredThroughput, bandwidth_efficiency: float, compute_efficiency: float, prefill_efficiency: float
) -> float:
    """The rule's output tokens/s for a measured point's replica and request shape, at maximum load."""
    gpu = GPU_FACTS[point.gpu_part]
    return derived_throughput(
        params_billion=point.params_billion,
        precision=point.precision,
        gpus=point.gpus,
        memory_gb=gpu[0],
        bandwidth_tbs=MEMORY_BANDWIDTH_TBS[point.gpu_part],
        peak_tflops=gpu[1] if point.precision == "fp8" else gpu[2],
        input_tokens=point.input_tokens,
        output_tokens=point.output_tokens,
        kv_bytes_per_token=kv_bytes_per_token(point.params_billion, point.precision),
        bandwidth_efficiency=bandwidth_efficiency,
        compute_efficiency=compute_efficiency,
        prefill_efficiency=prefill_efficiency,
    ).tokens_per_second


# memory GB, dense FP8 and BF16 TFLOPS of the GPUs with measured points (catalogue facts: NV-DS, GK-H100)
GPU_FACTS = {"HGX-H100-8GPU": (80.0, 1978.9, 989.4), "HGX-H200-8GPU": (141.0, 1978.9, 989.4)}

# NVIDIA's NIM page at saturation (concurrency 150: 920.9 tokens/s), Llama 3.3 70B FP8 on 2 x H100, 5,000/500
NIM_SATURATION = MeasuredThroughput(
    "Llama-3.3-70b-instruct", 70.0, "HGX-H100-8GPU", 2, "fp8", 5000, 500, 920.9, source=NIM_SOURCE
)


def fit_points() -> tuple[MeasuredThroughput, ...]:
    return tuple(p for p in MEASURED_THROUGHPUT if p.gpu_part == FIT_PART)


def held_back_points() -> tuple[MeasuredThroughput, ...]:
    return (*(p for p in MEASURED_THROUGHPUT if p.gpu_part != FIT_PART), NIM_SATURATION)


def log_error(points: tuple[MeasuredThroughput, ...], efficiencies: tuple[float, float, float]) -> float:
    """Mean absolute log ratio of the rule to the measured points (0.1 is about 10 % off)."""
    return sum(abs(math.log(predict(p, *efficiencies) / p.tokens_per_second)) for p in points) / len(points)


EFFICIENCIES = (BANDWIDTH_EFFICIENCY, COMPUTE_EFFICIENCY, PREFILL_EFFICIENCY)


def fit() -> tuple[float, float, float]:
    """The efficiencies (bandwidth, decode compute, prefill; 0.05 steps from 0.1 to 1) that minimise ``log_error``
    on the fitting points."""
    grid = [round(0.05 * i, 2) for i in range(2, 21)]
    points = fit_points()
    return min(((b, c, f) for b in grid for c in grid for f in grid), key=lambda e: log_error(points, e))


def held_back_errors() -> list[tuple[MeasuredThroughput, float, float]]:
    """Each held-back point with the rule's figure and its relative error (rule / measured - 1)."""
    out = []
    for p in held_back_points():
        value = predict(p, *EFFICIENCIES)
        out.append((p, value, value / p.tokens_per_second - 1))
    return out


def median_abs_error() -> float:
    errors = sorted(abs(e) for _p, _v, e in held_back_errors())
    mid = len(errors) // 2
    return errors[mid] if len(errors) % 2 else (errors[mid - 1] + errors[mid]) / 2


DERIVED_RULE = (
    "derived, not measured: decode bound by memory bandwidth (weights and KV cache read each step at 70 % of peak) "
    "or, in large batches, by compute (20 % of the dense peak), prefill by compute (50 %), the batch the KV cache "
    "holds; fitted on "
    "TensorRT-LLM's H100 FP8 rows, checked against its H200 rows and NVIDIA's NIM point held back"
)


def measured_row(
    gpu_part: str, precision: str, params_billion: float, domain: int, context_tokens: int
) -> MeasuredThroughput | None:
    """The TensorRT-LLM row for this GPU part, precision and model size (within 5 %) whose replica fits the NVLink
    domain and whose requests are at least ``context_tokens`` long (a longer request only errs on the safe side): the
    shortest such request, then the one whose output share is nearest the assumed 1 in 11. None without one."""
    rows = [
        p
        for p in MEASURED_THROUGHPUT
        if p.gpu_part == gpu_part
        and p.precision == precision
        and abs(params_billion - p.params_billion) <= SIZE_TOLERANCE * p.params_billion
        and p.gpus <= domain
        and p.input_tokens + p.output_tokens >= context_tokens
    ]
    if not rows:
        return None
    return min(
        rows,
        key=lambda p: (
            p.input_tokens + p.output_tokens,
            abs(p.output_tokens / (p.input_tokens + p.output_tokens) - DERIVED_OUTPUT_SHARE),
        ),
    )
