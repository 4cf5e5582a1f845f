"""PCIe slot placement and the PCIe rules: fit, free slots, link bandwidth, PCIe-switch uplinks, GPU locality.

Placement runs once per node group (never per node): every node of a group is built the same.

PCIe bandwidth per lane and direction, in GB/s (fabric.md §5; Linux ``PCIE_SPEED2MBS_ENC``):
  Gen3  8 GT/s x 128/130 / 8 = 0.985
  Gen4 16 GT/s x 128/130 / 8 = 1.969
  Gen5 32 GT/s x 128/130 / 8 = 3.938
  Gen6 64 GT/s PAM4, FLIT mode: 8 GB/s raw x 242/256 (FLIT payload share) = 7.563
A card needs ports x speed_gbps / 8 GB/s per direction: NDR 400 = 50 GB/s; PCIe 4.0 x16 = 31.5 GB/s, so an NDR
card in a Gen4 x16 slot is capped at about 252 Gb/s ([CX7-SPEC]: "a Gen4 x16 slot sustains only about 200G"
in practice, after protocol overhead).
"""

from __future__ import annotations

from dataclasses import dataclass

from . import fmt
from .catalogue import Code
from .catalogue import finding as legacy_finding
from .context import GroupContext, Part
from .findings import Finding
from .registry import finding
from .specs import CARD_FITS, AdapterSpec, CardForm, GpuSpec, Role, ServerSpec, SlotForm, SlotSpec

PCIE_GBYTES_PER_LANE: dict[int, float] = {1: 0.25, 2: 0.5, 3: 0.985, 4: 1.969, 5: 3.938, 6: 7.563}

FORM_EN = {
    SlotForm.LP: "low-profile",
    SlotForm.FHHL: "full-height half-length (FHHL)",
    SlotForm.FHFL: "full-height full-length (FHFL)",
    SlotForm.OCP3: "OCP 3.0",
    SlotForm.INTEGRATED: "integrated",
    None: "unknown-size",
}
FORM_NL = {
    SlotForm.LP: "low-profile",
    SlotForm.FHHL: "full-height half-length (FHHL)",
    SlotForm.FHFL: "full-height full-length (FHFL)",
    SlotForm.OCP3: "OCP 3.0",
    SlotForm.INTEGRATED: "ingebouwde",
    None: "onbekende",
}
CARD_EN = {
    CardForm.HHHL: "half-height (HHHL)",
    CardForm.FHHL: "full-height (FHHL)",
    CardForm.FHFL: "full-length (FHFL)",
    CardForm.OCP3: "OCP 3.0",
    None: "unknown-size",
}
CARD_NL = {
    CardForm.HHHL: "half-height (HHHL)",
    CardForm.FHHL: "full-height (FHHL)",
    CardForm.FHFL: "full-length (FHFL)",
    CardForm.OCP3: "OCP 3.0",
    None: "onbekende",
}
_TIGHTNESS = {SlotForm.LP: 0, SlotForm.OCP3: 0, SlotForm.FHHL: 1, SlotForm.FHFL: 2, None: 3}
# Most constrained cards first, so the greedy placement fills the nested slot sizes optimally.
_CARD_RANK = {CardForm.FHFL: 1, CardForm.FHHL: 2, CardForm.OCP3: 3, CardForm.HHHL: 4, None: 5}
_ROLE_RANK = {"gpu": 0, Role.COMPUTE: 0, Role.STORAGE: 1, Role.MANAGEMENT: 2}


def link_gbytes(gen: int | None, lanes: int | None) -> float | None:
    """GB/s per direction of a PCIe link, or None when the generation or width is unknown."""
    if gen is None or lanes is None or gen not in PCIE_GBYTES_PER_LANE:
        return None
    return PCIE_GBYTES_PER_LANE[gen] * lanes


def card_need_gbytes(spec: AdapterSpec) -> float | None:
    """What an adapter's ports can push, GB/s per direction: ports x Gb/s / 8."""
    if spec.speed_gbps is None:
        return None
    return spec.ports * spec.speed_gbps / 8


