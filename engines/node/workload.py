"""Design-level rules: the GPU-NIC ratio and workload sizing.

These look across node groups (node count, fabric, workload), so they run once per design after the per-group
rules. Sizing arithmetic lives in sizing.py.
"""

from __future__ import annotations

from typing import Any, cast

from design.model import DesignIn, WorkloadIn
from design.specs import CatalogView, SwitchSpec
from design.vocabulary import FULL_TRAINING_MODES, Protocol
from engines.findings.codes import Code
from engines.findings.finding import Finding
from engines.findings.registry import finding

from .context import GroupContext
from .sizing import USABLE_MEMORY_FRACTION, Sizing, size_workload

SEVENTY_B_CLASS = 60.0  # billion parameters: "70B-class" starts here
NVLINK_ADVISED_GBPS = 900  # H100-class; A100 is 600 (NCS seeds: 600 -> 900 GB/s is +50%)


def _nic_speed(ctx: GroupContext) -> int | None:
    """Line rate of one compute NIC port of the group, Gb/s (every cabled port is a link of its own)."""
    for p in ctx.compute_adapters:
        if p.spec.speed_gbps:
            return p.spec.speed_gbps
    return ctx.server.integrated_nic_speed_gbps if ctx.server else None


def nic_findings(design: DesignIn, contexts: list[GroupContext]) -> list[Finding]:
    """Rules: (1) multi-node training (two or more nodes, or a fabric) wants one compute NIC per GPU; with fewer,
    k GPUs share each NIC and per-GPU inter-node bandwidth is divided by k (warning). (2) A design with a fabric
    needs compute NICs in every GPU node (error). (3) Compute NICs in a single node without a fabric carry no GPU
    traffic: removing them saves money (info). Integrated NICs count as compute NICs. Without a workload the
    design is treated as training. Source: fabric.md §0.1 (one NIC per GPU, rail-optimized); NCS seeds ("Voor
    single-node setups met één tot acht GPU's is NVLink via een HGX-baseboard voldoende en is InfiniBand niet
    nodig")."""
    out: list[Finding] = []
    multi_node = design.node_count >= 2 or design.fabric is not None
    training = design.workload is None or design.workload.kind == "training"
    # With no compute NIC anywhere the fabric planner reports FABRIC_NO_RAILS; this rule names the GPU group that
    # lacks them while others have them.
    any_nics = any(c.compute_nics_per_node for c in contexts if c.gpus_per_node)
    for ctx in contexts:
        gpus, nics = ctx.gpus_per_node, ctx.compute_nics_per_node
        subject = ctx.compute_adapters[0].path if ctx.compute_adapters else ctx.path
        if gpus and design.fabric is not None and nics == 0 and any_nics:
            out.append(
                finding(
                    Code.NIC_MISSING,
                    ctx.path,
                    gpus=gpus,
                    nics=0,
                    group=ctx.group.name,
                )
            )
        elif gpus and multi_node and training and 0 < nics < gpus:
            out.append(_fewer_nics(ctx, subject, gpus, nics))
        adapters = sum(p.quantity for p in ctx.compute_adapters)
        if design.node_count == 1 and design.fabric is None and adapters:
            out.append(_not_needed(ctx, subject, adapters))
    return out


def _fewer_nics(ctx: GroupContext, subject: str, gpus: int, nics: int) -> Finding:
    return finding(Code.NIC_FEWER_THAN_GPUS, subject, gpus=gpus, nics=nics, nic_gbps=_nic_speed(ctx) or None)


def _not_needed(ctx: GroupContext, subject: str, adapters: int) -> Finding:
    prices = [p.spec.price_eur * p.quantity for p in ctx.compute_adapters if p.spec.price_eur is not None]
    saving = float(sum(prices)) if prices and len(prices) == len(ctx.compute_adapters) else None
    return finding(Code.NIC_NOT_NEEDED, subject, nics=adapters, saving_eur=saving)


