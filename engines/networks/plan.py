"""The planner of the networks beside the compute fabric: storage, in-band (or converged north-south) and
out-of-band management. Pure arithmetic on counts, reusing the compute fabric's sizing and media choice
(``engines.fabric.plan.plan_fabric``) for the switched networks.

Rules, each with its source key (``engines.networks.sources``):

* **Four fabrics** (SPOD-H100-NET, ERA-OOB): compute, storage, in-band management and out-of-band management;
  the Enterprise RAs converge storage, in-band and user traffic on one north-south network (ERA-HGX-CONVERGED).
* **Storage** (SPOD-B200-STORAGE): a separate switched fabric for the node adapters whose role is ``storage``
  (inferred as the node rules infer roles), plus ``networks.storage.system_ports`` for the storage systems
  themselves; a fat tree at the node-side oversubscription ``networks.storage.oversubscription``. Default switch:
  the catalogue's NDR InfiniBand switch for InfiniBand-capable adapters (the SuperPOD's InfiniBand storage
  fabric), the Spectrum-4 Ethernet switch for Ethernet-only ones. Default ratio 1:1: the RAs' node-side ratio is
  not given in the sources this planner was built from, so no ratio is assumed.
* **In-band / converged** (ERA-HGX-CONVERGED, BASEPOD-INBAND): each node's management ports go to separate
  switches, two switches per group of nodes for redundancy (each port of a node is a rail of its own); a design
  whose nodes fit one switch gets the pair and no spines. A node with a single management port gets no
  redundancy, and a finding says so. Two tiers get a core of at least two spines, each leaf's uplinks split
  between them (SPOD-H100-INBAND-CORE: at the 11:1 its cables imply, the RA's 6 leaves and 2 cores).
  Default switch: the catalogue's Spectrum-4 (SN5600), whose 400 GbE ports
  take the 200/400 GbE ports the RAs use; the H100-era SN4600C (named in ``networks.inband.switch``) takes 100 GbE
  QSFP28: the catalogue's QSFP28 DAC and AOCs join its pair and its nodes, whose ConnectX-7 and BlueField-3 QSFP112
  cages take QSFP28 plugs (NV-LX-OV, ``engines.fabric.media``).
* **Out-of-band** (SPOD-H100-OOB, SPOD-H100-OOB-UPLINKS): always planned. One 1 GbE port per node BMC, per
  switch management port (compute, storage and in-band switches), per rack PDU and per BMC of the control
  plane's servers (the RA's cable list gives the management and UFM nodes theirs). Its leaves are the rack plan's
  in-rack management switches (one per rack); ports beyond their 48 each get more leaves (a finding says they are
  not in the rack plan). Every leaf uplinks with two 100 GbE ports into the in-band network (the DGX SuperPOD H100
  RA's cable list: "Two uplinks per OOB to in-band", 16 for its 8 SN2201), or into the converged north-south
  network where in-band rides the storage adapters, or into the customer's network where the in-band network is
  the customer's; no aggregation switches of its own.
  Media: an RJ45 patch cord per device port, the shortest catalogued one for a run inside the rack (a device
  and its rack's management switch share the rack), and for each uplink the cheapest cable from the management
  switch's QSFP28 cage to the in-band switch's that reaches ``UPLINK_RUN_M`` (an assumption: the in-band switches
  stand elsewhere in the row). What the catalogue does not hold is a warning naming the links to quote separately
  (NETWORK_MEDIA_NOT_CATALOGUED), never invented.
* ``null`` for a network: the customer supplies it; it is left out and a finding names it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from design.contract import parse_oversubscription
from design.jsontext import JsonObject
from design.model import DEFAULT, Default, NetworkIn, NetworksIn, RackIn
from design.specs import AdapterSpec, CatalogView, MediaSpec, SwitchSpec
from design.vocabulary import Connector, Protocol
from engines.fabric.media import SLACK_M, Side, item_quantity, select_media
from engines.fabric.model import FabricPlan, LinkPlan
from engines.fabric.plan import plan_fabric
from engines.fabric.rack_model import IN_RACK_M
from engines.findings import FabricCode, Finding, finding
from engines.findings.params.networks import (
    NetworkConverged,
    NetworkCustomerSupplied,
    NetworkMediaNotCatalogued,
    NetworkNoAdapters,
    NetworkNoSwitch,
    NetworkOobExtraSwitches,
    NetworkOobNotManagement,
    NetworkOobUplinkPorts,
    NetworkSinglePort,
)

from .model import INBAND, NETWORKS, OOB, STORAGE, NetworkPlan, OobDevices

# The defaults, first catalogued one wins (module docstring).
STORAGE_IB_SWITCHES = ("MQM9700-NS2F",)
ETHERNET_SWITCHES = ("SN5600", "SN4600C")
OOB_SWITCHES = ("SN2201",)
UPLINK_SPEED_GBPS = 100  # SN2201's QSFP28 uplinks (SN2201-UPLINKS)
OOB_UPLINKS = 2  # uplinks per out-of-band switch into the in-band network (SPOD-H100-OOB-UPLINKS)
PEER_LINKS = 2  # ports per switch joining an in-band pair (BASEPOD-INBAND: peerlink over swp57 and swp58)
PEER = "peer"  # the link class of an in-band pair's peer link
PEER_RUN_M = 1.0  # the two switches of a pair stacked in one rack, next to each other (an assumption, stated)
UPLINK_RUN_M = 10.0  # an out-of-band leaf to its aggregation switches in another rack of the row (an assumption)
DEVICE_LEAF, LEAF_UPLINK = "device-leaf", "leaf-uplink"  # the out-of-band link classes

# Fabric findings that belong to a storage or in-band network as well; the rest (an assumed HCA, the compute
# fabric's own management switches, growth reserve and distance checks of the compute fabric) do not.
_KEPT = {
    FabricCode.PART_INVALID,
    FabricCode.SWITCH_PORTS_UNKNOWN,
    FabricCode.SWITCH_IS_MANAGEMENT,
    FabricCode.PROTOCOL_MISMATCH,
    FabricCode.PORTS_EXCEEDED,
    FabricCode.NO_CABLE,
    FabricCode.BEYOND_REACH,
    FabricCode.SPEED_MISMATCH,
    FabricCode.SM_REQUIRED,
    FabricCode.SM_EMBEDDED,
    FabricCode.SM_LIMIT,
    FabricCode.SM_UNKNOWN,
    FabricCode.PLUG_TOP_UNKNOWN,
    FabricCode.MEDIA_DISCONTINUED,
    FabricCode.DISTANCE_ASSUMED,
}


@dataclass(frozen=True)
class NodePorts:
    """The node side of a storage or in-band network: nodes with such adapters, the fewest ports one of them
    has, all their ports, and the adapter (the first such) the links are planned for."""

    nodes: int = 0
    ports_per_node: int = 0
    ports: int = 0
    adapter: AdapterSpec | None = None


@dataclass(frozen=True)
class RackSide:
    """What the rack plan gives the out-of-band network: its rack PDUs and in-rack management switches."""

    pdus: int = 0
    switches: int = 0
    switch_part: str | None = None


def _entry(networks: NetworksIn | None, key: str) -> NetworkIn | None | Default:
    return DEFAULT if networks is None else getattr(networks, key)


def _switch(catalog: CatalogView, named: str | None, defaults: tuple[str, ...]) -> SwitchSpec | None:
    for pn in (named,) if named else defaults:
        spec = catalog.get(pn)
        if isinstance(spec, SwitchSpec):
            return spec
    return None


def plan_networks(
    *,
    networks: NetworksIn | None,
    storage: NodePorts,
    inband: NodePorts,
    bmcs: int,
    compute_switches: int,
    racks: RackSide,
    catalog: CatalogView,
    rack: RackIn | None = None,
    servers: int = 0,
) -> tuple[dict[str, NetworkPlan | None], list[Finding]]:
    """The three networks' plans (None: not planned) and the findings about networks that are not planned.
    Each plan carries its own findings (subject ``networks.<key>``). ``servers``: the control plane's servers,
    whose BMCs the out-of-band network connects as well. The two steps, for a caller that racks the storage and
    in-band switches before it plans the out-of-band network on the racks: ``plan_switched_networks``, then
    ``plan_oob_network``."""
    plans, findings = plan_switched_networks(
        networks=networks, storage=storage, inband=inband, catalog=catalog, rack=rack
    )
    plans, oob_findings = plan_oob_network(
        plans,
        networks=networks,
        bmcs=bmcs,
        compute_switches=compute_switches,
        racks=racks,
        catalog=catalog,
        servers=servers,
    )
    return plans, findings + oob_findings


def plan_switched_networks(
    *,
    networks: NetworksIn | None,
    storage: NodePorts,
    inband: NodePorts,
    catalog: CatalogView,
    rack: RackIn | None = None,
) -> tuple[dict[str, NetworkPlan | None], list[Finding]]:
    """The storage and in-band networks' plans (the out-of-band key None), and the findings about those of them
    that are not planned."""
    plans: dict[str, NetworkPlan | None] = dict.fromkeys(NETWORKS)
    findings: list[Finding] = []
    for key in (STORAGE, INBAND):
        if _entry(networks, key) is None:
            findings.append(finding(f"networks.{key}", NetworkCustomerSupplied(network=key)))
    st, inb = _entry(networks, STORAGE), _entry(networks, INBAND)
    if st is not None:
        plans[STORAGE] = _switched(STORAGE, st, storage, catalog, rack, findings, converged=inband.nodes == 0)
    if inb is not None:
        plans[INBAND] = _switched(INBAND, inb, inband, catalog, rack, findings, converged=storage.nodes == 0)
    return plans, findings


def plan_oob_network(
    switched: dict[str, NetworkPlan | None],
    *,
    networks: NetworksIn | None,
    bmcs: int,
    compute_switches: int,
    racks: RackSide,
    catalog: CatalogView,
    servers: int = 0,
) -> tuple[dict[str, NetworkPlan | None], list[Finding]]:
    """``switched`` (``plan_switched_networks``) with the out-of-band network planned on the racks, and the
    findings when it is not planned. The network its uplinks land on counts their ports."""
    plans = dict(switched)
    findings: list[Finding] = []
    oob = _entry(networks, OOB)
    if oob is None:
        findings.append(finding(f"networks.{OOB}", NetworkCustomerSupplied(network=OOB)))
        return plans, findings
    switches = compute_switches + sum(p.switches for p in plans.values() if p is not None)
    landing = _uplink_target(plans, catalog)
    target = landing[1] if landing is not None else None
    plans[OOB] = _oob(
        oob,
        OobDevices(bmcs=bmcs, switches=switches, pdus=racks.pdus, servers=servers),
        racks,
        catalog,
        findings,
        target,
    )
    oob_plan = plans[OOB]
    if oob_plan is not None and landing is not None:
        key, _spec = landing
        landed = plans[key]
        if landed is not None:
            plans[key] = _uplink_ports(landed, oob_plan.uplinks)
    return plans, findings


def _uplink_ports(plan: NetworkPlan, uplinks: int) -> NetworkPlan:
    """The network the out-of-band uplinks land on, their ports counted on its leaves, and a finding when its
    leaves (sized for the nodes) have fewer free ports than the uplinks need (SPOD-H100-OOB-UPLINKS)."""
    used = dict(plan.ports_used)
    total = next((t for tier, _u, t in plan.fabric.ports if tier == "leaf"), 0) if plan.fabric else 0
    free = max(0, total - used.get("leaf", 0))
    own = plan.findings
    if uplinks > free:
        subject = f"networks.{plan.network}"
        own = (*own, finding(subject, NetworkOobUplinkPorts(network=plan.network, uplinks=uplinks, free=free)))
    used["leaf"] = used.get("leaf", 0) + uplinks
    return replace(plan, oob_uplinks=uplinks, ports_used=tuple(used.items()), findings=own)


def _uplink_target(plans: dict[str, NetworkPlan | None], catalog: CatalogView) -> tuple[str, SwitchSpec] | None:
    """The switch the out-of-band leaves uplink into: the in-band network's (SPOD-H100-OOB-UPLINKS), else the
    converged north-south network's (an Ethernet storage network that in-band rides on), else None: the
    customer's own network."""
    for key in (INBAND, STORAGE):
        plan = plans.get(key)
        if plan is None or not plan.switch:
            continue
        spec = catalog.get(plan.switch)
        if isinstance(spec, SwitchSpec) and spec.protocol == Protocol.ETHERNET:
            return key, spec
    return None


