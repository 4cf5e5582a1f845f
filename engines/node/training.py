"""Time to train and the parallelism plan: how long a run takes on the design's GPUs, and how the model is split.

Pure arithmetic beside sizing.py (memory). No Django.

Parallelism plan
----------------
Tensor parallelism (``tensor``) stays inside one NVLink domain: 8 GPUs on an HGX board, 72 in an NVL72 rack, 2 or
4 bridged PCIe cards, 1 without NVLink (Megatron-LM, Narayanan et al. 2021: "tensor model parallelism within a
multi-GPU server, pipeline model parallelism across servers"). Pipeline parallelism (``pipeline``) splits the layers
over domains once tensor parallelism fills one, data parallelism (``data``) takes the rest: replicas of the model,
for training with the Adam state sharded over them (ZeRO-1), or fully sharded states (ZeRO-3 / FSDP) where memory
needs it. The product of the three is the GPUs used, never more than the design has. The plan takes the smallest
tensor degree that fits, then the fewest pipeline stages: every extra degree costs communication.

Memory per GPU in training (full training modes): bf16 weights and gradients (4 bytes per parameter) over
``tensor x pipeline``, fp32 Adam state (12 bytes) over ``tensor x pipeline x data`` (ZeRO-1), or all 16 bytes over
every GPU (ZeRO-3); plus the activations. Activations per layer, with sequence parallelism and a fused (flash)
attention that never stores the score matrix: ``34 x s x b x h / tensor`` bytes (Korthikanti et al. 2022,
"Reducing Activation Recomputation in Large Transformer Models", Table 2, without the ``5as/h`` term flash attention
removes), for sequence ``s`` = 8,192 tokens (Llama 3 pre-training's context) and micro-batch ``b`` = 1. With the
1F1B pipeline schedule the first stage holds the activations of ``pipeline`` micro-batches of ``layers / pipeline``
layers, so about all ``layers`` of them (same paper, §4.2.3). Where that does not fit, full activation checkpointing
keeps only each layer's input (``2 x s x b x h / tensor`` bytes per layer) and recomputes the rest: the forward pass
runs twice, a third more compute (8 instead of 6 FLOPs per parameter and token).

Time to train
-------------
Model FLOPs per token: ``6 N + 12 x layers x h x s`` (Kaplan et al. 2020; the attention term as PaLM counts it,
Chowdhery et al. 2022, Appendix B). LoRA skips the weight gradients of the frozen model: ``4 N + 8 x layers x h x s``.
Time = tokens x FLOPs per token x (4/3 with checkpointing) / (GPUs x peak dense TFLOPS x MFU). The peak is NVIDIA's
dense tensor-core figure per GPU (a catalogue fact). The model-FLOPs utilisation (MFU) is 35 %, with an uncertainty
of 30 to 43 %: Meta measured 38 to 43 % BF16 MFU pre-training Llama 3 405B on 8,192 to 16,384 H100 GPUs (Dubey et
al. 2024, "The Llama 3 Herd of Models", Table 4: 430, 400 and 380 TFLOPS per GPU of 989); the whole published runs
(Llama 3.1 model card: 7.0 M H100 GPU-hours for 70B and 30.84 M for 405B, on about 15.6 T tokens) come to 30 and
37 %, restarts and the long-context stage included. Blackwell GPUs get the same band in BF16: no published BF16
run of a dense model on them was found.

Precision and generation (``utilisation``): each estimate names the peak it divides by and the MFU it assumes.

* **FP8** (the workload's ``precision``; FP8 training or LoRA on FP8 weights) runs at the GPU's dense FP8 peak with an
  MFU of 40 %, 32 to 50 %: NVIDIA's Megatron-Bridge performance summary (25.11 container) measures Llama 3 8B, 70B and
  405B FP8 pre-training at 36 to 40 % of the FP8 peak on H100 (744, 719, 737 model TFLOPS), 35 to 37 % on B200
  (1,576, 1,667), 32 to 41 % on GB200 (1,622, 1,937, 2,053) and 39 to 50 % on GB300 (1,933, 2,030, 2,522); counted
  with this module's FLOPs per token, MLPerf Training v6.0 runs come to 43 % (H200, Llama 3.1 8B) and 48 % (B300,
  the FP8 steps of Llama 2 70B LoRA). A GPU without an FP8 peak (A100) trains at its BF16 peak and BF16 MFU.
* **Ampere (A100)** in BF16 reaches more of its lower peak: 45 %, 40 to 52 % (Llama 1 65B, 380 tokens/s per
  A100 80 GB, about 48 %; BLOOM 176B, 150 TFLOPS of 312; OPT-175B, 147 TFLOPS of 312). Llama 2's published GPU-hours
  (7B to 70B on 2 T tokens) land within x0.98 to x1.14 of it.
* Everything else (Hopper and Blackwell in BF16, INT4 weights under LoRA, computed in BF16): 35 %, 30 to 43 %.

The golden cases in tests/engines/node/test_training_golden.py check one published run per GPU family against this.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from design.vocabulary import FULL_TRAINING_MODES

from .sizing import TRAINING_STATE_BYTES, USABLE_MEMORY_FRACTION, WEIGHT_BYTES, kv_model

MFU = 0.35
MFU_RANGE = (0.30, 0.43)
TRAINING_SEQUENCE_TOKENS = 8192  # Llama 3 pre-training context (Dubey et al. 2024, §3.4)
MICRO_BATCH = 1
ACTIVATION_BYTES_PER_LAYER = 34  # x s x b x h / tensor: Korthikanti et al. 2022, with sequence parallelism
CHECKPOINT_BYTES_PER_LAYER = 2  # x s x b x h / tensor: the layer input kept under full recomputation
RECOMPUTE_FACTOR = 8 / 6  # full recomputation runs the forward pass twice
WEIGHT_GRAD_BYTES = 4.0  # bf16 weights + gradients
ADAM_BYTES = TRAINING_STATE_BYTES - WEIGHT_GRAD_BYTES  # fp32 master weights and two moments
HIDDEN = {"Llama 3.1 8B": 4096, "Llama 3.1 70B": 8192, "Llama 3.1 405B": 16384}  # config.json hidden_size
MAX_PIPELINE = 128
MAX_DEADLINE_NODES = 2**50  # bounds the search; a plan's GPUs grow with the nodes, so it ends far sooner

AMPERE_MFU = 0.45
AMPERE_MFU_RANGE = (0.40, 0.52)
FP8_MFU = 0.40
FP8_MFU_RANGE = (0.32, 0.50)
AMPERE = "Ampere"

MFU_SOURCE = (
    "Dubey et al. 2024, The Llama 3 Herd of Models, Table 4: 38-43 % BF16 MFU on 8,192-16,384 H100; "
    "Llama 3.1 model card GPU-hours (7.0 M for 70B, 30.84 M for 405B) imply 30-37 % for the whole runs"
)
AMPERE_MFU_SOURCE = (
    "Touvron et al. 2023, LLaMA, 380 tokens/s per A100 80 GB for 65B (about 48 %); BigScience BLOOM 176B, 150 TFLOPS "
    "per A100 of 312; Zhang et al. 2022, OPT-175B, 147 TFLOPS per A100"
)
FP8_MFU_SOURCE = (
    "NVIDIA Megatron-Bridge performance summary, 25.11 container: Llama 3 FP8 pre-training at 36-40 % of the FP8 "
    "peak on H100, 35-37 % on B200, 32-41 % on GB200, 39-50 % on GB300; MLPerf Training v6.0 (Cisco): 43 % on H200 "
    "(Llama 3.1 8B), 48 % on B300 (FP8 steps of Llama 2 70B LoRA)"
)
FLOPS_SOURCE = "Kaplan et al. 2020 (6 N per token); attention term as in PaLM, Chowdhery et al. 2022, Appendix B"
ACTIVATION_SOURCE = "Korthikanti et al. 2022, Reducing Activation Recomputation in Large Transformer Models"
SEQUENCE_SOURCE = "Dubey et al. 2024, Llama 3 pre-training at 8,192 tokens"


@dataclass(frozen=True, kw_only=True)
class Plan:
    """How the model is split over the GPUs: degrees whose product is ``gpus``, and the memory per GPU it leaves."""

    tensor: int
    pipeline: int
    data: int
    states_gb_per_gpu: float  # weights (and for training gradients and Adam state) per GPU
    activations_gb_per_gpu: float  # training: activations; inference: the KV cache share
    usable_gb_per_gpu: float
    zero3: bool = False  # training: every state sharded over the data-parallel GPUs too
    checkpointing: bool = False  # training: full activation recomputation

    @property
    def gpus(self) -> int:
        return self.tensor * self.pipeline * self.data

    @property
    def memory_gb_per_gpu(self) -> float:
        return self.states_gb_per_gpu + self.activations_gb_per_gpu

    def degrees(self) -> dict[str, int]:
        return {"tensor": self.tensor, "pipeline": self.pipeline, "data": self.data}


def _powers_of_two(limit: int) -> list[int]:
    out, t = [], 1
    while t <= limit:
        out.append(t)
        t *= 2
    return out


def training_memory(
    params_billion: float, layers: int, hidden: int, t: int, p: int, d: int, zero3: bool, ckpt: bool
) -> tuple[float, float]:
    """(states, activations) GB per GPU of a training plan."""
    if zero3:
        states = params_billion * TRAINING_STATE_BYTES / (t * p * d)
    else:
        states = params_billion * WEIGHT_GRAD_BYTES / (t * p) + params_billion * ADAM_BYTES / (t * p * d)
    sbh = TRAINING_SEQUENCE_TOKENS * MICRO_BATCH * hidden
    if ckpt:
        act = (layers * CHECKPOINT_BYTES_PER_LAYER + ACTIVATION_BYTES_PER_LAYER) * sbh / t
    else:
        act = layers * ACTIVATION_BYTES_PER_LAYER * sbh / t
    return states, act / 1e9


def plan_training(params_billion: float, gpus: int, domain: int, gpu_memory_gb: float) -> Plan | None:
    """The cheapest training plan that fits ``gpus`` GPUs with NVLink domains of ``domain`` (module docstring), or
    None when even fully sharded with checkpointing it does not fit."""
    name, layers, _kv, _hd = kv_model(params_billion)
    hidden = HIDDEN[name]
    usable = gpu_memory_gb * USABLE_MEMORY_FRACTION
    tensors = _powers_of_two(min(domain, gpus))
    for ckpt in (False, True):
        for zero3 in (False, True):
            for t in tensors:
                for p in range(1, (MAX_PIPELINE if t == tensors[-1] else 1) + 1):
                    if t * p > gpus:
                        break
                    d = gpus // (t * p)
                    states, act = training_memory(params_billion, layers, hidden, t, p, d, zero3, ckpt)
                    if states + act <= usable:
                        return Plan(
                            tensor=t,
                            pipeline=p,
                            data=d,
                            states_gb_per_gpu=states,
                            activations_gb_per_gpu=act,
                            usable_gb_per_gpu=usable,
                            zero3=zero3,
                            checkpointing=ckpt,
                        )
    return None


def plan_inference(weights_gb: float, kv_gb: float, gpus: int, domain: int, gpu_memory_gb: float) -> Plan | None:
    """Inference: the smallest tensor degree inside one NVLink domain that holds the weights and the KV cache; where
    one domain cannot, pipeline stages over further domains. The remaining GPUs serve independent replicas
    (``data``), which exchange nothing. None when the design's GPUs cannot hold one copy."""
    usable = gpu_memory_gb * USABLE_MEMORY_FRACTION
    tensors = _powers_of_two(min(domain, gpus))
    for t in tensors:
        for p in range(1, (MAX_PIPELINE if t == tensors[-1] else 1) + 1):
            if t * p > gpus:
                break
            if (weights_gb + kv_gb) / (t * p) <= usable:
                return Plan(
                    tensor=t,
                    pipeline=p,
                    data=gpus // (t * p),
                    states_gb_per_gpu=weights_gb / (t * p),
                    activations_gb_per_gpu=kv_gb / (t * p),
                    usable_gb_per_gpu=usable,
                )
    return None


