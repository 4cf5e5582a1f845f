"""The parameters of the control plane, services and offer findings (``messages.cluster``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..cluster_codes import ClusterCode, ExpansionCode
from .base import Params


@dataclass(frozen=True, slots=True, kw_only=True)
class ControlPlaneAdded(Params):
    CODE: ClassVar[str] = ClusterCode.CONTROL_PLANE_ADDED

    servers: int
    nodes: int
    basis: str
    priced: bool = False  # the servers carry the settings' indicative list price (False: quoted on request)


@dataclass(frozen=True, slots=True, kw_only=True)
class ControlPlaneUfm(Params):
    CODE: ClassVar[str] = ClusterCode.CONTROL_PLANE_UFM

    appliances: int
    because: str
    priced: bool = False  # the appliances carry the settings' indicative list price (False: quoted on request)


@dataclass(frozen=True, slots=True, kw_only=True)
class OfferLeftOut(Params):
    CODE: ClassVar[str] = ClusterCode.OFFER_LEFT_OUT

    items: list[str]
    basis: str
    nodes: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ServicesDeclined(Params):
    CODE: ClassVar[str] = ClusterCode.SERVICES_DECLINED

    declined: list[str]


@dataclass(frozen=True, slots=True, kw_only=True)
class ServicesOnRequest(Params):
    CODE: ClassVar[str] = ClusterCode.SERVICES_ON_REQUEST

    lines: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ExpansionNewTier(Params):
    CODE: ClassVar[str] = ExpansionCode.NEW_TIER

    installed_tiers: int
    expanded_tiers: int
    switch: str
    new_spines: int
    new_cores: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ExpansionUnitBoundary(Params):
    CODE: ClassVar[str] = ExpansionCode.UNIT_BOUNDARY

    nodes_per_unit: int
    installed_units: int
    expanded_units: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ExpansionRackPower(Params):
    CODE: ClassVar[str] = ExpansionCode.RACK_POWER

    racks: list[str]
    installed_w: list[int]
    expanded_w: list[int]
    rack_power_limit_w: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ExpansionDevicesMoved(Params):
    """Installed devices the grown plan places elsewhere: how many, the first of them (its role, part, rack and
    unit in the installed plan) and why (``reason``: ``one-rack``, ``new-tier``, ``control-plane`` or ``layout``)."""

    CODE: ClassVar[str] = ExpansionCode.DEVICES_MOVED

    devices: int
    role: str
    part: str
    rack: str
    unit: int
    reason: str


@dataclass(frozen=True, slots=True, kw_only=True)
class ExpansionStorageSystemsKept(Params):
    """The installed storage network's storage-system ports (the reserved default) kept in the grown design: how
    many, and what the default proportion would reserve for the grown cluster."""

    CODE: ClassVar[str] = ExpansionCode.STORAGE_SYSTEMS_KEPT

    ports: int
    default_ports: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ExpansionNetworkTier(Params):
    """A storage or in-band network (``network``) that the growth takes from ``installed_tiers`` to
    ``expanded_tiers`` tiers of ``switch``: the leaves and spines it adds, and the installed node cables that are
    re-terminated (their leaf ports become uplinks, or the nodes go to the added leaves). ``node_cables_kept``: True
    where the re-cabling keeps every installed node cable of the network on its port (an in-band pair that becomes
    the first scalable unit's leaves with ports to spare); None where not compared."""

    CODE: ClassVar[str] = ExpansionCode.NETWORK_TIER

    network: str
    installed_tiers: int
    expanded_tiers: int
    switch: str
    new_leaves: int
    new_spines: int
    node_cables_kept: bool | None = None
