"""The parameters of the parts, GPU and NVLink findings (``messages.nodes``), one class per code."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..codes import Code
from .base import Params


@dataclass(frozen=True, slots=True, kw_only=True)
class GpuCompatibilityUnknown(Params):
    CODE: ClassVar[str] = Code.GPU_COMPATIBILITY_UNKNOWN

    server: str
    gpu: str


@dataclass(frozen=True, slots=True, kw_only=True)
class GpuCompatibilityUnverified(Params):
    CODE: ClassVar[str] = Code.GPU_COMPATIBILITY_UNVERIFIED

    server: str
    gpu: str
    accepts: list[str]


@dataclass(frozen=True, slots=True, kw_only=True)
class GpuMixedModels(Params):
    CODE: ClassVar[str] = Code.GPU_MIXED_MODELS

    models: list[str]


@dataclass(frozen=True, slots=True, kw_only=True)
class GpuNone(Params):
    CODE: ClassVar[str] = Code.GPU_NONE

    server: str
    accepts: list[str]


@dataclass(frozen=True, slots=True, kw_only=True)
class GpuNotAccepted(Params):
    CODE: ClassVar[str] = Code.GPU_NOT_ACCEPTED

    server: str
    gpu: str
    accepts: list[str]
    reason: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class GpuTooMany(Params):
    CODE: ClassVar[str] = Code.GPU_TOO_MANY

    server: str
    cards: int | None = None
    max_cards: int | None = None
    boards: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class NvlinkBridgeCrossSocket(Params):
    CODE: ClassVar[str] = Code.NVLINK_BRIDGE_CROSS_SOCKET

    per_socket: dict[str, int]  # CPU socket (its number as a string) -> bridges
    bridges: int
    cross: int
    ways: int


@dataclass(frozen=True, slots=True, kw_only=True)
class NvlinkBridgePartial(Params):
    CODE: ClassVar[str] = Code.NVLINK_BRIDGE_PARTIAL

    joined: int
    gpus: int


@dataclass(frozen=True, slots=True, kw_only=True)
class NvlinkBridgeSize(Params):
    CODE: ClassVar[str] = Code.NVLINK_BRIDGE_SIZE

    bridge: str
    gpu: str
    ways: int
    supported: list[int]


@dataclass(frozen=True, slots=True, kw_only=True)
class NvlinkBridgeTooMany(Params):
    CODE: ClassVar[str] = Code.NVLINK_BRIDGE_TOO_MANY

    sets: int
    joined: int
    gpus: int


@dataclass(frozen=True, slots=True, kw_only=True)
class NvlinkBridgeUnsupported(Params):
    CODE: ClassVar[str] = Code.NVLINK_BRIDGE_UNSUPPORTED

    bridge: str
    gpu: str | None = None
    reason: str
    bridgeable: list[str] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class NvlinkNoNvswitch(Params):
    CODE: ClassVar[str] = Code.NVLINK_NO_NVSWITCH

    gpus: int
    bridge_ways: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class NvlinkNvswitchUnknown(Params):
    CODE: ClassVar[str] = Code.NVLINK_NVSWITCH_UNKNOWN

    gpu: str


@dataclass(frozen=True, slots=True, kw_only=True)
class PartDiscontinued(Params):
    CODE: ClassVar[str] = Code.PART_DISCONTINUED

    part: str
    lifecycle: str
    replacement: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class PartUnknown(Params):
    CODE: ClassVar[str] = Code.PART_UNKNOWN

    part: str
    field: str


@dataclass(frozen=True, slots=True, kw_only=True)
class PartWrongCategory(Params):
    CODE: ClassVar[str] = Code.PART_WRONG_CATEGORY

    part: str
    category: str
    field: str
    belongs: str | None
    belongs_in: str | None
