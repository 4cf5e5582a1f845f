"""The rack plan of a design, built from the design, the catalogue, the node rules' power estimates and the fabric
plan's switch counts (engines.racks is the planner), and the rack plan as the validation result carries it.

Order (engines.cluster.pipeline): the fabric's switch counts are planned first, then the racks, then the fabric's
media are chosen with the distances the racks give (``fabric_rack_with_distances``); the design's ``rack``
override always wins over a distance from the plan.

``RackPlanSection`` is the result's ``rack_plan``: the plan with its link lengths and the fabric's node groups,
typed up to the door that writes it (``to_json()``, design/v1 "Additions"); ``RackBill`` (engines.cluster.rackbill)
is what the bill reads of it (and of a stored result's JSON). Pure: no Django.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from design.jsontext import JsonObject
from design.model import DesignIn, RackIn
from design.specs import PduSpec, ServerSpec, SwitchSpec
from engines.catalog_view import CatalogView
from engines.cluster.control_plane import UFM_APPLIANCE
from engines.cluster.installed_ends import InstalledEnds
from engines.cluster.rackbill import RackBill
from engines.cluster.systems import fat_tree_units, full_unit, system_units
from engines.fabric.model import FabricPlan
from engines.findings.finding import Finding
from engines.findings.params.racks import RackNodeHeightUnknown
from engines.findings.rack_codes import RackCode
from engines.findings.registry import finding
from engines.networks.model import NetworkPlan
from engines.node.totals import NodeTotals
from engines.racks import (
    CentralSwitches,
    Cooling,
    Facility,
    Feeds,
    LinkLength,
    NodeGroup,
    PduOption,
    RackPlan,
    RackRun,
    RackSystem,
    SwitchGroup,
    SwitchRole,
    link_distances,
    plan_racks,
    switch_locations,
)
from engines.racks.kept import kept_density, kept_installed
from engines.racks.model import DeviceRole
from engines.racks.packing import KEPT_FREE

T = TypeVar("T")

# Rack plans kept per process, by their inputs. The planner is pure, so the same inputs give the same plan, and the
# plan is never changed once made (frozen dataclasses): the alternatives page validates a dozen or more designs of
# one size whose racks often do not differ (a 100,000-node draft's page: 29 validations, 3 distinct layouts, each
# planned once), and a save validates the design the step just showed. A validation plans its racks once (the
# central out-of-band switches racked in the same plan, engines.cluster.oob_racks), twice where the density or a
# one-rack cluster asks for a switch in every rack, so the page's 3 layouts are at most 6 plans. A 100,000-node plan
# (6,250 rows) takes about 6 MB (and its written form about 3 MB), so six of them bound the memory a worker spends.
PLAN_MEMO_SIZE = 6


class _Memo(Generic[T]):
    """A small least-recently-used memo, safe across the threads of one worker process."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[Hashable, T] = OrderedDict()
        self._lock = threading.Lock()

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def get(self, key: Hashable, make: Callable[[], T], *, valid: Callable[[T], bool] = lambda _: True) -> T:
        with self._lock:
            hit = self._items.get(key)
            if hit is not None and valid(hit):
                self._items.move_to_end(key)
                return hit
        value = make()
        with self._lock:
            self._items[key] = value
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return value


_plans: _Memo[RackPlan] = _Memo(PLAN_MEMO_SIZE)
_lengths: _Memo[tuple[RackPlan, dict[str, LinkLength]]] = _Memo(4 * PLAN_MEMO_SIZE)  # per plan and override
_written: _Memo[tuple[tuple[RackRun, ...], JsonObject]] = _Memo(PLAN_MEMO_SIZE)  # per plan: its runs, to_dict()


def rack_plan_memo_clear() -> None:
    """Forget the plans kept (for measurements that plan afresh each time)."""
    _plans.clear()
    _lengths.clear()
    _written.clear()


def _watts(spec: SwitchSpec | None) -> int | None:
    return None if spec is None or spec.watts is None else round(spec.watts)