def flops_per_token(params_billion: float, mode: str) -> tuple[float, str]:
    """Model FLOPs per trained token (module docstring) and the architecture whose layers and width it counts."""
    name, layers, _kv, _hd = kv_model(params_billion)
    attention = 12 * layers * HIDDEN[name] * TRAINING_SEQUENCE_TOKENS
    if mode in FULL_TRAINING_MODES:
        return 6 * params_billion * 1e9 + attention, name
    return 4 * params_billion * 1e9 + attention * 2 / 3, name


@dataclass(frozen=True, kw_only=True)
class Utilisation:
    """The peak an estimate divides by (its precision and TFLOPS per GPU) and the MFU, with its range and source."""

    precision: str  # "bf16" or "fp8": the tensor-core peak used
    peak_tflops: float
    mfu: float
    mfu_range: tuple[float, float]
    source: str


def utilisation(
    precision: str, generation: str, bf16_tflops: float | None, fp8_tflops: float | None
) -> Utilisation | None:
    """The peak and MFU for training at the workload's ``precision`` on a GPU of ``generation`` with these dense peaks
    (module docstring); None when the peak it needs is not sourced."""
    if precision == "fp8" and fp8_tflops:
        return Utilisation(
            precision="fp8", peak_tflops=fp8_tflops, mfu=FP8_MFU, mfu_range=FP8_MFU_RANGE, source=FP8_MFU_SOURCE
        )
    if not bf16_tflops:
        return None
    if generation == AMPERE:
        return Utilisation(
            precision="bf16",
            peak_tflops=bf16_tflops,
            mfu=AMPERE_MFU,
            mfu_range=AMPERE_MFU_RANGE,
            source=AMPERE_MFU_SOURCE,
        )
    return Utilisation(precision="bf16", peak_tflops=bf16_tflops, mfu=MFU, mfu_range=MFU_RANGE, source=MFU_SOURCE)


