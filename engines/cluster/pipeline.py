"""The cluster's engines in one pass: a design and the catalogue view in, every plan and finding out.

``validate_cluster`` completes the nodes from their servers' defaults (engines.cluster.defaults), runs the node
rules, plans the compute fabric's switches, the racks (engines.cluster.rackplan), the fabric's media with the
racks' distances, the storage, in-band and out-of-band networks, sums the cluster's power, adds the control plane
and the services (engines.cluster.control_plane) and builds the one bill of materials (engines.cluster.bill).
It returns a typed ``ClusterValidation``: findings unrendered, plans as the engines made them. Pure: no Django;
what it needs of the service (the settings' prices, the lines' and the bill's words in the result's language)
comes in as parameters. The service (configurator.validation) says the findings in the result's language and
builds the result (contract design/v1).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TypedDict

from design.contract import SUPPLIED_ITEMS
from design.model import DesignIn, NetworkIn, NetworksIn, RackIn
from design.specs import AdapterSpec, ServerSpec, SwitchSpec
from design.vocabulary import Protocol
from engines.catalog_view import CatalogView
from engines.cluster.bill import BillSources, BillWords, BomLine, assemble_bill
from engines.cluster.control_plane import (
    CONTROL_PLANE,
    OOB,
    POWER,
    RACKS,
    SERVICES,
    ClusterLine,
    Describe,
    LeftOut,
    ServicePrices,
    cluster_lines,
    control_plane_devices,
    control_plane_step,
    left_out,
)
from engines.cluster.defaults import DefaultAdded, complete_design
from engines.cluster.oob_racks import OobRacks, central_sizing, oob_rack_plan, rack_side, with_central_switches
from engines.cluster.rackplan import (
    RackPlanSection,
    distances,
    fabric_rack_with_distances,
    management_equipment,
    rack_plan_section,
)
from engines.cluster.systems import endpoints_per_node, fabric_groups, fabric_rails, mixed_domains, tray_dpus
from engines.fabric.check import check_design_fabric
from engines.fabric.model import FabricPlan
from engines.fabric.rack_model import DISTANCE_FIELDS
from engines.findings.finding import SEVERITY_ORDER, Finding
from engines.findings.params.cluster import OfferLeftOut
from engines.findings.registry import finding
from engines.networks.model import NetworkPlan
from engines.networks.plan import NodePorts, plan_oob_network, plan_switched_networks
from engines.node.context import GroupContext
from engines.node.engine import NodeResult, validate_nodes
from engines.node.power import ClusterPower, cluster_power
from engines.racks import CentralSwitches, LinkLength, SwitchGroup


def integrated_nic_spec(server: ServerSpec) -> AdapterSpec | None:
    """The compute HCA built into a server, as an adapter spec for the fabric planner; None without one.

    Speed from ``integrated_nic_speed_gbps`` (None stays None: the planner then uses the switch port's speed
    and says nothing of a mismatch it cannot know). Connector from ``integrated_nic_connector``, a sourced
    catalogue fact (None stays None: the planner then says it cannot choose a cable rather than guessing one).
    Protocol from ``integrated_nic_protocol`` (None stays None: no protocol mismatch is claimed). Ethernet links per
    NIC from ``integrated_nic_ethernet_links`` (ConnectX-8: 2x 400GbE, two planes on Spectrum-X). Plug top from
    ``integrated_nic_top`` (ConnectX-8 cages of B300 and GB300 take flat-top plugs; None stays None: the planner then
    says it assumes the fit). Price: none, the NICs come with the server.
    """
    if getattr(server, "integrated_nics", 0) <= 0:
        return None
    connector = server.integrated_nic_connector
    return AdapterSpec(
        part_number=f"{server.part_number} integrated NIC",
        name=f"Integrated compute NIC of {server.part_number}",
        manufacturer=server.manufacturer,
        price_eur=None,
        ports=1,
        speed_gbps=getattr(server, "integrated_nic_speed_gbps", None),
        connector=connector,
        protocol=server.integrated_nic_protocol,
        top=server.integrated_nic_top,
        ethernet_links=server.integrated_nic_ethernet_links,
    )


class FabricInputs(TypedDict):
    """What the fabric check is told of the nodes (engines.fabric.check.check_design_fabric's keywords)."""

    nodes: int
    compute_nics_per_node: int
    nic: AdapterSpec | None
    gpus_per_node: int
    gpu_generation: str
    advised_fabric_gbps: int | None
    one_rack: ServerSpec | None


def fabric_inputs(groups: Sequence[GroupContext]) -> FabricInputs:
    """The fabric's view of the nodes (``groups``: every node group as the node engine resolved it): the GPU groups
    (or all groups), their endpoints and compute NICs; a fabric that mixes rack-scale systems and servers at the
    most rails, with the ports each kind has (engines.cluster.systems)."""
    gpu_groups = fabric_groups(groups)
    nics = max((fabric_rails(g) for g in gpu_groups), default=0)
    per_node = endpoints_per_node(gpu_groups, nics)
    nodes = sum(g.group.count * per_node[g.index] for g in gpu_groups)
    nic = next((p.spec for g in gpu_groups for p in g.compute_adapters), None)
    if nic is None:
        # No slotted compute adapter: the compute NICs may be built into the server (SYS-822GS-NB3RT); plan with
        # those instead of assuming an HCA that matches the switch.
        nic = next((spec for g in gpu_groups if g.server is not None and (spec := integrated_nic_spec(g.server))), None)
    gpus = max((_fabric_gpus(g) for g in gpu_groups), default=0)
    racks = [g for g in gpu_groups if g.server is not None and g.server.rack_scale]
    one_rack = racks[0].server if len(racks) == len(gpu_groups) == 1 and racks[0].group.count == 1 else None
    generation = next((p.spec.generation for g in gpu_groups for p in g.gpus), "")
    advised = [p.spec.advised_fabric_gbps for g in gpu_groups for p in g.gpus if p.spec.advised_fabric_gbps]
    return {
        "nodes": nodes,
        "compute_nics_per_node": nics,
        "nic": nic,
        "gpus_per_node": gpus,
        "gpu_generation": generation,
        "advised_fabric_gbps": max(advised, default=None),
        "one_rack": one_rack,
    }


def _fabric_endpoints(resolved: Sequence[GroupContext]) -> dict[str, int]:
    """The node groups whose one node is several fabric endpoints (a rack-scale system's compute trays, or in a
    mixed fabric the endpoints their NICs fill), by group name."""
    groups = fabric_groups(resolved)
    per_node = endpoints_per_node(groups, max((fabric_rails(g) for g in groups), default=0))
    return {g.group.name: n for g in groups if (n := per_node[g.index]) > 1}


def _fabric_gpus(group: GroupContext) -> int:
    """GPUs behind one fabric endpoint: per node, or per compute tray of a rack-scale system."""
    server = group.server
    if server is not None and server.rack_scale and server.gpus_per_tray:
        return server.gpus_per_tray
    return group.gpus_per_node


def _given_rack(laid_rack: RackIn, lengths: dict[str, LinkLength]) -> RackIn:
    """The laid-out distances that come from the design itself (the rack plan marks them "override"; an in-rack
    leaf's node run follows the design's in-rack run), as opposed to the rack plan's estimates."""
    given = {
        name: getattr(laid_rack, name)
        for name in DISTANCE_FIELDS
        if (length := lengths.get(name)) is not None and length.basis == "override"
    }
    return RackIn(**given)


def _fabric_bom(design: DesignIn, plan: FabricPlan | None) -> list[tuple[str, int]] | None:
    """The bill of materials of the design's own fabric (none without one)."""
    if design.fabric is None or plan is None:
        return None
    return list(plan.bom)


def _node_ports(design: DesignIn, groups: Sequence[GroupContext], catalog: CatalogView, role: str) -> NodePorts:
    """The node side of the storage (role ``storage``) or in-band (role ``management``) network: every group's
    adapters of that role, given or inferred as the node rules infer it (engines.node.context.infer_role). A
    rack-scale system's endpoints are its compute trays, each with its BlueField-3 DPUs' ports on the converged
    north-south (storage and in-band) network (``systems.tray_dpus``): counted on the storage side, so in-band
    rides them, unless the design names an in-band network and no storage network of ours (then on the in-band
    side). ``groups``: the node groups as the node engine resolved them."""
    networks = design.networks
    inband_only = (
        networks is not None and isinstance(networks.inband, NetworkIn) and not isinstance(networks.storage, NetworkIn)
    )
    north_south = "management" if inband_only else "storage"
    nodes = ports = 0
    fewest: int | None = None
    adapter = None
    for g in groups:
        dpus = tray_dpus(g.server, catalog) if g.server is not None else None
        if dpus is not None and role != north_south:
            continue
        spec: AdapterSpec | None
        if dpus is not None:
            spec, per_node, count = dpus[0], dpus[1], g.group.count * dpus[2]
        else:
            parts = [p for p in g.adapters if p.role == role]
            per_node, count = sum(p.ports_cabled for p in parts), g.group.count
            spec = next((p.spec for p in parts if isinstance(p.spec, AdapterSpec)), None)
        if not per_node:
            continue
        nodes += count
        ports += per_node * count
        fewest = per_node if fewest is None else min(fewest, per_node)
        adapter = adapter or spec
    return NodePorts(nodes=nodes, ports_per_node=fewest or 0, ports=ports, adapter=adapter)


def _oob_bmcs(design: DesignIn, catalog: CatalogView) -> int:
    """The management ports the out-of-band network connects besides switches and PDUs: one BMC per node; per
    rack-scale system (NVL72) the BMC of each compute tray and the management port of each NVLink switch tray and
    power shelf, on the rack's own management switches (``oob_racks.rack_side`` counts those as the network's in-rack
    switches; NVIDIA Multi-Node Tuning Guide: the IPMI network "connects the BMCs of the compute and switch trays";
    the power shelves are managed over the network by Mission Control: catalog/seed/FACTS.md)."""
    count = 0
    for g in design.node_groups:
        server = catalog.get(g.server)
        if isinstance(server, ServerSpec) and server.rack_scale:
            count += g.count * sum(n or 0 for n in (server.compute_trays, server.switch_trays, server.power_shelves))
        else:
            count += g.count
    return count


def _networks(design: DesignIn, leave: LeftOut) -> NetworksIn | None:
    """The design's networks, with the out-of-band one the site's own when the offer leaves it out."""
    if OOB not in leave or (design.networks is not None and design.networks.oob is None):
        return design.networks
    if design.networks is None:
        return NetworksIn.model_validate({"oob": None})
    return design.networks.model_copy(update={"oob": None})


def _switched_networks(
    design: DesignIn, catalog: CatalogView, leave: LeftOut, groups: Sequence[GroupContext]
) -> tuple[dict[str, NetworkPlan | None], list[Finding]]:
    """The storage and in-band networks, planned before the racks that hold their switches; an Ethernet compute
    fabric (its named switch) makes the north-south network Ethernet (ERA-HGX-CONVERGED). ``groups``: the node
    groups as the node engine resolved them."""
    named = catalog.get(design.fabric.switch) if design.fabric is not None and design.fabric.switch else None
    return plan_switched_networks(
        networks=_networks(design, leave),
        storage=_node_ports(design, groups, catalog, "storage"),
        inband=_node_ports(design, groups, catalog, "management"),
        catalog=catalog,
        rack=design.fabric.rack if design.fabric is not None else None,
        ethernet_fabric=isinstance(named, SwitchSpec) and named.protocol == Protocol.ETHERNET,
    )


def _ib_fabrics(plan: FabricPlan | None, switched: dict[str, NetworkPlan | None], catalog: CatalogView) -> int:
    """The design's InfiniBand fabrics, compute and storage (each gets a UFM pair from one scalable unit)."""
    count = 0
    for part in (plan.switch if plan is not None and plan.tiers else None, (switched.get("storage") or _NONE).switch):
        spec = catalog.get(part) if part else None
        count += isinstance(spec, SwitchSpec) and spec.protocol == Protocol.INFINIBAND
    return count


_NONE = NetworkPlan(network="", switch=None)


@dataclass(frozen=True)
class _Laid:
    """The compute fabric's plan, the racks (with where the out-of-band switches stand), their link lengths, the
    management racks' equipment, the control plane's servers and the design's InfiniBand fabrics."""

    plan: FabricPlan | None
    racks: OobRacks
    lengths: dict[str, LinkLength]
    equipment: tuple[SwitchGroup, ...] = ()
    servers: int = 0
    ib_fabrics: int = 0


def _network_plans(
    design: DesignIn,
    catalog: CatalogView,
    laid: _Laid,
    switched: tuple[dict[str, NetworkPlan | None], list[Finding]],
    node: NodeResult,
    leave: LeftOut,
    so_far: list[Finding],
) -> tuple[dict[str, NetworkPlan | None], list[Finding], _Laid, list[Finding]]:
    """``network_plans`` (storage, in-band, out-of-band) and every finding about them: ``switched`` the storage and
    in-band networks, the out-of-band network planned here on the racks (its central switches then racked in the
    management racks, ``with_central_switches``, and the network planned again on those racks); the control
    plane's servers' BMCs are out-of-band ports too. An out-of-band network the offer leaves out is said once, by
    OFFER_LEFT_OUT, not as a network the design names. ``so_far``: the findings so far, returned with a re-racked
    plan's findings in place of the first one's."""
    networks = _networks(design, leave)
    plan, first = laid.plan, laid.racks
    rail_optimized = plan is not None and plan.tiers >= 2 and plan.topology == "rail-optimized"

    def oob(racks: OobRacks) -> tuple[dict[str, NetworkPlan | None], list[Finding]]:
        return plan_oob_network(
            switched[0],
            networks=networks,
            bmcs=_oob_bmcs(design, catalog),
            compute_switches=plan.switches if plan is not None and plan.tiers else 0,
            racks=rack_side(racks.plan, racks.central),
            catalog=catalog,
            servers=laid.servers,
            units=max(1, plan.units) if plan is not None and rail_optimized else 1,
        )

    plans, findings = oob(laid.racks)
    for _ in range(3):  # the central switches' own racks may add PDUs, so ports: racked again until it holds
        oob_plan = plans.get("oob")
        racked = with_central_switches(laid.racks, oob_plan, design, catalog, node.totals, plan, laid.equipment)
        if racked is laid.racks:
            break
        laid = replace(laid, racks=racked, lengths=distances(racked.plan, design))
        plans, findings = oob(racked)
    findings = switched[1] + findings
    if networks is not design.networks:
        findings = [f for f in findings if not (f.code == "NETWORK_CUSTOMER_SUPPLIED" and f.subject == "networks.oob")]
    for p in plans.values():
        if p is not None:
            findings.extend(p.findings)
    if laid.racks is not first:  # racked again with the central out-of-band switches: its findings are the racks'
        so_far = [f for f in so_far if not any(f is g for g in first.findings)] + laid.racks.findings
    return plans, findings, laid, so_far


@dataclass(frozen=True, slots=True)
class ClusterValidation:
    """What the engines say of a design, in one pass: ``design`` is the design completed with its servers'
    defaults (``defaults_added``); ``findings`` every finding, errors first (by severity, subject, code); the node
    engine's result, the compute fabric's plan (None without one), each network's plan, the rack plan with the
    cluster's power, the control-plane and service lines with their findings, what the offer leaves out and the
    one bill of materials."""

    design: DesignIn
    node: NodeResult
    findings: tuple[Finding, ...]
    fabric_plan: FabricPlan | None
    network_plans: dict[str, NetworkPlan | None]
    rack_plan: RackPlanSection
    power: ClusterPower
    control_plane: tuple[ClusterLine, ...]
    control_plane_findings: tuple[Finding, ...]
    services: tuple[ClusterLine, ...]
    services_findings: tuple[Finding, ...]
    defaults_added: tuple[DefaultAdded, ...]
    left_out: LeftOut
    bom: tuple[BomLine, ...]


def validate_cluster(
    design: DesignIn, catalog: CatalogView, *, prices: ServicePrices, describe: Describe, words: BillWords
) -> ClusterValidation:
    """Every engine once, in order (module docstring). ``prices``: the control-plane and service lines' indicative
    prices; ``describe`` and ``words``: the lines' and the bill's words in the result's language. Nodes that name
    no CPUs, memory or boot drive get their server's default node set before any rule runs."""
    design, defaults_added, default_findings = complete_design(design, catalog)
    leave = left_out(design, catalog)
    node = validate_nodes(design, catalog)
    findings: list[Finding] = list(node.findings) + default_findings
    switched = _switched_networks(design, catalog, leave, node.groups)
    laid = _fabric_and_racks(design, catalog, node, leave, findings, switched[0])
    network_plans, network_findings, laid, findings = _network_plans(
        design, catalog, laid, switched, node, leave, findings
    )
    findings.extend(network_findings)
    plan, racks, lengths = laid.plan, laid.racks.plan, laid.lengths
    # One power sum for the cluster, from the nodes and the fabric's final bill; the racks' facility totals are it.
    power = cluster_power(node.totals.get("groups", []), _fabric_bom(design, plan), dict(catalog.parts))
    racks = racks.with_facility_power(power.total_w, power.complete)
    codes = {str(f.code) for f in findings}
    control_lines, service_lines, cluster_findings = cluster_lines(
        design,
        catalog,
        racks=racks.rack_count,
        codes=codes,
        leave=leave,
        prices=prices,
        describe=describe,
        ib_fabrics=laid.ib_fabrics,
    )
    findings.extend(cluster_findings)
    rack_plan = rack_plan_section(racks, lengths, design, node.totals, _fabric_endpoints(node.groups))
    omitted = _left_out(design, leave, rack_plan)
    if omitted:
        cluster_findings.append(
            finding(
                "facility.supplied",
                OfferLeftOut(items=omitted, basis=leave.basis, nodes=design.node_count),
            )
        )
        findings.append(cluster_findings[-1])
    findings.sort(key=lambda f: (SEVERITY_ORDER[f.severity], f.subject, str(f.code)))
    sources = _bill_sources(plan, network_plans, rack_plan, control_lines + service_lines, omitted)
    return ClusterValidation(
        design=design,
        node=node,
        findings=tuple(findings),
        fabric_plan=plan,
        network_plans=network_plans,
        rack_plan=rack_plan,
        power=power,
        control_plane=tuple(control_lines),
        control_plane_findings=tuple(f for f in cluster_findings if not str(f.code).startswith("SERVICES_")),
        services=tuple(service_lines),
        services_findings=tuple(f for f in cluster_findings if str(f.code).startswith("SERVICES_")),
        defaults_added=tuple(defaults_added),
        left_out=LeftOut(frozenset(omitted), leave.basis),
        bom=tuple(assemble_bill(design, sources, catalog, words, complete=False)),
    )


def _bill_sources(
    plan: FabricPlan | None,
    network_plans: dict[str, NetworkPlan | None],
    rack_plan: RackPlanSection,
    lines: list[ClusterLine],
    omitted: list[str],
) -> BillSources:
    """What the bill is built from: every plan of the result (``lines``: the control-plane and service lines)."""
    return BillSources(
        fabric=tuple(plan.bom) if plan is not None else (),
        networks={key: () if p is None else tuple(p.bom) for key, p in network_plans.items()},
        racks=rack_plan.bill() if rack_plan.plan.runs else None,
        control_plane=tuple(line for line in lines if line.section == CONTROL_PLANE),
        services=tuple(line for line in lines if line.section == SERVICES),
        left_out=frozenset(omitted),
    )


def _fabric_and_racks(
    design: DesignIn,
    catalog: CatalogView,
    node: NodeResult,
    leave: LeftOut,
    findings: list[Finding],
    networks: dict[str, NetworkPlan | None],
) -> _Laid:
    """The compute fabric's plan (None without one), the rack plan with the storage and in-band ``networks``'
    switches and the control plane in its management racks and the out-of-band switches where their placement
    puts them (engines.cluster.oob_racks), its link lengths, and the control plane's servers; their findings are
    added to ``findings`` (the node rules' so far), the fabric's first."""
    management = OOB not in leave
    if not (design.fabric is not None or design.node_count >= 2):
        laid = oob_rack_plan(design, catalog, node.totals, None, management=management)
        findings.extend(laid.findings)
        return _Laid(None, laid, distances(laid.plan, design))
    fabric_args = fabric_inputs(node.groups)
    fabric_findings, plan = check_design_fabric(design=design, catalog=catalog, **fabric_args)
    # The control plane (UFM for each InfiniBand fabric from one SU, or where the fabric's findings call for it)
    # and the networks' switches are racked too.
    ib = _ib_fabrics(plan, networks, catalog)
    codes = {str(f.code) for f in findings + fabric_findings}
    servers = control_plane_devices(design, catalog, codes, leave, ib)
    equipment = management_equipment(networks, catalog, servers, control_plane_step(design, catalog, codes, leave, ib))
    # Switch counts first, then the racks, then the media chosen with the racks' distances (rackplan). The
    # second plan is not the first one again: its rack holds the rack plan's distances and nodes per rack,
    # which choose the media and may choose the port split (a splitter cable's reach), so it is planned anew.
    sizing = _central_sizing(design, catalog, plan, networks, sum(n for _part, n in servers))
    laid = oob_rack_plan(design, catalog, node.totals, plan, management=management, equipment=equipment, sizing=sizing)
    lengths = distances(laid.plan, design)
    if plan is not None and design.fabric is not None:
        laid_rack = fabric_rack_with_distances(laid.plan, design, lengths)
        laid_out = design.model_copy(update={"fabric": design.fabric.model_copy(update={"rack": laid_rack})})
        fabric_findings, plan = check_design_fabric(
            design=laid_out, catalog=catalog, given_rack=_given_rack(laid_rack, lengths), **fabric_args
        )
    # The node rules already warn about fewer compute NICs than GPUs, with its cost; one warning is enough.
    if any(f.code == "NIC_FEWER_THAN_GPUS" for f in findings):
        fabric_findings = [f for f in fabric_findings if f.code != "FABRIC_FEWER_RAILS_THAN_GPUS"]
    mixed = mixed_domains(design, node.groups) if plan is not None else None
    findings.extend([*fabric_findings, *([mixed] if mixed is not None else [])])
    findings.extend(laid.findings)
    return _Laid(plan, laid, lengths, equipment, sum(n for _part, n in servers), ib)


def _central_sizing(
    design: DesignIn,
    catalog: CatalogView,
    plan: FabricPlan | None,
    networks: dict[str, NetworkPlan | None],
    servers: int,
) -> CentralSwitches | None:
    """The central out-of-band switches' sizing from what the out-of-band plan will count (``_network_plans``):
    every port but the PDUs' (BMCs, the compute fabric's and the networks' switches, the control plane's servers),
    by the compute fabric's scalable units when it is rail-optimized."""
    rail_optimized = plan is not None and plan.tiers >= 2 and plan.topology == "rail-optimized"
    switches = (plan.switches if plan is not None and plan.tiers else 0) + sum(
        p.switches for p in networks.values() if p is not None
    )
    system_switch = None
    for g in design.node_groups:
        server = catalog.get(g.server)
        if isinstance(server, ServerSpec) and server.rack_scale and server.rack_mgmt_switch_model:
            system_switch = system_switch or server.rack_mgmt_switch_model
    return central_sizing(
        design,
        catalog,
        ports=_oob_bmcs(design, catalog) + switches + servers,
        units=max(1, plan.units) if plan is not None and rail_optimized else 1,
        system_switch=system_switch,
    )


def _left_out(design: DesignIn, leave: LeftOut, rack_plan: RackPlanSection) -> list[str]:
    """What the offer leaves out that it would otherwise carry, in the contract's order: racks and power where the
    plan has enclosures to fit, the out-of-band network unless the design's ``networks`` already gives it to the
    site, the control plane from two nodes."""
    enclosures = rack_plan.enclosure_count
    applies = {
        RACKS: enclosures > 0,
        POWER: enclosures > 0,
        OOB: not (design.networks is not None and design.networks.oob is None),
        CONTROL_PLANE: design.node_count >= 2,
    }
    return [item for item in SUPPLIED_ITEMS if item in leave and applies[item]]
