"""The fabric planner: switches, links, media and bill of materials of a rail-optimized or fat-tree fabric.

Pure arithmetic on counts: nothing here enumerates individual ports or cables (engines.fabric.cabling
does that lazily, for the cabling CSV). The sizing is in ``sizing.py``, the rack model (runs and nodes per
rack) in ``rack_model.py``, the planner's own findings in ``findings.py`` and the media choice in ``media.py``;
this module puts them together. The rules, their sources and the worked arithmetic are in README.md.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from dataclasses import dataclass
from typing import Any, cast

from design.model import RackIn
from design.specs import AdapterSpec, SwitchSpec
from design.vocabulary import Connector, Protocol, Top
from engines.catalog_view import CatalogView
from engines.findings import Finding, finding
from engines.findings.params.fabric import (
    FabricDistanceAssumed,
    FabricHcaAssumed,
    FabricNoMgmtSwitch,
    FabricPlanesNoMedium,
    FabricPortsExceeded,
    FabricSwitchIsManagement,
    FabricSwitchPortsUnknown,
)

from .findings import (
    choice_findings,
    distance_findings,
    growth_reserve_finding,
    media_finding,
    named_part_findings,
    protocol_finding,
    rails_exceeded_finding,
    speed_finding,
    subnet_manager_finding,
)
from .media import SLACK_M, MediaResult, Side, item_quantity, select_media
from .model import LEAF_SPINE, NODE_LEAF, SPINE_CORE, FabricPlan, LinkPlan
from .rack_model import (
    IN_RACK_M,
    LEAF_TO_SPINE_M,
    NODE_TO_LEAF_M,
    SPINE_TO_CORE_M,
    distance,
    given_distances,
    nodes_per_rack,
)
from .sizing import Size, growth_reserve, pod_downlinks, size_with_one_to_one, split_options


def _switch_side(switch: SwitchSpec, split: int, label: str) -> Side:
    return Side(
        connector=switch.cage_connector,
        top=switch.top,
        twin=switch.logical_ports_per_cage >= 2,
        links_per_plug=switch.logical_ports_per_cage * split,
        label=label,
        is_switch=True,
        port_gbps=switch.port_speed_gbps or None,
    )


def _hca_side(switch: SwitchSpec, hca: AdapterSpec | None, links_per_plug: int = 1) -> Side:
    """The adapter end of a node link; ``links_per_plug`` > 1 when one adapter cage carries a link of every plane
    (a ConnectX-8 OSFP cage as 2x 400GbE): its plug is a twin-port one, as a switch cage's."""
    if hca is None:
        # The assumed HCA mirrors the switch port (README): flat-top OSFP for OSFP cages (ConnectX-7 OSFP).
        top = Top.FLAT if switch.cage_connector == Connector.OSFP else None
        return Side(switch.cage_connector, top, False, 1, "", False)
    return Side(hca.connector, hca.top, links_per_plug > 1, links_per_plug, hca.part_number, False)


def ethernet_planes(switch: SwitchSpec, hca: AdapterSpec | None) -> int:
    """Planes of the compute fabric: 2 when the adapter's port runs as two Ethernet links of the switch's port speed
    (ConnectX-8: "2x 400GbE", 800GbE not on a single port, ConnectX-8 firmware notes) on an Ethernet switch, as
    NVIDIA cables them: "a twin-planar design ... Each GPU has 2x 400GbE connectivity through two different planes"
    (DGX SuperPOD B300 Spectrum-4 RA, Network Fabrics); "Each compute networking plane forms a separate fabric"
    (Enterprise RA for GB300 NVL72, Multi-Plane Topology Approach). 1 otherwise: one fabric."""
    if hca is None or switch.protocol != Protocol.ETHERNET or hca.ethernet_links < 2 or not hca.speed_gbps:
        return 1
    if hca.protocol not in (None, Protocol.ETHERNET, Protocol.VPI):
        return 1
    if hca.speed_gbps // hca.ethernet_links != switch.port_speed_gbps:
        return 1
    return hca.ethernet_links


# What every plan of one request shares: nodes, rails, switch, HCA, topology and oversubscription.
_Common = tuple[int, int, SwitchSpec, AdapterSpec | None, str, tuple[int, int]]


