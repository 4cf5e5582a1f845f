"""Workload sizing: how much GPU memory a model needs, and so how many GPUs and nodes at least.

Pure arithmetic, importable on its own (the wizard calls it while the user types). No Django.

Sizing is advice with stated assumptions. Two figures come out of it:

* the **advised** memory (what a comfortable setup needs: states or weights, plus activations or the KV cache),
  which gives ``min_gpus`` and ``min_nodes``;
* the **physical minimum** (``minimum_gb``): below it the workload cannot run on the design's GPUs at all, with
  the most memory-efficient practical setup. Only this one may be an error.

Bytes per parameter, by mode and precision
------------------------------------------
* **Pre-training and full fine-tuning**, mixed precision with Adam: 2 bytes bf16 weights + 2 bytes gradients +
  12 bytes fp32 optimizer state (master weights, first and second moment) = **16 bytes** (ZeRO paper,
  Rajbhandari et al. 2020, §3.1: "16Ψ bytes" for mixed-precision Adam). That is the physical minimum: fully
  sharded (ZeRO-3 / PyTorch FSDP FULL_SHARD) with activation checkpointing, the states are spread over all GPUs
  and little else remains. The advice adds about 2 bytes per parameter for activations and communication
  buffers: **18 bytes** (the usual range quoted is 16 to 20). FP8 training (NVIDIA Transformer Engine) computes
  in FP8 but keeps the master weights and the optimizer state in higher precision, so the same figures apply.
  Full training in INT4 is not a practical setup; the parser refuses it.
  Published working setup: Llama 2 70B full fine-tuning with FSDP on 2 nodes of 8 x A100 80 GB (Hugging Face,
  "Fine-tuning Llama 2 70B using PyTorch FSDP", 2023): 70B x 16 bytes = 1,120 GB < 16 x 80 GB = 1,280 GB.
* **LoRA**: the frozen base weights at the chosen precision (bf16 2 bytes, fp8 1 byte, int4 0.5 byte: QLoRA,
  Dettmers et al. 2023, who fine-tune a 65B model on one 48 GB GPU) plus the trainable adapters with their
  Adam state. LoRA trains a small fraction of the parameters (Hu et al. 2021: 0.01% for GPT-3 175B); we allow
  1% at 16 bytes, **0.16 bytes per parameter**, and the same 10% of the weights for activations. Physical
  minimum: the weights alone.
* **Inference**: weights at 2 bytes (bf16), 1 byte (fp8) or 0.5 byte (int4) per parameter, plus the KV cache:
  ``2 x layers x kv_heads x head_dim x 2 bytes`` per token (one K and one V tensor per layer; grouped-query
  attention keeps ``kv_heads`` fewer than the query heads; bf16 cache, vLLM's default ``kv_cache_dtype="auto"``)
  times ``context_tokens x concurrency``. The layers, KV heads and head size are those of the Llama 3.1 model of
  the nearest size (model cards and config.json: 8B 32 layers, 70B 80 layers, 405B 126 layers; 8 KV heads and
  head size 128 in all three), stated as an assumption. Physical minimum: the weights alone.

Usable memory: 90% of a GPU's memory (the CUDA context, NCCL buffers and fragmentation take the rest), for the
advice and for the physical minimum alike. So 70B full fine-tuning (1,120 GB of sharded states) runs on
16 x H100 80 GB (1,152 GB usable), as published, but not on one 8 x H200 node (1,015 GB usable).

A model of P billion parameters at B bytes per parameter needs P x B GB (10^9 parameters x B bytes).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, TypedDict

from design.jsontext import JsonObject
from design.vocabulary import DEFAULT_CONTEXT_TOKENS, FULL_TRAINING_MODES, MODES, PRECISIONS, kind_of

KINDS = ("training", "inference")
DEFAULT_PRECISION = "bf16"

WEIGHT_BYTES = {"bf16": 2.0, "fp8": 1.0, "int4": 0.5}
TRAINING_STATE_BYTES = 16.0  # ZeRO §3.1: 2 weights + 2 gradients + 12 fp32 Adam state (mixed precision)
TRAINING_ACTIVATION_BYTES = 2.0  # activations and buffers; 16 + 2 = 18, the middle of the 16-20 range
TRAINING_BYTES_PER_PARAM = TRAINING_STATE_BYTES + TRAINING_ACTIVATION_BYTES
TRAINING_BYTES_RANGE = (16.0, 20.0)
LORA_ADAPTER_BYTES = 0.01 * TRAINING_STATE_BYTES  # 1% trainable parameters with their Adam state
LORA_ACTIVATION_FRACTION = 0.10  # of the weights
KV_BYTES = 2  # bf16 KV cache
DEFAULT_CONCURRENCY = 1
USABLE_MEMORY_FRACTION = 0.90

# Llama 3.1 (Meta model cards / config.json): parameters (billion), layers, KV heads, head size
KV_MODELS = (
    ("Llama 3.1 8B", 8.0, 32, 8, 128),
    ("Llama 3.1 70B", 70.0, 80, 8, 128),
    ("Llama 3.1 405B", 405.0, 126, 8, 128),
)


_EPS = 1e-9  # keeps 126.9/126.9 from becoming 1.0000000001 and ceil-ing to 2


class Assumption(TypedDict):
    """One figure an estimate rests on, with its source, as the sizing's JSON states it."""

    name: str
    value: Any  # a number, a text or a [low, high] range
    source: str