@dataclass(frozen=True, kw_only=True)
class TrainingTime:
    """The estimated time to train: days and GPU-hours at the central MFU, and the range over its uncertainty."""

    tokens_billion: float
    gpus: int
    flops_per_token: float
    architecture: str
    peak_tflops: float
    peak_precision: str
    checkpointing: bool
    gpu_hours: float
    days: float
    gpu_hours_range: tuple[float, float]
    days_range: tuple[float, float]
    mfu: float = MFU
    mfu_range: tuple[float, float] = MFU_RANGE

    @property
    def hours(self) -> float:
        """Wall-clock hours of the run (short runs are said in hours, never as 0 days)."""
        return self.days * 24

    @property
    def hours_range(self) -> tuple[float, float]:
        return self.days_range[0] * 24, self.days_range[1] * 24


def training_time(
    *,
    tokens_billion: float,
    params_billion: float,
    mode: str,
    gpus: int,
    peak_tflops: float,
    peak_precision: str,
    checkpointing: bool,
    mfu: float = MFU,
    mfu_range: tuple[float, float] = MFU_RANGE,
) -> TrainingTime:
    """Days and GPU-hours to train ``tokens_billion`` tokens on ``gpus`` GPUs of ``peak_tflops`` dense (at
    ``peak_precision``), at ``mfu`` with the run's uncertainty ``mfu_range`` (``utilisation`` gives both)."""
    per_token, arch = flops_per_token(params_billion, mode)
    total = tokens_billion * 1e9 * per_token * (RECOMPUTE_FACTOR if checkpointing else 1.0)

    def hours(rate: float) -> float:
        return total / (peak_tflops * 1e12 * rate) / 3600

    gpu_hours = hours(mfu)
    low, high = hours(mfu_range[1]), hours(mfu_range[0])
    return TrainingTime(
        tokens_billion=tokens_billion,
        gpus=gpus,
        flops_per_token=per_token,
        architecture=arch,
        peak_tflops=peak_tflops,
        peak_precision=peak_precision,
        checkpointing=checkpointing,
        gpu_hours=gpu_hours,
        days=gpu_hours / gpus / 24,
        gpu_hours_range=(low, high),
        days_range=(low / gpus / 24, high / gpus / 24),
        mfu=mfu,
        mfu_range=mfu_range,
    )