@dataclass
class SlotState:
    spec: SlotSpec
    position: int
    part: Part | None = None
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


def effective_link(spec: AdapterSpec, slot: SlotSpec) -> float | None:
    """GB/s per direction the card gets in the slot: the lower generation and the narrower width of the two."""
    if None in (spec.host_pcie_gen, spec.host_lanes, slot.pcie_gen, slot.lanes):
        return None
    return link_gbytes(min(spec.host_pcie_gen, slot.pcie_gen), min(spec.host_lanes, slot.lanes))


def _card_form(part: Part) -> CardForm | None:
    return part.spec.form


@dataclass
class Placement:
    slots: list[SlotState]
    unplaced: list[dict]

    def to_dict(self, ctx: GroupContext) -> dict:
        server = ctx.server
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
    server = ctx.server
    assert server is not None
    slots = [SlotState(spec, i) for i, spec in enumerate(server.slots)]
    placement = Placement(slots=slots, unplaced=[])

    cards: list[Part] = []
    for part in ctx.adapters:
        if server.integrated_nics > 0 and part.role == Role.COMPUTE:
            findings.append(_integrated_nics(ctx, part))
            placement.unplaced.append(_unplaced(part, part.quantity, "compute NICs are integrated in this server"))
            continue
        cards.append(part)
    for part in ctx.gpu_cards:
        if server.accepts_complete and part.spec.part_number not in server.accepts:  # GPU_NOT_ACCEPTED says it
            placement.unplaced.append(_unplaced(part, part.quantity, "GPU not supported by this server"))
            continue
        cards.append(part)
    if not cards:
        return placement
    if not server.slots_known:
        findings.append(_slots_unknown(ctx, cards))
        placement.unplaced.extend(_unplaced(p, p.quantity, "slot list unknown") for p in cards)
        return placement

    by_name = {s.spec.name: s for s in slots}
    remaining: dict[int, int] = {}  # part index in cards -> units still to place automatically
    for k, part in enumerate(cards):
        explicit = part.comp.slots[: part.quantity] if part.comp.slots else ()
        if explicit:
            _place_explicit(ctx, part, explicit, by_name, placement, findings)
        remaining[k] = part.quantity - len(explicit)

    overflow: list[tuple[Part, int]] = []
    order = sorted(
        range(len(cards)),
        key=lambda k: (
            0 if isinstance(cards[k].spec, GpuSpec) else _CARD_RANK[_card_form(cards[k])],
            _ROLE_RANK.get(cards[k].role, 3),
            k,
        ),
    )
    for k in order:
        part, left = cards[k], remaining[k]
        if left <= 0:
            continue
        candidates = sorted(
            (s for s in slots if s.part is None and fits(_card_form(part), s.spec.form) is not False),
            key=lambda s: _preference(part, s),
        )
        for slot in candidates[:left]:
            slot.part = part
            slot.unverified_fit = fits(_card_form(part), slot.spec.form) is None
        placed = min(left, len(candidates))
        if placed < left:
            overflow.append((part, left - placed))
            placement.unplaced.append(_unplaced(part, left - placed, "no free slot it fits"))

    _assign_rails(slots)
    n_gpu_cards = sum(p.quantity for p in cards if isinstance(p.spec, GpuSpec))
    if server.max_gpu_cards is not None and n_gpu_cards > server.max_gpu_cards:
        overflow = [(p, n) for p, n in overflow if not isinstance(p.spec, GpuSpec)]  # GPU_TOO_MANY says it
    if overflow:
        findings.append(_no_free_slot(ctx, server, cards, overflow, slots))
    findings.extend(_form_unknown(ctx, slots))
    findings.extend(_not_gpu_local(ctx, slots))
    findings.extend(_link_findings(ctx, slots))
    findings.extend(_switch_uplinks(ctx, server, slots))
    return placement


