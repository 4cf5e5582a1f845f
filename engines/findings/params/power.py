"""The parameters of the power and cooling findings (``messages.power``), one class per code.

The findings about a node's power estimate share its figures (``PowerEstimateParams``); those that compare it with
the supplies add whether the node is the vendor's shipping configuration and the supplies' load."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, NotRequired, TypedDict

from ..codes import Code
from .base import Params


class PowerBreakdown(TypedDict):
    """A node's estimated draw by kind of part, in watts, and the fan margin in percent."""

    gpu_w: float
    cpu_w: float
    memory_w: float
    adapters_w: float
    fan_pct: int


class PowerAssumption(TypedDict):
    """What a power estimate assumed where nothing was sourced: ``kind`` (sockets, cpu_tdp, adapter,
    integrated_nics, optics) and its figures."""

    kind: str
    watts: NotRequired[float]
    part: NotRequired[str]
    count: NotRequired[int]
    sockets: NotRequired[int]


class ReferenceSkipped(TypedDict):
    """A published system maximum not applied, and why (``reason`` "cooling": the cooling differs)."""

    system: str
    reference_w: float
    reason: str
    server_cooling: str | None
    reference_cooling: str | None


class ReferenceUnconfirmed(TypedDict):
    """A published system maximum applied although the node's or the system's cooling is not sourced."""

    system: str
    reference_w: float
    server_cooling: str | None
    reference_cooling: str | None


class EstimateFields(TypedDict):
    """The fields every power-estimate finding shares (``PowerEstimateParams``), built once per node."""

    server: str
    peak_w: int
    breakdown: PowerBreakdown
    assumptions: list[PowerAssumption]
    basis: str
    parts_w: int
    reference_system: str | None
    reference_w: float | None
    cpu_basis: str
    cpu_parts: list[str]
    cpu_w: float
    reference_skipped: ReferenceSkipped | None
    reference_unconfirmed: ReferenceUnconfirmed | None


@dataclass(frozen=True, slots=True, kw_only=True)
class PowerEstimateParams(Params):
    """A node's estimated peak draw (no code of its own): the fields of ``EstimateFields``."""

    server: str
    peak_w: int
    breakdown: PowerBreakdown
    assumptions: list[PowerAssumption]
    basis: str  # "reference_system" (a published system maximum sets the peak) or "parts"
    parts_w: int
    reference_system: str | None
    reference_w: float | None
    cpu_basis: str
    cpu_parts: list[str]
    cpu_w: float
    reference_skipped: ReferenceSkipped | None
    reference_unconfirmed: ReferenceUnconfirmed | None


@dataclass(frozen=True, slots=True, kw_only=True)
class PowerEstimateBasis(PowerEstimateParams):
    CODE: ClassVar[str] = Code.POWER_ESTIMATE_BASIS


@dataclass(frozen=True, slots=True, kw_only=True)
class ShippedEstimate(PowerEstimateParams):
    """An estimate checked against the supplies (no code of its own)."""

    shipping: bool  # the vendor's own shipping configuration: never refused on an estimate


@dataclass(frozen=True, slots=True, kw_only=True)
class PowerCapacityUnknown(ShippedEstimate):
    CODE: ClassVar[str] = Code.POWER_CAPACITY_UNKNOWN


@dataclass(frozen=True, slots=True, kw_only=True)
class SupplyLoad(ShippedEstimate):
    """The estimate against the capacity of the supplies that carry the load (no code of its own)."""

    capacity_w: int
    fraction: float  # rounded to three decimals
    load: float
    psu_count: int
    psu_redundant: int


@dataclass(frozen=True, slots=True, kw_only=True)
class PowerOverCapacity(SupplyLoad):
    CODE: ClassVar[str] = Code.POWER_OVER_CAPACITY

    vendor: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class PowerEstimateAboveSupplies(SupplyLoad):
    CODE: ClassVar[str] = Code.POWER_ESTIMATE_ABOVE_SUPPLIES

    vendor: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class PowerNearCapacity(SupplyLoad):
    CODE: ClassVar[str] = Code.POWER_NEAR_CAPACITY


@dataclass(frozen=True, slots=True, kw_only=True)
class RedundancyUnknown(ShippedEstimate):
    """PSU count and wattage known, redundancy not: the load with N+N and with N+0 (no code of its own)."""

    psu_count: int
    psu_watts: int
    n_plus_n_w: int
    n_plus_0_w: int
    load_n_plus_n: float | None
    load_n_plus_0: float


@dataclass(frozen=True, slots=True, kw_only=True)
class PowerRedundancyNPlusN(RedundancyUnknown):
    CODE: ClassVar[str] = Code.POWER_REDUNDANCY_N_PLUS_N


@dataclass(frozen=True, slots=True, kw_only=True)
class PowerRedundancyNPlus0(RedundancyUnknown):
    CODE: ClassVar[str] = Code.POWER_REDUNDANCY_N_PLUS_0


@dataclass(frozen=True, slots=True, kw_only=True)
class PowerEstimateIncomplete(Params):
    CODE: ClassVar[str] = Code.POWER_ESTIMATE_INCOMPLETE

    gpus: list[str]


@dataclass(frozen=True, slots=True, kw_only=True)
class CoolingLiquid(Params):
    CODE: ClassVar[str] = Code.COOLING_LIQUID

    server: str
    nodes: int