def _management_switch(catalog: CatalogView) -> SwitchSpec | None:
    """The fabric planner's choice of out-of-band switch (cheapest, then most ports), for designs without one."""
    mgmt = [s for s in catalog.of_type(SwitchSpec) if s.management and s.rj45_ports > 0]
    return min(mgmt, key=lambda s: (s.price_eur is None, s.price_eur or 0, -s.rj45_ports, s.part_number), default=None)


def _switch_groups(plan: FabricPlan | None, catalog: CatalogView, *, management: bool = True) -> list[SwitchGroup]:
    out: list[SwitchGroup] = []
    if plan is not None and plan.tiers:
        spec = catalog.get(plan.switch)
        spec = spec if isinstance(spec, SwitchSpec) else None
        for role, count in (
            (SwitchRole.LEAF, plan.leaf_switches),
            (SwitchRole.SPINE, plan.spine_switches),
            (SwitchRole.CORE, plan.core_switches),
        ):
            if count:
                height = spec.height_u if spec else None
                out.append(SwitchGroup(role=role, part=plan.switch, count=count, height_u=height, power_w=_watts(spec)))
    if not management:
        return out
    mgmt_part = plan.management_switch if plan is not None else None
    mgmt = catalog.get(mgmt_part) if mgmt_part else _management_switch(catalog)
    if isinstance(mgmt, SwitchSpec):
        listed = plan.management_switches if plan is not None and plan.management_switch else 0
        out.append(
            SwitchGroup(
                role=SwitchRole.MANAGEMENT,
                part=mgmt.part_number,
                count=listed,
                height_u=mgmt.height_u,
                power_w=_watts(mgmt),
            )
        )
    return out


# The management racks' switch roles of a storage or in-band network, by tier.
_NETWORK_ROLES = {
    "storage": (SwitchRole.STORAGE_LEAF, SwitchRole.STORAGE_SPINE, SwitchRole.STORAGE_CORE),
    "inband": (SwitchRole.INBAND_LEAF, SwitchRole.INBAND_SPINE, SwitchRole.INBAND_CORE),
}


def management_equipment(
    networks: Mapping[str, NetworkPlan | None],
    catalog: CatalogView,
    servers: Sequence[tuple[str, int]] = (),
    step: int = 0,
) -> tuple[SwitchGroup, ...]:
    """What the management racks hold: every switch of the storage and in-band networks (by tier, with the
    catalogue's height and power) and the control plane's ``servers`` as (line part, count), UFM appliances among
    them (no catalogue part: size unknown, the planner reserves an assumed one); ``step``: the servers the control
    plane gains at its next step (``control_plane_step``), whose places are kept free after the servers."""
    out: list[SwitchGroup] = []
    for key, roles in _NETWORK_ROLES.items():
        plan = networks.get(key)
        if plan is None or not plan.switch:
            continue
        spec = catalog.get(plan.switch)
        spec = spec if isinstance(spec, SwitchSpec) else None
        for role, count in zip(roles, (plan.leaf_switches, plan.spine_switches, plan.core_switches), strict=True):
            if count:
                height = spec.height_u if spec else None
                out.append(SwitchGroup(role=role, part=plan.switch, count=count, height_u=height, power_w=_watts(spec)))
    for part, count in servers:
        role = SwitchRole.UFM if part == UFM_APPLIANCE else SwitchRole.CONTROL
        out.append(SwitchGroup(role=role, part=part, count=count, height_u=None, power_w=None))
    if step:
        out.append(SwitchGroup(role=SwitchRole.UFM, part=KEPT_FREE, count=step, height_u=None, power_w=0))
    return tuple(out)


# What an IEC 60320 outlet (and the cord into it) carries: C13 10 A, C19 16 A (source IEC-CONN, catalog/seed).
OUTLET_CURRENT_A = {"C13": 10, "C19": 16}
FEED_VOLTS = 230  # the line-to-neutral voltage of the European feeds the catalogue's PDUs take (their voltage_v)


def _inlet_current(server: ServerSpec, catalog: CatalogView) -> float | None:
    """What one supply draws at its rating: its watts over the PDUs' volts (a lower bound: losses add to it)."""
    if not server.psu_watts:
        return None
    volts = next((p.voltage_v for p in catalog.of_type(PduSpec) if p.voltage_v), FEED_VOLTS)
    return round(server.psu_watts / volts, 1)