def _preference(part: Part, slot: SlotState) -> tuple:
    """Lower is better: a verified fit; GPU slots for GPU cards only; compute NICs next to a GPU (in GPU order,
    so NIC i lands by GPU i), storage and management away from the GPUs; the tightest slot that fits."""
    spec = slot.spec
    is_gpu = isinstance(part.spec, GpuSpec)
    unverified = fits(_card_form(part), spec.form) is None
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
    part: Part,
    names: tuple[str, ...],
    by_name: dict[str, SlotState],
    placement: Placement,
    findings: list[Finding],
) -> None:
    """Check an explicit placement: each named slot must exist, be free, and take the card."""
    unknown, taken, misfit = [], [], []
    for name in names:
        slot = by_name.get(name)
        if slot is None:
            unknown.append(name)
        elif slot.part is not None:
            taken.append((name, slot.part))
        elif fits(_card_form(part), slot.spec.form) is False:
            misfit.append(slot)
        else:
            slot.part = part
            slot.unverified_fit = fits(_card_form(part), slot.spec.form) is None
    server = ctx.server
    pn = part.spec.part_number
    if unknown:
        findings.append(
            finding(
                Code.PCIE_UNKNOWN_SLOT,
                f"{part.path}.slots",
                slots=unknown,
                server=ctx.group.server,
                known=list(by_name),
            )
        )
        placement.unplaced.append(_unplaced(part, len(unknown), "no such slot"))
    if taken:
        findings.append(
            finding(
                Code.PCIE_SLOT_USED_TWICE,
                f"{part.path}.slots",
                slots=[name for name, _ in taken],
                part=pn,
                holders=[{"slot": name, "part": h.spec.part_number, "path": h.path} for name, h in taken],
            )
        )
        placement.unplaced.append(_unplaced(part, len(taken), "slot already used"))
    if misfit:
        form = misfit[0].spec.form
        card = _card_form(part)
        allowed = sorted(str(f) for f in CARD_FITS[card]) if card else []
        findings.append(
            finding(
                Code.PCIE_CARD_DOES_NOT_FIT,
                f"{part.path}.slots",
                slots=[s.spec.name for s in misfit],
                part=pn,
                server=server.part_number,
                card_form=str(card) if card else None,
                slot_form=str(form) if form else None,
                allowed_forms=allowed,
            )
        )
        placement.unplaced.append(_unplaced(part, len(misfit), "does not fit the chosen slot"))


def _unplaced(part: Part, quantity: int, reason: str) -> dict:
    return {"part": part.spec.part_number, "component": part.path, "quantity": quantity, "reason": reason}


def _integrated_nics(ctx: GroupContext, part: Part) -> Finding:
    """Rule: a server with integrated compute NICs (ServerSpec.integrated_nics, SYS-822GS-NB3RT: 8x ConnectX-8,
    one per GPU) has no slots for compute adapters. Source: [DIST-PM], [MLCT-822NB3]."""
    server = ctx.server
    speed = server.integrated_nic_speed_gbps
    n_free = sum(1 for s in server.slots if s.form != SlotForm.INTEGRATED)
    return finding(
        Code.PCIE_INTEGRATED_NICS,
        part.path,
        integrated_nics=server.integrated_nics,
        adapters=part.quantity,
        free_slots=n_free,
        server=server.part_number,
        part=part.spec.part_number,
        speed_gbps=speed,
    )


def _slots_unknown(ctx: GroupContext, cards: list[Part]) -> Finding:
    """Rule: a server without a sourced slot list (slots_known False) cannot have its placement verified; say
    so, and raise no slot errors. Source: hardware.md §5 (slot lists not found for SYS-821GE-TNHR and others)."""
    n = sum(p.quantity for p in cards)
    pn = ctx.group.server
    return finding(
        Code.PCIE_SLOTS_UNKNOWN,
        f"{ctx.path}.server",
        cards=n,
        server=pn,
    )


