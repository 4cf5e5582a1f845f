"""What goes into one rack: the resolved facility, switches to place, PDU choice and sizing, and the builder that
stacks nodes, switches and PDUs into racks (one devices tuple per distinct rack content).

Rules and their basis are listed in ``engines.racks.plan``; the defaults below are explained there.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from engines.findings import Finding, RackCode, finding
from engines.findings.params import Params
from engines.findings.params.racks import (
    RackCoolingDefault,
    RackCordOverRating,
    RackLiquidNodeInAir,
    RackNodeInletUnknown,
    RackNodeOverPower,
    RackNodePowerUnknown,
    RackNodeTooTall,
    RackPduBusbar,
    RackPduOverContinuous,
    RackPowerDefault,
    RackServerSizeAssumed,
    RackSwitchHeightUnknown,
    RackSwitchPowerUnknown,
    RackSystemHallPower,
)

from .inputs import Facility, NodeGroup, PduOption, SwitchGroup
from .model import Cooling, CordLine, Device, DeviceRole, Feeds, PduLine, Rack, RackKind, SwitchRole
from .systems import system_devices

DEFAULT_RACK_POWER_W = {Cooling.AIR: 30_000, Cooling.LIQUID: 80_000}  # basis in the module docstring
AIR_COOLING_LIMIT_W = 30_000  # room air without containment or rear-door heat exchangers (docstring)
MAX_COMPUTE_RACKS_PER_ROW = 8  # rows of a group without an SU size (an H100 SU's 8 compute racks)
ASSUMED_SWITCH_U = 1  # reserved for a switch of unknown height, with a finding
# Reserved for a control-plane server or UFM appliance, which the offer carries as a line without a catalogue part:
# a dual-socket x86 server with the DGX SuperPOD RA's minimum of 2 x 7.68 TB NVMe, 2 x 960 GB SSD and a BlueField-3
# (engines/cluster/control_plane.py) is built in one or two units; two are reserved so the plan never runs short.
# A stated assumption, with a finding (RACK_SERVER_SIZE_ASSUMED).
ASSUMED_SERVER_U = 2
# A place kept free in a rack (no device, no power): a ``SwitchGroup`` or ``Switch`` of this part takes its units
# and puts nothing there, as the control plane's next step is kept free in the management racks (plan.py).
KEPT_FREE = ""
_SERVER_ROLES = frozenset({SwitchRole.CONTROL, SwitchRole.UFM})
# A PDU carries at most 80 % of its rating continuously: NEC (NFPA 70) 210.20(A), as PDU makers derate to it (Geist,
# "nameplate current rating ... is 80 percent of the maximum current rating of the branch circuit") [S].
CONTINUOUS_SHARE = 0.8
# Vertical PDUs one rack takes: "Either one or two rPDUs can be installed in each rPDU tray in the back of a rack
# enclosure, providing a total of up to four rPDUs" (Dell metered rPDU owner's manual, installation configurations)
# [S]; a rack with other zero-U channels is told in Facility.zero_u_positions.
ZERO_U_PDU_POSITIONS = 4
_DEVICE_ROLE = {SwitchRole(r.value): r for r in DeviceRole if r.value in SwitchRole._value2member_map_}


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


@dataclass(frozen=True)
class Switch:
    """A switch to place, with unknown height already replaced by the assumed units (and a finding)."""

    role: SwitchRole
    part: str
    height_u: int
    power_w: int | None


@dataclass
class Draft:
    """``count`` alike racks side by side before their names are known (names follow the final slot in the row);
    the nodes of rack *k* start at ``first_node + k * nodes``."""

    kind: RackKind
    devices: tuple[Device, ...]
    power_known_w: int
    power_unknown: bool
    inlets_per_feed: int | None
    inlets_total: int | None
    group: NodeGroup | None = None
    first_node: int = 0
    nodes: int = 0
    count: int = 1
    reserved: bool = False  # places kept free in the row for what a larger plan puts there: no rack, no name

    def part(self, start: int, count: int) -> Draft:
        """``count`` of these racks from rack ``start`` on."""
        d = self
        first = d.first_node + start * d.nodes
        return Draft(
            d.kind,
            d.devices,
            d.power_known_w,
            d.power_unknown,
            d.inlets_per_feed,
            d.inlets_total,
            d.group,
            first,
            d.nodes,
            count,
            d.reserved,
        )


@lru_cache(maxsize=256)
def reserved(count: int) -> Draft:
    """``count`` places of a row kept free (see ``Draft.reserved``): one draft per count, never changed, so a row's
    drafts keep their identity when its racks are laid out again (``finish_rows`` remembers rows by it)."""
    return Draft(RackKind.COMPUTE, (), 0, False, None, None, count=count, reserved=True)


class Context:
    """Resolved facility and the findings collected while planning."""

    def __init__(self, facility: Facility, node_groups: Sequence[NodeGroup]) -> None:
        self.findings: list[Finding] = []
        self.u_total = facility.rack_units
        self.feeds = facility.pdu_feeds
        self.positions = facility.zero_u_positions
        if facility.cooling is not None:
            self.cooling, self.cooling_basis = facility.cooling, "facility"
        else:
            liquid = any(g.cooling == Cooling.LIQUID for g in node_groups)
            self.cooling, self.cooling_basis = (Cooling.LIQUID if liquid else Cooling.AIR), "nodes"
            self.add("facility.cooling", RackCoolingDefault(cooling=str(self.cooling)))
        if facility.rack_power_kw is not None:
            self.limit_w, self.limit_basis = round(facility.rack_power_kw * 1000), "facility"
        else:
            self.limit_w, self.limit_basis = DEFAULT_RACK_POWER_W[self.cooling], f"default-{self.cooling}"
            self.add(
                "facility.rack_power_kw",
                RackPowerDefault(cooling=str(self.cooling), limit_w=self.limit_w, basis=self.limit_basis),
            )

    def add(self, subject: str, params: Params) -> None:
        """Adds a finding at ``subject`` with its code's parameters; its severity comes from the rule registry, as
        for every engine."""
        self.findings.append(finding(subject, params))


def switches_by_role(ctx: Context, groups: Sequence[SwitchGroup]) -> dict[SwitchRole, list[Switch]]:
    """Every device to place besides the nodes, by role: a switch of unknown height takes ASSUMED_SWITCH_U, a
    control-plane server or UFM appliance of unknown size ASSUMED_SERVER_U (one finding for all of them)."""
    out: dict[SwitchRole, list[Switch]] = {role: [] for role in SwitchRole}
    warned: set[tuple[RackCode, str]] = set()
    servers = [g for g in groups if g.role in _SERVER_ROLES and g.count and g.height_u is None and g.part != KEPT_FREE]
    if servers:
        assumed = RackServerSizeAssumed(servers=sum(g.count for g in servers), assumed_u=ASSUMED_SERVER_U)
        ctx.add("node_groups", assumed)
    for g in groups:
        height = g.height_u
        subject = f"switches.{g.role}"
        if g.role in _SERVER_ROLES:
            out[g.role].extend([Switch(g.role, g.part, height or ASSUMED_SERVER_U, g.power_w)] * g.count)
            continue
        if height is None:
            height = ASSUMED_SWITCH_U
            if (RackCode.SWITCH_HEIGHT_UNKNOWN, g.part) not in warned:
                warned.add((RackCode.SWITCH_HEIGHT_UNKNOWN, g.part))
                ctx.add(subject, RackSwitchHeightUnknown(part=g.part, assumed_u=ASSUMED_SWITCH_U))
        if g.power_w is None and (RackCode.SWITCH_POWER_UNKNOWN, g.part) not in warned:
            warned.add((RackCode.SWITCH_POWER_UNKNOWN, g.part))
            ctx.add(subject, RackSwitchPowerUnknown(part=g.part))
        count = 1 if g.role == SwitchRole.MANAGEMENT else g.count
        out[g.role].extend([Switch(g.role, g.part, height, g.power_w)] * count)
    return out


def choose_pdu(options: Sequence[PduOption], limit_w: int) -> PduOption | None:
    if not options:
        return None
    return min(options, key=lambda o: (ceil_div(limit_w, o.rating_w), o.height_u > 0, o.rating_w, o.part))


def _pdus_per_feed(pdu: PduOption, power_w: int, inlets_per_feed: int | None, share: float = CONTINUOUS_SHARE) -> int:
    by_power = max(1, ceil_div(power_w, int(pdu.rating_w * share)))
    if pdu.outlets and inlets_per_feed:
        return max(by_power, ceil_div(inlets_per_feed, pdu.outlets))
    return by_power


class Builder:
    """Places devices into racks, keeping one devices tuple per distinct rack content."""

    def __init__(
        self, ctx: Context, mgmt: Switch | None, pdu: PduOption | None, options: Sequence[PduOption] = ()
    ) -> None:
        self.ctx, self.mgmt, self.pdu = ctx, mgmt, pdu
        # Each rack picks its PDU among the options of the plan's mounting (the units reserved stay valid).
        self.options = [o for o in options if pdu is not None and (o.height_u > 0) == (pdu.height_u > 0)] or (
            [pdu] if pdu else []
        )
        self.positions = ctx.positions
        # Per distinct rack content: (PDU over 80 %, its load in W) or "busbar" (nothing fits).
        self.power_notes: dict[int, tuple[PduOption, int] | str] = {}
        self.feeds = 2 if ctx.feeds == Feeds.AB else 1
        # Horizontal PDUs are reserved for the plan's limit (an upper bound of any rack's need).
        self.pdu_u = pdu.height_u * _pdus_per_feed(pdu, ctx.limit_w, None) * self.feeds if pdu else 0
        self.mgmt_u = mgmt.height_u if mgmt else 0
        self.mgmt_w = (mgmt.power_w or 0) if mgmt else 0
        self._cache: dict[object, tuple[tuple[Device, ...], int, bool]] = {}
        self._network: dict[tuple[tuple[int, int], ...], tuple[tuple[Device, ...], int, bool]] = {}
        self._packed: dict[tuple[object, ...], list[Draft]] = {}
        self.held: list[object] = []
        self.equipment: dict[int, tuple[tuple[PduLine, ...], tuple[CordLine, ...], bool, bool, int]] = {}

    def top_devices(self, switches: Sequence[Switch]) -> tuple[list[Device], int, bool]:
        """Management switch at the top, the given switches below it (a ``KEPT_FREE`` one keeps its units free);
        returns devices, known W, unknown?"""
        out: list[Device] = []
        top = self.ctx.u_total + 1
        known, unknown = 0, False
        for sw in ([self.mgmt] if self.mgmt else []) + list(switches):
            top -= sw.height_u
            if sw.part == KEPT_FREE:
                continue
            out.append(Device(sw.part, sw.part, _DEVICE_ROLE[sw.role], top, sw.height_u, sw.power_w))
            known += sw.power_w or 0
            unknown = unknown or sw.power_w is None
        return out, known, unknown

    def pdu_devices(self, count: int) -> list[Device]:
        if not self.pdu or not self.pdu.height_u:
            return []
        h = self.pdu.height_u
        return [Device(self.pdu.part, self.pdu.part, DeviceRole.PDU, 1 + i * h, h, None) for i in range(count)]

    def compute(self, group: NodeGroup, nodes: int, leaves: Sequence[Switch]) -> tuple[tuple[Device, ...], int, bool]:
        key = (id(group), nodes, *map(id, leaves))
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        if group.rack_scale:  # the system is the rack: its trays, shelves and management switches are inside it
            devices = system_devices(group) or (
                Device(group.part, group.part, DeviceRole.NODE, 1, group.height_u, group.power_w),
            )
            hit = self._cache[key] = (devices, group.power_w or 0, group.power_w is None)
            return hit
        top, known, unknown = self.top_devices(leaves)
        pdu_devices = self.pdu_devices(self.pdu_u // self.pdu.height_u if self.pdu and self.pdu.height_u else 0)
        base = 1 + self.pdu_u
        node_devices = [
            Device(group.part, group.part, DeviceRole.NODE, base + i * group.height_u, group.height_u, group.power_w)
            for i in range(nodes)
        ]
        known += (group.power_w or 0) * nodes
        unknown = unknown or group.power_w is None
        hit = (tuple(pdu_devices + node_devices + top), known, unknown)
        self._cache[key] = hit
        return hit

    def network(self, batch: Sequence[tuple[Switch, int]], kind: RackKind = RackKind.NETWORK) -> Draft:
        """A network (or management) rack of the batch's devices (each with how many of it, in order)."""
        key = tuple((id(sw), n) for sw, n in batch)
        hit = self._network.get(key)
        if hit is None:
            top, known, unknown = self.top_devices([sw for sw, n in batch for _ in range(n)])
            pdu_devices = self.pdu_devices(self.pdu_u // self.pdu.height_u if self.pdu and self.pdu.height_u else 0)
            hit = self._network[key] = (tuple(pdu_devices + top), known, unknown)
        return Draft(kind, hit[0], hit[1], hit[2], None, None)

    def pack_network(
        self, switches: Sequence[Switch], kind: RackKind = RackKind.NETWORK, kept: Sequence[Sequence[Switch]] = ()
    ) -> list[Draft]:
        """Fill network (or management) racks in order, by units and by the rack power limit (unknown power counts
        as 0). ``kept``: racks that stand as they are, each with its switches top down; the last of them is filled
        on with ``switches`` before new racks are started.

        The same switches pack the same way: every row's leaves are packed once (drafts are never changed)."""
        key = (kind, *map(id, switches), *(id(sw) for rack in kept for sw in (*rack, None)))
        hit = self._packed.get(key)
        if hit is None:
            hit = self._packed[key] = self._pack_network(switches, kind, kept)
            self.held.append((switches, kept))  # the ids in the key stay theirs while the builder lives
        return list(hit)

    def _pack_network(
        self, switches: Sequence[Switch], kind: RackKind, kept: Sequence[Sequence[Switch]] = ()
    ) -> list[Draft]:
        """A switch goes into the current rack while its units and power fit, else into a new one (an empty rack
        takes it even when it does not fit). Taken a run of the same switch at a time; alike racks are one run."""
        room_u = self.ctx.u_total - self.mgmt_u - self.pdu_u
        room_w = self.ctx.limit_w - self.mgmt_w
        racks: list[Draft] = []
        batch: list[tuple[Switch, int]] = []
        used_u = used_w = 0

        def close() -> None:
            draft = self.network(batch, kind)
            if racks and racks[-1].devices is draft.devices:
                racks[-1].count += 1
            else:
                racks.append(draft)

        for rack in kept:
            if batch:
                close()
            batch = _same_in_a_row(rack)
            used_u = sum(sw.height_u * n for sw, n in batch)
            used_w = sum((sw.power_w or 0) * n for sw, n in batch)
        for sw, left in _same_in_a_row(switches):
            watts = sw.power_w or 0
            while left:
                fit_u = (room_u - used_u) // sw.height_u
                fit_w = (room_w - used_w) // watts if watts else (left if used_w <= room_w else 0)
                take = min(left, fit_u, fit_w)
                if take <= 0:
                    if batch:
                        close()
                        batch, used_u, used_w = [], 0, 0
                        continue
                    take = 1
                batch.append((sw, take))
                used_u += take * sw.height_u
                used_w += take * watts
                left -= take
        if batch:
            close()
        return racks


def _same_in_a_row(switches: Sequence[Switch]) -> list[tuple[Switch, int]]:
    """The switches as (switch, how many times in a row): the planner's lists repeat one object per group."""
    out: list[tuple[Switch, int]] = []
    for sw in switches:
        if out and out[-1][0] is sw:
            out[-1] = (sw, out[-1][1] + 1)
        else:
            out.append((sw, 1))
    return out


def nodes_per_rack(ctx: Context, b: Builder, group: NodeGroup, extra_u: int, extra_w: int) -> int:
    """How many of the group's nodes one rack takes, or 0 when none fits by height (a rack-scale system: one)."""
    if group.rack_scale:
        return 1
    usable_u = ctx.u_total - b.mgmt_u - b.pdu_u - extra_u
    if group.height_u > usable_u:
        return 0
    by_u = min(usable_u // group.height_u, group.per_rack or usable_u)
    if group.power_w is None or group.power_w <= 0:
        return by_u
    room_w = ctx.limit_w - b.mgmt_w - extra_w
    return max(1, min(by_u, room_w // group.power_w))


def check_group(ctx: Context, b: Builder, group: NodeGroup, i: int) -> bool:
    """Findings about one group on its own; False when it cannot be racked at all."""
    subject = f"node_groups[{i}]"
    if group.cooling == Cooling.LIQUID and ctx.cooling == Cooling.AIR:
        # an NVL72 has no air-cooled variant: its own fix
        ctx.add(subject, RackLiquidNodeInAir(part=group.part, rack_scale=True if group.rack_scale else None))
    _check_power(ctx, group, subject, ctx.limit_w - b.mgmt_w)
    if group.rack_scale:
        return True
    if group.inlets is None:
        ctx.add(subject, RackNodeInletUnknown(part=group.part))
    usable_u = ctx.u_total - b.mgmt_u - b.pdu_u
    if group.height_u > usable_u:
        ctx.add(subject, RackNodeTooTall(part=group.part, height_u=group.height_u, usable_u=usable_u))
        return False
    return True


def _check_power(ctx: Context, group: NodeGroup, subject: str, room_w: int | None) -> None:
    """A node's power against the rack's room. A rack-scale system is a rack of its own: the facility's rack units
    do not bound it, its power shelves are built in (no PDUs, cords or management switch to count), and its power
    is checked only against a rack power the facility gives; the planner's per-cooling default is a sizing
    assumption for racks of servers, not a limit on a whole-rack product (GB300 NVL72: up to 142 kW, NVIDIA
    Enterprise RA). Without a facility figure it is planned at its own power, and an info finding says the hall must
    give each of its racks that much (RACK_SYSTEM_HALL_POWER); a facility figure below it is an error."""
    if group.rack_scale:
        room_w = ctx.limit_w if ctx.limit_basis == "facility" else None
        if room_w is None and group.power_w is not None:
            ctx.add(subject, RackSystemHallPower(part=group.part, power_w=group.power_w, default_w=ctx.limit_w))
    if group.power_w is None:
        ctx.add(subject, RackNodePowerUnknown(part=group.part))
    elif room_w is not None and group.power_w > room_w:
        ctx.add(
            subject,
            RackNodeOverPower(part=group.part, power_w=group.power_w, limit_w=ctx.limit_w),
        )


def equipment(b: Builder, d: Draft) -> tuple[tuple[PduLine, ...], tuple[CordLine, ...], bool, bool, int]:
    """PDUs and cords of a rack, whether its load is partly unknown, outlets unknown, units used (cached)."""
    # One devices tuple per distinct rack content (Builder): it fixes the group, the node count and so the load
    # and the inlets.
    key = id(d.devices)
    hit = b.equipment.get(key)
    if hit is not None:
        return hit
    pdus: tuple[PduLine, ...] = ()
    partial = outlets_unknown = False
    if d.group is not None and d.group.rack_scale:  # its own power shelves: no PDUs, no cords
        hit = b.equipment[key] = ((), (), False, False, sum(dev.height_u for dev in d.devices))
        return hit
    pdu = b.pdu
    if b.pdu is not None:
        # Sized from the known load; when part of it is unknown the plan says so (RACK_PDU_KNOWN_LOAD_ONLY).
        partial = d.power_unknown
        current = d.group.inlet_current_a if d.group is not None else None
        choice = choose_rack_pdu(b, d.power_known_w, d.inlets_per_feed, current)
        if choice is None:
            b.power_notes[key] = "busbar"
        else:
            pdu, per_feed = choice
            pdus = (PduLine(pdu.part, per_feed * b.feeds, pdu.cord),)
            per_pdu_w = -(-d.power_known_w // per_feed)
            if per_pdu_w > pdu.rating_w * CONTINUOUS_SHARE:
                b.power_notes[key] = (pdu, per_pdu_w)
        outlets_unknown = d.kind == RackKind.COMPUTE and (pdu is None or not pdu.outlets or d.inlets_per_feed is None)
    cords: tuple[CordLine, ...] = ()
    if d.group is not None and d.inlets_total:
        # A supply goes on an outlet that carries its current, never on one the plan knows to be overloaded: when
        # the rack's PDU has none, the cord names no outlet (and power_findings says what the catalogue lacks).
        current = d.group.inlet_current_a
        outlet = pdu.outlet_type if pdu is not None and outlet_carries(pdu, current) else None
        cords = (CordLine(outlet, d.group.inlet_type, d.inlets_total, current),)
    hit = b.equipment[key] = (pdus, cords, partial, outlets_unknown, sum(dev.height_u for dev in d.devices))
    return hit


def outlet_carries(pdu: PduOption, current_a: float | None) -> bool:
    """The PDU's outlet (and the cord into it) carries a supply drawing ``current_a``; an unknown current or outlet
    rating is not claimed to overload."""
    return current_a is None or pdu.outlet_current_a is None or current_a <= pdu.outlet_current_a


def choose_rack_pdu(
    b: Builder, power_w: int, inlets_per_feed: int | None, current_a: float | None = None
) -> tuple[PduOption, int] | None:
    """The rack's PDU and how many per feed: the fewest that carry the load at 80 % of their rating (then the
    smallest rating) within the rack's zero-U positions; else the fewest that carry it at 100 % within them (the
    plan warns); None when no option carries it in the positions (a busbar). Horizontal PDUs take units, not
    positions: their count is not bounded here (the units were reserved). Only PDUs whose outlets carry the
    supplies' ``current_a`` are taken while any option has such outlets."""
    options = [o for o in b.options if outlet_carries(o, current_a)] or b.options
    for share in (CONTINUOUS_SHARE, 1.0):
        fits = []
        for o in options:
            per_feed = _pdus_per_feed(o, power_w, inlets_per_feed, share)
            if o.height_u == 0 and per_feed * b.feeds > b.positions:
                continue
            fits.append((per_feed, o.rating_w, o.part, o))
        if fits:
            per_feed, _, _, o = min(fits, key=lambda f: f[:3])
            return o, per_feed
    return None


def power_findings(ctx: Context, b: Builder, runs: Sequence[Any]) -> None:
    """One finding per PDU over 80 %, one for racks needing a busbar, one per server whose supplies draw more than
    the PDU's outlets carry."""
    over: dict[str, list[Any]] = {}
    busbar: list[Any] = []
    for run in runs:
        note = b.power_notes.get(id(run.rack.devices))
        if isinstance(note, tuple):
            over.setdefault(note[0].part, []).append((run, note))
        elif note == "busbar":
            busbar.append(run)
    for part, items in over.items():
        pdu, per_pdu_w = max((n for _, n in items), key=lambda n: n[1])
        ctx.add(
            "facility.rack_power_kw",
            RackPduOverContinuous(
                part=part,
                racks=sum(run.count for run, _ in items),
                first_rack=items[0][0].rack.name,
                rating_w=pdu.rating_w,
                per_pdu_w=per_pdu_w,
                load_pct=round(100 * per_pdu_w / pdu.rating_w),
            ),
        )
    if busbar:
        best = max(b.options, key=lambda o: o.rating_w) if b.options else None
        per_feed = b.positions // b.feeds
        ctx.add(
            "facility.rack_power_kw",
            RackPduBusbar(
                racks=sum(run.count for run in busbar),
                first_rack=busbar[0].rack.name,
                power_w=max(run.rack.power_known_w for run in busbar),
                positions=b.positions,
                max_w=best.rating_w * per_feed if best else 0,
            ),
        )
    _cord_findings(ctx, b, runs)


def _cord_findings(ctx: Context, b: Builder, runs: Sequence[Any]) -> None:
    """One warning per server whose supplies draw more than any PDU outlet the plan may choose carries: it names the
    current and the best outlet there is (the catalogue lacks an outlet and cord for it); its cords name no outlet,
    so none is billed as if it carried the supply, whether or not the warning is accepted."""
    best = max((o for o in b.options if o.outlet_current_a), key=lambda o: o.outlet_current_a or 0, default=None)
    warned: set[str] = set()
    for run in runs:
        for c in run.rack.cords:
            node = next((d.part for d in run.rack.devices if d.role == DeviceRole.NODE), None)
            if c.pdu_outlet is not None or best is None or outlet_carries(best, c.current_a):
                continue
            if c.current_a and node and node not in warned:
                warned.add(node)
                ctx.add(
                    "facility.pdu_feeds",
                    RackCordOverRating(
                        part=node,
                        current_a=round(c.current_a, 1),
                        outlet=best.outlet_type,
                        outlet_current_a=best.outlet_current_a,
                    ),
                )


def finish_rack(b: Builder, d: Draft, name: str, row: int, slot: int, ctx: Context) -> tuple[Rack, bool, bool]:
    """Name the draft and size its PDUs; returns the rack, whether its load is partly unknown, outlets unknown."""
    pdus, cords, partial, outlets_unknown, used = equipment(b, d)
    rack = Rack(
        name,
        d.kind,
        row,
        slot,
        d.group.height_u if d.group is not None and d.group.rack_scale else ctx.u_total,
        used,
        None if d.power_unknown else d.power_known_w,
        d.power_known_w,
        ctx.cooling,
        d.devices,
        pdus,
        cords,
        d.group.name if d.group else None,
        d.first_node,
        d.nodes,
        d.group is not None and d.group.rack_scale,
    )
    return rack, partial, outlets_unknown