def _switched(
    key: str,
    entry: NetworkIn | Default,
    node: NodePorts,
    catalog: CatalogView,
    rack: RackIn | None,
    findings: list[Finding],
    *,
    converged: bool,
) -> NetworkPlan | None:
    """A storage or in-band network, or None (with a finding) when no node has adapters of its role."""
    given = entry if isinstance(entry, NetworkIn) else NetworkIn()
    system_ports = given.system_ports or 0 if key == STORAGE else 0
    subject = f"networks.{key}"
    role = "storage" if key == STORAGE else "management"
    if node.nodes == 0 and system_ports == 0:
        if isinstance(entry, NetworkIn):
            findings.append(finding(subject, NetworkNoAdapters(network=key, role=role)))
        elif not converged and key == INBAND:
            # The Enterprise RAs' converged north-south network: in-band rides the storage adapters.
            findings.append(finding(subject, NetworkConverged(network=key, role=role)))
        return None
    switch = _switch(catalog, given.switch, _defaults(key, node.adapter))
    if switch is None:
        findings.append(finding(subject, NetworkNoSwitch(network=key, switch=given.switch)))
        return None
    ratio = given.oversubscription or "1:1"
    try:
        oversub = parse_oversubscription(ratio)
    except ValueError:
        oversub, ratio = (1, 1), "1:1"
    fabric, sources = _network_fabric(key, node, switch, oversub, system_ports, catalog, rack)
    own = [replace(f, subject=subject) for f in fabric.findings if f.code in {str(c) for c in _KEPT}]
    if key == INBAND and node.ports_per_node < 2 and fabric.tiers:
        own.append(finding(subject, NetworkSinglePort(network=key, nodes=node.nodes)))
    return NetworkPlan(
        network=key,
        switch=switch.part_number,
        leaf_switches=fabric.leaf_switches,
        spine_switches=fabric.spine_switches,
        core_switches=fabric.core_switches,
        node_links=fabric.node_links,
        nodes=node.nodes,
        ports_per_node=node.ports_per_node,
        system_ports=system_ports,
        oversubscription=ratio,
        ports_used=tuple((tier, used) for tier, used, _total in fabric.ports),
        bom=_switched_bom(fabric),
        sources=sources,
        findings=tuple(own),
        fabric=fabric,
    )