def slot_summary(server: ServerSpec) -> tuple[str, str]:
    """'8 low-profile PCIe 5.0 x16 slots and 2 full-height ... slots' in English and Dutch."""
    groups: dict[tuple, int] = {}
    for s in server.slots:
        if s.form == SlotForm.INTEGRATED:
            continue
        key = (s.form, s.pcie_gen, s.lanes, s.for_gpu)
        groups[key] = groups.get(key, 0) + 1
    en, nl = [], []
    for (form, gen, lanes, for_gpu), n in groups.items():
        gpu_en = "GPU " if for_gpu else ""
        gpu_nl = "GPU-" if for_gpu else ""
        en.append(f"{n} {FORM_EN[form]} {fmt.pcie_en(gen, lanes, gpu_en + fmt.plural(n, 'slot', 'slots'))}")
        nl.append(f"{n} {FORM_NL[form]} {fmt.pcie_nl(gen, lanes, gpu_nl + fmt.plural(n, 'slot', 'slots'))}")
    if not en:
        return "no expansion slots", "geen uitbreidingsslots"
    join_en = ", ".join(en[:-1]) + (" and " if len(en) > 1 else "") + en[-1]
    join_nl = ", ".join(nl[:-1]) + (" en " if len(nl) > 1 else "") + nl[-1]
    return join_en, join_nl


def _count_word(n: int) -> tuple[str, str]:
    return ("one", "één") if n == 1 else (str(n), str(n))


# Short slot words for "the 8 full-height slots it fits"; OCP 3.0 positions are bays.
SHORT_EN = {SlotForm.LP: "low-profile", SlotForm.FHHL: "full-height", SlotForm.FHFL: "full-height"}
SHORT_NL = {SlotForm.LP: "low-profile", SlotForm.FHHL: "full-height", SlotForm.FHFL: "full-height"}


def _slot_words(form: SlotForm | None, n: int) -> tuple[str, str]:
    """'8 full-height slots' / '8 full-height slots'; 'OCP 3.0 bay' / 'OCP 3.0-bay'."""
    if form == SlotForm.OCP3:
        return f"OCP 3.0 {fmt.plural(n, 'bay', 'bays')}", f"OCP 3.0-{fmt.plural(n, 'bay', 'bays')}"
    en = SHORT_EN.get(form, FORM_EN[form])
    nl = SHORT_NL.get(form, FORM_NL[form])
    return f"{en} {fmt.plural(n, 'slot', 'slots')}", f"{nl} {fmt.plural(n, 'slot', 'slots')}"


def _nl_compound(adjective: str, noun: str) -> str:
    """Dutch joins 'OCP 3.0' and 'kaarten' with a hyphen, but not after a bracket: 'half-height (HHHL) kaarten'."""
    return f"{adjective}-{noun}" if adjective[-1:].isalnum() else f"{adjective} {noun}"


def _cards_for(form: SlotForm | None) -> tuple[str, str]:
    """The card forms a slot form takes, from specs.CARD_FITS: 'OCP 3.0', 'half-height (HHHL)'."""
    forms = [c for c in CardForm if form in CARD_FITS[c]]
    return " or ".join(CARD_EN[c] for c in forms), " of ".join(CARD_NL[c] for c in forms)


