"""Rack plan: which node, switch and PDU goes in which rack, at which unit, in which row.

Pure Python: frozen dataclasses in (``model.py``), a ``RackPlan`` out. No I/O, clock or randomness.
What goes into one rack (facility, switches, PDUs, the defaults named below) is in ``packing.py``; the rows,
the leaf and spine racks' places and the racks' names in ``rows.py``; this module plans and states the findings.

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
* **Rows**: a row per full scalable unit (``NodeGroup.su_nodes``, the same at every cluster size; the fabric's own
  units may be smaller, ``NodeGroup.unit_nodes``, and reach one row back), as the DGX SuperPOD RAs lay out one SU
  per row (GB200 RA-11338-001: "Figure 1 Complete Rack Layout in One Row" for one SU) [V]; a group without an SU
  size is cut into rows of at most ``MAX_COMPUTE_RACKS_PER_ROW`` compute racks (the 8 compute racks of an H100 SU
  [S]).
* **Rack-scale systems** (``NodeGroup.rack_scale``: GB200/GB300 NVL72): one system is one rack of its own height
  (48U), power and cooling, holding nothing else: its power shelves and its two management switches are inside it
  (NVIDIA DGX GB200 User Guide: "2x TOR Switches for management. Power shelves for supplying power to all trays and
  switches"; GB300 Enterprise RA: "2 SN2201 OOB switches"), so it gets no PDUs, cords or top-of-rack management
  switch, and never holds leaf switches. Each of its compute trays, NVLink switch trays, power shelves and
  management switches stands at its own unit (``systems.py``, the layout and its assumptions there). Its power is
  checked against a rack power the facility gives (above it: RACK_NODE_OVER_POWER, an error), not against the
  per-cooling default above (a sizing assumption for racks of servers): without a facility figure it is planned
  at its own stated power and RACK_SYSTEM_HALL_POWER (info) says the hall must give each rack that power. Rows of
  eight, the SU of the DGX SuperPOD GB200 RA ("a single SU (8 DGX GB200 rack systems)", one row) [V].
* **Leaf switches**: in a network rack of their row, in the row's middle (default) or at its end
  (``LeafPlacement``). Chosen because in a rail-optimised SU every node has one link to every leaf of its SU
  (fabric.md §0 rule 1), so all leaves of an SU belong together, and a rack in the middle halves the longest
  node-to-leaf run; this is the SU layout of the DGX SuperPOD H100 design, an SU's compute racks on both sides of
  its leaf rack [S: secondary description of the H100 RA layout], and the model the fabric planner already uses
  (``engines/fabric/README.md``, "leaves sit in a network rack in the middle of the row"). The middle is that of
  the full SU's row: a partial SU's racks stand left of its leaf rack up to there and the places it is short of
  are kept free (``packing.reserved``: no rack, no name; 4 nodes are R01-01, R01-02 and the leaf rack R01-09), so
  the racks added as the SU fills take those places and none moves. A row of rack-scale systems (NVL72) is filled
  the same way, as the DGX SuperPOD GB200 RA's SU of 8 racks: 2 racks are R01-01, R01-02 and the leaf rack R01-05.
  Its fabric's units are counted in trays, which do not fill rows of racks (a row's 144 GB200 trays are 4.5 units of
  a QM9700 leaf's 32 ports), so a row's leaf rack holds the leaves of the units whose first tray it holds at their
  full size (``NodeGroup.unit_trays``; rows of 20 and 16 leaves for 16 racks), not an even share of all leaves: a
  row keeps its leaves as the cluster grows and a row added brings its own (8 to 16 racks moves none of the 20).
  A unit's trays then reach one row either side of its leaves, and the node-to-leaf run is measured so
  (``RackPlan.leaf_reach_back_rows``). As a row fills, more units start in it: its leaf racks are followed by the
  places the full row's leaves take (GB300 on SN5600: a full row's 3 units are 24 leaves, 2 racks; 4 racks' 16 leaves
  fill one and keep the second place free), so the racks after them stay. A fabric of two planes (GB300 and HGX
  B300 on Spectrum-X) has each unit's leaves of both planes together (``engines.fabric.cabling.rack_index``): a
  unit's leaves are one rail a plane. A fat tree's row is filled the same way (its leaf racks where the full row
  has them), leaf *i* in the row holding the *i*-th full leaf's share of node links (``NodeGroup.unit_trays``, a
  leaf in each plane), so growing it moves none; a leaf's nodes reach another row only where the fabric's
  balanced share of links per leaf (``NodeGroup.leaf_links``) is smaller than the full one or does not fill rows.
  Exception: when
  the whole cluster with its leaves fits one rack, the leaves go into that rack with their nodes
  (``leaf_placement`` "in-rack"), as a one-rack system needs no network rack. A cluster grown from such a one-rack
  cluster (``kept``: the expansion plans it so, ``engines.cluster.rackplan.growing_from``) keeps that rack as it
  stands, its leaves at their units with its nodes (the first leaves of its first row: ``kept_first_rack``); the
  other leaves go to leaf racks as above, and the new nodes' cables run to the installed rack. A greenfield plan of
  the same size has all its leaves in leaf racks.
* **Spine and core switches** fill network racks of their own, the spines' at the end of the first row, the cores'
  at the end of the third (the management racks' at the end of the second: each of the three grows on its own at a
  row end, after the full SU's places), and the compute rows follow in SU order. A plan of no SU rows has its cores,
  then its management racks, at the end of its second row (of its only row: after the spines). Chosen so that a
  cluster grows without moving what is installed: a larger plan of the same design adds rows behind the last and
  racks at those rows' ends, and every rack of the smaller plan keeps its name, place and contents
  (``bench/growth.py``: 0 installed devices moved from 4 to 6, 40 to 100, 64 to 96, 96 to 128 and 128 to 256 HGX
  nodes; ``tests/quotes/test_expansion_property.py`` for any size and addition). The price: the longest
  leaf-to-spine run is the last row's, about (rows - 1) row pitches plus the run along the rows, where a spine row
  in the middle would halve the rows crossed; the media are chosen for the length ``link_distances`` measures, so a
  hall of many rows may need longer fibres or single-mode optics sooner. NVIDIA's RAs show the networking switches
  in racks of their own, apart from the DGX racks (B200 RA-11334-001, "Figure 3 ... an example management rack
  configuration with networking switches, management servers, storage arrays, and UFM appliances") [V].
* **Management racks** hold everything of the cluster that is neither a node nor a compute-fabric switch: the
  control plane's servers, the UFM appliances, the out-of-band switches when they are central, and the in-band and
  storage networks' switches (``MANAGEMENT_RACK_ROLES``, in that order: what grows with the nodes last), packed like
  the spine racks by units and power, at the end of the second row (a plan of SU rows has that row for them from one
  SU on), so neither the spine racks nor the core racks a growing fabric adds move them. Basis: NVIDIA's DGX
  SuperPOD B200 RA-11334-001, "Figure 3 ... an example management rack configuration with networking switches,
  management servers, storage arrays, and UFM appliances" [V]; its 127-node H100 sibling lists 38 racks, of which
  the nodes fill 32 at four a rack (RA-11333-001 Table 7, catalog/seed/FACTS.md). A control-plane server or UFM
  appliance has no catalogue part (the offer carries it as a line): ``packing.ASSUMED_SERVER_U`` units are reserved
  for each and its power stays unknown (RACK_SERVER_SIZE_ASSUMED). Below one scalable unit the places of the servers
  the control plane gains at its next step (BasePOD to SuperPOD, ``engines.cluster.control_plane.control_plane_step``)
  are kept free after the servers (``packing.KEPT_FREE``: units, no device, no power), so the switches racked below
  the control plane stand where they stand in the larger cluster and growing past the step moves none of them.
  A one-rack cluster's management racks stand beside its rack in its one row (R01-02 on), where a larger plan has
  its second compute rack; a cluster grown from it (``kept_management``, ``engines.racks.kept``) keeps them there,
  its first row's other racks one place further on each (its third node in R01-03), and puts the management racks
  the growth adds at the end of the second row, as above. A greenfield plan of the grown size has its management
  racks in the second row only.
* **Management switch**: one per rack, every rack (compute, network and management), at the top.
* **PDUs**: one option is chosen for the plan: the one that carries the rack power limit with the fewest PDUs per
  feed, zero-U before horizontal, then the smallest rating. Per rack and feed: enough PDUs for the rack's power
  (feed ``A``: the one feed carries the rack; ``A+B``: *each* feed carries the whole rack, so the count doubles)
  and for its inlets (``A+B`` puts half of each node's inlets on each feed). ``PduOption.rating_w`` is the
  continuous load one PDU may carry (derated as the site's electrical code requires before it reaches here).
  Node power cords: one per inlet, PDU outlet type to node inlet type. Switch cords are not counted (switch
  inlets are not in the catalogue).
* **PDU per rack's load** (packing.equipment): each rack gets, from the options of the plan's mounting (zero-U or
  horizontal), the PDU that carries its load with no PDU above ``CONTINUOUS_SHARE`` (80 %) of its rating, in no
  more PDUs than the rack's zero-U positions take (``Facility.zero_u_positions``, default
  ``ZERO_U_PDU_POSITIONS`` = 4, its source in packing.py), fewest PDUs first, then the smallest rating. Basis of
  80 %: the US NEC (NFPA 70) 210.20(A) limits a continuous load (three hours or more) to 80 % of the branch
  circuit's rating, and PDU makers derate their nameplates to it (Geist: "the nameplate current rating of a
  Geist PDU is 80 percent of the maximum current rating of the branch circuit") [S]. When no option fits at 80 %
  but one fits at 100 %, that one is planned and RACK_PDU_OVER_CONTINUOUS names it and the racks; when none
  fits even then, the rack gets no PDU line and RACK_PDU_BUSBAR says it needs a busbar or power shelf (as
  NVIDIA's NVL72 racks are fed), a 63 A PDU or fewer nodes.
* **Cords by current**: a supply's current at its rating is its watts over the feed's volts (a lower bound: the
  supply's losses add to it). A rack takes a PDU whose outlets carry it where an option has such outlets (C13 10 A,
  C19 16 A; IEC 60320 via comms-express); where none has, its cords name no outlet (never one the plan knows to be
  overloaded) and RACK_CORD_OVER_RATING, a warning (the cord it needs is a line on request), names the server, its
  current and the best outlet the catalogue offers (e.g. 6.6 kW supplies: 28.7 A at 230 V, more than a C19's 16 A).
* **Facility power** = nodes + switches + ``other_it_power_w`` (e.g. transceivers). PDU losses and cooling are not
  included, and the totals say so (``overhead_included``).

Finding codes (``RackCode``; severity from the rule registry, ``engines.findings.rack_rules``; params are plain
values, messages come from gettext at the service edge)
---------------------------------------------------------------------------------------------------
RACK_POWER_DEFAULT (info)           facility names no rack power; params: cooling, limit_w, basis
RACK_COOLING_DEFAULT (info)         facility names no cooling; params: cooling (as inferred from the nodes)
RACK_NODE_TOO_TALL (error)          a node is taller than a rack's usable units; params: height_u, usable_u
RACK_NODE_OVER_POWER (error)        one node draws more than a rack may; params: power_w, limit_w
RACK_NODE_POWER_UNKNOWN (info)      node power unknown: racks are filled by units only, rack power is unknown
RACK_SWITCH_POWER_UNKNOWN (info)    a switch's power is unknown; rack and facility power leave it out; params: part
RACK_SWITCH_HEIGHT_UNKNOWN (info)   a switch's height is unknown; 1U is reserved for it; params: part, assumed_u
RACK_AIR_DENSITY (warning)          air-cooled racks above the air ceiling; params: racks, max_power_w, air_limit_w
RACK_LIQUID_NODE_IN_AIR (error)     a liquid-cooled server in an air-cooled facility; params: part
RACK_NO_PDU (info)                  no PDU option was given; PDUs are not planned
RACK_PDU_KNOWN_LOAD_ONLY (info)     part of a rack's load is unknown: its PDUs cover the known load only;
                                    params: racks, first_rack
RACK_PDU_OUTLETS_UNKNOWN (info)     PDU outlets or node inlets unknown: PDUs are sized by power only
RACK_NODE_INLET_UNKNOWN (info)      a node's inlet count is unknown: its power cords are not counted
RACK_NO_MANAGEMENT_SWITCH (info)    no management switch given where each rack is to hold one: none is placed, no
                                    unit is reserved
RACK_MANAGEMENT_SWITCH_COUNT (info) one per rack needs ``needed``, the design lists ``listed``
RACK_PDU_OVER_CONTINUOUS (warning)  PDUs above 80 % of their rating; params: part, racks, first_rack, load_pct,
                                    rating_w, per_pdu_w
RACK_PDU_BUSBAR (warning)           no PDU fits the zero-U positions and carries the rack; params: racks,
                                    first_rack, power_w, positions, max_w (what the positions' best PDUs carry)
RACK_CORD_OVER_RATING (warning)     a supply draws more than any PDU outlet offered carries; params: part,
                                    current_a, outlet, outlet_current_a (the best outlet offered)
RACK_SYSTEM_HALL_POWER (info)       no rack power given: a rack-scale system is planned at its own power, which
                                    the hall must give; params: part, power_w, default_w
RACK_SERVER_SIZE_ASSUMED (info)     control-plane servers and UFM appliances racked at ASSUMED_SERVER_U each, power
                                    unknown; params: servers, assumed_u
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from engines.findings.params.racks import (
    RackAirDensity,
    RackManagementSwitchCount,
    RackNoManagementSwitch,
    RackNoPdu,
    RackPduKnownLoadOnly,
    RackPduOutletsUnknown,
)

from .inputs import (
    CentralSwitches,
    Facility,
    KeptLeaves,
    KeptManagement,
    KeptRack,
    NodeGroup,
    PduOption,
    SwitchGroup,
)
from .kept import around_kept, place_kept
from .model import (
    MANAGEMENT_RACK_ROLES,
    Cooling,
    CordLine,
    LeafPlacement,
    PduLine,
    RackKind,
    RackPlan,
    RackRun,
    Row,
    SwitchRole,
)
from .packing import (
    AIR_COOLING_LIMIT_W,
    KEPT_FREE,
    Builder,
    Context,
    Draft,
    Switch,
    check_group,
    choose_pdu,
    nodes_per_rack,
    power_findings,
    switches_by_role,
)
from .rows import Kept, compute_rows, finish_rows, leaves_in_rack, place_leaves


def _sum_lines(runs: Sequence[RackRun]) -> tuple[tuple[PduLine, ...], tuple[CordLine, ...]]:
    pdus: dict[tuple[str, str], int] = {}
    cords: dict[tuple[str | None, str | None, float | None], int] = {}
    for run in runs:
        for p in run.rack.pdus:
            pdus[(p.part, p.cord)] = pdus.get((p.part, p.cord), 0) + p.quantity * run.count
        for c in run.rack.cords:
            key = (c.pdu_outlet, c.node_inlet, c.current_a)
            cords[key] = cords.get(key, 0) + c.quantity * run.count
    return (
        tuple(PduLine(part, q, cord) for (part, cord), q in pdus.items()),
        tuple(CordLine(o, i, q, a) for (o, i, a), q in cords.items()),
    )


def plan_racks(
    *,
    node_groups: Sequence[NodeGroup],
    switches: Sequence[SwitchGroup] = (),
    facility: Facility | None = None,
    pdu_options: Sequence[PduOption] = (),
    leaf_placement: LeafPlacement = LeafPlacement.MIDDLE_OF_ROW,
    other_it_power_w: int | None = 0,
    central: CentralSwitches | None = None,
    kept: KeptRack | None = None,
    kept_management: KeptManagement | None = None,
    kept_leaves: KeptLeaves | None = None,
    rack_management: bool = True,
) -> RackPlan:
    """Plan the racks of a cluster (rules and finding codes in the module docstring). ``central``: switches the
    management racks hold as many of as the plan's PDUs ask for (the central out-of-band switches). The installed
    cluster this one grows from, kept as it stands: ``kept``, its one rack (``kept_first_rack``); ``kept_management``,
    its management racks (``around_kept``); ``kept_leaves``, its leaves row by row (``rows._unit_rows``).
    ``rack_management`` False: no rack is to hold a management switch of its own (the out-of-band switches stand in
    the management racks, or the site has its own network), so none missing is said."""
    facility = facility or Facility()
    ctx = Context(facility, node_groups)
    sw, central_switch = _switches(ctx, switches, central)
    b = _builder(ctx, sw, pdu_options, rack_management)
    mgmt = b.mgmt
    groups = [g for i, g in enumerate(node_groups) if g.count > 0 and check_group(ctx, b, g, i)]
    leaves = sw[SwitchRole.LEAF]
    in_rack = leaves_in_rack(ctx, b, groups, leaves)
    rows, widths, spans = _compute_and_leaves(ctx, b, groups, leaves, in_rack, leaf_placement, (kept, kept_leaves))
    runs, out_rows, unsized, outlets_unknown = _finish_with_management(
        ctx, b, sw, rows, central, central_switch, widths, kept_management
    )

    systems = frozenset(g.name for g in groups if g.rack_scale)
    _rack_findings(ctx, runs, unsized, outlets_unknown, switches, mgmt, systems)
    power_findings(ctx, b, runs)
    pdus, cords = _sum_lines(runs)
    known = sum(run.rack.power_known_w * run.count for run in runs) + (other_it_power_w or 0)
    unknown = any(run.rack.power_w is None for run in runs) or other_it_power_w is None
    return RackPlan(
        runs=tuple(runs),
        rows=tuple(out_rows),
        pdus=pdus,
        cords=cords,
        # The racks' height: the facility's, or a rack-scale system's own (48U) when the plan holds only those.
        rack_units=max(r.rack.u_total for r in runs) if runs and all(r.rack.system for r in runs) else ctx.u_total,
        rack_power_limit_w=ctx.limit_w,
        rack_power_basis=ctx.limit_basis,
        cooling=ctx.cooling,
        cooling_basis=ctx.cooling_basis,
        feeds=ctx.feeds,
        leaf_placement="in-rack" if in_rack else str(leaf_placement),
        **_reach(groups, rows, in_rack, spans),
        facility_power_w=None if unknown else known,
        facility_power_known_w=known,
        findings=tuple(ctx.findings),
    )


def _compute_and_leaves(
    ctx: Context,
    b: Builder,
    groups: list[NodeGroup],
    leaves: list[Switch],
    in_rack: bool,
    placement: LeafPlacement,
    installed: tuple[KeptRack | None, KeptLeaves | None],
) -> tuple[list[list[Draft]], tuple[int, ...], tuple[int, int]]:
    """The compute rows with their leaves (in the nodes' rack, the ``kept`` installed rack or leaf racks), per
    row the places its full SU takes (0: not an SU row; none for a one-rack cluster), and the rows after and before
    a node's own its leaves may stand where several groups share the fabric (``rows.place_leaves``)."""
    kept, kept_rows = installed
    first = None if in_rack or kept is None else kept_first_rack(ctx, b, groups, leaves, kept)
    rows, fabric_rows, full = compute_rows(ctx, b, groups, leaves if in_rack else (), first)
    if in_rack:
        return rows, (), (0, 0)
    kept_leaves = first.leaves if first else 0
    rows_kept = kept_rows.rows if kept_rows is not None else ()
    slots, spans = (
        place_leaves(b, rows, fabric_rows, leaves, placement, full, kept_leaves, rows_kept) if leaves else (0, (0, 0))
    )
    return rows, tuple(f + slots if f else 0 for f in full), spans


def kept_first_rack(
    ctx: Context, b: Builder, groups: Sequence[NodeGroup], leaves: Sequence[Switch], kept: KeptRack
) -> Kept | None:
    """The installed one-rack cluster's rack in the grown plan: its group's first rack holds the installed leaves
    at their units (places kept free above them where the grown plan's racks have no management switch at the
    top) and as many of the group's nodes as it takes with them, at least the installed ones; the group's other
    racks and leaves are planned as always. None where it cannot stand so (the group is not the plan's first, is
    a rack-scale system, or the grown plan has fewer leaves or racks too small or too weak for it): the grown plan
    is then the greenfield one, and the expansion says what moves (EXPANSION_DEVICES_MOVED)."""
    if not groups or groups[0].name != kept.node_group or groups[0].rack_scale or len(leaves) < kept.leaves:
        return None
    group = groups[0]
    top = leaves[: kept.leaves]
    free = ctx.u_total - b.mgmt_u - kept.leaf_top_u
    if free < 0:
        return None
    on_top = ([Switch(SwitchRole.LEAF, KEPT_FREE, free, 0)] if free else []) + list(top)
    room = nodes_per_rack(ctx, b, group, sum(s.height_u for s in on_top), sum(s.power_w or 0 for s in top))
    if room < kept.nodes:
        return None
    return Kept(group.name, min(room, group.count), tuple(on_top))


def _leaf_reach(groups: Sequence[NodeGroup]) -> int:
    """1 when a group's fabric units are smaller than its rows' full SUs and it has more than one row: a unit's
    first nodes stand in the row before its leaf rack (``NodeGroup.unit_nodes``); else 0."""
    return int(any(g.su_nodes and g.unit_nodes and g.unit_nodes < g.su_nodes < g.count for g in groups))


def _reach(
    groups: Sequence[NodeGroup], rows: Sequence[Sequence[Any]], in_rack: bool, spans: tuple[int, int] = (0, 0)
) -> dict[str, int]:
    """The plan's ``leaf_reach_rows`` and ``leaf_reach_back_rows`` (none where the leaves stand with the nodes);
    ``spans``: those of several groups sharing the fabric (``rows.place_leaves``)."""
    after, before = (0, 0) if in_rack else _unit_reach(groups, rows)
    return {
        "leaf_reach_rows": 0 if in_rack else max(_leaf_reach(groups), after, spans[0]),
        "leaf_reach_back_rows": 0 if in_rack else max(before, spans[1]),
    }


def _unit_reach(groups: Sequence[NodeGroup], rows: Sequence[Sequence[Any]]) -> tuple[int, int]:
    """(rows after, rows before) a node's leaf rack may stand where a group's leaves stand by its fabric units
    (``NodeGroup.unit_trays``) over more than one row: a rack-scale unit's trays up to a row either side; a fat
    tree leaf's nodes where its links (``leaf_links``) reach past the row holding it; else (0, 0)."""
    after = before = 0
    for g in groups:
        spans = [_node_span(g, row) for row in rows if any(d.group is g for d in row)]
        if not g.unit_trays or len(spans) < 2:
            continue
        if g.rack_scale or not g.leaf_links:
            return 1, 1
        e, unit, links = g.unit_endpoints or 1, g.unit_trays, g.leaf_links
        for k, (first, end) in enumerate(spans):
            low, high = -(-first * e // unit), -(-end * e // unit)  # the units that start in the row
            before = max(before, int(low * links < first * e))
            after = max(after, int(k < len(spans) - 1 and high > low and high * links > end * e))
    return after, before


def _node_span(g: NodeGroup, row: Sequence[Any]) -> tuple[int, int]:
    """The first node of group ``g`` in a row and the node after its last."""
    drafts = [d for d in row if d.group is g and not d.reserved]
    return min(d.first_node for d in drafts), max(d.first_node + d.nodes * d.count for d in drafts)


def _builder(
    ctx: Context, sw: dict[SwitchRole, list[Switch]], pdu_options: Sequence[PduOption], rack_management: bool
) -> Builder:
    """The builder of the racks with their management switch and PDU, each said where none is to be had (no
    management switch only where each rack is to hold one)."""
    mgmt = sw[SwitchRole.MANAGEMENT][0] if sw[SwitchRole.MANAGEMENT] else None
    if mgmt is None and rack_management:
        ctx.add("switches.management", RackNoManagementSwitch())
    pdu = choose_pdu(pdu_options, ctx.limit_w)
    if pdu is None:
        ctx.add("facility.pdu_feeds", RackNoPdu())
    return Builder(ctx, mgmt, pdu, pdu_options)


def _switches(
    ctx: Context, switches: Sequence[SwitchGroup], central: CentralSwitches | None
) -> tuple[dict[SwitchRole, list[Switch]], Switch | None]:
    """Every switch to place by role (``switches_by_role``), and one of the ``central`` switches, taken (and its
    findings said) before the management racks' equipment, where the plan lists them."""
    if central is None:
        return switches_by_role(ctx, switches), None
    at = next((i for i, g in enumerate(switches) if g.role in MANAGEMENT_RACK_ROLES), len(switches))
    sw = switches_by_role(ctx, [*switches[:at], replace(central.group, count=1), *switches[at:]])
    return sw, sw[central.group.role].pop(0)


CENTRAL_TRIES = 4  # racked central switches may add PDUs to their own racks, so ports: counted again until it holds


def _finish_with_management(
    ctx: Context,
    b: Builder,
    sw: dict[SwitchRole, list[Switch]],
    rows: list[list[Draft]],
    central: CentralSwitches | None,
    central_switch: Switch | None,
    widths: Sequence[int] = (),
    kept: KeptManagement | None = None,
) -> tuple[list[RackRun], list[Row], list[RackRun], bool]:
    """The rows finished (``finish_rows``) with the spine and core racks, then the management racks, at the end of
    their rows. With ``central`` switches, as many of them are racked as the finished plan's PDUs ask for: the
    management racks are packed and finished again until the count holds (at most ``CENTRAL_TRIES`` times; the
    other racks are finished once)."""
    spines, cores = b.pack_network(sw[SwitchRole.SPINE]), b.pack_network(sw[SwitchRole.CORE])
    finished: dict[tuple[int, ...], Any] = {}
    count = 0
    for _ in range(CENTRAL_TRIES):
        equipment = [
            s
            for role in MANAGEMENT_RACK_ROLES
            for s in ([central_switch] * count if central_switch and central_switch.role == role else []) + sw[role]
        ]
        racked = any(s.part != KEPT_FREE for s in equipment)  # places kept free alone make no rack
        management = b.pack_network(equipment, RackKind.MANAGEMENT) if racked else []
        if kept is not None:
            management = around_kept(b, equipment, kept, management)
        laid = [list(row) for row in rows]
        place_kept(laid, spines, cores, management, widths, kept)
        out = finish_rows(ctx, b, laid, finished)
        if central is None:
            break
        want = central.switches(sum(p.quantity * run.count for run in out[0] for p in run.rack.pdus))
        if want == count:
            break
        count = want
    return out


def _rack_findings(
    ctx: Context,
    runs: Sequence[RackRun],
    unsized: Sequence[RackRun],
    outlets_unknown: bool,
    switches: Sequence[SwitchGroup],
    mgmt: Switch | None,
    systems: frozenset[str] = frozenset(),
) -> None:
    """Findings over the finished racks, one per kind of problem (not one per rack of a 512-rack plan)."""
    if ctx.cooling == Cooling.AIR:
        dense = [run for run in runs if run.rack.power_known_w > AIR_COOLING_LIMIT_W]
        if dense:
            ctx.add(
                "facility.cooling",
                RackAirDensity(
                    racks=sum(run.count for run in dense),
                    first_rack=dense[0].rack.name,
                    max_power_w=max(run.rack.power_known_w for run in dense),
                    air_limit_w=AIR_COOLING_LIMIT_W,
                ),
            )
    if unsized:
        ctx.add(
            "facility.pdu_feeds",
            RackPduKnownLoadOnly(racks=sum(run.count for run in unsized), first_rack=unsized[0].rack.name),
        )
    if outlets_unknown:
        ctx.add("facility.pdu_feeds", RackPduOutletsUnknown())
    if mgmt is not None:
        listed = sum(g.count for g in switches if g.role == SwitchRole.MANAGEMENT)
        # A rack-scale system's rack has management switches of its own (DGX GB200: "2x TOR Switches for management").
        needed = sum(run.count for run in runs if run.rack.node_group not in systems)
        if listed != needed:
            ctx.add(
                "switches.management",
                RackManagementSwitchCount(part=mgmt.part, needed=needed, listed=listed),
            )