def _network_fabric(
    key: str,
    node: NodePorts,
    switch: SwitchSpec,
    oversub: tuple[int, int],
    system_ports: int,
    catalog: CatalogView,
    rack: RackIn | None,
) -> tuple[FabricPlan, tuple[str, ...]]:
    """The network's switches and links as the fabric planner sizes them, and the sources of its design: storage a
    fat tree of every node port and system port, in-band rail-optimized with its core pair."""
    if key == STORAGE:
        fabric = plan_fabric(
            nodes=node.ports + system_ports,
            rails=1,
            switch=switch,
            oversubscription=oversub,
            topology="fat-tree",
            hca=node.adapter,
            catalog=catalog,
            rack=rack,
            hca_named=False,
        )
        return fabric, ("SPOD-H100-NET", "SPOD-B200-STORAGE")
    rails = max(1, node.ports_per_node)
    fabric = plan_fabric(
        nodes=node.nodes,
        rails=rails,
        switch=switch,
        oversubscription=oversub,
        topology="rail-optimized",
        hca=node.adapter,
        catalog=catalog,
        rack=rack,
        hca_named=False,
    )
    fabric = _core_pair(_pair(fabric, rails, switch, catalog))
    return fabric, ("ERA-HGX-CONVERGED", "BASEPOD-INBAND", "SPOD-H100-INBAND-CORE")


