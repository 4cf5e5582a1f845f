"""The slots of a node as placement sees them: their state, which card form fits which slot, and the slots'
summary for messages."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from design.specs import ServerSpec, SlotSpec
from design.vocabulary import CARD_FITS, CardForm, SlotForm
from engines.findings import Finding, finding
from engines.findings.params.pcie import PcieFormUnknown, SlotGroup

from ..context import CardPart, GroupContext


@dataclass
class SlotState:
    spec: SlotSpec
    position: int
    part: CardPart | None = None
    rail: int | None = None
    unverified_fit: bool = False

    @property
    def usable(self) -> bool:
        return self.spec.form != SlotForm.INTEGRATED


def fits(card: CardForm | None, slot: SlotForm | None) -> bool | None:
    """True/False when both sizes are known; None when either is unknown (allowed, but flagged)."""
    if slot == SlotForm.INTEGRATED:
        return False
    if card is None or slot is None:
        return None
    return slot in CARD_FITS[card]


def card_form(part: CardPart) -> CardForm | None:
    return part.spec.form


def slot_groups(server: ServerSpec) -> list[SlotGroup]:
    """The server's expansion slots grouped by form, PCIe link and GPU use, with counts (for messages)."""
    groups: dict[tuple[Any, ...], int] = {}
    for s in server.slots:
        if s.form == SlotForm.INTEGRATED:
            continue
        key = (s.form, s.pcie_gen, s.lanes, s.for_gpu)
        groups[key] = groups.get(key, 0) + 1
    return [
        {"form": str(form) if form else None, "gen": gen, "lanes": lanes, "for_gpu": for_gpu, "count": n}
        for (form, gen, lanes, for_gpu), n in groups.items()
    ]


def form_unknown(ctx: GroupContext, slots: list[SlotState]) -> list[Finding]:
    """Rule: where a card's or slot's size is not sourced, the fit is placed but not verified: say so, never
    guess. Source: hardware.md §5 (e.g. the form factor of MCX653105A-HDAT is unknown)."""
    by_part: dict[str, list[SlotState]] = {}
    for s in slots:
        if s.part is not None and s.unverified_fit:
            by_part.setdefault(s.part.path, []).append(s)
    out = []
    for path, taken in by_part.items():
        part = cast(CardPart, taken[0].part)  # the slots grouped hold a card
        out.append(
            finding(
                path,
                PcieFormUnknown(
                    slots=[s.spec.name for s in taken],
                    part=part.spec.part_number,
                    unknown="card" if card_form(part) is None else "slot",
                ),
            )
        )
    return out
