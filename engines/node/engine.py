"""The node rules engine: validate the node groups of a design against the catalogue view.

``validate_nodes`` runs every rule once per node group (never per node: cost grows with distinct groups, not
with ``count``), then the design-level rules (GPU-NIC ratio, workload sizing). It never raises on a well-formed
design: a part that is missing or of the wrong kind becomes a finding and drops out of the later rules.

No I/O, clock or randomness; nothing here imports Django.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from design.model import DesignIn
from engines.catalog_view import CatalogView
from engines.findings import SEVERITY_ORDER, Finding, Severity
from engines.findings.codes import Code
from engines.findings.params.rack_systems import NvlinkDomainPerRack
from engines.findings.registry import finding

from .context import GroupContext, resolve_group
from .gpu import bridge_sockets, gpu_findings
from .node_contents import node_content_findings
from .pcie import place_group
from .pcie.placement import GroupPlacement
from .power import PowerEstimate, cooling_findings, estimate, power_findings
from .sizing import Sizing
from .totals import Bandwidth, GroupPowerAssumption, GroupPowerBasis, GroupTotals, NodeTotals
from .workload import _has_nvlink, fabric_advice, nic_findings, nvlink_domain_gpus, workload_findings


@dataclass(frozen=True)
class NodeResult:
    """What the node engine says about a design: findings (errors first), slot placement per node group,
    totals, the workload sizing (None without a workload or GPUs) and each node group as resolved against the
    catalogue (``groups``, in the design's order), which the cluster's steps read instead of resolving it again."""

    findings: tuple[Finding, ...]
    totals: NodeTotals
    placement: list[GroupPlacement] = field(default_factory=list)
    sizing: Sizing | None = None
    groups: tuple[GroupContext, ...] = ()

    @property
    def valid(self) -> bool:
        """False exactly when at least one finding is an error (contract design/v1)."""
        return not any(f.severity == Severity.ERROR for f in self.findings)


def validate_nodes(design: DesignIn, catalog: CatalogView) -> NodeResult:
    """Check every node group of ``design`` and return findings, placement and totals."""
    findings: list[Finding] = []
    contexts: list[GroupContext] = []
    placement: list[GroupPlacement] = []
    power: list[PowerEstimate | None] = []
    for index, group in enumerate(design.node_groups):
        ctx = resolve_group(index, group, catalog, findings)
        contexts.append(ctx)
        if ctx.server is None:
            power.append(None)
            placement.append(
                {
                    "group": group.name,
                    "node_group": index,
                    "server": group.server,
                    "slots": [],
                    "unplaced": [],
                    "slots_known": False,
                    "slots_complete": False,
                    "integrated_nics": 0,
                }
            )
            continue
        gpu = gpu_findings(ctx)
        findings.extend(gpu)
        if ctx.server.rack_scale:
            findings.extend(_rack_system_findings(ctx))
            rack_est = estimate(ctx)
            power.append(rack_est)
            findings.extend(power_findings(ctx, rack_est))
            findings.extend(cooling_findings(ctx))
            placement.append(_rack_placement(ctx))
            continue
        placed = place_group(ctx, findings)
        findings.extend(bridge_sockets(ctx, placed))
        est = estimate(ctx)
        power.append(est)
        refused = any(f.code == Code.GPU_NOT_ACCEPTED for f in gpu)
        findings.extend(power_findings(ctx, est, refused=refused))
        findings.extend(cooling_findings(ctx))
        findings.extend(node_content_findings(ctx))
        placement.append(placed.to_dict(ctx))
    findings.extend(nic_findings(design, contexts))
    workload, sizing = workload_findings(design, contexts)
    findings.extend(workload)
    findings.extend(fabric_advice(design, contexts, catalog, {str(f.code) for f in workload}, sizing))
    findings.sort(key=lambda f: SEVERITY_ORDER[f.severity])  # stable: rule order kept within a severity
    return NodeResult(
        findings=tuple(findings),
        placement=placement,
        totals=_totals(contexts, power),
        sizing=sizing,
        groups=tuple(contexts),
    )


def _rack_placement(ctx: GroupContext) -> GroupPlacement:
    """A rack-scale system has no slots to place cards in: its trays come fitted (contract design/v1 shape)."""
    return {
        "group": ctx.group.name,
        "node_group": ctx.index,
        "server": ctx.known_server.part_number,
        "slots": [],
        "unplaced": [],
        "slots_known": False,
        "slots_complete": False,
        "integrated_nics": ctx.known_server.integrated_nics,
        "rack_scale": True,
    }


def _rack_system_findings(ctx: GroupContext) -> list[Finding]:
    """Rule: each NVL72 rack is its own NVLink domain of 72 GPUs; two or more racks are joined by the compute
    fabric, never by one larger NVLink domain. NVLink 5's "up to 576 GPUs in a single NVLink domain" is a
    specification of the NVLink Switch, not an orderable product (the seeds' "tot 576 GPU's in één fabric").
    Source: NVIDIA Mission Control manual, NVLink Technology; NVIDIA DGX SuperPOD GB200 RA-11338-001."""
    server = ctx.known_server
    racks = ctx.group.count
    if racks < 2 or not server.nvlink_domain_gpus:
        return []
    return [
        finding(
            f"{ctx.path}.count",
            NvlinkDomainPerRack(
                server=server.part_number,
                racks=racks,
                domain_gpus=server.nvlink_domain_gpus,
                gpus=racks * ctx.gpus_per_node,
            ),
        )
    ]


def _bandwidth_per_gpu(ctx: GroupContext) -> Bandwidth:
    """What one GPU of the group gets: NVLink in GB/s (the catalogue's per-GPU figure, bidirectional; 0 when the
    GPUs have no NVLink fitted) and the compute fabric in Gb/s (the compute NICs' line rate shared by the node's
    GPUs; 0 without compute NICs). None: not known (a part without the figure), never a guess."""
    gpus = ctx.gpus_per_node
    if not gpus:
        return {"nvlink_gbps_per_gpu": None, "compute_gbps_per_gpu": None}
    nvlink = ctx.gpus[0].spec.nvlink_gbps if _has_nvlink(ctx) else 0
    speeds = [(p.quantity, p.spec.speed_gbps) for p in ctx.compute_adapters]
    if ctx.server is not None and ctx.server.integrated_nics:
        speeds.append((ctx.server.integrated_nics, ctx.server.integrated_nic_speed_gbps))
    known = all(speed is not None for _q, speed in speeds)
    fabric = round(sum(q * (speed or 0) for q, speed in speeds) / gpus, 1) if known else None
    return {"nvlink_gbps_per_gpu": nvlink, "compute_gbps_per_gpu": fabric}


def _totals(contexts: list[GroupContext], power: list[PowerEstimate | None]) -> NodeTotals:
    """Per-group and design totals: GPUs, GPU memory, estimated peak power (W), NICs, the power assumptions and
    the basis of each group's power estimate (sum of parts, or the published maximum of NVIDIA's system)."""
    groups: list[GroupTotals] = []
    assumptions: list[GroupPowerAssumption] = []
    basis: list[GroupPowerBasis] = []
    nodes = gpus = peak_w = compute_nics = all_nics = 0
    memory_gb = 0.0
    memory_known = power_known = True
    for ctx, est in zip(contexts, power):
        count = ctx.group.count
        integrated = ctx.server.integrated_nics if ctx.server else 0
        nics = sum(p.quantity for p in ctx.adapters) + integrated
        mem = ctx.gpu_memory_gb_per_node
        peak = round(est.peak_w) if est is not None else None
        if est is not None:
            basis.append({"group": ctx.group.name, "node_group": ctx.index, **est.basis_params()})
        groups.append(
            {
                "group": ctx.group.name,
                "node_group": ctx.index,
                "count": count,
                "gpus_per_node": ctx.gpus_per_node,
                "gpu_memory_gb_per_node": mem,
                "peak_power_w_per_node": peak,
                "optics_w_per_node": est.optics_w if est is not None else 0.0,
                "power_unknown_parts": list(est.unknown_gpu_tdp) if est is not None else [],
                "compute_nics_per_node": ctx.compute_nics_per_node,
                "nics_per_node": nics,
                "nvlink_domain_gpus": nvlink_domain_gpus(ctx),
                **_bandwidth_per_gpu(ctx),
            }
        )
        nodes += count
        gpus += count * ctx.gpus_per_node
        compute_nics += count * ctx.compute_nics_per_node
        all_nics += count * nics
        if mem is None:
            memory_known = False
        else:
            memory_gb += count * mem
        if peak is None or (est is not None and est.unknown_gpu_tdp):
            power_known = False
        if peak is not None:
            peak_w += count * peak
        if est is not None:
            assumptions += [{"group": ctx.group.name, **a} for a in est.assumptions]
    return {
        "nodes": nodes,
        "gpus": gpus,
        "gpu_memory_gb": round(memory_gb, 1) if memory_known else None,
        "peak_power_w": peak_w if power_known else None,  # part of the design has no estimate: a partial sum misleads
        "compute_nics": compute_nics,
        "nics": all_nics,
        "groups": groups,
        "power_assumptions": assumptions,
        "power_basis": basis,
    }