def _defaults(key: str, adapter: AdapterSpec | None) -> tuple[str, ...]:
    if key == STORAGE and (adapter is None or adapter.protocol != Protocol.ETHERNET):
        return STORAGE_IB_SWITCHES + ETHERNET_SWITCHES
    return ETHERNET_SWITCHES


def _pair(fabric: FabricPlan, rails: int, switch: SwitchSpec, catalog: CatalogView) -> FabricPlan:
    """Nodes that fit one switch still get one switch per management port (two for the usual two ports), each
    port of a node on a different switch (ERA-HGX-CONVERGED), and the two switches of a pair are joined by a
    peer link of ``PEER_LINKS`` ports each (BASEPOD-INBAND: the MLAG peer link over swp57 and swp58), stacked
    in one rack. Larger networks already have a leaf per port and group of nodes (rail-optimized sizing)."""
    if fabric.tiers != 1 or rails < 2:
        return fabric
    pairs = rails // 2
    twin = switch.logical_ports_per_cage >= 2
    side = Side(switch.cage_connector, switch.top, twin, switch.logical_ports_per_cage, switch.part_number, True)
    links = PEER_LINKS * pairs
    result = select_media(
        catalog,
        side,
        side,
        speed_gbps=switch.port_speed_gbps,
        distance_m=PEER_RUN_M,
        protocol=switch.protocol,
        pair_links=PEER_LINKS,
    )
    parts: tuple[tuple[str, int, str], ...] = ()
    if result.choice is not None:
        groups = ((pairs, PEER_LINKS),)
        parts = tuple(
            (i.part.part_number, item_quantity(i, groups, groups, links), i.role) for i in result.choice.items
        )
    peer = LinkPlan(
        PEER,
        links,
        switch.port_speed_gbps,
        PEER_RUN_M,
        result.choice.kind if result.choice else None,
        result.choice.length_m if result.choice else None,
        result.choice.label if result.choice else None,
        parts,
        side.links_per_plug,
    )
    ports = tuple(("leaf", used + links * 2, total * rails) for _t, used, total in fabric.ports)
    return replace(fabric, leaf_switches=rails, ports=ports, links=(*fabric.links, peer))


