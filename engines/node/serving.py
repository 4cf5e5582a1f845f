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
output tokens; a shorter context only errs on the safe side. Anything else (H200, B200, other sizes, BF16, longer
contexts) gets no estimate: the throughput stays unknown, visibly. Between two measured levels the throughput is
interpolated linearly; it is never extrapolated beyond the measured levels.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

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
