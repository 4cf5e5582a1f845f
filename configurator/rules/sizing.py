"""Workload sizing: how much GPU memory a model needs, and so how many GPUs and nodes at least.

Pure arithmetic, importable on its own (the wizard calls it while the user types). No Django.

Bytes per parameter
-------------------
* Training, mixed precision with Adam: 2 bytes fp16/bf16 weights + 2 bytes gradients + 12 bytes of fp32
  optimizer state (master weights, first and second moment) = 16 bytes, plus about 2 bytes for activations
  and communication buffers: **18 bytes per parameter**. The usual range quoted is 16 to 20 bytes; 18 is
  the middle of it (ZeRO paper, Rajbhandari et al. 2020, §3.1: "16Ψ bytes" for mixed-precision Adam).
* Inference: 2 bytes per parameter (fp16/bf16 weights) plus a **20% margin** for KV cache and
  activations: 2.4 bytes per parameter.

Usable memory: 90% of a GPU's memory (the CUDA context, NCCL buffers and fragmentation take the rest).

A model of P billion parameters at B bytes per parameter needs P x B GB (10^9 parameters x B bytes).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

TRAINING_BYTES_PER_PARAM = 18.0  # 16 (weights, grads, fp32 Adam state) + ~2 activations; range 16-20
TRAINING_BYTES_RANGE = (16.0, 20.0)
INFERENCE_BYTES_PER_PARAM = 2.0  # fp16/bf16 weights
INFERENCE_MARGIN = 0.20  # KV cache and activations
USABLE_MEMORY_FRACTION = 0.90
KINDS = ("training", "inference")

_EPS = 1e-9  # keeps 126.9/126.9 from becoming 1.0000000001 and ceil-ing to 2


@dataclass(frozen=True, kw_only=True)
class Sizing:
    """The memory a workload needs and the fewest GPUs and nodes that hold it."""

    kind: str
    params_billion: float
    bytes_per_param: float
    memory_needed_gb: float
    gpu_memory_gb: float
    usable_gb_per_gpu: float
    gpus_per_node: int
    min_gpus: int
    min_nodes: int
    fits_one_gpu: bool
    fits_one_node: bool

    def to_dict(self) -> dict:
        return {
            "kind": self.kind,
            "params_billion": self.params_billion,
            "bytes_per_param": self.bytes_per_param,
            "memory_needed_gb": round(self.memory_needed_gb, 1),
            "gpu_memory_gb": self.gpu_memory_gb,
            "usable_gb_per_gpu": round(self.usable_gb_per_gpu, 1),
            "gpus_per_node": self.gpus_per_node,
            "min_gpus": self.min_gpus,
            "min_nodes": self.min_nodes,
            "fits_one_gpu": self.fits_one_gpu,
            "fits_one_node": self.fits_one_node,
        }


def bytes_per_param(kind: str) -> float:
    """Bytes of GPU memory per model parameter for a workload kind (see the module docstring)."""
    if kind == "training":
        return TRAINING_BYTES_PER_PARAM
    if kind == "inference":
        return INFERENCE_BYTES_PER_PARAM * (1 + INFERENCE_MARGIN)
    raise ValueError(f"kind must be one of {KINDS}, not {kind!r}")


def size_workload(kind: str, params_billion: float, gpu_memory_gb: float, gpus_per_node: int) -> Sizing:
    """Memory needed, and the minimum GPUs and nodes, for ``params_billion`` on GPUs of ``gpu_memory_gb``.

    Raises ValueError on a bad kind or on non-positive figures; the engine only calls it with valid ones.
    """
    if not params_billion > 0 or not gpu_memory_gb > 0 or gpus_per_node < 1:
        raise ValueError("params_billion and gpu_memory_gb must be positive and gpus_per_node at least 1")
    bpp = bytes_per_param(kind)
    needed = params_billion * bpp
    usable = gpu_memory_gb * USABLE_MEMORY_FRACTION
    min_gpus = max(1, math.ceil(needed / usable - _EPS))
    min_nodes = max(1, math.ceil(min_gpus / gpus_per_node))
    return Sizing(
        kind=kind,
        params_billion=params_billion,
        bytes_per_param=bpp,
        memory_needed_gb=needed,
        gpu_memory_gb=gpu_memory_gb,
        usable_gb_per_gpu=usable,
        gpus_per_node=gpus_per_node,
        min_gpus=min_gpus,
        min_nodes=min_nodes,
        fits_one_gpu=min_gpus == 1,
        fits_one_node=min_gpus <= gpus_per_node,
    )
