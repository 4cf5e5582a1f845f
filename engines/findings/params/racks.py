"""The parameters of the rack planner's findings (``messages.racks``), one class per code."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..rack_codes import RackCode
from .base import Params


@dataclass(frozen=True, slots=True, kw_only=True)
class RackAirDensity(Params):
    CODE: ClassVar[str] = RackCode.AIR_DENSITY

    racks: int
    first_rack: str
    max_power_w: int
    air_limit_w: int


@dataclass(frozen=True, slots=True, kw_only=True)
class RackCoolingDefault(Params):
    CODE: ClassVar[str] = RackCode.COOLING_DEFAULT

    cooling: str


@dataclass(frozen=True, slots=True, kw_only=True)
class RackCordOverRating(Params):
    CODE: ClassVar[str] = RackCode.CORD_OVER_RATING

    part: str
    current_a: float
    outlet: str | None
    outlet_current_a: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class RackLiquidNodeInAir(Params):
    CODE: ClassVar[str] = RackCode.LIQUID_NODE_IN_AIR

    part: str
    rack_scale: bool | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class RackManagementSwitchCount(Params):
    CODE: ClassVar[str] = RackCode.MANAGEMENT_SWITCH_COUNT

    part: str
    needed: int
    listed: int


@dataclass(frozen=True, slots=True, kw_only=True)
class RackNodeHeightUnknown(Params):
    CODE: ClassVar[str] = RackCode.NODE_HEIGHT_UNKNOWN

    part: str


@dataclass(frozen=True, slots=True, kw_only=True)
class RackNodeInletUnknown(Params):
    CODE: ClassVar[str] = RackCode.NODE_INLET_UNKNOWN

    part: str


@dataclass(frozen=True, slots=True, kw_only=True)
class RackNodeOverPower(Params):
    CODE: ClassVar[str] = RackCode.NODE_OVER_POWER

    part: str
    power_w: int
    limit_w: int


@dataclass(frozen=True, slots=True, kw_only=True)
class RackNodePowerUnknown(Params):
    CODE: ClassVar[str] = RackCode.NODE_POWER_UNKNOWN

    part: str


@dataclass(frozen=True, slots=True, kw_only=True)
class RackNodeTooTall(Params):
    CODE: ClassVar[str] = RackCode.NODE_TOO_TALL

    part: str
    height_u: int
    usable_u: int


@dataclass(frozen=True, slots=True, kw_only=True)
class RackNoManagementSwitch(Params):
    CODE: ClassVar[str] = RackCode.NO_MANAGEMENT_SWITCH


@dataclass(frozen=True, slots=True, kw_only=True)
class RackNoPdu(Params):
    CODE: ClassVar[str] = RackCode.NO_PDU


@dataclass(frozen=True, slots=True, kw_only=True)
class RackPduBusbar(Params):
    CODE: ClassVar[str] = RackCode.PDU_BUSBAR

    racks: int
    first_rack: str
    power_w: int
    positions: int
    max_w: int


@dataclass(frozen=True, slots=True, kw_only=True)
class RackPduKnownLoadOnly(Params):
    CODE: ClassVar[str] = RackCode.PDU_KNOWN_LOAD_ONLY

    racks: int
    first_rack: str


@dataclass(frozen=True, slots=True, kw_only=True)
class RackPduOutletsUnknown(Params):
    CODE: ClassVar[str] = RackCode.PDU_OUTLETS_UNKNOWN


@dataclass(frozen=True, slots=True, kw_only=True)
class RackPduOverContinuous(Params):
    CODE: ClassVar[str] = RackCode.PDU_OVER_CONTINUOUS

    part: str
    racks: int
    first_rack: str
    rating_w: int
    per_pdu_w: int
    load_pct: int


@dataclass(frozen=True, slots=True, kw_only=True)
class RackSystemHallPower(Params):
    CODE: ClassVar[str] = RackCode.SYSTEM_HALL_POWER

    part: str
    power_w: int  # the system's own stated power: what the hall must give each of its racks
    default_w: int  # the plan's default per rack for racks of servers (its cooling's)


@dataclass(frozen=True, slots=True, kw_only=True)
class RackPowerDefault(Params):
    CODE: ClassVar[str] = RackCode.POWER_DEFAULT

    cooling: str
    limit_w: int
    basis: str


@dataclass(frozen=True, slots=True, kw_only=True)
class RackSwitchHeightUnknown(Params):
    CODE: ClassVar[str] = RackCode.SWITCH_HEIGHT_UNKNOWN

    part: str
    assumed_u: int


@dataclass(frozen=True, slots=True, kw_only=True)
class RackServerSizeAssumed(Params):
    CODE: ClassVar[str] = RackCode.SERVER_SIZE_ASSUMED

    servers: int
    assumed_u: int


@dataclass(frozen=True, slots=True, kw_only=True)
class RackSwitchPowerUnknown(Params):
    CODE: ClassVar[str] = RackCode.SWITCH_POWER_UNKNOWN

    part: str
