"""The parameters of the compute fabric's findings (``messages.fabric``), one class per code."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, TypedDict

from ..fabric_codes import FabricCode
from .base import Params


class LinkSide(TypedDict):
    """One end of a link class: the part (empty for an assumed HCA), whether it is a switch's cages, twin-port, the
    connector (None: not known from the sources) and the OSFP top."""

    part: str
    is_switch: bool
    twin: bool
    connector: str | None
    top: str | None


class MissingMedia(TypedDict):
    """A connector and speed for which the catalogue holds no medium."""

    connector: str
    speed_gbps: int


class RoceSwitch(TypedDict):
    """The catalogue's Ethernet switch a RoCE fabric would use instead."""

    part: str
    generation: str
    ports: int
    gbps: int


@dataclass(frozen=True, slots=True, kw_only=True)
class FabricBeyondReach(Params):
    CODE: ClassVar[str] = FabricCode.BEYOND_REACH

    link_class: str
    a: LinkSide
    b: LinkSide | None  # None: both ends alike
    distance_m: float
    slack_m: float
    required_m: float
    longest_m: float
    rack_field: str | None
    cables_only: bool
    bom_incomplete: bool
    fibre_short: bool | None = None
    optics_reach_m: float | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class FabricDistanceAssumed(Params):
    CODE: ClassVar[str] = FabricCode.DISTANCE_ASSUMED

    link_class: str
    default_m: float
    planned_m: float
    slack_m: float
    rack_field: str


@dataclass(frozen=True, slots=True, kw_only=True)
class FabricDistanceImplausible(Params):
    CODE: ClassVar[str] = FabricCode.DISTANCE_IMPLAUSIBLE

    rack_field: str
    distance_m: float
    limit_m: float


@dataclass(frozen=True, slots=True, kw_only=True)
class FabricDistanceUnused(Params):
    CODE: ClassVar[str] = FabricCode.DISTANCE_UNUSED

    rack_fields: list[str]
    tiers: int
    node_field: str


@dataclass(frozen=True, slots=True, kw_only=True)
class FabricFewerRailsThanGpus(Params):
    CODE: ClassVar[str] = FabricCode.FEWER_RAILS_THAN_GPUS

    rails: int
    gpus_per_node: int


@dataclass(frozen=True, slots=True, kw_only=True)
class FabricGrowthReserve(Params):
    CODE: ClassVar[str] = FabricCode.GROWTH_RESERVE

    switch: str
    reserve_switches: int
    cost_eur: float | None
    room_nodes: int
    free_ports: dict[str, int]  # tier (leaf, spine, core) -> free ports
    three_tier: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class FabricHcaAssumed(Params):
    CODE: ClassVar[str] = FabricCode.HCA_ASSUMED

    switch: str
    port_gbps: int


@dataclass(frozen=True, slots=True, kw_only=True)
class FabricHdrForNewGpus(Params):
    CODE: ClassVar[str] = FabricCode.HDR_FOR_NEW_GPUS

    switch: str
    generation: str
    port_gbps: int
    gpu_generation: str
    advised_gbps: int
    advised_generation: str | None
    advised_switch: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class FabricMediaDiscontinued(Params):
    CODE: ClassVar[str] = FabricCode.MEDIA_DISCONTINUED

    link_class: str
    part: str
    lifecycle: str
    replacement: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class FabricMediaNotCatalogued(Params):
    CODE: ClassVar[str] = FabricCode.MEDIA_NOT_CATALOGUED

    link_class: str
    a: LinkSide
    b: LinkSide | None  # None: both ends alike
    unknown_side: LinkSide | None = None
    unknown_connector: bool | None = None
    bom_incomplete: bool
    missing_media: list[MissingMedia] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class FabricNoCable(Params):
    CODE: ClassVar[str] = FabricCode.NO_CABLE

    link_class: str
    a: LinkSide
    b: LinkSide | None  # None: both ends alike
    speed_gbps: int
    bom_incomplete: bool | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class FabricNoMgmtSwitch(Params):
    CODE: ClassVar[str] = FabricCode.NO_MGMT_SWITCH

    ports: int