def _holders(part: Part, fit: list[SlotState]) -> tuple[str, str, bool]:
    """Who holds the slots a card fits: 'the 8 L40S GPU cards', 'the other 8' (its own units). Also whether
    GPU cards are among them."""
    counts: dict[str, list] = {}
    for s in fit:
        if s.part is not None:
            counts.setdefault(s.part.path, [s.part, 0])[1] += 1
    en, nl, gpus = [], [], False
    for holder, k in counts.values():
        pn = holder.spec.part_number
        if holder is part:
            en.append(f"the other {k}")
            nl.append(f"de andere {k}")
        elif isinstance(holder.spec, GpuSpec):
            gpus = True
            en.append(f"the {k} {pn} GPU {fmt.plural(k, 'card', 'cards')}")
            nl.append(f"de {k} {pn}-GPU-{fmt.plural(k, 'kaart', 'kaarten')}")
        else:
            en.append(f"{k} {pn} {fmt.plural(k, 'adapter', 'adapters')}")
            nl.append(f"{k} {pn}-{fmt.plural(k, 'adapter', 'adapters')}")
    if not en:
        return "other cards", "andere kaarten", False
    join_en = ", ".join(en[:-1]) + (" and " if len(en) > 1 else "") + en[-1]
    join_nl = ", ".join(nl[:-1]) + (" en " if len(nl) > 1 else "") + nl[-1]
    return join_en, join_nl, gpus


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
    cards: list[Part],
    overflow: list[tuple[Part, int]],
    slots: list[SlotState],
) -> Finding:
    """Rule: every card needs a free slot it physically fits (specs.CARD_FITS: a full-height card does not fit a
    low-profile slot; an OCP card only an OCP bay). When there are slots enough but not of the right kind, say
    which slots the card fits and what holds them, which free slots it does not fit and why, and suggest a
    catalogue adapter of the same line that fits the free slots. Source: PCI-SIG CEM / OCP 3.0; slot lists
    hardware.md §1b."""
    summary_en, summary_nl = slot_summary(server)
    usable = sum(1 for s in server.slots if s.form != SlotForm.INTEGRATED)
    total = sum(p.quantity for p in cards)
    excess = sum(n for _, n in overflow)
    all_adapters = all(isinstance(p.spec, AdapterSpec) for p in cards)
    noun_en = "adapters" if all_adapters else "cards"
    noun_nl = "adapters" if all_adapters else "kaarten"
    first = overflow[0][0]
    if total > usable:
        msg_en = f"{server.part_number} has {summary_en}; {total} {noun_en} need one each."
        msg_nl = f"{server.part_number} heeft {summary_nl}; {total} {noun_nl} hebben er elk één nodig."
        w_en, w_nl = _count_word(total - usable)
        one = total - usable == 1
        fix_en = f"Remove {w_en} {noun_en[:-1] if one else noun_en}, or choose a server with more slots."
        noun_one_nl = "adapter" if all_adapters else "kaart"
        fix_nl = f"Verwijder {w_nl} {noun_one_nl if one else noun_nl}, of kies een server met meer slots."
    else:
        sent_en, sent_nl, fix_en_parts, fix_nl_parts = [], [], [], []
        for p, n in overflow:
            en, nl, fx_en, fx_nl = _why_no_slot(ctx, p, n, slots)
            sent_en.append(en)
            sent_nl.append(nl)
            fix_en_parts += [f for f in fx_en if f not in fix_en_parts]
            fix_nl_parts += [f for f in fx_nl if f not in fix_nl_parts]
        msg_en = f"{server.part_number} has {summary_en}. " + " ".join(sent_en)
        msg_nl = f"{server.part_number} heeft {summary_nl}. " + " ".join(sent_nl)
        fix_en = _or_list(fix_en_parts, "or") + "."
        fix_nl = _or_list(fix_nl_parts, "of") + "."
    if not server.slots_complete:
        msg_en += (
            " Our slot list for this chassis may be incomplete, so other positions are unverified; "
            "check the datasheet before ruling it out."
        )
        msg_nl += (
            " Onze slotlijst van dit chassis is mogelijk onvolledig, dus andere posities zijn niet "
            "geverifieerd; controleer de datasheet voordat je hem afschrijft."
        )
    return legacy_finding(
        Code.PCIE_NO_FREE_SLOT,
        first.path,
        fmt.text(msg_en, msg_nl),
        fmt.text(fix_en, fix_nl),
        slots=usable,
        cards=total,
        unplaced=excess,
    )


def _or_list(items: list[str], word: str) -> str:
    text = ", ".join(items[:-1]) + (f", {word} " if len(items) > 2 else f" {word} " if len(items) == 2 else "")
    text += items[-1]
    return text[0].upper() + text[1:]