@dataclass(frozen=True, kw_only=True)
class Sizing:
    """The memory a workload needs and the fewest GPUs and nodes that hold it."""

    kind: str
    mode: str
    precision: str
    params_billion: float
    bytes_per_param: float  # advised, without the KV cache
    memory_needed_gb: float  # advised, with the KV cache
    minimum_gb: float  # physical minimum (fully sharded states, or the weights alone), against usable memory
    minimum_bytes_per_param: float
    kv_cache_gb: float
    kv_model: str
    context_tokens: int | None
    concurrency: int | None
    gpu_memory_gb: float
    usable_gb_per_gpu: float
    gpus_per_node: int
    min_gpus: int
    min_nodes: int
    min_gpus_possible: int
    fits_one_gpu: bool
    fits_one_node: bool
    # the design's own plan and time (engines.node.training), set by the workload rules; None: not planned
    parallelism: dict[str, int] | None = None  # {"tensor", "pipeline", "data"}, product = gpus_used
    gpus_used: int | None = None
    nvlink_domain_gpus: int | None = None
    memory_per_gpu_gb: float | None = None  # states + activations (training) or weights + KV cache (inference)
    activations_gb_per_gpu: float | None = None
    activation_checkpointing: bool | None = None
    sharded_states: bool | None = None  # ZeRO-3 / FSDP: every training state sharded over the data-parallel GPUs
    training_days: float | None = None
    gpu_hours: float | None = None
    training_days_range: tuple[float, float] | None = None
    gpu_hours_range: tuple[float, float] | None = None
    training_hours: float | None = None  # the same wall-clock time in hours (a short run reads in hours, never 0 days)
    training_hours_range: tuple[float, float] | None = None
    # training with a target_days: the fewest whole nodes of the design's node shape (and their GPUs) whose estimated
    # time meets it, fewer than the design's own when it is faster than asked; None without a deadline or an estimate
    deadline_gpus: int | None = None
    deadline_nodes: int | None = None
    # inference with a concurrency on a sourced serving benchmark (engines.node.serving); None: not estimated
    replicas_needed: int | None = None  # replicas of the benchmark's shape that serve the concurrency
    gpus_needed: int | None = None  # their GPUs
    tokens_per_second: float | None = None  # what those replicas deliver, an estimate
    # without a matching measured point: the same by the derived rule (serving.derived_throughput), labelled derived
    derived_replicas_needed: int | None = None
    derived_gpus_needed: int | None = None
    derived_tokens_per_second: float | None = None
    assumptions: tuple[Assumption, ...] = ()

    def to_dict(self) -> JsonObject:
        return {
            "kind": self.kind,
            "mode": self.mode,
            "precision": self.precision,
            "params_billion": self.params_billion,
            "bytes_per_param": self.bytes_per_param,
            "memory_needed_gb": round(self.memory_needed_gb, 1),
            "minimum_gb": round(self.minimum_gb, 1),
            "minimum_bytes_per_param": self.minimum_bytes_per_param,
            "kv_cache_gb": round(self.kv_cache_gb, 1),
            "kv_model": self.kv_model,
            "context_tokens": self.context_tokens,
            "concurrency": self.concurrency,
            "gpu_memory_gb": self.gpu_memory_gb,
            "usable_gb_per_gpu": round(self.usable_gb_per_gpu, 1),
            "gpus_per_node": self.gpus_per_node,
            "min_gpus": self.min_gpus,
            "min_nodes": self.min_nodes,
            "min_gpus_possible": self.min_gpus_possible,
            "fits_one_gpu": self.fits_one_gpu,
            "fits_one_node": self.fits_one_node,
            "parallelism": self.parallelism,
            "gpus_used": self.gpus_used,
            "nvlink_domain_gpus": self.nvlink_domain_gpus,
            "memory_per_gpu_gb": _round(self.memory_per_gpu_gb, 1),
            "activations_gb_per_gpu": _round(self.activations_gb_per_gpu, 1),
            "activation_checkpointing": self.activation_checkpointing,
            "sharded_states": self.sharded_states,
            "training_days": _round_small(self.training_days, 1),
            "gpu_hours": _round_small(self.gpu_hours, 0),
            "training_hours": _round_small(self.training_hours, 1),
            "training_hours_range": [_round_small(v, 1) for v in self.training_hours_range]
            if self.training_hours_range
            else None,
            "training_days_range": [_round_small(v, 1) for v in self.training_days_range]
            if self.training_days_range
            else None,
            "gpu_hours_range": [_round_small(v, 0) for v in self.gpu_hours_range] if self.gpu_hours_range else None,
            "deadline_gpus": self.deadline_gpus,
            "deadline_nodes": self.deadline_nodes,
            "replicas_needed": self.replicas_needed,
            "gpus_needed": self.gpus_needed,
            "tokens_per_second": _round(self.tokens_per_second, 0),
            "derived_replicas_needed": self.derived_replicas_needed,
            "derived_gpus_needed": self.derived_gpus_needed,
            "derived_tokens_per_second": _round(self.derived_tokens_per_second, 0),
            "assumptions": [dict(a) for a in self.assumptions],
        }


