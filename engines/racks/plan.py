"""Rack plan: which node, switch and PDU goes in which rack, at which unit, in which row.

Pure Python: frozen dataclasses in (``model.py``), a ``RackPlan`` out. No I/O, clock or randomness.

Rules (each with its basis)
---------------------------
* **Racks** have ``facility.rack_units`` units (default 42). Positions count from U1 at the bottom (EIA-310).
  Horizontal PDUs (``PduOption.height_u`` > 0) sit at the bottom, nodes stack upwards from above them (heavy
  equipment low), the management switch takes the top units and in-rack leaf switches sit just below it.
* **Nodes per rack** = the smaller of what the units allow (after the management switch, in-rack leaves and
  horizontal PDUs) and what the rack power allows (after the switches' known power). A node taller than the
  usable units, or drawing more than one rack may, is an error finding; the latter still gets a rack of its own.
* **Rack power limit**: ``facility.rack_power_kw`` when given, otherwise a default per cooling type, stated in
  the plan (``rack_power_basis``) and by an info finding:

  - air: ``DEFAULT_RACK_POWER_W[air]`` = 30 kW. Basis: the usual ceiling of room air cooling for a 42U rack
    without rear-door heat exchangers or full containment, about 25-30 kW [S] (The Register, "How thermal
    management is changing in the age of the kilowatt chip", 2023: air-cooled GPU systems "working out to about
    21-24 kW per rack ... within the ... capacity of modern datacenters, especially those making use of rear door
    heat exchangers"; industry guides give "air cooling max ~25-30 kW/rack"). NVIDIA's own air-cooled designs go
    higher in halls built for it: DGX SuperPOD B200 RA-11334-001 "power consumption per rack exceeds 25 kW";
    DGX SuperPOD B300 (XDR) RA: "four DGX B300 fit within a single rack ... ~56kW ... depending on your data
    center's capability, you might need to reduce the number of DGXs hosted on the same rack" [V]. A site that
    carries more says so in ``facility.rack_power_kw``.
  - liquid: ``DEFAULT_RACK_POWER_W[liquid]`` = 80 kW. Basis: Supermicro's liquid-cooled racks hold eight 4U HGX
    H100 systems with an in-rack CDU [S] (Electronic Design on xAI Colossus, 2024), at a DGX H100-class ~10 kW
    each (hardware.md §4, "about 10.2 kW maximum") about 80 kW. No vendor publishes one figure for a liquid rack.

* **Air versus liquid**: ``facility.cooling`` when given, else liquid if any node group is liquid-cooled, else air
  (info finding). A liquid-cooled server in an air-cooled facility is an error: it has no heat sinks to run on
  air. An air-cooled rack above ``AIR_COOLING_LIMIT_W`` (the 30 kW air ceiling above) is a warning: the hall needs
  containment or rear-door heat exchangers, or fewer nodes per rack.
* **Rows**: a row per scalable unit (``NodeGroup.su_nodes``), as the DGX SuperPOD RAs lay out one SU per row
  (GB200 RA-11338-001: "Figure 1 Complete Rack Layout in One Row" for one SU) [V]; a group without an SU size is
  cut into rows of at most ``MAX_COMPUTE_RACKS_PER_ROW`` compute racks (the 8 compute racks of an H100 SU [S]).
* **Leaf switches**: in a network rack of their row, in the row's middle (default) or at its end
  (``LeafPlacement``). Chosen because in a rail-optimised SU every node has one link to every leaf of its SU
  (fabric.md §0 rule 1), so all leaves of an SU belong together, and a rack in the middle halves the longest
  node-to-leaf run; this is the SU layout of the DGX SuperPOD H100 design, an SU's compute racks on both sides of
  its leaf rack [S: secondary description of the H100 RA layout], and the model the fabric planner already uses
  (``engines/fabric/README.md``, "leaves sit in a network rack in the middle of the row"). Exception: when
  the whole cluster with its leaves fits one rack, the leaves go into that rack with their nodes
  (``leaf_placement`` "in-rack"), as a one-rack system needs no network rack.
* **Spine and core switches** fill network racks of their own row, placed in the middle of the compute rows
  (which halves the longest leaf-to-spine run), when there are two or more compute rows; with one row they stand
  at its end. NVIDIA's RAs show the networking switches in racks of their own, apart from the DGX racks (B200
  RA-11334-001, "Figure 3 ... an example management rack configuration with networking switches, management
  servers, storage arrays, and UFM appliances") [V].
* **Management switch**: one per rack, every rack (compute and network), at the top.
* **PDUs**: one option is chosen for the plan: the one that carries the rack power limit with the fewest PDUs per
  feed, zero-U before horizontal, then the smallest rating. Per rack and feed: enough PDUs for the rack's power
  (feed ``A``: the one feed carries the rack; ``A+B``: *each* feed carries the whole rack, so the count doubles)
  and for its inlets (``A+B`` puts half of each node's inlets on each feed). ``PduOption.rating_w`` is the
  continuous load one PDU may carry (derated as the site's electrical code requires before it reaches here).
  Node power cords: one per inlet, PDU outlet type to node inlet type. Switch cords are not counted (switch
  inlets are not in the catalogue).
* **Facility power** = nodes + switches + ``other_it_power_w`` (e.g. transceivers). PDU losses and cooling are not
  included, and the totals say so (``overhead_included``).

Finding codes (``RackCode``; params are plain values, messages come from gettext at the service edge)
---------------------------------------------------------------------------------------------------
RACK_POWER_DEFAULT (info)           facility names no rack power; params: cooling, limit_w, basis
RACK_COOLING_DEFAULT (info)         facility names no cooling; params: cooling (as inferred from the nodes)
RACK_NODE_TOO_TALL (error)          a node is taller than a rack's usable units; params: height_u, usable_u
RACK_NODE_OVER_POWER (error)        one node draws more than a rack may; params: power_w, limit_w
RACK_NODE_POWER_UNKNOWN (warning)   node power unknown: racks are filled by units only, rack power is unknown
RACK_SWITCH_POWER_UNKNOWN (warning) a switch's power is unknown; rack and facility power leave it out; params: part
RACK_SWITCH_HEIGHT_UNKNOWN (warning) a switch's height is unknown; 1U is reserved for it; params: part, assumed_u
RACK_AIR_DENSITY (warning)          air-cooled racks above the air ceiling; params: racks, max_power_w, air_limit_w
RACK_LIQUID_NODE_IN_AIR (error)     a liquid-cooled server in an air-cooled facility; params: part
RACK_NO_PDU (error)                 no PDU option was given; PDUs are not planned
RACK_PDU_KNOWN_LOAD_ONLY (warning)  part of a rack's load is unknown: its PDUs cover the known load only;
                                    params: racks, first_rack
RACK_PDU_OUTLETS_UNKNOWN (warning)  PDU outlets or node inlets unknown: PDUs are sized by power only
RACK_NODE_INLET_UNKNOWN (warning)   a node's inlet count is unknown: its power cords are not counted
RACK_NO_MANAGEMENT_SWITCH (warning) no management switch given: none is placed, no unit is reserved
RACK_MANAGEMENT_SWITCH_COUNT (info) one per rack needs ``needed``, the design lists ``listed``
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from .model import (
    Cooling,
    CordLine,
    Device,
    DeviceRole,
    Facility,
    Feeds,
    Finding,
    LeafPlacement,
    NodeGroup,
    PduLine,
    PduOption,
    Rack,
    RackCode,
    RackKind,
    RackPlan,
    RackRun,
    Row,
    Severity,
    SwitchGroup,
    SwitchRole,
)

DEFAULT_RACK_POWER_W = {Cooling.AIR: 30_000, Cooling.LIQUID: 80_000}  # basis in the module docstring
AIR_COOLING_LIMIT_W = 30_000  # room air without containment or rear-door heat exchangers (docstring)
MAX_COMPUTE_RACKS_PER_ROW = 8  # rows of a group without an SU size (an H100 SU's 8 compute racks)
ASSUMED_SWITCH_U = 1  # reserved for a switch of unknown height, with a finding
_DEVICE_ROLE = {SwitchRole(r.value): r for r in DeviceRole if r.value in SwitchRole._value2member_map_}


def _ceil(a: int, b: int) -> int:
    return -(-a // b)


@dataclass(frozen=True)
class _Sw:
    """A switch to place, with unknown height already replaced by the assumed units (and a finding)."""

    role: SwitchRole
    part: str
    height_u: int
    power_w: int | None


@dataclass
class _Draft:
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

    def part(self, start: int, count: int) -> _Draft:
        """``count`` of these racks from rack ``start`` on."""
        d = self
        first = d.first_node + start * d.nodes
        return _Draft(
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
        )


class _Ctx:
    """Resolved facility and the findings collected while planning."""

    def __init__(self, facility: Facility, node_groups: Sequence[NodeGroup]) -> None:
        self.findings: list[Finding] = []
        self.u_total = facility.rack_units
        self.feeds = facility.pdu_feeds
        if facility.cooling is not None:
            self.cooling, self.cooling_basis = facility.cooling, "facility"
        else:
            liquid = any(g.cooling == Cooling.LIQUID for g in node_groups)
            self.cooling, self.cooling_basis = (Cooling.LIQUID if liquid else Cooling.AIR), "nodes"
            self.add(RackCode.COOLING_DEFAULT, Severity.INFO, "facility.cooling", cooling=str(self.cooling))
        if facility.rack_power_kw is not None:
            self.limit_w, self.limit_basis = round(facility.rack_power_kw * 1000), "facility"
        else:
            self.limit_w, self.limit_basis = DEFAULT_RACK_POWER_W[self.cooling], f"default-{self.cooling}"
            self.add(
                RackCode.POWER_DEFAULT,
                Severity.INFO,
                "facility.rack_power_kw",
                cooling=str(self.cooling),
                limit_w=self.limit_w,
                basis=self.limit_basis,
            )

    def add(self, code: RackCode, severity: Severity, subject: str, **params: object) -> None:
        self.findings.append(Finding(code, severity, subject, dict(params)))


def _switches(ctx: _Ctx, groups: Sequence[SwitchGroup]) -> dict[SwitchRole, list[_Sw]]:
    out: dict[SwitchRole, list[_Sw]] = {role: [] for role in SwitchRole}
    warned: set[tuple[RackCode, str]] = set()
    for g in groups:
        height = g.height_u
        subject = f"switches.{g.role}"
        if height is None:
            height = ASSUMED_SWITCH_U
            if (RackCode.SWITCH_HEIGHT_UNKNOWN, g.part) not in warned:
                warned.add((RackCode.SWITCH_HEIGHT_UNKNOWN, g.part))
                ctx.add(
                    RackCode.SWITCH_HEIGHT_UNKNOWN, Severity.WARNING, subject, part=g.part, assumed_u=ASSUMED_SWITCH_U
                )
        if g.power_w is None and (RackCode.SWITCH_POWER_UNKNOWN, g.part) not in warned:
            warned.add((RackCode.SWITCH_POWER_UNKNOWN, g.part))
            ctx.add(RackCode.SWITCH_POWER_UNKNOWN, Severity.WARNING, subject, part=g.part)
        count = 1 if g.role == SwitchRole.MANAGEMENT else g.count
        out[g.role].extend([_Sw(g.role, g.part, height, g.power_w)] * count)
    return out


def _choose_pdu(options: Sequence[PduOption], limit_w: int) -> PduOption | None:
    if not options:
        return None
    return min(options, key=lambda o: (_ceil(limit_w, o.rating_w), o.height_u > 0, o.rating_w, o.part))


def _pdus_per_feed(pdu: PduOption, power_w: int, inlets_per_feed: int | None) -> int:
    by_power = max(1, _ceil(power_w, pdu.rating_w))
    if pdu.outlets and inlets_per_feed:
        return max(by_power, _ceil(inlets_per_feed, pdu.outlets))
    return by_power


class _Builder:
    """Places devices into racks, keeping one devices tuple per distinct rack content."""

    def __init__(self, ctx: _Ctx, mgmt: _Sw | None, pdu: PduOption | None) -> None:
        self.ctx, self.mgmt, self.pdu = ctx, mgmt, pdu
        self.feeds = 2 if ctx.feeds == Feeds.AB else 1
        # Horizontal PDUs are reserved for the plan's limit (an upper bound of any rack's need).
        self.pdu_u = pdu.height_u * _pdus_per_feed(pdu, ctx.limit_w, None) * self.feeds if pdu else 0
        self.mgmt_u = mgmt.height_u if mgmt else 0
        self.mgmt_w = (mgmt.power_w or 0) if mgmt else 0
        self._cache: dict[object, tuple[tuple[Device, ...], int, bool]] = {}
        self._network: dict[tuple[int, ...], tuple[tuple[Device, ...], int, bool]] = {}
        self._packed: dict[tuple[int, ...], list[_Draft]] = {}
        self.equipment: dict[int, tuple[tuple[PduLine, ...], tuple[CordLine, ...], bool, bool, int]] = {}

    def top_devices(self, switches: Sequence[_Sw]) -> tuple[list[Device], int, bool]:
        """Management switch at the top, the given switches below it; returns devices, known W, unknown?"""
        out: list[Device] = []
        top = self.ctx.u_total + 1
        known, unknown = 0, False
        for sw in ([self.mgmt] if self.mgmt else []) + list(switches):
            top -= sw.height_u
            out.append(Device(sw.part, sw.part, _DEVICE_ROLE[sw.role], top, sw.height_u, sw.power_w))
            known += sw.power_w or 0
            unknown = unknown or sw.power_w is None
        return out, known, unknown

    def pdu_devices(self, count: int) -> list[Device]:
        if not self.pdu or not self.pdu.height_u:
            return []
        h = self.pdu.height_u
        return [Device(self.pdu.part, self.pdu.part, DeviceRole.PDU, 1 + i * h, h, None) for i in range(count)]

    def compute(self, group: NodeGroup, nodes: int, leaves: Sequence[_Sw]) -> tuple[tuple[Device, ...], int, bool]:
        key = (id(group), nodes, len(leaves))
        hit = self._cache.get(key)
        if hit is not None:
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

    def network(self, batch: Sequence[tuple[_Sw, int]]) -> _Draft:
        """A network rack of the batch's switches (each switch with how many of it, in order)."""
        key = tuple((id(sw), n) for sw, n in batch)
        hit = self._network.get(key)
        if hit is None:
            top, known, unknown = self.top_devices([sw for sw, n in batch for _ in range(n)])
            pdu_devices = self.pdu_devices(self.pdu_u // self.pdu.height_u if self.pdu and self.pdu.height_u else 0)
            hit = self._network[key] = (tuple(pdu_devices + top), known, unknown)
        return _Draft(RackKind.NETWORK, hit[0], hit[1], hit[2], None, None)

    def pack_network(self, switches: Sequence[_Sw]) -> list[_Draft]:
        """Fill network racks in order, by units and by the rack power limit (unknown power counts as 0).

        The same switches pack the same way: every row's leaves are packed once (drafts are never changed)."""
        key = tuple(map(id, switches))
        hit = self._packed.get(key)
        if hit is None:
            hit = self._packed[key] = self._pack_network(switches)
        return list(hit)

    def _pack_network(self, switches: Sequence[_Sw]) -> list[_Draft]:
        """A switch goes into the current rack while its units and power fit, else into a new one (an empty rack
        takes it even when it does not fit). Taken a run of the same switch at a time; alike racks are one run."""
        room_u = self.ctx.u_total - self.mgmt_u - self.pdu_u
        room_w = self.ctx.limit_w - self.mgmt_w
        racks: list[_Draft] = []
        batch: list[tuple[_Sw, int]] = []
        used_u = used_w = 0

        def close() -> None:
            draft = self.network(batch)
            if racks and racks[-1].devices is draft.devices:
                racks[-1].count += 1
            else:
                racks.append(draft)

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


def _same_in_a_row(switches: Sequence[_Sw]) -> list[tuple[_Sw, int]]:
    """The switches as (switch, how many times in a row): the planner's lists repeat one object per group."""
    out: list[tuple[_Sw, int]] = []
    for sw in switches:
        if out and out[-1][0] is sw:
            out[-1] = (sw, out[-1][1] + 1)
        else:
            out.append((sw, 1))
    return out


def _nodes_per_rack(ctx: _Ctx, b: _Builder, group: NodeGroup, extra_u: int, extra_w: int) -> int:
    """How many of the group's nodes one rack takes, or 0 when none fits by height."""
    usable_u = ctx.u_total - b.mgmt_u - b.pdu_u - extra_u
    if group.height_u > usable_u:
        return 0
    by_u = usable_u // group.height_u
    if group.power_w is None or group.power_w <= 0:
        return by_u
    room_w = ctx.limit_w - b.mgmt_w - extra_w
    return max(1, min(by_u, room_w // group.power_w))


def _check_group(ctx: _Ctx, b: _Builder, group: NodeGroup, i: int) -> bool:
    """Findings about one group on its own; False when it cannot be racked at all."""
    subject = f"node_groups[{i}]"
    if group.cooling == Cooling.LIQUID and ctx.cooling == Cooling.AIR:
        ctx.add(RackCode.LIQUID_NODE_IN_AIR, Severity.ERROR, subject, part=group.part)
    if group.power_w is None:
        ctx.add(RackCode.NODE_POWER_UNKNOWN, Severity.WARNING, subject, part=group.part)
    elif group.power_w > ctx.limit_w - b.mgmt_w:
        ctx.add(
            RackCode.NODE_OVER_POWER,
            Severity.ERROR,
            subject,
            part=group.part,
            power_w=group.power_w,
            limit_w=ctx.limit_w,
        )
    if group.inlets is None:
        ctx.add(RackCode.NODE_INLET_UNKNOWN, Severity.WARNING, subject, part=group.part)
    usable_u = ctx.u_total - b.mgmt_u - b.pdu_u
    if group.height_u > usable_u:
        ctx.add(
            RackCode.NODE_TOO_TALL, Severity.ERROR, subject, part=group.part, height_u=group.height_u, usable_u=usable_u
        )
        return False
    return True


def _group_rows(ctx: _Ctx, b: _Builder, group: NodeGroup, leaves: Sequence[_Sw]) -> list[list[_Draft]]:
    """The group's compute racks, cut into rows (a row per SU, else at most MAX_COMPUTE_RACKS_PER_ROW racks)."""
    leaf_u = sum(s.height_u for s in leaves)
    leaf_w = sum(s.power_w or 0 for s in leaves)
    npr = _nodes_per_rack(ctx, b, group, leaf_u, leaf_w)
    inlets = group.inlets
    per_row = group.su_nodes if group.su_nodes else npr * MAX_COMPUTE_RACKS_PER_ROW
    rows: list[list[_Draft]] = []
    contents: dict[int, tuple[tuple[Device, ...], int, bool, int | None, int | None]] = {}

    def content(n: int) -> tuple[tuple[Device, ...], int, bool, int | None, int | None]:
        hit = contents.get(n)
        if hit is None:  # a full rack, or the row's last one: computed once each
            devices, known, unknown = b.compute(group, n, leaves)
            per_feed = None if inlets is None else (n * _ceil(inlets, 2) if b.feeds == 2 else n * inlets)
            total = None if inlets is None else n * inlets
            hit = contents[n] = (devices, known, unknown, per_feed, total)
        return hit

    start = 0
    while start < group.count:
        row_nodes = min(per_row, group.count - start)
        full, rest = divmod(row_nodes, npr)
        row: list[_Draft] = []
        if full:  # the row's full racks, one run
            row.append(_Draft(RackKind.COMPUTE, *content(npr), group, start, npr, full))
        if rest:
            row.append(_Draft(RackKind.COMPUTE, *content(rest), group, start + full * npr, rest))
        rows.append(row)
        start += row_nodes
    return rows


@lru_cache(maxsize=64)
def _slot_names(count: int) -> tuple[str, ...]:
    """ "-01", "-02", ...: the ends of the names of a row's ``count`` racks (rows of a plan share a few lengths)."""
    return tuple(f"-{s + 1:02d}" for s in range(count))


def _row_length(row: Sequence[_Draft]) -> int:
    return sum(d.count for d in row)


def _insert(row: list[_Draft], at: int, drafts: Sequence[_Draft]) -> None:
    """Put ``drafts`` before rack ``at`` of the row, splitting the run that holds it."""
    for i, d in enumerate(row):
        if at < d.count:
            if at:
                row[i : i + 1] = [d.part(0, at), *drafts, d.part(at, d.count - at)]
            else:
                row[i:i] = drafts
            return
        at -= d.count
    row.extend(drafts)


def _spread(items: Sequence[_Sw], parts: int) -> list[list[_Sw]]:
    """Split items into ``parts`` consecutive runs whose sizes differ by at most one."""
    base, extra = divmod(len(items), parts)
    out, i = [], 0
    for p in range(parts):
        n = base + (1 if p < extra else 0)
        out.append(list(items[i : i + n]))
        i += n
    return out


def _leaves_in_rack(ctx: _Ctx, b: _Builder, groups: Sequence[NodeGroup], leaves: Sequence[_Sw]) -> bool:
    """True when the whole cluster, leaves included, fits one rack (then the leaves stay with their nodes)."""
    if not leaves or len(groups) != 1:
        return False
    g = groups[0]
    leaf_u = sum(s.height_u for s in leaves)
    leaf_w = sum(s.power_w or 0 for s in leaves)
    npr = _nodes_per_rack(ctx, b, g, leaf_u, leaf_w)
    fits_power = (g.power_w or 0) * g.count + leaf_w + b.mgmt_w <= ctx.limit_w  # unknown node power counts 0
    one_row = g.su_nodes is None or g.count <= g.su_nodes  # a second SU would be a second row
    return npr >= g.count and one_row and fits_power


def _equipment(b: _Builder, d: _Draft) -> tuple[tuple[PduLine, ...], tuple[CordLine, ...], bool, bool, int]:
    """PDUs and cords of a rack, whether its load is partly unknown, outlets unknown, units used (cached)."""
    # One devices tuple per distinct rack content (_Builder): it fixes the group, the node count and so the load
    # and the inlets.
    key = id(d.devices)
    hit = b.equipment.get(key)
    if hit is not None:
        return hit
    pdus: tuple[PduLine, ...] = ()
    partial = outlets_unknown = False
    if b.pdu is not None:
        # Sized from the known load; when part of it is unknown the plan says so (RACK_PDU_KNOWN_LOAD_ONLY).
        partial = d.power_unknown
        per_feed = _pdus_per_feed(b.pdu, d.power_known_w, d.inlets_per_feed)
        pdus = (PduLine(b.pdu.part, per_feed * b.feeds, b.pdu.cord),)
        outlets_unknown = d.kind == RackKind.COMPUTE and (not b.pdu.outlets or d.inlets_per_feed is None)
    cords: tuple[CordLine, ...] = ()
    if d.group is not None and d.inlets_total:
        cords = (CordLine(b.pdu.outlet_type if b.pdu else None, d.group.inlet_type, d.inlets_total),)
    hit = b.equipment[key] = (pdus, cords, partial, outlets_unknown, sum(dev.height_u for dev in d.devices))
    return hit


def _finish_rack(b: _Builder, d: _Draft, name: str, row: int, slot: int, ctx: _Ctx) -> tuple[Rack, bool, bool]:
    """Name the draft and size its PDUs; returns the rack, whether its load is partly unknown, outlets unknown."""
    pdus, cords, partial, outlets_unknown, used = _equipment(b, d)
    rack = Rack(
        name,
        d.kind,
        row,
        slot,
        ctx.u_total,
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
    )
    return rack, partial, outlets_unknown


def _sum_lines(runs: Sequence[RackRun]) -> tuple[tuple[PduLine, ...], tuple[CordLine, ...]]:
    pdus: dict[tuple[str, str], int] = {}
    cords: dict[tuple[str | None, str | None], int] = {}
    for run in runs:
        for p in run.rack.pdus:
            pdus[(p.part, p.cord)] = pdus.get((p.part, p.cord), 0) + p.quantity * run.count
        for c in run.rack.cords:
            cords[(c.pdu_outlet, c.node_inlet)] = cords.get((c.pdu_outlet, c.node_inlet), 0) + c.quantity * run.count
    return (
        tuple(PduLine(part, q, cord) for (part, cord), q in pdus.items()),
        tuple(CordLine(o, i, q) for (o, i), q in cords.items()),
    )


def plan_racks(
    *,
    node_groups: Sequence[NodeGroup],
    switches: Sequence[SwitchGroup] = (),
    facility: Facility | None = None,
    pdu_options: Sequence[PduOption] = (),
    leaf_placement: LeafPlacement = LeafPlacement.MIDDLE_OF_ROW,
    other_it_power_w: int | None = 0,
) -> RackPlan:
    """Plan the racks of a cluster (rules and finding codes in the module docstring)."""
    facility = facility or Facility()
    ctx = _Ctx(facility, node_groups)
    sw = _switches(ctx, switches)
    mgmt = sw[SwitchRole.MANAGEMENT][0] if sw[SwitchRole.MANAGEMENT] else None
    if mgmt is None:
        ctx.add(RackCode.NO_MANAGEMENT_SWITCH, Severity.WARNING, "switches.management")
    pdu = _choose_pdu(pdu_options, ctx.limit_w)
    if pdu is None:
        ctx.add(RackCode.NO_PDU, Severity.ERROR, "facility.pdu_feeds")
    b = _Builder(ctx, mgmt, pdu)

    groups = [g for i, g in enumerate(node_groups) if g.count > 0 and _check_group(ctx, b, g, i)]
    leaves = sw[SwitchRole.LEAF]
    in_rack = _leaves_in_rack(ctx, b, groups, leaves)

    rows, fabric_rows = _compute_rows(ctx, b, groups, leaves if in_rack else ())
    if leaves and not in_rack:
        _place_leaves(b, rows, fabric_rows, leaves, leaf_placement)
    _place_upper(rows, b.pack_network(sw[SwitchRole.SPINE] + sw[SwitchRole.CORE]))
    runs, out_rows, unsized, outlets_unknown = _finish_rows(ctx, b, rows)

    _rack_findings(ctx, runs, unsized, outlets_unknown, switches, mgmt)
    pdus, cords = _sum_lines(runs)
    known = sum(run.rack.power_known_w * run.count for run in runs) + (other_it_power_w or 0)
    unknown = any(run.rack.power_w is None for run in runs) or other_it_power_w is None
    return RackPlan(
        runs=tuple(runs),
        rows=tuple(out_rows),
        pdus=pdus,
        cords=cords,
        rack_units=ctx.u_total,
        rack_power_limit_w=ctx.limit_w,
        rack_power_basis=ctx.limit_basis,
        cooling=ctx.cooling,
        cooling_basis=ctx.cooling_basis,
        feeds=ctx.feeds,
        leaf_placement="in-rack" if in_rack else str(leaf_placement),
        facility_power_w=None if unknown else known,
        facility_power_known_w=known,
        findings=tuple(ctx.findings),
    )


def _compute_rows(
    ctx: _Ctx, b: _Builder, groups: list[NodeGroup], in_rack_leaves: Sequence
) -> tuple[list[list[_Draft]], list[int]]:
    """The compute rows of every node group, and which of them hold the fabric's nodes (their leaves go there)."""
    rows: list[list[_Draft]] = []
    fabric_rows: list[int] = []
    on_fabric = {id(g) for g in groups if g.su_nodes} or {id(g) for g in groups}
    for g in groups:
        for row in _group_rows(ctx, b, g, in_rack_leaves):
            if id(g) in on_fabric:
                fabric_rows.append(len(rows))
            rows.append(row)
    return rows, fabric_rows


def _place_leaves(
    b: _Builder, rows: list[list[_Draft]], fabric_rows: list[int], leaves: Sequence, placement: LeafPlacement
) -> None:
    """Leaf racks in the middle (or at the end) of each fabric row, the leaves spread evenly over the rows."""
    if not fabric_rows:
        rows.append([])
        fabric_rows.append(len(rows) - 1)
    for row_index, row_leaves in zip(fabric_rows, _spread(leaves, len(fabric_rows)), strict=True):
        if not row_leaves:
            continue
        row = rows[row_index]
        length = _row_length(row)
        _insert(row, length // 2 if placement == LeafPlacement.MIDDLE_OF_ROW else length, b.pack_network(row_leaves))


def _place_upper(rows: list[list[_Draft]], upper: list[_Draft]) -> None:
    """Spine and core racks: a row of their own in the middle of the hall (the longest leaf-spine run is halved)."""
    if not upper:
        return
    if len(rows) >= 2:
        rows.insert(len(rows) // 2, upper)
    elif rows:
        rows[0].extend(upper)
    else:
        rows.append(upper)


def _finish_rows(
    ctx: _Ctx, b: _Builder, rows: list[list[_Draft]]
) -> tuple[list[RackRun], list[Row], list[RackRun], bool]:
    """Name and finish every rack run row by row: (runs, rows, runs whose PDUs could not be sized, whether any
    rack's outlets are unknown)."""
    runs: list[RackRun] = []
    out_rows: list[Row] = []
    unsized: list[RackRun] = []
    outlets_unknown = False
    for r, row in enumerate(rows):
        prefix = f"R{r + 1:02d}"
        names = tuple([prefix + suffix for suffix in _slot_names(_row_length(row))])
        s = 0
        for draft in row:
            rack, no_size, no_outlets = _finish_rack(b, draft, names[s], r, s, ctx)
            run = RackRun(rack, draft.count, names[s : s + draft.count])
            runs.append(run)
            if no_size:
                unsized.append(run)
            outlets_unknown = outlets_unknown or no_outlets
            s += draft.count
        out_rows.append(Row(r, prefix, names))
    return runs, out_rows, unsized, outlets_unknown


def _rack_findings(
    ctx: _Ctx,
    runs: Sequence[RackRun],
    unsized: Sequence[RackRun],
    outlets_unknown: bool,
    switches: Sequence[SwitchGroup],
    mgmt: _Sw | None,
) -> None:
    """Findings over the finished racks, one per kind of problem (not one per rack of a 512-rack plan)."""
    if ctx.cooling == Cooling.AIR:
        dense = [run for run in runs if run.rack.power_known_w > AIR_COOLING_LIMIT_W]
        if dense:
            ctx.add(
                RackCode.AIR_DENSITY,
                Severity.WARNING,
                "facility.cooling",
                racks=sum(run.count for run in dense),
                first_rack=dense[0].rack.name,
                max_power_w=max(run.rack.power_known_w for run in dense),
                air_limit_w=AIR_COOLING_LIMIT_W,
            )
    if unsized:
        ctx.add(
            RackCode.PDU_KNOWN_LOAD_ONLY,
            Severity.WARNING,
            "facility.pdu_feeds",
            racks=sum(run.count for run in unsized),
            first_rack=unsized[0].rack.name,
        )
    if outlets_unknown:
        ctx.add(RackCode.PDU_OUTLETS_UNKNOWN, Severity.WARNING, "facility.pdu_feeds")
    if mgmt is not None:
        listed = sum(g.count for g in switches if g.role == SwitchRole.MANAGEMENT)
        needed = sum(run.count for run in runs)
        if listed != needed:
            ctx.add(
                RackCode.MANAGEMENT_SWITCH_COUNT,
                Severity.INFO,
                "switches.management",
                part=mgmt.part,
                needed=needed,
                listed=listed,
            )
