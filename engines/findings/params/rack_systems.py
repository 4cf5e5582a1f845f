"""The parameters of the rack-scale NVLink system findings (``messages.rack_systems``), one per code."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..codes import Code
from ..fabric_codes import FabricCode
from .base import Params


@dataclass(frozen=True, slots=True, kw_only=True)
class FabricRackScaleOneRack(Params):
    CODE: ClassVar[str] = FabricCode.RACK_SCALE_ONE_RACK

    server: str
    gpus: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class NvlinkDomainPerRack(Params):
    CODE: ClassVar[str] = Code.NVLINK_DOMAIN_PER_RACK

    server: str
    racks: int
    domain_gpus: int
    gpus: int


@dataclass(frozen=True, slots=True, kw_only=True)
class NvlinkDomainsMixed(Params):
    CODE: ClassVar[str] = Code.NVLINK_DOMAINS_MIXED

    racks: int  # rack-scale systems on the fabric
    servers: int  # servers on the fabric
    rack_domain_gpus: int
    server_domain_gpus: int  # the smaller domain: tensor parallelism across both kinds stays within it
    tray_rails: int  # compute NICs of one tray
    rails: int  # the fabric's rails (a server's NICs)
    ports: int  # the node ports the fabric is planned for


@dataclass(frozen=True, slots=True, kw_only=True)
class RackSystemComplete(Params):
    CODE: ClassVar[str] = Code.RACK_SYSTEM_COMPLETE

    part: str
    server: str
    compute_trays: int | None
    gpus: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class RackSystemCooling(Params):
    CODE: ClassVar[str] = Code.RACK_SYSTEM_COOLING

    server: str
    racks: int
    cdu_kw: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class RackSystemPower(Params):
    CODE: ClassVar[str] = Code.RACK_SYSTEM_POWER

    server: str
    racks: int
    rack_power_w: int
    power_shelves: int | None
    power_shelf_w: int | None
    total_w: int


@dataclass(frozen=True, slots=True, kw_only=True)
class RackSystemPowerUnknown(Params):
    CODE: ClassVar[str] = Code.RACK_SYSTEM_POWER_UNKNOWN

    server: str
    racks: int
