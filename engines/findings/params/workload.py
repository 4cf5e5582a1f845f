"""The parameters of the workload sizing and advice findings (``messages.workload``), one class per
code. The sizing findings share the workload's sizing and parallelism plan (``SizingParams``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, NotRequired, TypedDict

from ..codes import Code
from .base import Params


class SizingFields(TypedDict):
    """The fields of ``SizingParams``, built once per design and shared by the sizing findings."""

    kind: str
    mode: str
    precision: str
    params_billion: float
    bytes_per_param: float
    memory_needed_gb: float
    minimum_gb: float
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
    model_parameters_billion: float
    need_gb: float
    usable_gb: float
    per_node: int
    nvlink: bool
    domain: int
    planned: bool
    tp: int | None
    pp: int | None
    dp: int | None
    gpus_used: int | None
    zero3: NotRequired[bool | None]


@dataclass(frozen=True, slots=True, kw_only=True)
class SizingParams(Params):
    """The workload's sizing against the design's GPUs and its parallelism plan (no code of its own)."""

    kind: str
    mode: str
    precision: str
    params_billion: float
    bytes_per_param: float
    memory_needed_gb: float
    minimum_gb: float
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
    model_parameters_billion: float
    need_gb: float
    usable_gb: float
    per_node: int
    nvlink: bool
    domain: int
    planned: bool
    tp: int | None
    pp: int | None
    dp: int | None
    gpus_used: int | None
    zero3: bool | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class WorkloadTensorParallel(SizingParams):
    CODE: ClassVar[str] = Code.WORKLOAD_TENSOR_PARALLEL


@dataclass(frozen=True, slots=True, kw_only=True)
class WorkloadSpansNodes(SizingParams):
    CODE: ClassVar[str] = Code.WORKLOAD_SPANS_NODES


@dataclass(frozen=True, slots=True, kw_only=True)
class WorkloadActivationCheckpointing(SizingParams):
    CODE: ClassVar[str] = Code.WORKLOAD_ACTIVATION_CHECKPOINTING

    states_gb: float
    activations_gb: float
    checkpointed_gb: float


@dataclass(frozen=True, slots=True, kw_only=True)
class WorkloadMemoryTight(SizingParams):
    CODE: ClassVar[str] = Code.WORKLOAD_MEMORY_TIGHT

    total_gpus: int
    gpu_nodes: int
    total_gb: float


@dataclass(frozen=True, slots=True, kw_only=True)
class WorkloadNotEnoughGpus(SizingParams):
    CODE: ClassVar[str] = Code.WORKLOAD_NOT_ENOUGH_GPUS

    total_gpus: int
    gpu_nodes: int
    total_gb: float


@dataclass(frozen=True, slots=True, kw_only=True)
class WorkloadReplicas(SizingParams):
    CODE: ClassVar[str] = Code.WORKLOAD_REPLICAS

    estimated: bool
    model: str | None = None
    point_gpus: int | None = None
    point_gpu: str | None = None
    point_precision: str | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    per_replica: int | None = None
    ttft_ms: float | None = None
    replicas_needed: int | None = None
    gpus_needed: int | None = None
    tokens_per_second: float | None = None
    design_replicas: int | None = None
    total_gpus: int | None = None
    source_key: str | None = None
    reason: str | None = None
    point_context: int | None = None
    derived: bool | None = None
    derived_replicas: int | None = None
    derived_tp: int | None = None
    derived_gpus: int | None = None
    derived_tps: float | None = None
    derived_error: float | None = None
    measured_tps: float | None = None
    measured_model: str | None = None
    measured_gpus: int | None = None
    measured_input: int | None = None
    measured_output: int | None = None


class MeasuredFields(TypedDict, total=False):
    """The measured row beside a derived replica estimate (``measured_tps`` None: no row matches)."""

    measured_tps: float | None
    measured_model: str
    measured_gpus: int
    measured_input: int
    measured_output: int


class DerivedFields(MeasuredFields, total=False):
    """A replica estimate by the derived rule (``derived`` False: none could be made)."""

    derived: bool
    derived_replicas: int
    derived_tp: int
    derived_gpus: int
    derived_tps: float
    derived_error: float


class ReplicaFields(TypedDict):
    """A replica estimate from a measured point, as WORKLOAD_REPLICAS and WORKLOAD_REPLICAS_SHORT say it."""

    estimated: bool
    model: str
    point_gpus: int
    point_gpu: str
    point_precision: str
    input_tokens: int
    output_tokens: int
    per_replica: int
    ttft_ms: float
    replicas_needed: int
    gpus_needed: int
    tokens_per_second: float
    design_replicas: int
    total_gpus: int
    source_key: str


@dataclass(frozen=True, slots=True, kw_only=True)
class WorkloadReplicasShort(SizingParams):
    CODE: ClassVar[str] = Code.WORKLOAD_REPLICAS_SHORT

    estimated: bool
    model: str
    point_gpus: int
    point_gpu: str
    point_precision: str
    input_tokens: int
    output_tokens: int
    per_replica: int
    ttft_ms: float
    replicas_needed: int
    gpus_needed: int
    tokens_per_second: float
    design_replicas: int
    total_gpus: int
    source_key: str
    nodes_needed: int


@dataclass(frozen=True, slots=True, kw_only=True)
class FabricAdvised(Params):
    CODE: ClassVar[str] = Code.FABRIC_ADVISED

    nodes: int
    compute_nics: int


@dataclass(frozen=True, slots=True, kw_only=True)
class FabricNotNeededReplicas(Params):
    CODE: ClassVar[str] = Code.FABRIC_NOT_NEEDED_REPLICAS

    nodes: int
    replicas: int
    tp: int
    domain: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class FabricOptionalIndependentJobs(Params):
    CODE: ClassVar[str] = Code.FABRIC_OPTIONAL_INDEPENDENT_JOBS

    nodes: int
    compute_nics: int


@dataclass(frozen=True, slots=True, kw_only=True)
class NicFewerThanGpus(Params):
    CODE: ClassVar[str] = Code.NIC_FEWER_THAN_GPUS

    gpus: int
    nics: int
    nic_gbps: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class NicMissing(Params):
    CODE: ClassVar[str] = Code.NIC_MISSING

    gpus: int
    nics: int
    group: str


@dataclass(frozen=True, slots=True, kw_only=True)
class NicNotNeeded(Params):
    CODE: ClassVar[str] = Code.NIC_NOT_NEEDED

    nics: int
    saving_eur: float | None


@dataclass(frozen=True, slots=True, kw_only=True)
class NvlinkNotNeeded(Params):
    CODE: ClassVar[str] = Code.NVLINK_NOT_NEEDED

    boards: list[str]
    inference: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class RoceLossless(Params):
    CODE: ClassVar[str] = Code.ROCE_LOSSLESS

    switch: str
    generation: str
    not_spectrum_x: list[str]
    plane_balancing: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class WorkloadDeadlineMissed(Params):
    CODE: ClassVar[str] = Code.WORKLOAD_DEADLINE_MISSED

    tokens_billion: float
    days: float
    days_low: float
    days_high: float
    hours: float
    hours_low: float
    hours_high: float
    gpu_hours: float
    gpus: int
    gpu: str
    peak_tflops: float
    peak_precision: str
    precision: str
    mfu: float
    mfu_low: float
    mfu_high: float
    checkpointing: bool
    target_days: float | None
    gpus_needed: int
    nodes_needed: int
    per_node: int


@dataclass(frozen=True, slots=True, kw_only=True)
class WorkloadNeedsFabric(Params):
    CODE: ClassVar[str] = Code.WORKLOAD_NEEDS_FABRIC

    min_nodes: int
    nodes: int


@dataclass(frozen=True, slots=True, kw_only=True)
class WorkloadNotSized(Params):
    CODE: ClassVar[str] = Code.WORKLOAD_NOT_SIZED


@dataclass(frozen=True, slots=True, kw_only=True)
class WorkloadNvlinkBandwidth(Params):
    CODE: ClassVar[str] = Code.WORKLOAD_NVLINK_BANDWIDTH

    nvlink_gbps: int | None
    gpu: str
    model_parameters_billion: float
    tp: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class WorkloadTimeNotEstimated(Params):
    CODE: ClassVar[str] = Code.WORKLOAD_TIME_NOT_ESTIMATED

    reason: str
    gpu: str | None = None
    target_days: float | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class WorkloadTrainingTime(Params):
    CODE: ClassVar[str] = Code.WORKLOAD_TRAINING_TIME

    tokens_billion: float
    days: float
    days_low: float
    days_high: float
    hours: float
    hours_low: float
    hours_high: float
    gpu_hours: float
    gpus: int
    gpu: str
    peak_tflops: float
    peak_precision: str
    precision: str
    mfu: float
    mfu_low: float
    mfu_high: float
    checkpointing: bool
    target_days: float | None