def gpus_for_deadline(
    *, target_days: float, days_at: Callable[[int], float], gpus_now: int, per_node: int, least_gpu_hours: float
) -> int:
    """The fewest whole nodes' GPUs whose estimated time is within ``target_days``; ``days_at(gpus)`` gives the
    days with that many GPUs, re-planned (checkpointing can drop out, and a plan may leave a few GPUs unused);
    ``least_gpu_hours`` (the run without checkpointing on every GPU) bounds the search from below."""

    def meets(nodes: int) -> bool:
        return days_at(nodes * per_node) <= target_days

    bound = least_gpu_hours / (target_days * 24) / per_node
    if not math.isfinite(bound) or bound > MAX_DEADLINE_NODES:
        return (MAX_DEADLINE_NODES + 1) * per_node  # beyond any cluster (a deadline of a split second)
    floor = math.ceil(bound)
    lo = max(1, math.ceil(gpus_now / per_node), floor)
    hi = lo
    while not meets(hi):  # a few doublings: checkpointing costs at most RECOMPUTE_FACTOR over the floor
        if hi > MAX_DEADLINE_NODES:
            return hi * per_node  # beyond any cluster: the figure only says "far more"
        lo, hi = hi + 1, hi * 2
    while lo < hi:
        mid = (lo + hi) // 2
        if meets(mid):
            hi = mid
        else:
            lo = mid + 1
    return lo * per_node


def inference_weights_gb(params_billion: float, precision: str) -> float:
    return params_billion * WEIGHT_BYTES[precision]
