"""The rack plan as the out-of-band network's placement wants it (``networks.oob.placement``): central, its
switches in the management racks (the DGX SuperPOD RAs'), so no rack gets one of its own; or per rack, the rack
plan's management switch in every rack. Absent, the placement follows the density of the compute racks
(``engines.networks.oob.oob_placement``): the racks are planned central first and planned again per rack when the
fullest compute rack has ``DENSE_RACK_PORTS`` or more management ports. Central switches are sized by the
out-of-band network's rule from the plan's PDUs and racked in the management racks in the same plan
(``central_sizing``: the planner counts them again while their own racks add PDUs); when the out-of-band plan
counts otherwise (its inputs changed after the racks were planned), they are racked again
(``with_central_switches``)."""

from __future__ import annotations

from dataclasses import dataclass

from design.model import DEFAULT, DesignIn, NetworkIn
from design.specs import SwitchSpec
from engines.catalog_view import CatalogView
from engines.fabric.model import FabricPlan
from engines.findings.finding import Finding
from engines.networks.model import NetworkPlan
from engines.networks.oob import CENTRAL, PER_RACK, RackSide, central_switches, oob_leaf_switch, oob_placement
from engines.node.totals import NodeTotals
from engines.racks import CentralSwitches, RackPlan, SwitchGroup
from engines.racks.distances import central_oob_run
from engines.racks.model import DeviceRole, RackKind, SwitchRole

from .rackplan import build_rack_plan


@dataclass(frozen=True)
class OobRacks:
    """The rack plan, its findings and whether its out-of-band switches are central (none in a rack of its own),
    and how many central ones it racks in the management racks, of which part."""

    plan: RackPlan
    findings: list[Finding]
    central: bool
    racked: int = 0
    racked_part: str | None = None


def _racked(plan: RackPlan) -> tuple[int, str | None]:
    """The central out-of-band switches the plan's management racks hold, and their part."""
    count, part = 0, None
    for run in plan.runs:
        if run.rack.kind == RackKind.MANAGEMENT:
            oob = [d.part for d in run.rack.devices if d.role == DeviceRole.OOB]
            count += len(oob) * run.count
            part = part or next(iter(oob), None)
    return count, part


def _racks_but_central(plan: RackPlan) -> int:
    """The plan's racks but those holding nothing but central out-of-band switches: the racks the placement is
    chosen by (a cluster in one rack keeps its switch in that rack)."""
    only_oob = sum(
        run.count
        for run in plan.runs
        if run.rack.kind == RackKind.MANAGEMENT and all(d.role == DeviceRole.OOB for d in run.rack.devices)
    )
    return plan.rack_count - only_oob


def _switch_group(catalog: CatalogView, part: str, count: int) -> SwitchGroup:
    spec = catalog.get(part)
    spec = spec if isinstance(spec, SwitchSpec) else None
    watts = None if spec is None or spec.watts is None else round(spec.watts)
    return SwitchGroup(
        role=SwitchRole.OOB, part=part, count=count, height_u=spec.height_u if spec else None, power_w=watts
    )


def central_sizing(
    design: DesignIn, catalog: CatalogView, *, ports: int, units: int, system_switch: str | None
) -> CentralSwitches | None:
    """The central out-of-band switches as the planner racks them: the design's switch (else a rack-scale
    system's own model, else the RAs'), counted by ``central_switches`` from every port but the PDUs' (``ports``:
    BMCs, switches, servers) and the plan's PDUs. None when the design names no out-of-band network to plan or
    its switch is no management switch (the out-of-band plan says why)."""
    entry = design.networks.oob if design.networks is not None else DEFAULT
    if entry is None:
        return None
    named = entry.switch if isinstance(entry, NetworkIn) else None
    leaf = oob_leaf_switch(catalog, named or system_switch)
    if leaf is None or not leaf.management or leaf.rj45_ports <= 0:
        return None
    return CentralSwitches(
        group=_switch_group(catalog, leaf.part_number, 0),
        ports=ports,
        per_switch=leaf.rj45_ports,
        units=units,
        sizer=central_switches,
    )


