"""PCIe slot placement: explicit slots checked, the rest placed automatically, and the cards that find no slot.

Placement runs once per node group (never per node): every node of a group is built the same. After placing,
``place_group`` runs the checks of the result: fit unknown (``slots.py``), GPU locality (``locality.py``), link
bandwidth and PCIe-switch uplinks (``bandwidth.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NotRequired, TypedDict

from design.specs import AdapterSpec, GpuSpec, ServerSpec
from design.vocabulary import CARD_FITS, CardForm, Role, SlotForm
from engines.findings import Finding, finding
from engines.findings.params.pcie import (
    FitHolder,
    NoSlotReason,
    PcieCardDoesNotFit,
    PcieIntegratedNics,
    PcieNoFreeSlot,
    PcieNoFreeSlotUnverified,
    PcieSlotsUnknown,
    PcieSlotUsedTwice,
    PcieUnknownSlot,
)

from ..context import CardPart, GroupContext
from .bandwidth import link_findings, switch_uplinks
from .locality import not_gpu_local
from .slots import SlotState, card_form, fits, form_unknown, slot_groups

_TIGHTNESS = {SlotForm.LP: 0, SlotForm.OCP3: 0, SlotForm.FHHL: 1, SlotForm.FHFL: 2, None: 3}
# Most constrained cards first, so the greedy placement fills the nested slot sizes optimally.
_CARD_RANK = {CardForm.FHFL: 1, CardForm.FHHL: 2, CardForm.OCP3: 3, CardForm.HHHL: 4, None: 5}
_ROLE_RANK = {"gpu": 0, Role.COMPUTE: 0, Role.STORAGE: 1, Role.MANAGEMENT: 2}


class SlotEntry(TypedDict):
    """One slot of a node group's placement, as the result's JSON states it (contract design/v1)."""

    slot: str
    part: str | None
    component: str | None
    role: str | None
    rail: int | None
    form: str | None
    pcie_gen: int | None
    lanes: int | None
    gpus: list[int]
    cpu_socket: int | None
    pcie_switch: str | None
    for_gpu: bool
    usable: bool


class UnplacedCard(TypedDict):
    """A card the placement could not fit, with why."""

    part: str
    component: str
    quantity: int
    reason: str


class GroupPlacement(TypedDict):
    """A node group's slot placement, as the result's JSON states it; ``rack_scale`` only for a rack-scale system
    (its trays come fitted: no slots)."""

    group: str
    node_group: int
    server: str
    slots_known: bool
    slots_complete: bool
    integrated_nics: int
    slots: list[SlotEntry]
    unplaced: list[UnplacedCard]
    rack_scale: NotRequired[bool]


@dataclass
class Placement:
    slots: list[SlotState]
    unplaced: list[UnplacedCard]

    def to_dict(self, ctx: GroupContext) -> GroupPlacement:
        server = ctx.known_server
        return {
            "group": ctx.group.name,
            "node_group": ctx.index,
            "server": ctx.group.server,
            "slots_known": bool(server and server.slots_known),
            "slots_complete": bool(server and server.slots_complete),
            "integrated_nics": server.integrated_nics if server else 0,
            "slots": [
                {
                    "slot": s.spec.name,
                    "part": s.part.spec.part_number if s.part else None,
                    "component": s.part.path if s.part else None,
                    "role": s.part.role if s.part else None,
                    "rail": s.rail,
                    "form": str(s.spec.form) if s.spec.form else None,
                    "pcie_gen": s.spec.pcie_gen,
                    "lanes": s.spec.lanes,
                    "gpus": list(s.spec.gpus),
                    "cpu_socket": s.spec.cpu_socket,
                    "pcie_switch": s.spec.pcie_switch,
                    "for_gpu": s.spec.for_gpu,
                    "usable": s.usable,
                }
                for s in self.slots
            ],
            "unplaced": self.unplaced,
        }


def place_group(ctx: GroupContext, findings: list[Finding]) -> Placement:
    """Place every GPU card and adapter of one node into the server's slots, and check the result.

    Rule (issue "PCIe slot placement"): explicit ``slots`` are checked (unknown name, used twice, does not fit);
    the rest are placed automatically, most constrained first: PCIe GPU cards into ``for_gpu`` slots, compute
    NICs into the slots local to a GPU (same PCIe switch, so GPUDirect RDMA stays local) in GPU order, one NIC
    per GPU on its own rail, storage and management adapters into the other slots first.
    """
    server = ctx.known_server
    assert server is not None
    slots = [SlotState(spec, i) for i, spec in enumerate(server.slots)]
    placement = Placement(slots=slots, unplaced=[])

    cards: list[CardPart] = []
    for part in ctx.adapters:
        if server.integrated_nics > 0 and part.role == Role.COMPUTE:
            findings.append(_integrated_nics(ctx, part))
            placement.unplaced.append(_unplaced(part, part.quantity, "compute NICs are integrated in this server"))
            continue
        cards.append(part)
    for gpu in ctx.gpu_cards:
        if server.accepts_complete and gpu.spec.part_number not in server.accepts:  # GPU_NOT_ACCEPTED says it
            placement.unplaced.append(_unplaced(gpu, gpu.quantity, "GPU not supported by this server"))
            continue
        cards.append(gpu)
    if not cards:
        return placement
    if not server.slots_known:
        findings.append(_slots_unknown(ctx, cards))
        placement.unplaced.extend(_unplaced(p, p.quantity, "slot list unknown") for p in cards)
        return placement

    overflow = _place_all(ctx, cards, slots, placement, findings)
    _assign_rails(slots)
    n_gpu_cards = sum(p.quantity for p in cards if isinstance(p.spec, GpuSpec))
    if server.max_gpu_cards is not None and n_gpu_cards > server.max_gpu_cards:
        overflow = [(p, n) for p, n in overflow if not isinstance(p.spec, GpuSpec)]  # GPU_TOO_MANY says it
    if overflow:
        findings.append(_no_free_slot(ctx, server, cards, overflow, slots))
    findings.extend(form_unknown(ctx, slots))
    findings.extend(not_gpu_local(ctx, slots))
    findings.extend(link_findings(ctx, slots))
    findings.extend(switch_uplinks(ctx, server, slots))
    return placement


def _place_all(
    ctx: GroupContext, cards: list[CardPart], slots: list[SlotState], placement: Placement, findings: list[Finding]
) -> list[tuple[CardPart, int]]:
    """Explicit slots first (checked), then the rest automatically, most constrained cards first, each into the
    slot it prefers (``_preference``). Returns the cards, with their counts, that found no slot."""
    by_name = {s.spec.name: s for s in slots}
    remaining: dict[int, int] = {}  # part index in cards -> units still to place automatically
    for k, part in enumerate(cards):
        explicit = part.comp.slots[: part.quantity] if part.comp.slots else ()
        if explicit:
            _place_explicit(ctx, part, explicit, by_name, placement, findings)
        remaining[k] = part.quantity - len(explicit)

    overflow: list[tuple[CardPart, int]] = []
    order = sorted(
        range(len(cards)),
        key=lambda k: (
            0 if isinstance(cards[k].spec, GpuSpec) else _CARD_RANK[card_form(cards[k])],
            _ROLE_RANK.get(cards[k].role, 3),
            k,
        ),
    )
    for k in order:
        part, left = cards[k], remaining[k]
        if left <= 0:
            continue
        candidates = sorted(
            (s for s in slots if s.part is None and fits(card_form(part), s.spec.form) is not False),
            key=lambda s: _preference(part, s),
        )
        for slot in candidates[:left]:
            slot.part = part
            slot.unverified_fit = fits(card_form(part), slot.spec.form) is None
        placed = min(left, len(candidates))
        if placed < left:
            overflow.append((part, left - placed))
            placement.unplaced.append(_unplaced(part, left - placed, "no free slot it fits"))
    return overflow


def _preference(part: CardPart, slot: SlotState) -> tuple[Any, ...]:
    """Lower is better: a verified fit; GPU slots for GPU cards only; compute NICs next to a GPU (in GPU order,
    so NIC i lands by GPU i), storage and management away from the GPUs; the tightest slot that fits."""
    spec = slot.spec
    is_gpu = isinstance(part.spec, GpuSpec)
    unverified = fits(card_form(part), spec.form) is None
    gpu_slot_mismatch = spec.for_gpu != is_gpu
    if is_gpu:
        locality = 0
    elif part.role == Role.COMPUTE:
        locality = 0 if spec.gpus else 1
    else:
        locality = 1 if spec.gpus else 0
    first_gpu = min(spec.gpus) if spec.gpus else 1 << 20
    return (unverified, gpu_slot_mismatch, locality, _TIGHTNESS.get(spec.form, 3), first_gpu, slot.position)


def _assign_rails(slots: list[SlotState]) -> None:
    """Rail i is the compute NIC next to GPU i (fabric.md §0.1: NIC i of every node goes to the leaf of rail i)."""
    compute = [s for s in slots if s.part is not None and s.part.role == Role.COMPUTE]
    compute.sort(key=lambda s: (min(s.spec.gpus) if s.spec.gpus else 1 << 20, s.position))
    for rail, slot in enumerate(compute):
        slot.rail = rail


def _place_explicit(
    ctx: GroupContext,
    part: CardPart,
    names: tuple[str, ...],
    by_name: dict[str, SlotState],
    placement: Placement,
    findings: list[Finding],
) -> None:
    """Check an explicit placement: each named slot must exist, be free, and take the card. The three checks
    collect their slots first (_claim), so each becomes one finding naming all of them."""
    unknown, taken, misfit = _claim(part, names, by_name)
    server = ctx.known_server
    pn = part.spec.part_number
    if unknown:
        findings.append(
            finding(
                f"{part.path}.slots",
                PcieUnknownSlot(slots=unknown, server=ctx.group.server, known=list(by_name)),
            )
        )
        placement.unplaced.append(_unplaced(part, len(unknown), "no such slot"))
    if taken:
        findings.append(
            finding(
                f"{part.path}.slots",
                PcieSlotUsedTwice(
                    slots=[name for name, _ in taken],
                    part=pn,
                    holders=[{"slot": name, "part": h.spec.part_number, "path": h.path} for name, h in taken],
                ),
            )
        )
        placement.unplaced.append(_unplaced(part, len(taken), "slot already used"))
    if misfit:
        form = misfit[0].spec.form
        card = card_form(part)
        allowed = sorted(str(f) for f in CARD_FITS[card]) if card else []
        findings.append(
            finding(
                f"{part.path}.slots",
                PcieCardDoesNotFit(
                    slots=[s.spec.name for s in misfit],
                    part=pn,
                    server=server.part_number,
                    card_form=str(card) if card else None,
                    slot_form=str(form) if form else None,
                    allowed_forms=allowed,
                ),
            )
        )
        placement.unplaced.append(_unplaced(part, len(misfit), "does not fit the chosen slot"))


def _claim(
    part: CardPart, names: tuple[str, ...], by_name: dict[str, SlotState]
) -> tuple[list[str], list[tuple[str, CardPart]], list[SlotState]]:
    """Puts the card in each named slot that exists, is free and takes it; the others by what is wrong: unknown
    names, slots already holding a card (with that card), slots the card does not fit."""
    unknown: list[str] = []
    taken: list[tuple[str, CardPart]] = []
    misfit: list[SlotState] = []
    for name in names:
        slot = by_name.get(name)
        if slot is None:
            unknown.append(name)
        elif slot.part is not None:
            taken.append((name, slot.part))
        elif fits(card_form(part), slot.spec.form) is False:
            misfit.append(slot)
        else:
            slot.part = part
            slot.unverified_fit = fits(card_form(part), slot.spec.form) is None
    return unknown, taken, misfit


def _unplaced(part: CardPart, quantity: int, reason: str) -> UnplacedCard:
    return {"part": part.spec.part_number, "component": part.path, "quantity": quantity, "reason": reason}


def _integrated_nics(ctx: GroupContext, part: CardPart) -> Finding:
    """Rule: a server with integrated compute NICs (ServerSpec.integrated_nics, SYS-822GS-NB3RT: 8x ConnectX-8,
    one per GPU) has no slots for compute adapters. Source: [DIST-PM], [MLCT-822NB3]."""
    server = ctx.known_server
    speed = server.integrated_nic_speed_gbps
    n_free = sum(1 for s in server.slots if s.form != SlotForm.INTEGRATED)
    return finding(
        part.path,
        PcieIntegratedNics(
            integrated_nics=server.integrated_nics,
            adapters=part.quantity,
            free_slots=n_free,
            server=server.part_number,
            part=part.spec.part_number,
            speed_gbps=speed,
        ),
    )


def _slots_unknown(ctx: GroupContext, cards: list[CardPart]) -> Finding:
    """Rule: a server without a sourced slot list (slots_known False) cannot have its placement verified; say
    so, and raise no slot errors. Source: hardware.md §5 (slot lists not found for SYS-821GE-TNHR and others)."""
    n = sum(p.quantity for p in cards)
    pn = ctx.group.server
    return finding(
        f"{ctx.path}.server",
        PcieSlotsUnknown(cards=n, server=pn),
    )


def _holders(part: CardPart, fit: list[SlotState]) -> tuple[list[FitHolder], bool]:
    """Who holds the slots a card fits (its own units, GPU cards, adapters), and whether GPU cards are among
    them."""
    counts: dict[str, list[Any]] = {}
    for s in fit:
        if s.part is not None:
            counts.setdefault(s.part.path, [s.part, 0])[1] += 1
    out: list[FitHolder] = []
    gpus = False
    for holder, k in counts.values():
        kind = "self" if holder is part else "gpu" if isinstance(holder.spec, GpuSpec) else "adapter"
        gpus = gpus or kind == "gpu"
        out.append({"kind": kind, "count": k, "part": holder.spec.part_number})
    return out, gpus


def _alternatives(ctx: GroupContext, spec: AdapterSpec, forms: set[SlotForm | None]) -> list[str]:
    """Catalogue adapters of the same family line, protocol, ports and speed whose form fits one of ``forms``:
    ConnectX-7 (HHHL) -> ConnectX-7 OCP (OCP 3.0) for a free OCP bay. Data only, no product names in code."""
    if ctx.catalog is None or not spec.family:
        return []
    out = []
    for a in ctx.catalog.of_type(AdapterSpec):
        if a.part_number == spec.part_number or a.form is None or a.lifecycle == "eol":
            continue
        related = a.family.startswith(spec.family) or spec.family.startswith(a.family)
        same = (a.protocol, a.ports, a.speed_gbps) == (spec.protocol, spec.ports, spec.speed_gbps)
        if related and same and any(fits(a.form, f) for f in forms):
            out.append(a.part_number)
    return sorted(out)


def _no_free_slot(
    ctx: GroupContext,
    server: ServerSpec,
    cards: list[CardPart],
    overflow: list[tuple[CardPart, int]],
    slots: list[SlotState],
) -> Finding:
    """Rule: every card needs a free slot it physically fits (specs.CARD_FITS: a full-height card does not fit a
    low-profile slot; an OCP card only an OCP bay). When there are slots enough but not of the right kind, say
    which slots the card fits and what holds them, which free slots it does not fit and why, and suggest a
    catalogue adapter of the same line that fits the free slots. Source: PCI-SIG CEM / OCP 3.0; slot lists
    hardware.md §1b."""
    usable = sum(1 for s in server.slots if s.form != SlotForm.INTEGRATED)
    total = sum(p.quantity for p in cards)
    reasons = None if total > usable else [_why_no_slot(ctx, p, n, slots) for p, n in overflow]
    # A refusal needs evidence: a complete slot list, or a published count of the slots these cards fit, with the
    # positions an incomplete list leaves open being of a kind none of them fits. Otherwise unverified.
    open_kind = _may_fit_open_positions(server, overflow)
    kind = PcieNoFreeSlot if server.slots_complete or not open_kind else PcieNoFreeSlotUnverified
    return finding(
        overflow[0][0].path,
        kind(
            slots=usable,
            cards=total,
            unplaced=sum(n for _, n in overflow),
            server=server.part_number,
            slot_groups=slot_groups(server),
            slots_complete=server.slots_complete,
            published_count=not server.slots_complete and not open_kind,
            all_adapters=all(isinstance(p.spec, AdapterSpec) for p in cards),
            reasons=reasons,
        ),
    )


def _may_fit_open_positions(server: ServerSpec, overflow: list[tuple[CardPart, int]]) -> bool:
    """Rule: an incomplete slot list (``slots_complete`` false) whose rows mark what it leaves open, slots of unknown
    form (the SYS-821GE-TNHR risers, one unit's BMC table) or of unconfirmed PCIe generation and width (the
    SYS-421GE-TNRT3 AIOM bay, whose count the datasheet leaves open), leaves open only positions of those kinds. A
    card that fits none of them has only the published slots, so exceeding their count is a refusal whether or not
    the list is complete: eight ConnectX-7 HHHL cards beside eight double-width L40S in the 8 FHFL slots of
    SYS-421GE-TNRT3 gain no slot from more OCP bays. A list that marks nothing open may miss a position of any kind.
    Source: seed README (slots_known, slots_complete, slot rows); CARD_FITS (PCI-SIG CEM, OCP 3.0: a PCIe card never
    fits an OCP bay)."""
    open_forms = {s.form for s in server.slots if s.form is None or s.pcie_gen is None}
    if not open_forms:
        return True
    return any(fits(card_form(p), form) is not False for p, _n in overflow for form in open_forms)


def _why_no_slot(ctx: GroupContext, p: CardPart, n: int, slots: list[SlotState]) -> NoSlotReason:
    """One card's reason for having no slot, as values: the slots it fits and who holds them, and the free
    slots it does not fit, with catalogue adapters of the same line that would."""
    form = card_form(p)
    usable = [s for s in slots if s.usable]
    fit = [s for s in usable if fits(form, s.spec.form) is not False]
    free_unfit = [s for s in usable if s.part is None and fits(form, s.spec.form) is False]
    reason: NoSlotReason = {
        "part": p.spec.part_number,
        "card_form": str(form) if form else None,
        "quantity": p.quantity,
        "without": n,
        "fit": len(fit),
    }
    if not fit:
        free_forms = {s.spec.form for s in usable if s.part is None}
        reason["alternatives"] = _alternatives(ctx, p.spec, free_forms) if isinstance(p.spec, AdapterSpec) else []
        return reason
    fit_forms = {s.spec.form for s in fit}
    one_form = next(iter(fit_forms)) if len(fit_forms) == 1 else None
    holders, gpus = _holders(p, fit)
    by_form: dict[SlotForm | None, list[str]] = {}
    for s in free_unfit:
        by_form.setdefault(s.spec.form, []).append(s.spec.name)
    adapter = p.spec if isinstance(p.spec, AdapterSpec) else None
    reason["fit_form"] = str(one_form) if one_form else None
    reason["holders"] = holders
    reason["gpus"] = gpus
    reason["free_unfit"] = [
        {
            "form": str(slot_form) if slot_form else None,
            "names": names,
            "takes": [str(c) for c in CardForm if slot_form in CARD_FITS[c]],
            "adapter": adapter is not None,
            "family": adapter.family if adapter is not None else None,
            "alternatives": _alternatives(ctx, adapter, {slot_form}) if adapter is not None else [],
        }
        for slot_form, names in by_form.items()
    ]
    return reason
