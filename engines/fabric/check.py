"""Fabric checks of a design: plans the compute fabric the design names and says what is wrong with it.

The planner (engines.fabric.planner) raises the findings that follow from the switch, the HCA and the
sizing alone (protocol mismatch, speed mismatch, management switch as fabric switch, ports beyond three
tiers, no joining cable, distance beyond reach, subnet manager). This module adds the ones that need the
design: the GPUs in the nodes, the node count and the choice of InfiniBand over Ethernet.
Multi-node designs without a fabric are the node rules engine's business, not this module's.
"""

from __future__ import annotations

from design.model import DesignIn, DesignInputError, FabricIn, RackIn
from design.specs import AdapterSpec, ServerSpec, SwitchSpec
from design.vocabulary import Protocol
from engines.catalog_view import CatalogView
from engines.findings import Finding, finding
from engines.findings.params.fabric import (
    FabricFewerRailsThanGpus,
    FabricHdrForNewGpus,
    FabricNoRails,
    FabricPartInvalid,
    FabricRoceAlternative,
    FabricSingleNode,
    RoceSwitch,
)
from engines.findings.params.rack_systems import FabricRackScaleOneRack

from .findings import switch_for_speed
from .model import FabricPlan
from .plan import plan_fabric
from .request import TOPOLOGIES, parse_oversubscription, resolve_parts


def check_single_node(nodes: int) -> Finding | None:
    """A single node needs no fabric: its GPUs talk over NVLink; InfiniBand pays off from two nodes on
    (distributor article seeds/000: "Voor single-node setups ... is InfiniBand niet nodig")."""
    if nodes > 1:
        return None
    return finding("fabric", FabricSingleNode(nodes=nodes))


def check_one_rack(server: ServerSpec) -> Finding:
    """One rack-scale NVLink system needs no compute fabric: its GPUs share one NVLink domain; the fabric joins
    racks (DGX SuperPOD GB200 RA-11338-001, Network Fabrics: multi-node NVLink in the rack, InfiniBand between)."""
    return finding("fabric", FabricRackScaleOneRack(server=server.part_number, gpus=server.nvlink_domain_gpus))


def check_hdr_for_new_gpus(
    switch: SwitchSpec, gpu_generation: str, advised_gbps: int | None, catalog: CatalogView
) -> Finding | None:
    """An InfiniBand switch slower than the fabric speed advised for the nodes' GPUs (the GPU's catalogue fact
    ``advised_fabric_gbps``: NDR, 400 Gb/s, for Hopper and Blackwell, distributor article seeds/000; HDR only as a
    budget option or to extend an existing HDR fabric). The fix names the catalogue's switch at that speed."""
    if switch.protocol != Protocol.INFINIBAND or not switch.port_speed_gbps or advised_gbps is None:
        return None
    if switch.port_speed_gbps >= advised_gbps:
        return None
    advised = switch_for_speed(catalog, switch.protocol, advised_gbps)
    return finding(
        "fabric.switch",
        FabricHdrForNewGpus(
            switch=switch.part_number,
            generation=switch.generation,
            port_gbps=switch.port_speed_gbps,
            gpu_generation=gpu_generation,
            advised_gbps=advised_gbps,
            advised_generation=(advised.generation or None) if advised else None,
            advised_switch=advised.part_number if advised else None,
        ),
    )


def check_rails_per_gpu(topology: str, rails: int, gpus_per_node: int) -> Finding | None:
    """Rail-optimized: one compute NIC per GPU, NIC i to the leaf of rail i (DGX SuperPOD RA); fewer rails
    than GPUs make GPUs share a NIC and halve (or worse) the inter-node bandwidth per GPU."""
    if topology != "rail-optimized" or gpus_per_node <= rails or rails < 1:
        return None
    return finding("fabric", FabricFewerRailsThanGpus(rails=rails, gpus_per_node=gpus_per_node))


def check_roce_alternative(switch: SwitchSpec, catalog: CatalogView) -> Finding | None:
    """RoCE on 400GbE is a serious alternative where Ethernet is already in place or management simplicity
    weighs; InfiniBand keeps an edge in latency and consistency under high load (seeds/000)."""
    if switch.protocol != Protocol.INFINIBAND:
        return None
    ethernet = [
        s
        for s in catalog.of_type(SwitchSpec)
        if s.protocol == Protocol.ETHERNET and not s.management and s.port_speed_gbps >= switch.port_speed_gbps
    ]
    best = max(ethernet, key=lambda s: (not s.retired, s.logical_ports, s.part_number), default=None)
    alternative: RoceSwitch | None = (
        {
            "part": best.part_number,
            "generation": best.generation,
            "ports": best.logical_ports,
            "gbps": best.port_speed_gbps,
        }
        if best
        else None
    )
    return finding("fabric.switch", FabricRoceAlternative(alternative=alternative, gbps=switch.port_speed_gbps))