def densest_rack_ports(racks: RackPlan) -> int:
    """The management ports of the fullest compute rack: its nodes' BMCs and its PDUs; a rack-scale system's
    trays, NVLink switch trays and power shelves (each a management port, on the system's own switches)."""
    out = 0
    seen: set[int] = set()  # alike racks share one devices tuple
    for run in racks.runs:
        rack = run.rack
        if id(rack.devices) in seen:
            continue
        seen.add(id(rack.devices))
        if rack.system:
            out = max(out, sum(1 for d in rack.devices if d.role != DeviceRole.SYSTEM_MANAGEMENT))
        elif rack.kind == RackKind.COMPUTE:
            out = max(out, rack.nodes + sum(p.quantity for p in rack.pdus))
    return out


def oob_rack_plan(
    design: DesignIn,
    catalog: CatalogView,
    totals: NodeTotals,
    fabric: FabricPlan | None,
    *,
    management: bool,
    equipment: tuple[SwitchGroup, ...] = (),
    sizing: CentralSwitches | None = None,
) -> OobRacks:
    """The rack plan with the out-of-band switches where the placement puts them (module docstring).
    ``management`` False, or ``networks.oob`` null: the site has its own out-of-band network (no management switch
    in any rack);
    ``sizing``: the central switches to rack with the plan (``central_sizing``)."""
    entry = design.networks.oob if design.networks is not None else DEFAULT
    if not management or entry is None:  # the site's own network, its switches with it (networks.oob null)
        plan, found = build_rack_plan(design, catalog, totals, fabric, management=False, equipment=equipment)
        return OobRacks(plan, found, False)
    given = entry.placement if isinstance(entry, NetworkIn) else None
    central = given != PER_RACK
    sizing = sizing if central else None
    plan, found = build_rack_plan(
        design, catalog, totals, fabric, equipment=equipment, oob_central=central, central=sizing
    )
    if given is None and oob_placement(entry, densest_rack_ports(plan), _racks_but_central(plan))[0] != CENTRAL:
        plan, found = build_rack_plan(design, catalog, totals, fabric, equipment=equipment)
        return OobRacks(plan, found, False)
    return OobRacks(plan, found, central, *(_racked(plan) if sizing is not None else (0, None)))


def with_central_switches(
    racks: OobRacks,
    oob: NetworkPlan | None,
    design: DesignIn,
    catalog: CatalogView,
    totals: NodeTotals,
    fabric: FabricPlan | None,
    equipment: tuple[SwitchGroup, ...],
) -> OobRacks:
    """``racks`` with the out-of-band plan's central switches racked in the management racks (``racks`` itself
    when they already are, or the switches are not central)."""
    count = oob.leaf_switches if oob is not None and oob.placement == CENTRAL and racks.central else 0
    if oob is None or not oob.switch or (count == racks.racked and (not count or oob.switch == racks.racked_part)):
        return racks
    group = _switch_group(catalog, oob.switch, count)
    plan, found = build_rack_plan(design, catalog, totals, fabric, equipment=(group, *equipment), oob_central=True)
    return OobRacks(plan, found, True, count, oob.switch)


def rack_side(racks: RackPlan, central: bool) -> RackSide:
    """The rack plan's PDUs, in-rack management switches and densest compute rack, for the out-of-band network:
    the planner's top-of-rack switches and a rack-scale system's own (two per NVL72 rack, its trays' and shelves'
    management ports on them; their part is the planner's where it places any, else the system's when the
    catalogue names it)."""
    pdus = sum(p.quantity for p in racks.pdus)
    switches, part, system_part = 0, None, None
    seen: dict[int, tuple[int, str | None, str | None]] = {}  # alike racks share one devices tuple
    for run in racks.runs:
        key = id(run.rack.devices)
        if key not in seen:
            mgmt = [d for d in run.rack.devices if d.role == DeviceRole.MANAGEMENT]
            own = [d for d in run.rack.devices if d.role == DeviceRole.SYSTEM_MANAGEMENT]
            system = next((d.part for d in run.rack.devices if d.role == DeviceRole.NODE), None)
            named = next((d.part for d in own if d.part != system), None)  # the system's model, if named
            seen[key] = (len(mgmt) + len(own), next((d.part for d in mgmt), None), named)
        count, mgmt_part, named = seen[key]
        switches += count * run.count
        part = part or mgmt_part
        system_part = system_part or named
    densest = densest_rack_ports(racks)
    return RackSide(
        pdus=pdus,
        switches=switches,
        switch_part=part or system_part,
        densest=densest,
        central=central,
        racks=_racks_but_central(racks),
        cord_run_m=central_oob_run(racks) if central else None,
    )
