"""PCIe link bandwidth: what a card needs, what its slot gives, and PCIe-switch uplinks.

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

from typing import Any, cast

from design.specs import AdapterSpec, ServerSpec, SlotSpec
from engines.findings import Finding, finding
from engines.findings.params.pcie import PcieGen6InGen5, PcieLinkBandwidth, PcieLinkUnknown, PcieSwitchUplink

from ..context import CardPart, GroupContext, Part, is_adapter
from .slots import SlotState

PCIE_GBYTES_PER_LANE: dict[int, float] = {1: 0.25, 2: 0.5, 3: 0.985, 4: 1.969, 5: 3.938, 6: 7.563}


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


def effective_link(spec: AdapterSpec, slot: SlotSpec) -> float | None:
    """GB/s per direction the card gets in the slot: the lower generation and the narrower width of the two."""
    if spec.host_pcie_gen is None or spec.host_lanes is None or slot.pcie_gen is None or slot.lanes is None:
        return None
    return link_gbytes(min(spec.host_pcie_gen, slot.pcie_gen), min(spec.host_lanes, slot.lanes))


def link_findings(ctx: GroupContext, slots: list[SlotState]) -> list[Finding]:
    """Rule: a card in a slot of a lower PCIe generation or fewer lanes than it needs is capped at the slot's
    bandwidth (NDR 400 needs 50 GB/s; Gen4 x16 gives 31.5 GB/s, so about 252 Gb/s); a Gen6 ConnectX-8 in a Gen5
    slot likewise. Unknown generations or widths are reported as unknown, never guessed.
    Source: fabric.md §5; [CX7-SPEC]; [CX8-ID], [DOCA-CX8] (Socket Direct 2x Gen5 for 800G)."""
    out = []
    done_unknown: set[str] = set()
    reported: set[tuple[Any, ...]] = set()
    for s in slots:
        part = s.part
        if part is None or not is_adapter(part):
            continue
        spec = part.spec
        need = card_need_gbytes(spec)
        card_link = link_gbytes(spec.host_pcie_gen, spec.host_lanes)
        slot_gen, slot_lanes = s.spec.pcie_gen, s.spec.lanes
        eff = effective_link(spec, s.spec)
        if need is None or card_link is None or eff is None:
            if part.path not in done_unknown:
                done_unknown.add(part.path)
                out.append(_link_unknown(part, s))
            continue
        key = (part.path, slot_gen, slot_lanes)
        if eff >= need or eff >= card_link or key in reported:
            continue
        reported.add(key)
        names = ", ".join(
            x.spec.name for x in slots if x.part is part and (x.spec.pcie_gen, x.spec.lanes) == (slot_gen, slot_lanes)
        )
        # the link is known, so are the slot's generation and width
        out.append(_link_shortfall(part, spec, names, cast(int, slot_gen), cast(int, slot_lanes), need, eff))
    return out


def _link_unknown(part: Part[AdapterSpec], slot: SlotState) -> Finding:
    spec = part.spec
    return finding(
        part.path,
        PcieLinkUnknown(
            part=spec.part_number,
            slot=slot.spec.name,
            slot_gen=slot.spec.pcie_gen,
            slot_lanes=slot.spec.lanes,
            card_gen=spec.host_pcie_gen,
            card_lanes=spec.host_lanes,
            need_gbytes=card_need_gbytes(spec),
        ),
    )


def _link_shortfall(
    part: CardPart, spec: AdapterSpec, names: str, slot_gen: int, slot_lanes: int, need: float, eff: float
) -> Finding:
    gen6 = cast(int, spec.host_pcie_gen) >= 6 and slot_gen == 5  # known: the link is
    kind = PcieGen6InGen5 if gen6 else PcieLinkBandwidth
    return finding(
        part.path,
        kind(
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
            line_gbps=spec.ports * cast(int, spec.speed_gbps),  # known: the need is
            need_exact=need,
            link_exact=eff,
            socket_direct=bool(spec.socket_direct),
        ),
    )


def switch_uplinks(ctx: GroupContext, server: ServerSpec, slots: list[SlotState]) -> list[Finding]:
    """Rule: the adapters behind one PCIe switch must not need more bandwidth than its uplink to the CPU gives.
    GPU traffic to a NIC on the same switch is peer-to-peer and does not cross the uplink, so only adapters
    count, each at the lesser of its line rate and its slot link. Source: PCIe arithmetic, fabric.md §5."""
    out: list[Finding] = []
    over: dict[tuple[Any, ...], list[Any]] = {}
    for sw in server.pcie_switches:
        behind = [
            s
            for s in slots
            if s.spec.pcie_switch == sw.name and s.part is not None and isinstance(s.part.spec, AdapterSpec)
        ]
        if not behind:
            continue
        uplink = link_gbytes(sw.uplink_gen, sw.uplink_lanes)
        needs: list[float] = []
        speeds_known = True
        for s in behind:
            card = cast(Part[AdapterSpec], s.part)  # behind the switch: the slots that hold an adapter
            need = card_need_gbytes(card.spec)
            if need is None:
                speeds_known = False
                break
            link = effective_link(card.spec, s.spec)
            needs.append(min(need, link) if link is not None else need)
        if uplink is None or not speeds_known:
            continue  # unknown uplink or card speed: nothing sourced to compare; the slot rules report unknowns
        total = sum(needs)
        if total > uplink:
            cards = ", ".join(sorted({cast(CardPart, x.part).spec.part_number for x in behind}))
            over.setdefault((sw.uplink_gen, sw.uplink_lanes, round(total, 1), len(behind), cards), []).append(
                (sw, cast(CardPart, behind[0].part).path, total, uplink)
            )
    for (gen, lanes, total, n_cards, cards), items in over.items():
        uplink = items[0][3]
        out.append(
            finding(
                items[0][1],
                PcieSwitchUplink(
                    switches=[sw.name for sw, _, _, _ in items],
                    need_gbytes=total,
                    uplink_gbytes=round(uplink, 2),
                    uplink_exact=uplink,
                    uplink_gen=gen,
                    uplink_lanes=lanes,
                    adapters=n_cards,
                    cards=cards.split(", "),
                ),
            )
        )
    return out
