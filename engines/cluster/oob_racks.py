"""The rack plan as the out-of-band network's placement wants it (``networks.oob.placement``): central, its
switches in the management racks (the DGX SuperPOD RAs'), so no rack gets one of its own; or per rack, the rack
plan's management switch in every rack. Absent, the placement follows the density of the compute racks
(``engines.networks.oob.oob_placement``): the racks are planned central first and planned again per rack when the
fullest compute rack has ``DENSE_RACK_PORTS`` or more management ports. Central switches are counted by the
out-of-band plan from the racks' PDUs, then racked in the management racks (``with_central_switches``)."""

from __future__ import annotations

from dataclasses import dataclass

from design.model import DEFAULT, DesignIn, NetworkIn
from design.specs import CatalogView, SwitchSpec
from engines.fabric.model import FabricPlan
from engines.findings.finding import Finding
from engines.networks.model import NetworkPlan
from engines.networks.oob import CENTRAL, PER_RACK, RackSide, oob_placement
from engines.node.totals import NodeTotals
from engines.racks import RackPlan, SwitchGroup
from engines.racks.model import DeviceRole, RackKind, SwitchRole

from .rackplan import build_rack_plan


@dataclass(frozen=True)
class OobRacks:
    """The rack plan, its findings and whether its out-of-band switches are central (none in a rack of its own),
    and how many central ones it racks in the management racks."""

    plan: RackPlan
    findings: list[Finding]
    central: bool
    racked: int = 0


def densest_rack_ports(racks: RackPlan) -> int:
    """The management ports of the fullest compute rack: its nodes' BMCs and its PDUs; a rack-scale system's
    trays, NVLink switch trays and power shelves (each a management port, on the system's own switches)."""
    out = 0
    for run in racks.runs:
        rack = run.rack
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
) -> OobRacks:
    """The rack plan with the out-of-band switches where the placement puts them (module docstring).
    ``management`` False: the site has its own out-of-band network (no management switch in any rack)."""
    entry = design.networks.oob if design.networks is not None else DEFAULT
    if not management or entry is None:
        plan, found = build_rack_plan(design, catalog, totals, fabric, management=management, equipment=equipment)
        return OobRacks(plan, found, False)
    given = entry.placement if isinstance(entry, NetworkIn) else None
    central = given != PER_RACK
    plan, found = build_rack_plan(design, catalog, totals, fabric, equipment=equipment, oob_central=central)
    if given is None and oob_placement(entry, densest_rack_ports(plan), plan.rack_count)[0] != CENTRAL:
        plan, found = build_rack_plan(design, catalog, totals, fabric, equipment=equipment)
        return OobRacks(plan, found, False)
    return OobRacks(plan, found, central)


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
    if count == racks.racked or oob is None or not oob.switch:
        return racks
    spec = catalog.get(oob.switch)
    spec = spec if isinstance(spec, SwitchSpec) else None
    watts = None if spec is None or spec.watts is None else round(spec.watts)
    group = SwitchGroup(
        role=SwitchRole.OOB, part=oob.switch, count=count, height_u=spec.height_u if spec else None, power_w=watts
    )
    plan, found = build_rack_plan(design, catalog, totals, fabric, equipment=(group, *equipment), oob_central=True)
    return OobRacks(plan, found, True, count)


def rack_side(racks: RackPlan, central: bool) -> RackSide:
    """The rack plan's PDUs, in-rack management switches and densest compute rack, for the out-of-band network:
    the planner's top-of-rack switches and a rack-scale system's own (two per NVL72 rack, its trays' and shelves'
    management ports on them; their part is the planner's where it places any, else the system's when the
    catalogue names it)."""
    pdus = sum(p.quantity for p in racks.pdus)
    switches, part, system_part = 0, None, None
    for run in racks.runs:
        mgmt = [d for d in run.rack.devices if d.role == DeviceRole.MANAGEMENT]
        own = [d for d in run.rack.devices if d.role == DeviceRole.SYSTEM_MANAGEMENT]
        switches += (len(mgmt) + len(own)) * run.count
        part = part or next((d.part for d in mgmt), None)
        system = next((d.part for d in run.rack.devices if d.role == DeviceRole.NODE), None)
        system_part = system_part or next((d.part for d in own if d.part != system), None)  # the model, if named
    densest = densest_rack_ports(racks)
    return RackSide(
        pdus=pdus,
        switches=switches,
        switch_part=part or system_part,
        densest=densest,
        central=central,
        racks=racks.rack_count,
    )
