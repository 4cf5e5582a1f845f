"""Fabric checks of a design: plans the compute fabric the design names and says what is wrong with it.

The planner (configurator.fabric.planner) raises the findings that follow from the switch, the HCA and the
sizing alone (protocol mismatch, speed mismatch, management switch as fabric switch, ports beyond three
tiers, no joining cable, distance beyond reach, subnet manager). This module adds the ones that need the
design: the GPUs in the nodes, the node count and the choice of InfiniBand over Ethernet.
Multi-node designs without a fabric are the node rules engine's business, not this module's.
"""

from __future__ import annotations

from configurator.rules.design import DesignIn, DesignInputError
from configurator.rules.findings import Finding, Severity, Text
from configurator.rules.specs import AdapterSpec, CatalogView, Protocol, ServerSpec, SwitchSpec

from .codes import FabricCode
from .planner import FabricPlan, article, plan_fabric
from .request import TOPOLOGIES, parse_oversubscription, resolve_parts

NEW_GENERATIONS = ("hopper", "blackwell")  # GpuSpec.generation prefixes the seeds advise NDR for
NDR_GBPS = 400


def _finding(
    code: FabricCode, severity: Severity, subject: str, en: str, nl: str, fix_en: str, fix_nl: str, **data
) -> Finding:
    return Finding(
        code=str(code), severity=severity, subject=subject, message=Text(en, nl), fix=Text(fix_en, fix_nl), data=data
    )


def check_single_node(nodes: int) -> Finding | None:
    """A single node needs no fabric: its GPUs talk over NVLink; InfiniBand pays off from two nodes on
    (distributor article seeds/000: "Voor single-node setups ... is InfiniBand niet nodig")."""
    if nodes > 1:
        return None
    return _finding(
        FabricCode.SINGLE_NODE,
        Severity.INFO,
        "fabric",
        "The design has a single node: its GPUs talk over NVLink and a compute fabric is not needed.",
        "Het ontwerp heeft één node: de GPU's praten via NVLink en een compute-fabric is niet nodig.",
        "Remove the fabric, or keep it only to prepare for more nodes.",
        "Verwijder de fabric, of houd hem alleen aan als voorbereiding op meer nodes.",
        nodes=nodes,
    )


def check_hdr_for_new_gpus(switch: SwitchSpec, gpu_generation: str) -> Finding | None:
    """New Hopper/Blackwell clusters should get NDR (400 Gb/s); HDR only as a budget option or to extend an
    existing HDR fabric (distributor article seeds/000)."""
    if switch.protocol != Protocol.INFINIBAND or not switch.port_speed_gbps or switch.port_speed_gbps >= NDR_GBPS:
        return None
    if not gpu_generation.lower().startswith(NEW_GENERATIONS):
        return None
    gen = switch.generation or f"{switch.port_speed_gbps} Gb/s"
    return _finding(
        FabricCode.HDR_FOR_NEW_GPUS,
        Severity.WARNING,
        "fabric.switch",
        f"{switch.part_number} is {article(gen)} {gen} switch ({switch.port_speed_gbps} Gb/s per port) for "
        f"{gpu_generation} "
        "nodes; NDR (400 Gb/s) is the advised fabric for this GPU generation.",
        f"{switch.part_number} is een {gen}-switch ({switch.port_speed_gbps} Gb/s per poort) voor "
        f"{gpu_generation}-nodes; NDR (400 Gb/s) is de aanbevolen fabric voor deze GPU-generatie.",
        "Choose a Quantum-2 NDR switch (QM9700); keep HDR only as a budget option or to extend an existing HDR fabric.",
        "Kies een Quantum-2 NDR-switch (QM9700); houd HDR alleen aan als budgetoptie of bij uitbreiding van een "
        "bestaande HDR-fabric.",
        port_gbps=switch.port_speed_gbps,
    )


def check_rails_per_gpu(topology: str, rails: int, gpus_per_node: int) -> Finding | None:
    """Rail-optimized: one compute NIC per GPU, NIC i to the leaf of rail i (DGX SuperPOD RA); fewer rails
    than GPUs make GPUs share a NIC and halve (or worse) the inter-node bandwidth per GPU."""
    if topology != "rail-optimized" or gpus_per_node <= rails or rails < 1:
        return None
    return _finding(
        FabricCode.FEWER_RAILS_THAN_GPUS,
        Severity.WARNING,
        "fabric",
        f"The rail-optimized fabric has {rails} rails for {gpus_per_node} GPUs per node: GPUs share compute NICs "
        f"and get {rails}/{gpus_per_node} of a NIC each.",
        f"De rail-geoptimaliseerde fabric heeft {rails} rails voor {gpus_per_node} GPU's per node: GPU's delen "
        f"compute-NIC's en krijgen elk {rails}/{gpus_per_node} van een NIC.",
        f"Fit {gpus_per_node} compute NICs per node, one per GPU.",
        f"Plaats {gpus_per_node} compute-NIC's per node, één per GPU.",
        rails=rails,
        gpus_per_node=gpus_per_node,
    )


