"""The planner of the networks beside the compute fabric: storage, in-band (or converged north-south) and
out-of-band management. Pure arithmetic on counts, reusing the compute fabric's sizing and media choice
(``engines.fabric.plan.plan_fabric``) for the switched networks.

Rules, each with its source key (``engines.networks.sources``):

* **Four fabrics** (SPOD-H100-NET, ERA-OOB): compute, storage, in-band management and out-of-band management;
  the Enterprise RAs converge storage, in-band and user traffic on one north-south network (ERA-HGX-CONVERGED).
* **Storage** (SPOD-B200-STORAGE): a separate switched fabric for the node adapters whose role is ``storage``
  (inferred as the node rules infer roles), plus ``networks.storage.system_ports`` for the storage systems
  themselves; a fat tree at the node-side oversubscription ``networks.storage.oversubscription``. Default switch:
  the catalogue's NDR InfiniBand switch for InfiniBand-capable adapters beside an InfiniBand (or no) compute
  fabric (the SuperPOD's InfiniBand storage fabric), the Spectrum-4 Ethernet switch for Ethernet-only adapters or
  an Ethernet compute fabric. Default ratio 1:1: the RAs' node-side ratio is not given in the sources this
  planner was built from, so no ratio is assumed. Without ``system_ports`` the storage systems' leaf ports are
  reserved in the DGX SuperPOD H100 RA's proportion, 48 for the 254 storage ports of its 127 nodes (Table 8's 48
  "NDR Cables, 2x 200 Gbps" to the storage; SPOD-H100-STORAGE-PORTS), rounded up, as the RA leaves the count to
  "specific storage selected" (SPOD-H100-COMPONENTS); NETWORK_STORAGE_SYSTEM_PORTS states the count. The cabling
  list lands each on a leaf port (``storage-port-NNNN`` at the far end). The storage systems connect at 1:1 on
  leaves of their own ("The storage devices are connected at a 1:1 port to uplink ratio", SPOD-H100-COMPONENTS),
  the nodes at the node-side ratio (``plan_fabric(one_to_one=...)``), when the nodes need two tiers.
* **Converged north-south** (ERA-HGX-CONVERGED): a storage network that in-band rides (no adapter has the role
  management) beside an Ethernet compute fabric is the Enterprise RAs' converged network: "two 200 GbE ports to
  two separate switches", so it is planned as the in-band network is (a pair of Ethernet switches, each node port
  on its own, a core pair beyond one pair).
* **In-band / converged** (ERA-HGX-CONVERGED, BASEPOD-INBAND): each node's management ports go to separate
  switches, two switches per group of nodes for redundancy (each port of a node is a rail of its own); a design
  whose nodes fit one switch gets the pair and no spines. A node with a single management port gets no
  redundancy, and a finding says so. Two tiers get a core of at least two spines, each leaf's uplinks split
  between them. Default ratio ``INBAND_RATIO`` 11:1, the ratio the DGX SuperPOD H100 RA's cables imply (254 node
  links on 24 leaf-core cables), which gives its 6 leaves and 2 cores, Table 7's 8 SN4600C, for 127 nodes
  (SPOD-H100-INBAND-CORE); NETWORK_INBAND_RATIO says so, as the RA states no ratio.
  Default switch: the catalogue's Spectrum-4 (SN5600), whose 400 GbE ports
  take the 200/400 GbE ports the RAs use; the H100-era SN4600C (named in ``networks.inband.switch``) takes 100 GbE
  QSFP28: the catalogue's QSFP28 DAC and AOCs join its pair and its nodes, whose ConnectX-7 and BlueField-3 QSFP112
  cages take QSFP28 plugs (NV-LX-OV, ``engines.fabric.media``).
* **Out-of-band** (SPOD-H100-OOB, SPOD-H100-OOB-CENTRAL, SPOD-H100-OOB-UPLINKS; ``engines.networks.oob``): always
  planned. One 1 GbE port per node BMC, per switch management port (compute, storage and in-band switches), per
  rack PDU and per BMC of the control plane's servers (the RA's cable list gives the management and UFM nodes
  theirs). Placement ``networks.oob.placement``: ``central`` (the switches in management racks, as the RA racks
  them: ceil(a scalable unit's ports / 48) for each unit of the compute fabric, the RA's 8 SN2201 for its 317
  ports over 4 SU; the rack plan puts none in the racks) or ``per-rack`` (the rack plan's management switch in
  every rack; ports beyond their 48 each get more switches, and a finding says the rack plan does not place them).
  Absent: central unless the fullest compute rack has ``DENSE_RACK_PORTS`` (24) or more management ports (its BMCs
  and PDUs), and NETWORK_OOB_PLACEMENT states the choice and the count. Every switch uplinks with two 100 GbE ports
  into the in-band network (the DGX SuperPOD H100 RA's cable list: "Two uplinks per OOB to in-band", 16 for its 8
  SN2201), or into the converged north-south network where in-band rides the storage adapters, or into the
  customer's network where the in-band network is the customer's; no aggregation switches of its own.
* **Grow or error**: no network is valid with more ports than its switches have. The fabric planner sizes the
  switched networks for their ports (more leaves, a core); the out-of-band network gets as many switches as its
  ports need; out-of-band uplinks that the landing network's leaves have no free ports for are an error
  (NETWORK_OOB_UPLINK_PORTS), never a warning.
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
from design.specs import AdapterSpec, SwitchSpec
from design.vocabulary import Protocol
from engines.catalog_view import CatalogView
from engines.fabric.media import Side, item_quantity, select_media
from engines.fabric.model import FabricPlan, LinkPlan
from engines.fabric.plan import plan_fabric
from engines.findings import FabricCode, Finding, finding
from engines.findings.params.networks import (
    NetworkConverged,
    NetworkCustomerSupplied,
    NetworkInbandRatio,
    NetworkNoAdapters,
    NetworkNoSwitch,
    NetworkSinglePort,
    NetworkStorageSystemPorts,
)

from .model import INBAND, NETWORKS, OOB, STORAGE, NetworkPlan, OobDevices
from .oob import RackSide, catalogued_switch, plan_oob, uplink_ports, uplink_target

__all__ = ["NodePorts", "RackSide", "plan_dicts", "plan_networks", "plan_oob_network", "plan_switched_networks"]

# The defaults, first catalogued one wins (module docstring).
STORAGE_IB_SWITCHES = ("MQM9700-NS2F",)
ETHERNET_SWITCHES = ("SN5600", "SN4600C")
PEER_LINKS = 2  # ports per switch joining an in-band pair (BASEPOD-INBAND: peerlink over swp57 and swp58)
PEER = "peer"  # the link class of an in-band pair's peer link
PEER_RUN_M = 1.0  # the two switches of a pair stacked in one rack, next to each other (an assumption, stated)
# The in-band ratio the DGX SuperPOD H100 RA's cables imply (Table 8: 254 node links on 24 leaf-core cables, 10.6
# to 1; a leaf carries whole links, so 11:1): the default where the design states none (SPOD-H100-INBAND-CORE).
INBAND_RATIO = "11:1"

# Storage systems' leaf ports where the design gives none: the DGX SuperPOD H100 RA's proportion, 48 storage leaf
# ports (Table 8's 48 "NDR Cables, 2x 200 Gbps" to the storage) for the 254 storage ports of its 127 nodes
# (SPOD-H100-STORAGE-PORTS); NETWORK_STORAGE_SYSTEM_PORTS states the count.
RA_SYSTEM_PORTS, RA_NODE_STORAGE_PORTS = 48, 254


def default_system_ports(node_ports: int) -> int:
    """The storage systems' leaf ports for ``node_ports`` node storage ports, in the RA's proportion (rounded up)."""
    return -(-node_ports * RA_SYSTEM_PORTS // RA_NODE_STORAGE_PORTS)


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


def _entry(networks: NetworksIn | None, key: str) -> NetworkIn | None | Default:
    return DEFAULT if networks is None else getattr(networks, key)


@dataclass(frozen=True)
class _Context:
    """What every switched network is planned with: the catalogue, the fabric's rack model, whether the compute
    fabric is Ethernet (then the north-south network is Ethernet too, ERA-HGX-CONVERGED) and the findings list
    the networks that are not planned go into."""

    catalog: CatalogView
    rack: RackIn | None
    ethernet: bool
    findings: list[Finding]


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
    units: int = 1,
    ethernet_fabric: bool = False,
) -> tuple[dict[str, NetworkPlan | None], list[Finding]]:
    """The three networks' plans (None: not planned) and the findings about networks that are not planned.
    Each plan carries its own findings (subject ``networks.<key>``). ``servers``: the control plane's servers,
    whose BMCs the out-of-band network connects as well; ``units``: the compute fabric's scalable units, by which
    central out-of-band switches are counted; ``ethernet_fabric``: the compute fabric is Ethernet. The two steps,
    for a caller that racks the storage and in-band switches before it plans the out-of-band network on the
    racks: ``plan_switched_networks``, then ``plan_oob_network``."""
    plans, findings = plan_switched_networks(
        networks=networks, storage=storage, inband=inband, catalog=catalog, rack=rack, ethernet_fabric=ethernet_fabric
    )
    plans, oob_findings = plan_oob_network(
        plans,
        networks=networks,
        bmcs=bmcs,
        compute_switches=compute_switches,
        racks=racks,
        catalog=catalog,
        servers=servers,
        units=units,
    )
    return plans, findings + oob_findings


def plan_switched_networks(
    *,
    networks: NetworksIn | None,
    storage: NodePorts,
    inband: NodePorts,
    catalog: CatalogView,
    rack: RackIn | None = None,
    ethernet_fabric: bool = False,
) -> tuple[dict[str, NetworkPlan | None], list[Finding]]:
    """The storage and in-band networks' plans (the out-of-band key None), and the findings about those of them
    that are not planned."""
    plans: dict[str, NetworkPlan | None] = dict.fromkeys(NETWORKS)
    findings: list[Finding] = []
    for key in (STORAGE, INBAND):
        if _entry(networks, key) is None:
            findings.append(finding(f"networks.{key}", NetworkCustomerSupplied(network=key)))
    ctx = _Context(catalog, rack, ethernet_fabric, findings)
    st, inb = _entry(networks, STORAGE), _entry(networks, INBAND)
    if st is not None:
        plans[STORAGE] = _switched(STORAGE, st, storage, ctx, converged=inband.nodes == 0)
    if inb is not None:
        plans[INBAND] = _switched(INBAND, inb, inband, ctx, converged=storage.nodes == 0)
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
    units: int = 1,
) -> tuple[dict[str, NetworkPlan | None], list[Finding]]:
    """``switched`` (``plan_switched_networks``) with the out-of-band network planned, central or on the racks,
    and the findings when it is not planned. The network its uplinks land on counts their ports."""
    plans = dict(switched)
    findings: list[Finding] = []
    oob = _entry(networks, OOB)
    if oob is None:
        findings.append(finding(f"networks.{OOB}", NetworkCustomerSupplied(network=OOB)))
        return plans, findings
    switches = compute_switches + sum(p.switches for p in plans.values() if p is not None)
    landing = uplink_target(plans, catalog)
    devices = OobDevices(bmcs=bmcs, switches=switches, pdus=racks.pdus, servers=servers)
    oob_plan = plan_oob(oob, devices, racks, catalog, findings, landing[1] if landing else None, units)
    plans[OOB] = oob_plan
    if oob_plan is not None and landing is not None:
        landed = plans[landing[0]]
        if landed is not None:
            plans[landing[0]] = uplink_ports(landed, oob_plan.uplinks)
    return plans, findings


def _ratio(key: str, given: NetworkIn, subject: str, own: list[Finding]) -> tuple[str, tuple[int, int]]:
    """The network's ratio: the design's, else 1:1 for storage and the RA's implied 11:1 for in-band, which a
    finding states (the RA does not state its in-band ratio)."""
    ratio = given.oversubscription
    if ratio is None and key == INBAND:
        ratio = INBAND_RATIO
        own.append(finding(subject, NetworkInbandRatio(ratio=ratio)))
    ratio = ratio or "1:1"
    try:
        return ratio, parse_oversubscription(ratio)
    except ValueError:
        return "1:1", (1, 1)


def _switched(
    key: str, entry: NetworkIn | Default, node: NodePorts, ctx: _Context, *, converged: bool
) -> NetworkPlan | None:
    """A storage or in-band network, or None (with a finding) when no node has adapters of its role. A storage
    network that in-band rides (``converged``) on an Ethernet compute fabric is the Enterprise RAs' converged
    north-south network: planned as the in-band one (a pair of Ethernet switches, each node port on its own)."""
    given = entry if isinstance(entry, NetworkIn) else NetworkIn()
    north_south = key == STORAGE and converged and ctx.ethernet
    defaulted = key == STORAGE and not north_south and given.system_ports is None
    system_ports = (given.system_ports or 0) if key == STORAGE else 0
    if defaulted:
        system_ports = default_system_ports(node.ports)
    subject = f"networks.{key}"
    role = "storage" if key == STORAGE else "management"
    if node.nodes == 0 and system_ports == 0:
        if isinstance(entry, NetworkIn):
            ctx.findings.append(finding(subject, NetworkNoAdapters(network=key, role=role)))
        elif not converged and key == INBAND:
            # The Enterprise RAs' converged north-south network: in-band rides the storage adapters.
            ctx.findings.append(finding(subject, NetworkConverged(network=key, role=role)))
        return None
    switch = catalogued_switch(ctx.catalog, given.switch, _defaults(key, node.adapter, ethernet=ctx.ethernet))
    if switch is None:
        ctx.findings.append(finding(subject, NetworkNoSwitch(network=key, switch=given.switch)))
        return None
    own: list[Finding] = []
    ratio, oversub = _ratio(key, given, subject, own)
    shape = INBAND if north_south else key
    fabric, sources = _network_fabric(shape, node, switch, oversub, system_ports, ctx)
    if defaulted:
        sources = (*sources, "SPOD-H100-STORAGE-PORTS")
        own.append(finding(subject, _system_ports_said(system_ports, fabric)))
    own[:0] = [replace(f, subject=subject) for f in fabric.findings if f.code in {str(c) for c in _KEPT}]
    if shape == INBAND and node.ports_per_node < 2 and fabric.tiers:
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
        sources=(*sources, "ERA-HGX-CONVERGED") if north_south and "ERA-HGX-CONVERGED" not in sources else sources,
        findings=tuple(own),
        fabric=fabric,
    )


def _system_ports_said(system_ports: int, fabric: FabricPlan) -> NetworkStorageSystemPorts:
    return NetworkStorageSystemPorts(
        reserved=system_ports,
        free=_free_leaf_ports(fabric),
        leaves=fabric.leaf_switches,
        spines=fabric.spine_switches + fabric.core_switches,
    )


def _free_leaf_ports(fabric: FabricPlan) -> int:
    return sum(max(0, total - used) for tier, used, total in fabric.ports if tier == "leaf")


def _network_fabric(
    key: str,
    node: NodePorts,
    switch: SwitchSpec,
    oversub: tuple[int, int],
    system_ports: int,
    ctx: _Context,
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
            catalog=ctx.catalog,
            rack=ctx.rack,
            hca_named=False,
            one_to_one=system_ports,
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
        catalog=ctx.catalog,
        rack=ctx.rack,
        hca_named=False,
    )
    fabric = _core_pair(_pair(fabric, rails, switch, ctx.catalog))
    return fabric, ("ERA-HGX-CONVERGED", "BASEPOD-INBAND", "SPOD-H100-INBAND-CORE")


def _defaults(key: str, adapter: AdapterSpec | None, *, ethernet: bool) -> tuple[str, ...]:
    """The default switches: InfiniBand for a storage network of InfiniBand-capable adapters beside an
    InfiniBand (or no) compute fabric, Ethernet otherwise (an Ethernet compute fabric's north-south network is
    Ethernet, ERA-HGX-CONVERGED)."""
    if key == STORAGE and not ethernet and (adapter is None or adapter.protocol != Protocol.ETHERNET):
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


def plan_dicts(plans: dict[str, NetworkPlan | None], render: Any) -> JsonObject:
    """``network_plans`` of the validation result; ``render`` turns a plan's findings into their dicts."""
    return {key: (None if plan is None else plan.to_dict(render(plan.findings))) for key, plan in plans.items()}