def _why_no_slot(ctx: GroupContext, p: Part, n: int, slots: list[SlotState]) -> tuple[str, str, list[str], list[str]]:
    """One card's reason for having no slot, in both languages, with the fixes that apply to it."""
    form = _card_form(p)
    pn = p.spec.part_number
    card_en, card_nl = CARD_EN[form], CARD_NL[form]
    usable = [s for s in slots if s.usable]
    fit = [s for s in usable if fits(form, s.spec.form) is not False]
    free_unfit = [s for s in usable if s.part is None and fits(form, s.spec.form) is False]
    if p.quantity == 1:
        tail_en, tail_nl = "so it has no slot", "dus heeft hij geen slot"
    elif n == p.quantity:
        tail_en, tail_nl = f"so none of the {n} has a slot", f"dus geen van de {n} heeft een slot"
    else:
        tail_en = f"so {n} of the {p.quantity} {fmt.plural(n, 'has', 'have')} no slot"
        tail_nl = f"dus {n} van de {p.quantity} {fmt.plural(n, 'heeft', 'hebben')} geen slot"
    if not fit:
        en = f"{pn} is {fmt.a_en(card_en)} {card_en} card and none of them takes it."
        nl = f"{pn} is een {card_nl} kaart en past in geen daarvan."
        free_forms = {s.spec.form for s in usable if s.part is None}
        alts = _alternatives(ctx, p.spec, free_forms) if isinstance(p.spec, AdapterSpec) else []
        also_en = f" ({', '.join(alts)})" if alts else ""
        if form == CardForm.OCP3:
            return (
                en,
                nl,
                [f"choose the PCIe (HHHL) version of the card{also_en}", "a server with an OCP 3.0 bay"],
                [f"kies de PCIe-uitvoering (HHHL) van de kaart{also_en}", "een server met een OCP 3.0-bay"],
            )
        return (
            en,
            nl,
            [f"choose a card that fits these slots{also_en}", "another server"],
            [f"kies een kaart die in deze slots past{also_en}", "een andere server"],
        )
    fit_forms = {s.spec.form for s in fit}
    one_form = next(iter(fit_forms)) if len(fit_forms) == 1 else None
    words_en, words_nl = (
        _slot_words(one_form, len(fit))
        if one_form is not None
        else (
            fmt.plural(len(fit), "slot", "slots"),
            fmt.plural(len(fit), "slot", "slots"),
        )
    )
    holders_en, holders_nl, gpus = _holders(p, fit)
    if len(fit) == 1:
        enige = "de enige" if one_form == SlotForm.OCP3 else "het enige"
        the_en, the_nl = f"the one {words_en} it fits is", f"{enige} {words_nl} waar hij in past, is"
    else:
        the_en, the_nl = f"the {len(fit)} {words_en} it fits are", f"de {len(fit)} {words_nl} waar hij in past, zijn"
    en = f"{pn} is {fmt.a_en(card_en)} {card_en} card: {the_en} taken by {holders_en}"
    nl = f"{pn} is een {card_nl} kaart: {the_nl} bezet door {holders_nl}"
    fix_en, fix_nl = [], []
    by_form: dict[SlotForm | None, list[str]] = {}
    for s in free_unfit:
        by_form.setdefault(s.spec.form, []).append(s.spec.name)
    for slot_form, names in by_form.items():
        k = len(names)
        w_en, w_nl = _slot_words(slot_form, k)
        takes_en, takes_nl = _cards_for(slot_form)
        en += f", and the free {w_en} {', '.join(names)} {fmt.plural(k, 'takes', 'take')} only {takes_en} cards"
        art_nl = "het vrije" if k == 1 and slot_form != SlotForm.OCP3 else "de vrije"
        nl += (
            f", en {art_nl} {w_nl} {', '.join(names)} {fmt.plural(k, 'neemt', 'nemen')} alleen "
            f"{_nl_compound(takes_nl, 'kaarten')}"
        )
        if isinstance(p.spec, AdapterSpec):
            alts = _alternatives(ctx, p.spec, {slot_form})
            where_en = f"the free {w_en} {', '.join(names)}"
            where_nl = f"{art_nl} {w_nl} {', '.join(names)}"
            if alts:
                fix_en.append(
                    f"use {fmt.a_en(takes_en)} {takes_en} {p.spec.family} adapter ({', '.join(alts)}) in {where_en}"
                )
                fix_nl.append(f"gebruik een {takes_nl} {p.spec.family}-adapter ({', '.join(alts)}) in {where_nl}")
            else:
                fix_en.append(f"use {fmt.a_en(takes_en)} {takes_en} adapter in {where_en}")
                fix_nl.append(f"gebruik een {_nl_compound(takes_nl, 'adapter')} in {where_nl}")
    en += f", {tail_en}."
    nl += f", {tail_nl}."
    if gpus:
        fix_en.append("use fewer GPU cards")
        fix_nl.append("gebruik minder GPU-kaarten")
    elif one_form is not None:
        short_en, short_nl = _slot_words(one_form, 2)
        fix_en.append(f"use fewer cards that need {short_en}")
        fix_nl.append(f"gebruik minder kaarten die {short_nl} nodig hebben")
    if one_form is not None:
        more_en, more_nl = _slot_words(one_form, 2)
        fix_en.append(f"choose a server with more {more_en}")
        fix_nl.append(f"kies een server met meer {more_nl}")
    return en, nl, fix_en, fix_nl