def _pdu_options(catalog: CatalogView) -> list[PduOption]:
    """PDUs of the catalogue with a known rating; outlets are the C13 and C19 ones (None when neither is known)."""
    out = []
    for p in catalog.of_type(PduSpec):
        if not p.power_kw or p.height_u is None:
            continue
        outlets = (
            None if p.outlets_c13 is None and p.outlets_c19 is None else (p.outlets_c13 or 0) + (p.outlets_c19 or 0)
        )
        feed = " ".join(x for x in (f"{p.phases}P" if p.phases else "", f"{p.current_a}A" if p.current_a else "") if x)
        out.append(
            PduOption(
                part=p.part_number,
                rating_w=round(p.power_kw * 1000),
                outlets=outlets or None,
                cord=feed or p.part_number,
                outlet_type="C19" if p.outlets_c19 else ("C13" if p.outlets_c13 else None),
                height_u=p.height_u,
                outlet_current_a=OUTLET_CURRENT_A["C19" if p.outlets_c19 else "C13"] if outlets else None,
            )
        )
    return out


def _rack_system(server: ServerSpec) -> RackSystem | None:
    """What a rack-scale system holds, from its catalogue fields (engines.racks.systems places each at its unit);
    None for a server, or while the catalogue does not give the compute trays."""
    if not server.rack_scale or not server.compute_trays:
        return None
    return RackSystem(
        compute_trays=server.compute_trays,
        switch_trays=server.switch_trays or 0,
        power_shelves=server.power_shelves or 0,
        management_switches=server.rack_mgmt_switches or 0,
        management_switch=server.rack_mgmt_switch_model or None,
    )