def _empty(
    nodes: int,
    rails: int,
    switch: SwitchSpec,
    hca: AdapterSpec | None,
    topology: str,
    oversub: tuple[int, int],
    findings: list[Finding],
    **extra: Any,
) -> FabricPlan:
    return FabricPlan(
        nodes=nodes,
        rails=rails,
        switch=switch.part_number,
        hca=hca.part_number if hca else None,
        topology=topology,
        oversubscription=oversub,
        tiers=0,
        findings=tuple(findings),
        **extra,
    )


@dataclass(slots=True)
class _NodeRun:
    """The chosen split of node-facing ports, the sizing it gives and the media of its node links."""

    split: int
    size: Size
    media: MediaResult | None = None
    a: Side | None = None
    b: Side | None = None
    distance_m: float = 0.0
    field_name: str = ""
    assumed_m: float | None = None  # the default run the medium did not reach (then distance_m is what it reaches)


def _choose_split(
    *,
    nodes: int,
    rails: int,
    switch: SwitchSpec,
    hca: AdapterSpec | None,
    oversubscription: tuple[int, int],
    topology: str,
    catalog: CatalogView,
    rack: RackIn | None,
    npr: int,
    given: frozenset[str],
    hca_plug_links: int = 1,
    one_to_one: int = 0,
) -> _NodeRun:
    """Prefer split ports when the HCA is slower and a catalogue splitter makes them; fall back to whole ports.

    A split that a cable makes wins; else the split whose cables join the connectors but fall short (so the
    finding is BEYOND_REACH with the lengths, not a false NO_CABLE of the split nothing makes); else any sized."""
    hca_speed = (hca.speed_gbps if hca is not None else None) or switch.port_speed_gbps
    options: list[_NodeRun] = []
    for split in split_options(switch, hca_speed):
        k, cage = switch.logical_ports, switch.logical_ports_per_cage
        size = size_with_one_to_one(nodes, rails, k, split, oversubscription, topology, cage, one_to_one)
        if not size.tiers:
            options.append(_NodeRun(split, size))
            continue
        # In-rack rule (README "Rack model"): the node runs are in-rack only when the whole fabric is one
        # switch and every node fits one rack, so that switch sits in the nodes' rack.
        # A node-to-leaf distance the design gives is never overridden by the in-rack default: with it (and no
        # in-rack run given) the one switch sits that far from the nodes.
        in_rack = size.tiers == 1 and nodes <= npr and ("in_rack_m" in given or "node_to_leaf_m" not in given)
        field_name, default = ("in_rack_m", IN_RACK_M) if in_rack else ("node_to_leaf_m", NODE_TO_LEAF_M)
        run = distance(rack, field_name, default)
        a, b = _switch_side(switch, split, switch.part_number), _hca_side(switch, hca, hca_plug_links)
        speed = min(hca_speed, switch.port_speed_gbps // split)
        select = {"speed_gbps": speed, "protocol": switch.protocol}
        result, run, assumed = _reach(catalog, a, b, run, field_name in given, select)
        options.append(_NodeRun(split, size, result, a, b, run, field_name, assumed))
        if result.choice is not None and not result.choice.retired:
            break
    chosen = next((o for o in options if o.media is not None and _active_choice(o.media)), None)
    chosen = chosen or next((o for o in options if o.media is not None and o.media.choice is not None), None)
    chosen = chosen or next((o for o in options if o.media is not None and o.media.matched), None)
    return chosen or next((o for o in options if o.size.tiers), options[0])


def _active_choice(result: MediaResult) -> bool:
    """A medium was chosen and none of its parts is discontinued or end-of-life."""
    return result.choice is not None and not result.choice.retired


def _reach(
    catalog: CatalogView, a: Side, b: Side, run: float, given: bool, select: dict[str, Any]
) -> tuple[MediaResult, float, float | None]:
    """Media for a run. A default run (the design gives none) that no joining medium reaches is an assumption,
    not evidence: the plan then takes the longest medium that joins the ends and says the runs must stay within
    it (``FABRIC_DISTANCE_ASSUMED``) instead of refusing the fabric. Returns (result, run planned, default run
    that did not fit or None)."""
    result = select_media(catalog, a, b, distance_m=run, **select)
    if given or result.choice is not None or not result.matched or not result.longest_m:
        return result, run, None
    fits = result.longest_m - SLACK_M
    if fits <= 0:
        return result, run, None
    shorter = select_media(catalog, a, b, distance_m=fits, **select)
    return (shorter, fits, run) if shorter.choice is not None else (result, run, None)


def _link_class(
    name: str,
    links: int,
    speed: int,
    run: float,
    result: MediaResult,
    sides: tuple[Side, Side],
    groups: tuple[Any, Any],
    field_name: str,
    findings: list[Finding],
) -> LinkPlan:
    """One link class with the parts its chosen medium needs; no medium: an empty class and a finding."""
    a, b = sides
    if result.choice is None:
        findings.append(media_finding(name, result, a, b, speed, run, field_name))
        return LinkPlan(name, links, speed, run, None, None, None, (), a.links_per_plug)
    choice = result.choice
    findings.extend(choice_findings(name, choice, a, b))
    parts = tuple((i.part.part_number, item_quantity(i, groups[0], groups[1], links), i.role) for i in choice.items)
    return LinkPlan(name, links, speed, run, choice.kind, choice.length_m, choice.label, parts, a.links_per_plug)


def _link_classes(
    node: _NodeRun,
    *,
    node_links: int,
    speed: int,
    switch: SwitchSpec,
    catalog: CatalogView,
    rack: RackIn | None,
    given: frozenset[str],
    findings: list[Finding],
) -> list[LinkPlan]:
    """Media per link class: node to leaf, and leaf to spine and spine to core where the fabric has those tiers."""
    size, port_speed, protocol = node.size, switch.port_speed_gbps, switch.protocol
    if node.assumed_m is not None:
        findings.append(_assumed(NODE_LEAF, node.assumed_m, node.distance_m, node.field_name))
    plans = [
        _link_class(
            NODE_LEAF,
            node_links,
            speed,
            node.distance_m,
            cast(MediaResult, node.media),  # a sized run carries its media and both sides
            (cast(Side, node.a), cast(Side, node.b)),
            (size.node_groups, None),
            node.field_name,
            findings,
        )
    ]
    up = _switch_side(switch, 1, switch.part_number)
    uplinks = (
        (LEAF_SPINE, 2, "leaf_to_spine_m", LEAF_TO_SPINE_M, size.leaves * size.up, _pair_links(size)),
        (SPINE_CORE, 3, "spine_to_core_m", SPINE_TO_CORE_M, size.spines * size.spine_up, size.mc),
    )
    groups = {
        LEAF_SPINE: (((size.leaves, size.up),), size.spine_groups),
        SPINE_CORE: (((size.spines, size.spine_up),), _core_groups(size)),
    }
    for name, tiers, field_name, default, links, pair_links in uplinks:
        if size.tiers < tiers:
            continue
        run = distance(rack, field_name, default)
        select = {"speed_gbps": port_speed, "protocol": protocol, "pair_links": pair_links}
        res, run, assumed = _reach(catalog, up, up, run, field_name in given, select)
        if assumed is not None:
            findings.append(_assumed(name, assumed, run, field_name))
        plans.append(_link_class(name, links, port_speed, run, res, (up, up), groups[name], field_name, findings))
    return plans


def _pair_links(size: Size) -> int:
    """Links per leaf-spine pair that every pair shares a multiple of (the last pod of three tiers may have
    more per pair): a twin cable carrying two links to one spine needs it even."""
    last = size.up // size.last_pod_spines if size.last_pod_spines else size.m
    return math.gcd(size.m, last)


def _core_groups(size: Size) -> tuple[tuple[int, int], ...]:
    """(cores, spine links on each): the planes the last pod has a spine in carry every pod; the others one
    pod fewer."""
    full = size.last_pod_spines or size.spines_per_pod
    return tuple(
        (planes * size.cores_per_plane, pods * size.mc)
        for planes, pods in ((full, size.pods), (size.spines_per_pod - full, size.pods - 1))
        if planes and pods
    )


def _assumed(name: str, default_m: float, planned_m: float, field_name: str) -> Finding:
    return finding(
        "fabric",
        FabricDistanceAssumed(
            link_class=name, default_m=default_m, planned_m=planned_m, slack_m=SLACK_M, rack_field=field_name
        ),
    )


def _ports(size: Size, split: int, k: int, leaf_spine_links: int, spine_core_links: int) -> list[tuple[str, int, int]]:
    """Ports per tier (logical ports; a split port counts once): (tier, used, total)."""
    leaf_used = sum(c * -(-e // split) for c, e in size.node_groups) + size.leaves * (size.up if size.tiers >= 2 else 0)
    ports = [("leaf", leaf_used, size.leaves * k)]
    if size.tiers >= 2:
        ports.append(("spine", leaf_spine_links + spine_core_links, size.spines * k))
    if size.tiers == 3:
        ports.append(("core", spine_core_links, size.cores * k))
    return ports


def _management(catalog: CatalogView, ports: int, findings: list[Finding]) -> tuple[str | None, int]:
    """Out-of-band: one 1 GbE port per node BMC and per fabric switch (the management switches' own ports aside),
    on the cheapest active management switch in the catalogue (a discontinued one only if no other exists)."""
    mgmt = [s for s in catalog.of_type(SwitchSpec) if s.management and s.rj45_ports > 0]
    if not mgmt:
        findings.append(finding("fabric", FabricNoMgmtSwitch(ports=ports)))
        return None, 0
    mgmt_switch = min(
        mgmt, key=lambda s: (s.retired, s.price_eur is None, s.price_eur or 0, -s.rj45_ports, s.part_number)
    )
    return mgmt_switch.part_number, -(-ports // mgmt_switch.rj45_ports)


def _bom(
    switch: str, switches: int, mgmt: tuple[str | None, int], links: list[LinkPlan]
) -> tuple[tuple[str, int], ...]:
    bom: dict[str, int] = {switch: switches}
    mgmt_part, mgmt_count = mgmt
    if mgmt_part:
        bom[mgmt_part] = bom.get(mgmt_part, 0) + mgmt_count
    for lp in links:
        for part, qty, _role in lp.parts:
            bom[part] = bom.get(part, 0) + qty
    return tuple(bom.items())


def _infeasible(
    common: _Common, node: _NodeRun, oversubscription: tuple[int, int], findings: list[Finding]
) -> FabricPlan:
    """No fabric of this switch and ratio holds the endpoints: the rail limit or the ports exceeded, said so."""
    nodes, rails, switch, _hca, topology, _oversub = common
    k = switch.logical_ports
    if topology == "rail-optimized" and rails > pod_downlinks(switch):
        findings.append(rails_exceeded_finding(nodes, rails, switch, node.size))
    else:
        findings.append(
            finding(
                "fabric",
                FabricPortsExceeded(
                    nodes=nodes,
                    rails=rails,
                    switch=switch.part_number,
                    ports=k,
                    oversubscription=f"{oversubscription[0]}:{oversubscription[1]}",
                    endpoints=nodes * rails,
                    capacity=node.size.capacity,
                ),
            )
        )
    return _empty(*common, findings, logical_ports=k, split=node.split)


def plan_fabric(
    *,
    nodes: int,
    rails: int,
    switch: SwitchSpec,
    oversubscription: tuple[int, int] = (1, 1),
    topology: str = "rail-optimized",
    hca: AdapterSpec | None = None,
    catalog: CatalogView,
    rack: RackIn | None = None,
    node_height_u: int | None = None,
    node_power_w: int | None = None,
    hca_named: bool = True,
    given_rack: RackIn | None = None,
    one_to_one: int = 0,
) -> FabricPlan:
    """Size the compute fabric and its bill of materials; problems come back as findings on the plan.

    ``hca_named``: the HCA was named for the fabric (False: taken from the nodes, where it is already checked).
    ``given_rack``: the distances the design itself gives (default: ``rack``); ``rack`` may add estimates (the
    rack plan's). Only given distances are checked for plausibility, and only defaults may be shortened to a
    medium's reach (``FABRIC_DISTANCE_ASSUMED``). ``one_to_one``: the last endpoints, at 1:1 (README, rule 4)."""
    findings: list[Finding] = named_part_findings(switch, hca if hca_named else None)
    given = given_distances(rack if given_rack is None else given_rack)
    common = (nodes, rails, switch, hca, topology, oversubscription)
    if _unplannable(switch, hca, findings):
        return _empty(*common, findings)
    npr = nodes_per_rack(rack, node_height_u, node_power_w)
    planes = ethernet_planes(switch, hca)
    plane_hca = _plane_hca(hca, planes)
    common = (nodes, rails, switch, plane_hca, topology, oversubscription)
    split = functools.partial(
        _choose_split,
        nodes=nodes,
        rails=rails,
        switch=switch,
        oversubscription=oversubscription,
        topology=topology,
        catalog=catalog,
        rack=rack,
        npr=npr,
        given=given,
        one_to_one=one_to_one,
    )
    node = split(hca=plane_hca, hca_plug_links=planes)
    if planes > 1 and node.size.tiers and not _has_medium(node):
        # No catalogue plug carries both planes' links in the adapter's cage: one plane of one link per adapter,
        # which the catalogue can cable, said so (the speed finding then says the link's 800 -> 400 Gb/s).
        single = split(hca=hca)
        if _has_medium(single) and hca is not None and plane_hca is not None:
            no_medium = FabricPlanesNoMedium(
                gbps=plane_hca.speed_gbps, hca=hca.part_number, switch=switch.part_number, links=planes
            )
            findings.append(finding("fabric", no_medium))
            planes, node, common = 1, single, (nodes, rails, switch, hca, topology, oversubscription)
    if not node.size.tiers:
        return _infeasible(common, node, oversubscription, findings)
    findings.extend(distance_findings(given_rack if given_rack is not None else rack, node.size.tiers, node.field_name))
    plan = _sized_plan(common, node, catalog=catalog, rack=rack, npr=npr, given=given, findings=findings)
    return _all_planes(plan, planes, catalog) if planes > 1 else plan


def _plane_hca(hca: AdapterSpec | None, planes: int) -> AdapterSpec | None:
    """The adapter as one plane sees it: one plane is planned as the whole fabric of the adapters' one link each,
    at the plane's speed; the others are copies of it (``_all_planes``)."""
    if hca and hca.speed_gbps and planes > 1:
        return dataclasses.replace(hca, speed_gbps=hca.speed_gbps // planes)
    return hca


def _node_link_plans(
    common: _Common,
    node: _NodeRun,
    *,
    catalog: CatalogView,
    rack: RackIn | None,
    given: frozenset[str],
    findings: list[Finding],
) -> tuple[int, list[LinkPlan]]:
    """The node links' speed and the plan's link classes (after the finding on a split that slows the links)."""
    nodes, rails, switch, hca, _topology, _oversubscription = common
    speed_warning = speed_finding(switch, hca, node.split, catalog)
    if speed_warning is not None:
        findings.append(speed_warning)
    hca_speed = (hca.speed_gbps if hca is not None else None) or switch.port_speed_gbps
    speed = min(hca_speed, switch.port_speed_gbps // node.split)
    link_plans = _link_classes(
        node,
        node_links=nodes * rails,
        speed=speed,
        switch=switch,
        catalog=catalog,
        rack=rack,
        given=given,
        findings=findings,
    )
    return speed, link_plans


def _companions(
    common: _Common, node: _NodeRun, catalog: CatalogView, findings: list[Finding]
) -> tuple[str | None, int]:
    """The out-of-band management switches (part, count), after the finding on the growth reserve; then the subnet
    manager's finding."""
    nodes, rails, switch, _hca, topology, oversubscription = common
    size = node.size
    fabric_switches = size.leaves + size.spines + size.cores
    reserve = growth_reserve(size, nodes, rails, switch.logical_ports, node.split, oversubscription, topology)
    if reserve is not None:
        findings.append(growth_reserve_finding(switch, reserve))
    mgmt = _management(catalog, nodes + fabric_switches, findings)
    sm = subnet_manager_finding(switch, nodes * rails + fabric_switches)
    if sm is not None:
        findings.append(sm)
    return mgmt


def _unplannable(switch: SwitchSpec, hca: AdapterSpec | None, findings: list[Finding]) -> bool:
    """The findings on the switch and adapter before sizing; True when the switch cannot carry a fabric at all (a
    management switch, or its ports unknown)."""
    if switch.management:
        findings.append(finding("fabric", FabricSwitchIsManagement(switch=switch.part_number)))
        return True
    if switch.logical_ports <= 0 or switch.port_speed_gbps <= 0:
        findings.append(finding("fabric", FabricSwitchPortsUnknown(switch=switch.part_number)))
        return True
    if hca is None:
        findings.append(
            finding("fabric", FabricHcaAssumed(switch=switch.part_number, port_gbps=switch.port_speed_gbps))
        )
    mismatch = protocol_finding(switch, hca)
    if mismatch is not None:
        findings.append(mismatch)
    return False


def _has_medium(node: _NodeRun) -> bool:
    """A catalogue medium was chosen for the node links."""
    return node.media is not None and node.media.choice is not None


def _all_planes(plane: FabricPlan, planes: int, catalog: CatalogView) -> FabricPlan:
    """The fabric of ``planes`` identical planes from the plan of one: switches, links, ports and their parts times
    the planes; the out-of-band switches counted again for every node BMC and every switch of all planes."""
    links = tuple(
        dataclasses.replace(lp, links=lp.links * planes, parts=tuple((p, q * planes, r) for p, q, r in lp.parts))
        for lp in plane.links
    )
    switches = plane.switches * planes
    mgmt = _management(catalog, plane.nodes + switches, []) if plane.management_switch else (None, 0)
    return dataclasses.replace(
        plane,
        fabric_planes=planes,
        leaf_switches=plane.leaf_switches * planes,
        spine_switches=plane.spine_switches * planes,
        core_switches=plane.core_switches * planes,
        node_links=plane.node_links * planes,
        leaf_spine_links=plane.leaf_spine_links * planes,
        spine_core_links=plane.spine_core_links * planes,
        ports=tuple((tier, used * planes, total * planes) for tier, used, total in plane.ports),
        links=links,
        management_switch=mgmt[0],
        management_switches=mgmt[1],
        bom=_bom(plane.switch, switches, mgmt, list(links)),
    )


def _sized_plan(
    common: _Common,
    node: _NodeRun,
    *,
    catalog: CatalogView,
    rack: RackIn | None,
    npr: int,
    given: frozenset[str],
    findings: list[Finding],
) -> FabricPlan:
    """The plan of a fabric that could be sized: its link classes, ports, companion parts and bill of materials."""
    nodes, rails, switch, hca, topology, oversubscription = common
    size, split, k, port_speed = node.size, node.split, switch.logical_ports, switch.port_speed_gbps
    node_links = nodes * rails
    speed, link_plans = _node_link_plans(common, node, catalog=catalog, rack=rack, given=given, findings=findings)
    leaf_spine_links = size.leaves * size.up if size.tiers >= 2 else 0
    spine_core_links = size.spines * size.spine_up if size.tiers == 3 else 0
    fabric_switches = size.leaves + size.spines + size.cores
    mgmt = _companions(common, node, catalog, findings)
    return FabricPlan(
        nodes=nodes,
        rails=rails,
        switch=switch.part_number,
        hca=hca.part_number if hca else None,
        topology=topology,
        oversubscription=oversubscription,
        tiers=size.tiers,
        logical_ports=k,
        split=split,
        leaf_downlinks=size.down if size.tiers >= 2 else k,
        leaf_uplinks=size.up,
        one_to_one_links=size.one_to_one,
        nodes_per_unit=size.nodes_per_unit,
        units=size.units,
        pods=size.pods,
        leaves_per_pod=size.leaves_per_pod,
        spines_per_pod=size.spines_per_pod,
        last_pod_spines=size.last_pod_spines,
        cores_per_plane=size.cores_per_plane,
        spine_downlinks=size.spine_down,
        spine_uplinks=size.spine_up,
        leaf_switches=size.leaves,
        spine_switches=size.spines,
        core_switches=size.cores,
        node_links=node_links,
        leaf_spine_links=leaf_spine_links,
        spine_core_links=spine_core_links,
        links_per_leaf_spine_pair=size.m,
        links_per_spine_core_pair=size.mc,
        link_speed_gbps=speed,
        uplink_speed_gbps=port_speed if size.tiers >= 2 else 0,
        ports=tuple(_ports(size, split, k, leaf_spine_links, spine_core_links)),
        links=tuple(link_plans),
        management_switch=mgmt[0],
        management_switches=mgmt[1],
        nodes_per_rack=npr,
        node_racks=-(-nodes // npr),
        bom=_bom(switch.part_number, fabric_switches, mgmt, link_plans),
        findings=tuple(findings),
    )