def workload_findings(design: DesignIn, contexts: list[GroupContext]) -> tuple[list[Finding], Sizing | None]:
    """Rules: size the workload (sizing.py: mode, precision, KV cache) against the design's GPUs. Sizing is advice;
    an error only where the workload physically cannot run: all usable GPU memory (90%) below the weights alone
    (inference, LoRA) or below the fully sharded training states (16 bytes per parameter, ZeRO-3 / FSDP with
    activation checkpointing). Between that minimum and the advised memory: a warning naming the setup it needs.
    Not fitting one GPU: tensor parallelism, inside the NVLink domain where the GPUs have NVLink, over PCIe where
    they have none (info). Not fitting one node: the job spans nodes (info) and needs a compute fabric (error).
    70B-class full training on NVLink of 600 GB/s or less: H100-class 900 GB/s advised (warning). With mixed GPU
    groups the smallest GPU memory and the fewest GPUs per node are used (the conservative choice).
    Source: NCS seeds; sizing.py for the bytes per parameter and their sources."""
    wl = design.workload
    if wl is None:
        return [], None
    gpu_groups = [c for c in contexts if c.gpus and all(g.memory_gb for g in c.gpu_specs)]
    if not gpu_groups:
        return [finding(Code.WORKLOAD_NOT_SIZED, "workload")], None
    per_node = min(c.gpus_per_node for c in gpu_groups)
    sizing = _size(wl, gpu_groups, per_node)
    gpu_nodes = sum(c.group.count for c in gpu_groups)
    data = {
        **sizing.to_dict(),
        "model_parameters_billion": wl.model_parameters_billion,
        "need_gb": sizing.memory_needed_gb,
        "usable_gb": sizing.usable_gb_per_gpu,
        "per_node": per_node,
        "nvlink": all(_has_nvlink(c) for c in gpu_groups),
    }
    out: list[Finding] = []
    if not sizing.fits_one_gpu:
        out.append(finding(Code.WORKLOAD_TENSOR_PARALLEL, "workload", **data))
    if not sizing.fits_one_node:
        out.append(finding(Code.WORKLOAD_SPANS_NODES, "workload", **data))
    out.extend(_memory_findings(sizing, gpu_groups, gpu_nodes, data))
    if not sizing.fits_one_node and design.fabric is None and gpu_nodes >= 2:
        out.append(finding(Code.WORKLOAD_NEEDS_FABRIC, "fabric", min_nodes=sizing.min_nodes, nodes=gpu_nodes))
    if sizing.mode in FULL_TRAINING_MODES and wl.model_parameters_billion >= SEVENTY_B_CLASS:
        out.extend(_nvlink_bandwidth(gpu_groups, wl.model_parameters_billion))
    return out, sizing


def _size(wl: WorkloadIn, gpu_groups: list[GroupContext], per_node: int) -> Sizing:
    """The workload sized on the smallest GPU memory of the groups and the fewest GPUs per node."""
    mem = min(cast(float, g.memory_gb) for c in gpu_groups for g in c.gpu_specs)  # every GPU's is known here
    return size_workload(
        wl.kind,
        wl.model_parameters_billion,
        mem,
        per_node,
        mode=wl.mode or None,
        precision=wl.precision,
        context_tokens=wl.context_tokens,
        concurrency=wl.concurrency,
    )


def _memory_findings(
    sizing: Sizing, gpu_groups: list[GroupContext], gpu_nodes: int, data: dict[str, Any]
) -> list[Finding]:
    """Not enough usable GPU memory for the minimum (error), or fewer GPUs than advised (warning)."""
    total_gpus = sum(c.group.count * c.gpus_per_node for c in gpu_groups)
    total_gb = sum(c.group.count * (c.gpu_memory_gb_per_node or 0) for c in gpu_groups) * USABLE_MEMORY_FRACTION
    if total_gb < sizing.minimum_gb:
        code = Code.WORKLOAD_NOT_ENOUGH_GPUS
    elif total_gpus < sizing.min_gpus:
        code = Code.WORKLOAD_MEMORY_TIGHT
    else:
        return []
    return [finding(code, "node_groups", total_gpus=total_gpus, gpu_nodes=gpu_nodes, total_gb=total_gb, **data)]


def _has_nvlink(ctx: GroupContext) -> bool:
    """The group's GPUs talk over NVLink: an HGX board (NVSwitch) or cards with NVLink bridges fitted."""
    gpu = ctx.gpus[0].spec
    if gpu.is_board:
        return gpu.has_nvlink or bool(gpu.nvswitch_count)
    return bool(gpu.bridge_sizes) and bool(ctx.bridges)