def layout_unit(fabric: FabricPlan | None, catalog: CatalogView) -> int | None:
    """The nodes a row of a rail-optimized fabric holds: a full scalable unit, as many nodes as a leaf of the
    fabric's switch and oversubscription takes (its node-facing ports in whole cages, times the split), whatever
    the cluster's size. The fabric spreads a cluster's nodes evenly over its units (``engines.fabric.sizing``),
    so its units are smaller than that when the last one would be partial; the rows are not: node *i* stands in
    the same rack at the same unit whatever the size, and a unit's nodes reach at most one row back to its leaf
    rack. None: no rail-optimized fabric (rows of ``MAX_COMPUTE_RACKS_PER_ROW``); the fabric's own unit when the
    switch's cages are not known or its units do not fill rows of that size."""
    if fabric is None or fabric.tiers < 1 or fabric.topology != "rail-optimized" or not fabric.nodes_per_unit:
        return None
    full = full_unit(fabric, catalog)
    if full is None:
        return fabric.nodes_per_unit if fabric.tiers >= 2 else None
    if full < fabric.nodes_per_unit or (fabric.tiers >= 2 and -(-fabric.nodes // full) != fabric.units):
        return fabric.nodes_per_unit
    return full


def _facility(design: DesignIn) -> Facility:
    f = design.facility
    cooling = None if f.cooling is None else Cooling(f.cooling)
    return Facility(
        rack_units=f.rack_units, rack_power_kw=f.rack_power_kw, cooling=cooling, pdu_feeds=Feeds(f.pdu_feeds)
    )


_grown_from: ContextVar[RackPlan | None] = ContextVar("grown_from", default=None)
_installed_ends: ContextVar[InstalledEnds | None] = ContextVar("installed_ends", default=None)


@contextmanager
def growing_from(installed: RackPlan, ends: InstalledEnds | None = None) -> Iterator[None]:
    """Within it, every rack plan is that of a cluster grown from the ``installed`` one (engines.racks.kept): where
    that was one rack with its leaves (``kept_rack``), the grown plan keeps the rack as it stands; its management
    racks stand as they stood, the added equipment around them (``kept_management``), a one-rack cluster's beside
    its rack (``engines.racks.kept.place_kept``). The expansion
    (quotes.services.expansion) validates the grown design within it; a greenfield validation never does. ``ends``:
    the installed cabling's switch names and uplinks (engines.cluster.installed_ends), which the grown one keeps."""
    token, named = _grown_from.set(installed), _installed_ends.set(ends)
    try:
        yield
    finally:
        _grown_from.reset(token)
        _installed_ends.reset(named)


def _node_groups(
    design: DesignIn, catalog: CatalogView, node_totals: NodeTotals, fabric: FabricPlan | None, findings: list[Finding]
) -> list[NodeGroup]:
    """The planner's node groups of the design; a server of unknown height is left out of them, and
    RACK_NODE_HEIGHT_UNKNOWN added to ``findings``."""
    peaks = {g.get("node_group"): g.get("peak_power_w_per_node") for g in node_totals.get("groups", [])}
    su = layout_unit(fabric, catalog)
    installed = _grown_from.get()
    dense = kept_density(installed) if installed is not None else {}
    groups = []
    for i, g in enumerate(design.node_groups):
        server = catalog.get(g.server)
        server = server if isinstance(server, ServerSpec) else None
        if server is None or not server.height_u:
            findings.append(finding(f"node_groups[{i}].server", RackNodeHeightUnknown(part=g.server)))
            continue
        groups.append(
            NodeGroup(
                name=g.name,
                part=server.part_number,
                count=g.count,
                height_u=server.height_u,
                power_w=peaks.get(i),
                cooling=Cooling(str(server.cooling)) if server.cooling else None,
                inlets=server.psu_count,
                inlet_type=server.psu_inlet,  # None where the catalogue does not know it: the cord stays a need
                inlet_current_a=_inlet_current(server, catalog),
                # A rack-scale system is a rack of its own; its fabric endpoints are trays, so the fabric's SU (in
                # trays) does not cut its rows: rows of 8 racks, one SU of the DGX SuperPOD GB200 RA per row.
                su_nodes=None if server.rack_scale else su,
                unit_nodes=fabric.nodes_per_unit if su and fabric is not None and fabric.nodes_per_unit < su else None,
                rack_scale=server.rack_scale,
                system=_rack_system(server),
                per_rack=dense.get(g.name),
                **(system_units(fabric, catalog) if server.rack_scale else fat_tree_units(fabric, catalog)),
            )
        )
    return groups


def build_rack_plan(
    design: DesignIn,
    catalog: CatalogView,
    node_totals: NodeTotals,
    fabric: FabricPlan | None,
    *,
    management: bool = True,
    equipment: tuple[SwitchGroup, ...] = (),
    oob_central: bool = False,
    central: CentralSwitches | None = None,
) -> tuple[RackPlan, list[Finding]]:
    """Plan the design's racks. Returns the plan and the findings at the edge (a server of unknown height cannot
    be racked: RACK_NODE_HEIGHT_UNKNOWN, and its nodes are left out of the plan rather than given a guessed size).
    ``management`` False: the site has its own out-of-band network; ``oob_central``: its switches stand in the
    management racks (engines.cluster.oob_racks): either way no rack gets one of its own. ``equipment``: what the
    management racks hold (``management_equipment``, central out-of-band switches among it); ``central``: the
    central out-of-band switches, racked as many as the plan's PDUs ask for (engines.cluster.oob_racks)."""
    findings: list[Finding] = []
    groups = _node_groups(design, catalog, node_totals, fabric, findings)
    facility = _facility(design)
    in_racks = management and not oob_central
    switches = tuple(_switch_groups(fabric, catalog, management=in_racks)) + equipment
    pdus = tuple(_pdu_options(catalog))
    installed = _grown_from.get()
    kept, kept_mgmt, leaf_rows = kept_installed(installed) if installed is not None else (None, None, None)
    plan = _plans.get(
        (tuple(groups), switches, facility, pdus, central, kept, kept_mgmt, leaf_rows, in_racks),
        lambda: plan_racks(
            node_groups=groups,
            switches=switches,
            facility=facility,
            pdu_options=pdus,
            central=central,
            kept=kept,
            kept_management=kept_mgmt,
            kept_leaves=leaf_rows,
            rack_management=in_racks,
        ),
    )
    # The planner's findings with the subjects of the design (the severity is the registry's, as the planner gave it).
    # The out-of-band network's plan states how many management switches the racks hold (NETWORK_OOB_PLACEMENT):
    # the planner's count against the fabric plan's (by ports) is not said beside it.
    findings.extend(
        finding(_subject(r.subject, design), r.params)
        for r in plan.findings
        if r.code != RackCode.MANAGEMENT_SWITCH_COUNT
    )
    return plan, findings


def _subject(subject: str, design: DesignIn) -> str:
    """The planner's subjects are design paths, except its switch groups: those belong to the fabric."""
    if subject.startswith("switches."):
        return "fabric" if design.fabric is not None else "facility"
    return subject


def distances(plan: RackPlan, design: DesignIn) -> dict[str, LinkLength]:
    """The plan's link lengths with the design's overrides (measured once per plan and overrides, as planned)."""
    override = design.fabric.rack if design.fabric is not None else None
    _plan, lengths = _lengths.get(
        (id(plan), override), lambda: (plan, link_distances(plan, override=override)), valid=lambda hit: hit[0] is plan
    )
    return dict(lengths)


def fabric_rack_with_distances(plan: RackPlan, design: DesignIn, lengths: dict[str, LinkLength]) -> RackIn:
    """The fabric's ``rack`` input with every distance the design does not override taken from the rack plan.

    Nodes per rack: the most nodes a compute rack of the plan holds (so the planner's in-rack rule agrees with
    the plan); the in-rack run is the node-to-leaf run when the leaves are not in the nodes' racks.
    """
    given = design.fabric.rack if design.fabric is not None else RackIn()
    in_rack = lengths["in_rack_m"].length_m
    if plan.leaf_placement != "in-rack" and given.in_rack_m is None:
        in_rack = lengths["node_to_leaf_m"].length_m or in_rack
    most = max((run.rack.nodes for run in plan.runs), default=0)
    return given.model_copy(
        update={
            "nodes_per_rack": given.nodes_per_rack or most or None,
            "in_rack_m": in_rack,
            "node_to_leaf_m": lengths["node_to_leaf_m"].length_m,
            "leaf_to_spine_m": lengths["leaf_to_spine_m"].length_m,
            "spine_to_core_m": lengths["spine_to_core_m"].length_m,
        }
    )


@dataclass(frozen=True, slots=True)
class RackPlanSection:
    """``rack_plan`` of the validation result (design/v1 "Additions"): the plan, the distance of each link class
    and the node groups on the compute fabric in the fabric's node order (the GPU groups, or all groups; as the
    pipeline hands them to the fabric planner), so a fabric node number finds its rack; and the fabric endpoints per
    node of a group where one node is more than one endpoint (a rack-scale system's compute trays, 18 per NVL72
    rack). ``grown_from``: the installed plan an expansion grew it from (``growing_from``), whose out-of-band
    ports the grown cabling keeps (engines.cluster.cabling), and ``installed_ends`` its switch names and uplinks;
    None for a greenfield plan."""

    plan: RackPlan
    distances: Mapping[str, LinkLength]
    fabric_node_groups: tuple[str, ...]
    fabric_endpoints_per_node: Mapping[str, int]
    grown_from: RackPlan | None = None
    installed_ends: InstalledEnds | None = None

    @property
    def rack_count(self) -> int:
        """Every physical rack of the plan."""
        return self.plan.rack_count

    @property
    def rack_heights(self) -> tuple[tuple[int, int], ...]:
        """(units, racks) for each height of rack, the tallest first."""
        return self.plan.rack_heights

    @property
    def enclosure_count(self) -> int:
        """The racks that are enclosures to fit (every rack but a rack-scale system)."""
        return sum(run.count for run in self.plan.runs if not run.rack.system)

    def bill(self) -> RackBill:
        return RackBill.of_plan(self.plan)

    def to_json(self) -> JsonObject:
        plan = self.plan
        # Written once per plan (its runs, rows and lines; the facility totals it may have been given since are not
        # in it): results are read, never changed in place, and the results of one plan share its racks and rows.
        _runs, written = _written.get(
            id(plan.runs), lambda: (plan.runs, plan.to_dict()), valid=lambda hit: hit[0] is plan.runs
        )
        return {
            **written,
            "distances": {k: v.to_dict() for k, v in self.distances.items()},
            "fabric_node_groups": list(self.fabric_node_groups),
            "fabric_endpoints_per_node": dict(self.fabric_endpoints_per_node),
        }


def rack_plan_section(
    plan: RackPlan,
    lengths: dict[str, LinkLength],
    design: DesignIn,
    node_totals: NodeTotals,
    endpoints: dict[str, int] | None = None,
) -> RackPlanSection:
    """The result's ``rack_plan`` of ``plan`` (``RackPlanSection``)."""
    gpu = [g["group"] for g in node_totals.get("groups", []) if g.get("gpus_per_node")]
    return RackPlanSection(
        plan=plan,
        distances=lengths,
        fabric_node_groups=tuple(gpu or [g.name for g in design.node_groups]),
        fabric_endpoints_per_node=dict(endpoints or {}),
        grown_from=_grown_from.get(),
        installed_ends=_installed_ends.get(),
    )


def placed(plan: RackPlan, group: str, count: int, per_node: int = 1) -> list[tuple[str, int] | None]:
    """(rack, unit) of each fabric endpoint of a group's ``count`` nodes in order, ``per_node`` endpoints to a node
    (a rack-scale system's compute trays: each its own tray's unit, bottom up, or in a mixed fabric each endpoint its
    first tray's, engines.cluster.systems; a server: its own unit for each);
    None for a node the plan could not place."""
    out: list[tuple[str, int] | None] = [None] * (count * per_node)
    for run in plan.runs:
        rack = run.rack
        if rack.node_group != group:
            continue
        units = [d.position_u for d in rack.devices if d.role == DeviceRole.NODE]
        if rack.system and rack.nodes == 1 and len(units) >= per_node:
            # Endpoint j at its tray's unit; in a mixed fabric (fewer endpoints than trays) at its first tray's.
            ends = [[units[j * len(units) // per_node] for j in range(per_node)]]
        else:
            ends = [[unit] * per_node for unit in units[: rack.nodes]]
        for k, name in enumerate(run.names):
            first = rack.first_node + k * rack.nodes
            for n, node_units in enumerate(ends):
                if first + n < count:
                    at = (first + n) * per_node
                    out[at : at + per_node] = [(name, unit) for unit in node_units]
    return out


Locate = Callable[[str, int], "tuple[str, int] | None"]


def fabric_locator(
    rack_plan: RackPlanSection | Mapping[str, Any] | None, group_counts: Mapping[str, int]
) -> Locate | None:
    """(kind, index) -> (rack, unit) for the cabling list: node *n* of the fabric, leaf/spine/core *i* of the fabric
    plan; None without a rack plan. ``rack_plan``: a result's (``RackPlanSection``) or as written (a stored
    result's JSON). ``group_counts``: nodes per node-group name."""
    if isinstance(rack_plan, RackPlanSection):
        if not rack_plan.plan.runs:
            return None
        plan = rack_plan.plan
        groups: tuple[str, ...] | list[str] = rack_plan.fabric_node_groups
        per_node: Mapping[str, int] = rack_plan.fabric_endpoints_per_node
    else:
        if not rack_plan or not rack_plan.get("racks"):
            return None
        plan = RackPlan.from_dict(dict(rack_plan))
        groups = rack_plan.get("fabric_node_groups", [])
        per_node = rack_plan.get("fabric_endpoints_per_node") or {}
    # Every node's place, in fabric order: the fabric's node groups one after another (node_location per node
    # would scan the racks again for each of a 2,048-node plan's 16,384 links).
    nodes: list[tuple[str, int] | None] = []
    for name in groups:
        nodes += placed(plan, name, group_counts.get(name, 0), per_node.get(name, 1))
    switches: dict[str, list[tuple[str, int] | None]] = {
        role: list(switch_locations(plan, DeviceRole(role))) for role in ("leaf", "spine", "core")
    }
    switches["node"] = nodes

    def locate(kind: str, index: int) -> tuple[str, int] | None:
        found = switches.get(kind, [])
        return found[index] if index < len(found) else None

    return locate
