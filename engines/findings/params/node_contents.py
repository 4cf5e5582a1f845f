"""The parameters of the CPU, memory and drive findings (``messages.node_contents``), one per code."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, TypedDict

from ..codes import Code
from .base import Params


class AddedPart(TypedDict):
    """A part the service edge added to a node that the design left without it."""

    part: str
    quantity: int
    role: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class DriveM2Slots(Params):
    CODE: ClassVar[str] = Code.DRIVE_M2_SLOTS

    server: str
    drives: int
    slots: int


@dataclass(frozen=True, slots=True, kw_only=True)
class DriveNoBay(Params):
    CODE: ClassVar[str] = Code.DRIVE_NO_BAY

    server: str
    form: str
    interface: str
    drives: int
    bays: int
    server_bays: list[str]


@dataclass(frozen=True, slots=True, kw_only=True)
class MemoryBelowReference(Params):
    CODE: ClassVar[str] = Code.MEMORY_BELOW_REFERENCE

    server: str
    system_gb: int
    gpu_gb: int
    needed_gb: int
    ratio: float
    ref_system: str
    ref_ratio: float
    ref_source: str


@dataclass(frozen=True, slots=True, kw_only=True)
class MemoryDownclocked(Params):
    CODE: ClassVar[str] = Code.MEMORY_DOWNCLOCKED

    server: str
    part: str
    dimm_mts: int
    runs_mts: int
    cpu: str | None
    two_per_channel: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class MemoryMixed(Params):
    CODE: ClassVar[str] = Code.MEMORY_MIXED

    server: str
    parts: list[str]


@dataclass(frozen=True, slots=True, kw_only=True)
class MemoryTooMany(Params):
    CODE: ClassVar[str] = Code.MEMORY_TOO_MANY

    server: str
    dimms: int
    slots: int
    part: str


@dataclass(frozen=True, slots=True, kw_only=True)
class MemoryTwoPerChannel(Params):
    CODE: ClassVar[str] = Code.MEMORY_TWO_PER_CHANNEL

    server: str
    dimms: int
    channels: int
    speed_1dpc: int | None
    speed_2dpc: int | None
    drop_pct: int | None
    cpu: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class MemoryUnbalanced(Params):
    CODE: ClassVar[str] = Code.MEMORY_UNBALANCED

    server: str
    dimms: int
    channels: int
    sockets: int
    options: list[int]
    part: str


@dataclass(frozen=True, slots=True, kw_only=True)
class NodeCpuCount(Params):
    CODE: ClassVar[str] = Code.NODE_CPU_COUNT

    server: str
    sockets: int
    cpus: int
    part: str


@dataclass(frozen=True, slots=True, kw_only=True)
class NodeCpuMixed(Params):
    CODE: ClassVar[str] = Code.NODE_CPU_MIXED

    server: str
    parts: list[str]


@dataclass(frozen=True, slots=True, kw_only=True)
class NodeCpuNotAccepted(Params):
    CODE: ClassVar[str] = Code.NODE_CPU_NOT_ACCEPTED

    server: str
    part: str
    socket: str
    family: str
    server_socket: str
    families: list[str]
    suggestion: str | None
    vendor: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class NodeCpuSocketEmpty(Params):
    CODE: ClassVar[str] = Code.NODE_CPU_SOCKET_EMPTY

    server: str
    sockets: int
    cpus: int
    part: str


@dataclass(frozen=True, slots=True, kw_only=True)
class NodeCpuSocketEmptyHgx(Params):
    CODE: ClassVar[str] = Code.NODE_CPU_SOCKET_EMPTY_HGX

    server: str
    sockets: int
    cpus: int
    part: str


@dataclass(frozen=True, slots=True, kw_only=True)
class NodeCpuTdp(Params):
    CODE: ClassVar[str] = Code.NODE_CPU_TDP

    server: str
    part: str
    tdp_w: int
    limit_w: int


@dataclass(frozen=True, slots=True, kw_only=True)
class NodeCpuTdpUnknown(Params):
    CODE: ClassVar[str] = Code.NODE_CPU_TDP_UNKNOWN

    server: str
    parts: list[str]
    limit_w: int


@dataclass(frozen=True, slots=True, kw_only=True)
class NodeCpuUnverified(Params):
    CODE: ClassVar[str] = Code.NODE_CPU_UNVERIFIED

    server: str
    part: str
    socket: str
    family: str
    server_socket: str
    families: list[str]
    suggestion: str | None
    vendor: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class NodeDefaultsAdded(Params):
    CODE: ClassVar[str] = Code.NODE_DEFAULTS_ADDED

    server: str
    added: list[AddedPart]


@dataclass(frozen=True, slots=True, kw_only=True)
class NodeIncomplete(Params):
    CODE: ClassVar[str] = Code.NODE_INCOMPLETE

    server: str
    missing: list[str]