def _nvlink_bandwidth(gpu_groups: list[GroupContext], params_billion: float) -> list[Finding]:
    out, seen = [], set()
    for ctx in gpu_groups:
        gpu = ctx.gpus[0].spec
        if gpu.part_number in seen:
            continue
        seen.add(gpu.part_number)
        bw = gpu.nvlink_gbps if gpu.has_nvlink or gpu.bridge_sizes else None
        if bw is not None and bw >= NVLINK_ADVISED_GBPS:
            continue
        out.append(
            finding(
                Code.WORKLOAD_NVLINK_BANDWIDTH,
                ctx.gpus[0].path,
                nvlink_gbps=bw,
                gpu=gpu.part_number,
                model_parameters_billion=params_billion,
            )
        )
    return out


# The NICs Spectrum-X configures for lossless RoCE (NV-NETOP-SPCX: "Spectrum-X configuration applies to ConnectX-7
# NIC, ConnectX-8 SuperNIC, ConnectX-9 SuperNIC, and BlueField-3 SuperNIC; Hardware Plane Load Balancing (hwplb)
# additionally requires ConnectX-8 SuperNIC or ConnectX-9 SuperNIC"), by the catalogue's adapter family.
SPECTRUM_X_NIC_FAMILIES = ("ConnectX-7", "ConnectX-8 SuperNIC", "ConnectX-9 SuperNIC", "BlueField-3 SuperNIC")
PLANE_BALANCING_NIC_FAMILIES = ("ConnectX-8 SuperNIC", "ConnectX-9 SuperNIC")


def fabric_advice(
    design: DesignIn, contexts: list[GroupContext], catalog: CatalogView, codes: set[str]
) -> list[Finding]:
    """The distributor's fabric rules. (1) Two or more GPU nodes without a compute fabric: a fabric is advised
    (warning), or, when the design says the nodes run independent jobs (``workload.independent_jobs``), not needed
    (info). Not said when the workload's own sizing already requires one (WORKLOAD_NEEDS_FABRIC, in ``codes``).
    (2) An inference model that fits one GPU, or independent jobs, on an NVLink (HGX) board: NVLink adds little and
    PCIe GPUs are often the cheaper choice (info). (3) A fabric on an Ethernet (Spectrum) switch carries RoCE: a
    note on what RoCE needs (lossless PFC and ECN) and which NICs Spectrum-X configures, naming the design's compute
    NICs outside that list.
    Sources: NCS seeds; NV-CL-ROCE, NV-NETOP-SPCX (catalog/seed/README.md)."""
    out: list[Finding] = []
    gpu_nodes = sum(c.group.count for c in contexts if c.gpus_per_node)
    if design.fabric is None and gpu_nodes >= 2 and Code.WORKLOAD_NEEDS_FABRIC not in codes:
        independent = design.workload is not None and design.workload.independent_jobs
        nics = sum(c.group.count * c.compute_nics_per_node for c in contexts if c.gpus_per_node)
        code = Code.FABRIC_OPTIONAL_INDEPENDENT_JOBS if independent else Code.FABRIC_ADVISED
        out.append(finding(code, "fabric", nodes=gpu_nodes, compute_nics=nics))
    out += _nvlink_not_needed(design, contexts, codes)
    switch = catalog.get(design.fabric.switch) if design.fabric is not None else None
    if isinstance(switch, SwitchSpec) and switch.protocol == Protocol.ETHERNET and not switch.management:
        adapters = {p.spec.part_number: p.spec.family for c in contexts for p in c.compute_adapters}
        outside = sorted(pn for pn, family in adapters.items() if family not in SPECTRUM_X_NIC_FAMILIES)
        out.append(
            finding(
                Code.ROCE_LOSSLESS,
                "fabric.switch",
                switch=switch.part_number,
                generation=switch.generation,
                not_spectrum_x=outside,
                plane_balancing=any(f in PLANE_BALANCING_NIC_FAMILIES for f in adapters.values()),
            )
        )
    return out


def _nvlink_not_needed(design: DesignIn, contexts: list[GroupContext], codes: set[str]) -> list[Finding]:
    """NVLink boards where the workload exchanges little between GPUs: inference of a model that fits one GPU (no
    WORKLOAD_TENSOR_PARALLEL in ``codes``), or jobs the design says run independently."""
    wl = design.workload
    if wl is None:
        return []
    small_inference = wl.kind == "inference" and Code.WORKLOAD_TENSOR_PARALLEL not in codes
    if not (small_inference or wl.independent_jobs):
        return []
    boards = sorted({p.spec.part_number for c in contexts for p in c.gpus if p.spec.is_board and _has_nvlink(c)})
    if not boards:
        return []
    return [finding(Code.NVLINK_NOT_NEEDED, "workload", boards=boards, inference=small_inference)]