@dataclass(frozen=True, slots=True, kw_only=True)
class FabricNoRails(Params):
    CODE: ClassVar[str] = FabricCode.NO_RAILS


@dataclass(frozen=True, slots=True, kw_only=True)
class FabricPartInvalid(Params):
    CODE: ClassVar[str] = FabricCode.PART_INVALID

    path: str
    reason: str


@dataclass(frozen=True, slots=True, kw_only=True)
class FabricPlanesNoMedium(Params):
    CODE: ClassVar[str] = FabricCode.PLANES_NO_MEDIUM

    gbps: int | None
    hca: str
    switch: str
    links: int


@dataclass(frozen=True, slots=True, kw_only=True)
class FabricPlugTopUnknown(Params):
    CODE: ClassVar[str] = FabricCode.PLUG_TOP_UNKNOWN

    link_class: str
    side: LinkSide
    medium: str
    medium_top: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class FabricPortsExceeded(Params):
    CODE: ClassVar[str] = FabricCode.PORTS_EXCEEDED

    nodes: int
    rails: int
    switch: str
    ports: int
    nodes_per_unit: int | None = None
    units: int | None = None
    max_rails: int | None = None
    leaves: int | None = None
    oversubscription: str | None = None
    endpoints: int | None = None
    capacity: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class FabricProtocolMismatch(Params):
    CODE: ClassVar[str] = FabricCode.PROTOCOL_MISMATCH

    switch: str
    hca: str
    switch_protocol: str
    hca_protocol: str


@dataclass(frozen=True, slots=True, kw_only=True)
class FabricReachNotCatalogued(Params):
    CODE: ClassVar[str] = FabricCode.REACH_NOT_CATALOGUED

    link_class: str
    a: LinkSide
    b: LinkSide | None  # None: both ends alike
    distance_m: float
    slack_m: float
    required_m: float
    longest_m: float
    rack_field: str | None
    cables_only: bool
    bom_incomplete: bool
    fibre_short: bool | None = None
    optics_reach_m: float | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class FabricRoceAlternative(Params):
    CODE: ClassVar[str] = FabricCode.ROCE_ALTERNATIVE

    alternative: RoceSwitch | None
    gbps: int


@dataclass(frozen=True, slots=True, kw_only=True)
class FabricSingleNode(Params):
    CODE: ClassVar[str] = FabricCode.SINGLE_NODE

    nodes: int


@dataclass(frozen=True, slots=True, kw_only=True)
class FabricSmEmbedded(Params):
    CODE: ClassVar[str] = FabricCode.SM_EMBEDDED

    switch: str
    ib_nodes: int
    sm_limit: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class FabricSmLimit(Params):
    CODE: ClassVar[str] = FabricCode.SM_LIMIT

    switch: str
    ib_nodes: int
    sm_limit: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class FabricSmRequired(Params):
    CODE: ClassVar[str] = FabricCode.SM_REQUIRED

    switch: str
    ib_nodes: int
    sm_limit: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class FabricSmUnknown(Params):
    CODE: ClassVar[str] = FabricCode.SM_UNKNOWN

    switch: str
    ib_nodes: int
    sm_limit: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class FabricSpeedMismatch(Params):
    CODE: ClassVar[str] = FabricCode.SPEED_MISMATCH

    hca: str
    switch: str
    hca_gbps: int
    port_gbps: int
    link_gbps: int
    advised_generation: str | None
    advised_switch: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class FabricSwitchIsManagement(Params):
    CODE: ClassVar[str] = FabricCode.SWITCH_IS_MANAGEMENT

    switch: str


@dataclass(frozen=True, slots=True, kw_only=True)
class FabricSwitchPortsUnknown(Params):
    CODE: ClassVar[str] = FabricCode.SWITCH_PORTS_UNKNOWN

    switch: str