def check_roce_alternative(switch: SwitchSpec, catalog: CatalogView) -> Finding | None:
    """RoCE on 400GbE is a serious alternative where Ethernet is already in place or management simplicity
    weighs; InfiniBand keeps an edge in latency and consistency under high load (seeds/000)."""
    if switch.protocol != Protocol.INFINIBAND:
        return None
    ethernet = [
        s
        for s in catalog.of_type(SwitchSpec)
        if s.protocol == Protocol.ETHERNET and not s.management and s.port_speed_gbps >= NDR_GBPS
    ]
    best = max(ethernet, key=lambda s: (s.logical_ports, s.part_number), default=None)
    name = (
        f"{best.part_number} ({best.generation or 'Spectrum'}, {best.logical_ports} x {best.port_speed_gbps}GbE)"
        if best
        else "Spectrum-4 SN5600 (128 x 400GbE)"
    )
    return _finding(
        FabricCode.ROCE_ALTERNATIVE,
        Severity.INFO,
        "fabric.switch",
        f"If the customer prefers Ethernet, RoCE on {name} is a serious alternative; InfiniBand keeps an edge in "
        "latency and consistency under high load, which shows in the training time of large distributed jobs.",
        f"Heeft de klant liever Ethernet, dan is RoCE op {name} een serieus alternatief; InfiniBand behoudt een "
        "voordeel in latentie en consistentie onder hoge belasting, wat bij grote gedistribueerde training "
        "meetbaar is in de trainingstijd.",
        "Keep InfiniBand for the most demanding training; offer RoCE where Ethernet skills or cost weigh most.",
        "Houd InfiniBand aan voor de zwaarste training; bied RoCE aan waar Ethernet-kennis of kosten zwaarder wegen.",
    )


def _node_height(design: DesignIn, catalog: CatalogView) -> int | None:
    heights = [
        s.height_u for g in design.node_groups if isinstance(s := catalog.get(g.server), ServerSpec) and s.height_u
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
) -> tuple[list[Finding], FabricPlan | None]:
    """Plan the design's compute fabric and check it. No fabric: nothing to say here."""
    fabric = design.fabric
    if fabric is None:
        return [], None
    try:
        oversub = parse_oversubscription(fabric.oversubscription)
    except ValueError as exc:
        raise DesignInputError({"fabric.oversubscription": str(exc)}) from exc
    if fabric.topology not in TOPOLOGIES:
        raise DesignInputError({"fabric.topology": f"must be one of {', '.join(TOPOLOGIES)}"})
    findings: list[Finding] = []
    try:
        switch, hca = resolve_parts(
            catalog, fabric.switch, fabric.hca, switch_field="fabric.switch", hca_field="fabric.hca"
        )
    except DesignInputError as exc:
        for path, message in exc.errors.items():
            findings.append(
                _finding(
                    FabricCode.PART_INVALID,
                    Severity.ERROR,
                    path,
                    f"{path}: {message}.",
                    f"{path}: onbekend onderdeel of verkeerde soort ({message}).",
                    "Choose a switch (and adapter) from the catalogue.",
                    "Kies een switch (en adapter) uit de catalogus.",
                )
            )
        return findings, None
    hca = hca or nic
    rails = fabric.rails or compute_nics_per_node
    if rails < 1:
        findings.append(
            _finding(
                FabricCode.NO_RAILS,
                Severity.ERROR,
                "fabric",
                "The design has a compute fabric but no compute NICs in its nodes to connect to it.",
                "Het ontwerp heeft een compute-fabric, maar geen compute-NIC's in de nodes om erop aan te sluiten.",
                "Add compute NICs (one per GPU), or remove the fabric.",
                "Voeg compute-NIC's toe (één per GPU), of verwijder de fabric.",
            )
        )
        return findings, None
    single = check_single_node(nodes)
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
    )
    findings.extend(plan.findings)
    for extra in (
        check_hdr_for_new_gpus(switch, gpu_generation),
        check_rails_per_gpu(fabric.topology, rails, gpus_per_node),
        check_roce_alternative(switch, catalog),
    ):
        if extra is not None:
            findings.append(extra)
    return findings, plan if plan.tiers else None