def _form_unknown(ctx: GroupContext, slots: list[SlotState]) -> list[Finding]:
    """Rule: where a card's or slot's size is not sourced, the fit is placed but not verified: say so, never
    guess. Source: hardware.md §5 (e.g. the form factor of MCX653105A-HDAT is unknown)."""
    by_part: dict[str, list[SlotState]] = {}
    for s in slots:
        if s.part is not None and s.unverified_fit:
            by_part.setdefault(s.part.path, []).append(s)
    out = []
    for path, taken in by_part.items():
        part = taken[0].part
        out.append(
            finding(
                Code.PCIE_FORM_UNKNOWN,
                path,
                slots=[s.spec.name for s in taken],
                part=part.spec.part_number,
                unknown="card" if _card_form(part) is None else "slot",
            )
        )
    return out


def _not_gpu_local(ctx: GroupContext, slots: list[SlotState]) -> list[Finding]:
    """Rule: a compute NIC belongs in a slot behind the same PCIe switch as a GPU, so GPUDirect RDMA stays local;
    on HGX systems one NIC per GPU, each on its own rail. Source: [DIST-PM] (SYS-822GS-NBRT: 8 LP slots "for
    1:1 GPU-to-NIC networking"); fabric.md §0.1."""
    if not ctx.gpus or not any(s.spec.gpus for s in slots):
        return []
    far: dict[str, list[SlotState]] = {}
    for s in slots:
        if s.part is not None and s.part.role == Role.COMPUTE and not s.spec.gpus:
            far.setdefault(s.part.path, []).append(s)
    out = []
    for path, taken in far.items():
        part = taken[0].part
        free_local = sum(1 for s in slots if s.part is None and s.spec.gpus)
        out.append(
            finding(
                Code.PCIE_NIC_NOT_GPU_LOCAL,
                path,
                slots=[s.spec.name for s in taken],
                part=part.spec.part_number,
                free_local=free_local,
            )
        )
    return out


def _link_findings(ctx: GroupContext, slots: list[SlotState]) -> list[Finding]:
    """Rule: a card in a slot of a lower PCIe generation or fewer lanes than it needs is capped at the slot's
    bandwidth (NDR 400 needs 50 GB/s; Gen4 x16 gives 31.5 GB/s, so about 252 Gb/s); a Gen6 ConnectX-8 in a Gen5
    slot likewise. Unknown generations or widths are reported as unknown, never guessed.
    Source: fabric.md §5; [CX7-SPEC]; [CX8-ID], [DOCA-CX8] (Socket Direct 2x Gen5 for 800G)."""
    out = []
    done_unknown: set[str] = set()
    reported: set[tuple] = set()
    for s in slots:
        part = s.part
        if part is None or not isinstance(part.spec, AdapterSpec):
            continue
        spec = part.spec
        need = card_need_gbytes(spec)
        card_link = link_gbytes(spec.host_pcie_gen, spec.host_lanes)
        slot_gen, slot_lanes = s.spec.pcie_gen, s.spec.lanes
        if need is None or card_link is None or effective_link(spec, s.spec) is None:
            if part.path not in done_unknown:
                done_unknown.add(part.path)
                out.append(_link_unknown(part, s))
            continue
        eff = effective_link(spec, s.spec)
        key = (part.path, slot_gen, slot_lanes)
        if eff >= need or eff >= card_link or key in reported:
            continue
        reported.add(key)
        names = ", ".join(
            x.spec.name for x in slots if x.part is part and (x.spec.pcie_gen, x.spec.lanes) == (slot_gen, slot_lanes)
        )
        out.append(_link_shortfall(part, spec, names, slot_gen, slot_lanes, need, eff))
    return out