def _core_pair(fabric: FabricPlan) -> FabricPlan:
    """Two tiers whose uplinks one spine could take still get two spines, each leaf's uplinks split between them
    (SPOD-H100-INBAND-CORE: the in-band core of two SN4600C, redundant like the leaves). A leaf with a single
    uplink cannot reach two spines, and is left as planned."""
    if fabric.tiers != 2 or fabric.spine_switches != 1 or fabric.leaf_uplinks < 2:
        return fabric
    ports = tuple((tier, used, total * 2 if tier == "spine" else total) for tier, used, total in fabric.ports)
    return replace(
        fabric,
        spine_switches=2,
        spines_per_pod=2 if fabric.spines_per_pod else 0,
        links_per_leaf_spine_pair=-(-fabric.leaf_uplinks // 2),
        ports=ports,
    )


def _switched_bom(fabric: FabricPlan) -> tuple[tuple[str, int], ...]:
    """Switches and the link classes' cables and transceivers (not the compute fabric's management switches)."""
    bom: dict[str, int] = {fabric.switch: fabric.switches} if fabric.tiers else {}
    for lp in fabric.links:
        for part, qty, _role in lp.parts:
            bom[part] = bom.get(part, 0) + qty
    return tuple(bom.items())


def _oob(
    entry: NetworkIn | Default,
    devices: OobDevices,
    racks: RackSide,
    catalog: CatalogView,
    findings: list[Finding],
    target: SwitchSpec | None,
) -> NetworkPlan | None:
    """The out-of-band network on the racks' management switches (module docstring)."""
    given = entry if isinstance(entry, NetworkIn) else NetworkIn()
    subject = f"networks.{OOB}"
    leaf = _switch(catalog, given.switch or racks.switch_part, OOB_SWITCHES)
    if leaf is None or not leaf.management or leaf.rj45_ports <= 0:
        kind = NetworkOobNotManagement if leaf is not None else NetworkNoSwitch
        findings.append(
            finding(subject, kind(network=OOB, switch=given.switch or (leaf.part_number if leaf is not None else None)))
        )
        return None
    per = leaf.rj45_ports
    in_racks = racks.switches if racks.switch_part in (None, leaf.part_number) else 0
    leaves = max(in_racks, -(-devices.ports // per)) if devices.ports else in_racks
    extra = leaves - in_racks
    own: list[Finding] = []
    if extra:
        own.append(
            finding(
                subject,
                NetworkOobExtraSwitches(switch=leaf.part_number, extra=extra, in_racks=in_racks, ports=devices.ports),
            )
        )
    # SPOD-H100-OOB-UPLINKS: two 100 GbE uplinks from every out-of-band switch into the in-band network, which
    # takes them on its own switches: no aggregation switches.
    uplinks = OOB_UPLINKS * leaves
    bom: dict[str, int] = {}
    if extra:
        bom[leaf.part_number] = extra
    media_findings, media = _oob_media(catalog, leaf, target, devices.ports, uplinks, bom, subject)
    own.extend(media_findings)
    return NetworkPlan(
        network=OOB,
        switch=leaf.part_number,
        leaf_switches=leaves,
        node_links=devices.ports,
        nodes=devices.bmcs,
        ports_per_node=1,
        ports_used=(("leaf", devices.ports + uplinks),),
        bom=tuple(bom.items()),
        sources=("SPOD-H100-OOB", "ERA-OOB", "SPOD-H100-OOB-UPLINKS", "SN2201-UPLINKS"),
        findings=tuple(own),
        oob=devices,
        rack_switches=in_racks,
        uplink_switch=target.part_number if target is not None else None,
        uplinks=uplinks,
        oob_media=media,
        ports_per_switch=per,
    )


def _oob_media(
    catalog: CatalogView,
    leaf: SwitchSpec,
    target: SwitchSpec | None,
    ports: int,
    uplinks: int,
    bom: dict[str, int],
    subject: str,
) -> tuple[list[Finding], tuple[tuple[str, str, float], ...]]:
    """1 GbE RJ45 patch cords for every device port and the uplinks' cables (from the management switch's
    QSFP28 cages to the in-band switch's, or to a like cage on the customer's network): into the bill when the
    catalogue has them, else a finding that names what to quote separately (no cable is invented). A device and its
    rack's management switch share the rack, so a cord is the shortest active one for an in-rack run; an uplink runs
    to the in-band switches elsewhere in the row (``UPLINK_RUN_M``). Also returns the media chosen per link class
    (class, part label, length) for the cabling list."""
    out: list[Finding] = []
    media: list[tuple[str, str, float]] = []
    rj45 = [
        m
        for m in catalog.of_type(MediaSpec)
        if m.end_a.connector == m.end_b.connector == Connector.RJ45
        and m.end_a.speed_gbps >= 1
        and not m.retired
        and (m.length_m or 0) >= IN_RACK_M + SLACK_M
    ]
    if rj45 and ports:
        cord = min(rj45, key=lambda m: (m.length_m or 0, m.part_number))
        bom[cord.part_number] = bom.get(cord.part_number, 0) + ports
        media.append((DEVICE_LEAF, cord.part_number, float(cord.length_m or 0)))
    elif ports:
        out.append(finding(subject, NetworkMediaNotCatalogued(links=ports, connector="RJ45", speed_gbps=1)))
    if uplinks:
        side = Side(leaf.cage_connector, leaf.top, False, 1, leaf.part_number, True)
        far = side
        if target is not None:
            lpc = target.logical_ports_per_cage
            far = Side(target.cage_connector, target.top, lpc >= 2, lpc, target.part_number, True)
        result = select_media(
            catalog, side, far, speed_gbps=UPLINK_SPEED_GBPS, distance_m=UPLINK_RUN_M, protocol=Protocol.ETHERNET
        )
        if result.choice is None:
            connector = leaf.cage_connector.value if leaf.cage_connector else None
            out.append(
                finding(
                    subject,
                    NetworkMediaNotCatalogued(links=uplinks, connector=connector, speed_gbps=UPLINK_SPEED_GBPS),
                )
            )
        else:
            for item in result.choice.items:
                qty = item_quantity(item, ((uplinks, 1),), ((uplinks, 1),), uplinks)
                bom[item.part.part_number] = bom.get(item.part.part_number, 0) + qty
            media.append((LEAF_UPLINK, result.choice.label, result.choice.length_m))
    return out, tuple(media)


def plan_dicts(plans: dict[str, NetworkPlan | None], render: Any) -> JsonObject:
    """``network_plans`` of the validation result; ``render`` turns a plan's findings into their dicts."""
    return {key: (None if plan is None else plan.to_dict(render(plan.findings))) for key, plan in plans.items()}