def _node_height(design: DesignIn, catalog: CatalogView) -> int | None:
    """The tallest fabric endpoint: a server's height, or 1U for the compute trays of a rack-scale system (NVIDIA DGX
    GB200 User Guide: "18x 1RU compute trays"), whose trays are the fabric's nodes."""
    heights = [
        1 if s.rack_scale else s.height_u
        for g in design.node_groups
        if isinstance(s := catalog.get(g.server), ServerSpec) and s.height_u
    ]
    return max(heights) if heights else None


def check_design_fabric(
    *,
    design: DesignIn,
    nodes: int,
    compute_nics_per_node: int,
    nic: AdapterSpec | None,
    gpus_per_node: int,
    gpu_generation: str,
    catalog: CatalogView,
    advised_fabric_gbps: int | None = None,
    given_rack: RackIn | None = None,
    one_rack: ServerSpec | None = None,
) -> tuple[list[Finding], FabricPlan | None]:
    """Plan the design's compute fabric and check it. No fabric: nothing to say here. ``given_rack``: the
    distances the design itself gives when ``design.fabric.rack`` also holds the rack plan's estimates.
    ``one_rack``: the rack-scale system when the design is one such rack (its GPUs share one NVLink domain, so
    the fabric is not needed; its endpoints, ``nodes``, are the rack's compute trays)."""
    fabric = design.fabric
    if fabric is None:
        return [], None
    oversub = _oversubscription(fabric)
    findings: list[Finding] = []
    try:
        switch, hca = resolve_parts(
            catalog, fabric.switch, fabric.hca, switch_field="fabric.switch", hca_field="fabric.hca"
        )
    except DesignInputError as exc:
        for path, message in exc.errors.items():
            findings.append(finding(path, FabricPartInvalid(path=path, reason=message)))
        return findings, None
    hca = hca or nic
    rails = fabric.rails or compute_nics_per_node
    if rails < 1:
        findings.append(finding("fabric", FabricNoRails()))
        return findings, None
    single = check_one_rack(one_rack) if one_rack is not None else check_single_node(nodes)
    if single is not None:
        findings.append(single)
    plan = plan_fabric(
        nodes=max(nodes, 1),
        rails=rails,
        switch=switch,
        oversubscription=oversub,
        topology=fabric.topology,
        hca=hca,
        catalog=catalog,
        rack=fabric.rack,
        node_height_u=_node_height(design, catalog),
        hca_named=fabric.hca is not None,
        given_rack=given_rack,
    )
    findings.extend(plan.findings)
    advice = _switch_advice(switch, fabric.topology, rails, gpus_per_node, gpu_generation, advised_fabric_gbps, catalog)
    findings.extend(advice)
    return findings, plan if plan.tiers else None


def _oversubscription(fabric: FabricIn) -> tuple[int, int]:
    """The fabric's parsed oversubscription, once its topology is known; a DesignInputError naming the field if not."""
    try:
        oversub = parse_oversubscription(fabric.oversubscription)
    except ValueError as exc:
        raise DesignInputError({"fabric.oversubscription": str(exc)}) from exc
    if fabric.topology not in TOPOLOGIES:
        raise DesignInputError({"fabric.topology": f"must be one of {', '.join(TOPOLOGIES)}"})
    return oversub


def _switch_advice(
    switch: SwitchSpec,
    topology: str,
    rails: int,
    gpus_per_node: int,
    gpu_generation: str,
    advised_fabric_gbps: int | None,
    catalog: CatalogView,
) -> list[Finding]:
    """The checks of the chosen switch against the GPUs: speed for the generation, rails per GPU, a RoCE option."""
    checks = (
        check_hdr_for_new_gpus(switch, gpu_generation, advised_fabric_gbps, catalog),
        check_rails_per_gpu(topology, rails, gpus_per_node),
        check_roce_alternative(switch, catalog),
    )
    return [extra for extra in checks if extra is not None]