def _link_unknown(part: Part, slot: SlotState) -> Finding:
    spec = part.spec
    return finding(
        Code.PCIE_LINK_UNKNOWN,
        part.path,
        part=spec.part_number,
        slot=slot.spec.name,
        slot_gen=slot.spec.pcie_gen,
        slot_lanes=slot.spec.lanes,
        card_gen=spec.host_pcie_gen,
        card_lanes=spec.host_lanes,
        need_gbytes=card_need_gbytes(spec),
    )


def _link_shortfall(
    part: Part, spec: AdapterSpec, names: str, slot_gen: int, slot_lanes: int, need: float, eff: float
) -> Finding:
    gen6 = spec.host_pcie_gen >= 6 and slot_gen == 5
    return finding(
        Code.PCIE_GEN6_IN_GEN5 if gen6 else Code.PCIE_LINK_BANDWIDTH,
        part.path,
        need_gbytes=round(need, 2),
        link_gbytes=round(eff, 2),
        cap_gbps=round(eff * 8),
        part=spec.part_number,
        family=spec.family or None,
        slots=names.split(", "),
        slot_gen=slot_gen,
        slot_lanes=slot_lanes,
        card_gen=spec.host_pcie_gen,
        card_lanes=spec.host_lanes,
        line_gbps=spec.ports * spec.speed_gbps,
        need_exact=need,
        link_exact=eff,
        socket_direct=bool(spec.socket_direct),
    )


def _switch_uplinks(ctx: GroupContext, server: ServerSpec, slots: list[SlotState]) -> list[Finding]:
    """Rule: the adapters behind one PCIe switch must not need more bandwidth than its uplink to the CPU gives.
    GPU traffic to a NIC on the same switch is peer-to-peer and does not cross the uplink, so only adapters
    count, each at the lesser of its line rate and its slot link. Source: PCIe arithmetic, fabric.md §5."""
    out: list[Finding] = []
    over: dict[tuple, list] = {}
    for sw in server.pcie_switches:
        behind = [
            s
            for s in slots
            if s.spec.pcie_switch == sw.name and s.part is not None and isinstance(s.part.spec, AdapterSpec)
        ]
        if not behind:
            continue
        uplink = link_gbytes(sw.uplink_gen, sw.uplink_lanes)
        needs: list[float] | None = []
        for s in behind:
            need = card_need_gbytes(s.part.spec)
            if need is None:
                needs = None
                break
            link = effective_link(s.part.spec, s.spec)
            needs.append(min(need, link) if link is not None else need)
        if uplink is None or needs is None:
            continue  # unknown uplink or card speed: nothing sourced to compare; the slot rules report unknowns
        total = sum(needs)
        if total > uplink:
            cards = ", ".join(sorted({x.part.spec.part_number for x in behind}))
            over.setdefault((sw.uplink_gen, sw.uplink_lanes, round(total, 1), len(behind), cards), []).append(
                (sw, behind[0].part.path, total, uplink)
            )
    for (gen, lanes, total, n_cards, cards), items in over.items():
        uplink = items[0][3]
        out.append(
            finding(
                Code.PCIE_SWITCH_UPLINK,
                items[0][1],
                switches=[sw.name for sw, _, _, _ in items],
                need_gbytes=total,
                uplink_gbytes=round(uplink, 2),
                uplink_exact=uplink,
                uplink_gen=gen,
                uplink_lanes=lanes,
                adapters=n_cards,
                cards=cards.split(", "),
            )
        )
    return out
