"""The parameters of the PCIe placement findings (``messages.pcie``), one class per code."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, NotRequired, TypedDict

from ..codes import Code
from .base import Params


class SlotHolder(TypedDict):
    """A slot chosen for a card and the card that already holds it."""

    slot: str
    part: str
    path: str


class SlotGroup(TypedDict):
    """The server's expansion slots of one form, PCIe link and GPU use, counted."""

    form: str | None
    gen: int | None
    lanes: int | None
    for_gpu: bool
    count: int


class FitHolder(TypedDict):
    """Who holds slots a card fits: its own units ("self"), GPU cards ("gpu") or adapters ("adapter")."""

    kind: str
    count: int
    part: str


class FreeUnfit(TypedDict):
    """Free slots of one form that a card does not fit, what they take, and adapters of its line that fit."""

    form: str | None
    names: list[str]
    takes: list[str]
    adapter: bool
    family: str | None
    alternatives: list[str]


class NoSlotReason(TypedDict):
    """One card's reason for having no slot: the slots it fits and who holds them, the free ones it does not fit."""

    part: str
    card_form: str | None
    quantity: int
    without: int
    fit: int
    alternatives: NotRequired[list[str]]  # it fits no slot: adapters of its line that fit the free ones
    fit_form: NotRequired[str | None]
    holders: NotRequired[list[FitHolder]]
    gpus: NotRequired[bool]
    free_unfit: NotRequired[list[FreeUnfit]]


@dataclass(frozen=True, slots=True, kw_only=True)
class PcieCardDoesNotFit(Params):
    CODE: ClassVar[str] = Code.PCIE_CARD_DOES_NOT_FIT

    slots: list[str]
    part: str
    server: str
    card_form: str | None
    slot_form: str | None
    allowed_forms: list[str]


@dataclass(frozen=True, slots=True, kw_only=True)
class PcieFormUnknown(Params):
    CODE: ClassVar[str] = Code.PCIE_FORM_UNKNOWN

    slots: list[str]
    part: str
    unknown: str


@dataclass(frozen=True, slots=True, kw_only=True)
class PcieGen6InGen5(Params):
    CODE: ClassVar[str] = Code.PCIE_GEN6_IN_GEN5

    need_gbytes: float
    link_gbytes: float
    cap_gbps: int
    part: str
    family: str | None
    slots: list[str]
    slot_gen: int
    slot_lanes: int
    card_gen: int | None
    card_lanes: int | None
    line_gbps: int
    need_exact: float
    link_exact: float
    socket_direct: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class PcieIntegratedNics(Params):
    CODE: ClassVar[str] = Code.PCIE_INTEGRATED_NICS

    integrated_nics: int
    adapters: int
    free_slots: int
    server: str
    part: str
    speed_gbps: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class PcieLinkBandwidth(Params):
    CODE: ClassVar[str] = Code.PCIE_LINK_BANDWIDTH

    need_gbytes: float
    link_gbytes: float
    cap_gbps: int
    part: str
    family: str | None
    slots: list[str]
    slot_gen: int
    slot_lanes: int
    card_gen: int | None
    card_lanes: int | None
    line_gbps: int
    need_exact: float
    link_exact: float
    socket_direct: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class PcieLinkUnknown(Params):
    CODE: ClassVar[str] = Code.PCIE_LINK_UNKNOWN

    part: str
    slot: str
    slot_gen: int | None
    slot_lanes: int | None
    card_gen: int | None
    card_lanes: int | None
    need_gbytes: float | None


@dataclass(frozen=True, slots=True, kw_only=True)
class PcieNicNotGpuLocal(Params):
    CODE: ClassVar[str] = Code.PCIE_NIC_NOT_GPU_LOCAL

    slots: list[str]
    part: str
    free_local: int


@dataclass(frozen=True, slots=True, kw_only=True)
class PcieNoFreeSlot(Params):
    CODE: ClassVar[str] = Code.PCIE_NO_FREE_SLOT

    slots: int
    cards: int
    unplaced: int
    server: str
    slot_groups: list[SlotGroup]
    slots_complete: bool
    published_count: bool
    all_adapters: bool
    reasons: list[NoSlotReason] | None


@dataclass(frozen=True, slots=True, kw_only=True)
class PcieNoFreeSlotUnverified(Params):
    CODE: ClassVar[str] = Code.PCIE_NO_FREE_SLOT_UNVERIFIED

    slots: int
    cards: int
    unplaced: int
    server: str
    slot_groups: list[SlotGroup]
    slots_complete: bool
    published_count: bool
    all_adapters: bool
    reasons: list[NoSlotReason] | None


@dataclass(frozen=True, slots=True, kw_only=True)
class PcieSlotsUnknown(Params):
    CODE: ClassVar[str] = Code.PCIE_SLOTS_UNKNOWN

    cards: int
    server: str


@dataclass(frozen=True, slots=True, kw_only=True)
class PcieSlotUsedTwice(Params):
    CODE: ClassVar[str] = Code.PCIE_SLOT_USED_TWICE

    slots: list[str]
    part: str
    holders: list[SlotHolder]


@dataclass(frozen=True, slots=True, kw_only=True)
class PcieSwitchUplink(Params):
    CODE: ClassVar[str] = Code.PCIE_SWITCH_UPLINK

    switches: list[str]
    need_gbytes: float
    uplink_gbytes: float
    uplink_exact: float
    uplink_gen: int
    uplink_lanes: int
    adapters: int
    cards: list[str]


@dataclass(frozen=True, slots=True, kw_only=True)
class PcieUnknownSlot(Params):
    CODE: ClassVar[str] = Code.PCIE_UNKNOWN_SLOT

    slots: list[str]
    server: str
    known: list[str]
