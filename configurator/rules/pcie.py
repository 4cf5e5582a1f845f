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

from .catalogue import Code
from .context import GroupContext, Part
from .findings import Finding
from .registry import finding
from .specs import CARD_FITS, AdapterSpec, CardForm, GpuSpec, Role, ServerSpec, SlotForm, SlotSpec

PCIE_GBYTES_PER_LANE: dict[int, float] = {1: 0.25, 2: 0.5, 3: 0.985, 4: 1.969, 5: 3.938, 6: 7.563}

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


def slot_groups(server: ServerSpec) -> list[dict]:
    """The server's expansion slots grouped by form, PCIe link and GPU use, with counts (for messages)."""
    groups: dict[tuple, int] = {}
    for s in server.slots:
        if s.form == SlotForm.INTEGRATED:
            continue
        key = (s.form, s.pcie_gen, s.lanes, s.for_gpu)
        groups[key] = groups.get(key, 0) + 1
    return [
        {"form": str(form) if form else None, "gen": gen, "lanes": lanes, "for_gpu": for_gpu, "count": n}
        for (form, gen, lanes, for_gpu), n in groups.items()
    ]


def _holders(part: Part, fit: list[SlotState]) -> tuple[list[dict], bool]:
    """Who holds the slots a card fits (its own units, GPU cards, adapters), and whether GPU cards are among
    them."""
    counts: dict[str, list] = {}
    for s in fit:
        if s.part is not None:
            counts.setdefault(s.part.path, [s.part, 0])[1] += 1
    out, gpus = [], False
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
    cards: list[Part],
    overflow: list[tuple[Part, int]],
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
    # A refusal needs a complete slot list; with other positions possible the card is unverified, not impossible.
    code = Code.PCIE_NO_FREE_SLOT if server.slots_complete else Code.PCIE_NO_FREE_SLOT_UNVERIFIED
    return finding(
        code,
        overflow[0][0].path,
        slots=usable,
        cards=total,
        unplaced=sum(n for _, n in overflow),
        server=server.part_number,
        slot_groups=slot_groups(server),
        slots_complete=server.slots_complete,
        all_adapters=all(isinstance(p.spec, AdapterSpec) for p in cards),
        reasons=reasons,
    )


def _why_no_slot(ctx: GroupContext, p: Part, n: int, slots: list[SlotState]) -> dict:
    """One card's reason for having no slot, as values: the slots it fits and who holds them, and the free
    slots it does not fit, with catalogue adapters of the same line that would."""
    form = _card_form(p)
    usable = [s for s in slots if s.usable]
    fit = [s for s in usable if fits(form, s.spec.form) is not False]
    free_unfit = [s for s in usable if s.part is None and fits(form, s.spec.form) is False]
    reason: dict = {
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
    is_adapter = isinstance(p.spec, AdapterSpec)
    reason.update(
        fit_form=str(one_form) if one_form else None,
        holders=holders,
        gpus=gpus,
        free_unfit=[
            {
                "form": str(slot_form) if slot_form else None,
                "names": names,
                "takes": [str(c) for c in CardForm if slot_form in CARD_FITS[c]],
                "adapter": is_adapter,
                "family": p.spec.family if is_adapter else None,
                "alternatives": _alternatives(ctx, p.spec, {slot_form}) if is_adapter else [],
            }
            for slot_form, names in by_form.items()
        ],
    )
    return reason


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
