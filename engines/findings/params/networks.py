"""The parameters of the storage, in-band and out-of-band network findings (``messages.networks``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..network_codes import NetworkCode
from .base import Params


@dataclass(frozen=True, slots=True, kw_only=True)
class NetworkConverged(Params):
    CODE: ClassVar[str] = NetworkCode.CONVERGED

    network: str
    role: str


@dataclass(frozen=True, slots=True, kw_only=True)
class NetworkCustomerSupplied(Params):
    CODE: ClassVar[str] = NetworkCode.CUSTOMER_SUPPLIED

    network: str


@dataclass(frozen=True, slots=True, kw_only=True)
class NetworkMediaNotCatalogued(Params):
    CODE: ClassVar[str] = NetworkCode.MEDIA_NOT_CATALOGUED

    links: int
    connector: str | None
    speed_gbps: int
    length_m: float | None = None  # the run the cables must reach, where that is what no catalogued cable does


@dataclass(frozen=True, slots=True, kw_only=True)
class NetworkNoAdapters(Params):
    CODE: ClassVar[str] = NetworkCode.NO_ADAPTERS

    network: str
    role: str


@dataclass(frozen=True, slots=True, kw_only=True)
class NetworkNoSwitch(Params):
    CODE: ClassVar[str] = NetworkCode.NO_SWITCH

    network: str
    switch: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class NetworkOobExtraSwitches(Params):
    CODE: ClassVar[str] = NetworkCode.OOB_EXTRA_SWITCHES

    switch: str
    extra: int
    in_racks: int
    ports: int


@dataclass(frozen=True, slots=True, kw_only=True)
class NetworkOobNotManagement(Params):
    CODE: ClassVar[str] = NetworkCode.OOB_NOT_MANAGEMENT

    network: str
    switch: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class NetworkOobUplinkPorts(Params):
    CODE: ClassVar[str] = NetworkCode.OOB_UPLINK_PORTS

    network: str
    uplinks: int
    free: int


@dataclass(frozen=True, slots=True, kw_only=True)
class NetworkSinglePort(Params):
    CODE: ClassVar[str] = NetworkCode.SINGLE_PORT

    network: str
    nodes: int


@dataclass(frozen=True, slots=True, kw_only=True)
class NetworkOobPlacement(Params):
    CODE: ClassVar[str] = NetworkCode.OOB_PLACEMENT

    placement: str  # "central" or "per-rack"
    basis: str  # "design" (networks.oob.placement) or "density" (the default)
    densest: int  # management ports (BMCs and PDUs) of the fullest compute rack
    threshold: int  # from this many a rack, per-rack by default
    switch: str
    switches: int
    ports: int
    units: int  # central: the scalable units the switches are counted by; per-rack: 0


@dataclass(frozen=True, slots=True, kw_only=True)
class NetworkInbandRatio(Params):
    CODE: ClassVar[str] = NetworkCode.INBAND_RATIO

    ratio: str


@dataclass(frozen=True, slots=True, kw_only=True)
class NetworkStorageSystemPorts(Params):
    CODE: ClassVar[str] = NetworkCode.STORAGE_SYSTEM_PORTS

    reserved: int  # storage systems' leaf ports the plan reserves (the RA's proportion)
    free: int  # leaf ports left free beyond them
    # The plan's storage switches: the fewest that carry its links (the RA lists 16 for 127 nodes, no leaf/spine
    # split); 0 in a finding frozen before they were said.
    leaves: int = 0
    spines: int = 0