def _round(value: float | None, digits: int) -> float | None:
    return None if value is None else round(value, digits)


def _round_small(value: float | None, digits: int) -> float | None:
    """``value`` rounded to ``digits`` decimals, but a positive value that would round to 0 keeps two significant
    figures (a 20-minute fine-tune is 0.014 days, never 0)."""
    if value is None:
        return None
    rounded = round(value, digits)
    if rounded == 0 and value > 0:
        return float(f"{value:.2g}")
    return rounded


def default_mode(kind: str) -> str:
    """The mode a workload of ``kind`` has when the design names none."""
    return "inference" if kind == "inference" else "pretraining"


def bytes_per_param(kind: str, mode: str | None = None, precision: str = DEFAULT_PRECISION) -> tuple[float, float]:
    """(advised, physical minimum) bytes of GPU memory per model parameter, without the KV cache."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, not {kind!r}")
    mode = mode or default_mode(kind)
    if mode not in MODES or kind_of(mode) != kind:
        raise ValueError(f"mode {mode!r} does not fit kind {kind!r}")
    if precision not in PRECISIONS:
        raise ValueError(f"precision must be one of {PRECISIONS}, not {precision!r}")
    if mode in FULL_TRAINING_MODES:
        if precision == "int4":
            raise ValueError("full training in int4 is not a practical setup")
        return TRAINING_BYTES_PER_PARAM, TRAINING_STATE_BYTES
    weights = WEIGHT_BYTES[precision]
    if mode == "lora":
        return weights * (1 + LORA_ACTIVATION_FRACTION) + LORA_ADAPTER_BYTES, weights
    return weights, weights


def kv_model(params_billion: float) -> tuple[str, int, int, int]:
    """The Llama 3.1 architecture nearest in size (log scale): name, layers, KV heads, head size."""
    # log(p) - log(m), not log(p / m): a subnormal size (5e-324) would divide to 0
    best = min(KV_MODELS, key=lambda m: abs(math.log(params_billion) - math.log(m[1])))
    return best[0], best[2], best[3], best[4]


def kv_cache_gb(params_billion: float, context_tokens: int, concurrency: int) -> tuple[float, str]:
    """KV cache for ``concurrency`` sequences of ``context_tokens``: 2 x layers x kv_heads x head_dim x bytes per
    token, on the architecture of the nearest Llama 3.1 model (named in the result)."""
    name, layers, kv_heads, head_dim = kv_model(params_billion)
    per_token = 2 * layers * kv_heads * head_dim * KV_BYTES
    return per_token * context_tokens * concurrency / 1e9, name


def size_workload(
    kind: str,
    params_billion: float,
    gpu_memory_gb: float,
    gpus_per_node: int,
    *,
    mode: str | None = None,
    precision: str = DEFAULT_PRECISION,
    context_tokens: int | None = None,
    concurrency: int | None = None,
) -> Sizing:
    """Memory needed, and the minimum GPUs and nodes, for ``params_billion`` on GPUs of ``gpu_memory_gb``.

    Raises ValueError on a bad kind, mode or precision or on non-positive figures; the engine only calls it with
    valid ones.
    """
    if not params_billion > 0 or not gpu_memory_gb > 0 or gpus_per_node < 1:
        raise ValueError("params_billion and gpu_memory_gb must be positive and gpus_per_node at least 1")
    mode = mode or default_mode(kind)
    advised_bpp, minimum_bpp = bytes_per_param(kind, mode, precision)
    kv, kv_name = 0.0, ""
    if mode == "inference":
        context_tokens = context_tokens or DEFAULT_CONTEXT_TOKENS
        concurrency = concurrency or DEFAULT_CONCURRENCY
        kv, kv_name = kv_cache_gb(params_billion, context_tokens, concurrency)
    else:
        context_tokens = concurrency = None
    needed = params_billion * advised_bpp + kv
    minimum = params_billion * minimum_bpp
    usable = gpu_memory_gb * USABLE_MEMORY_FRACTION
    min_gpus = max(1, math.ceil(needed / usable - _EPS))
    min_nodes = max(1, math.ceil(min_gpus / gpus_per_node))
    return Sizing(
        kind=kind,
        mode=mode,
        precision=precision,
        params_billion=params_billion,
        bytes_per_param=advised_bpp,
        memory_needed_gb=needed,
        minimum_gb=minimum,
        minimum_bytes_per_param=minimum_bpp,
        kv_cache_gb=kv,
        kv_model=kv_name,
        context_tokens=context_tokens,
        concurrency=concurrency,
        gpu_memory_gb=gpu_memory_gb,
        usable_gb_per_gpu=usable,
        gpus_per_node=gpus_per_node,
        min_gpus=min_gpus,
        min_nodes=min_nodes,
        min_gpus_possible=max(1, math.ceil(minimum / usable - _EPS)),
        fits_one_gpu=min_gpus == 1,
        fits_one_node=min_gpus <= gpus_per_node,
    )
