"""Design-level rules: the GPU-NIC ratio and workload sizing.

These look across node groups (node count, fabric, workload), so they run once per design after the per-group
rules. Sizing arithmetic lives in sizing.py.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any, cast

from design.model import DesignIn, WorkloadIn
from design.specs import SwitchSpec
from design.vocabulary import FULL_TRAINING_MODES, Protocol
from engines.catalog_view import CatalogView
from engines.findings.codes import Code
from engines.findings.finding import Finding
from engines.findings.params.workload import (
    FabricAdvised,
    FabricNotNeededReplicas,
    FabricOptionalIndependentJobs,
    NicFewerThanGpus,
    NicMissing,
    NicNotNeeded,
    NvlinkNotNeeded,
    ReplicaFields,
    RoceLossless,
    SizingFields,
    WorkloadActivationCheckpointing,
    WorkloadDeadlineMissed,
    WorkloadMemoryTight,
    WorkloadNeedsFabric,
    WorkloadNotEnoughGpus,
    WorkloadNotSized,
    WorkloadNvlinkBandwidth,
    WorkloadReplicas,
    WorkloadReplicasShort,
    WorkloadSpansNodes,
    WorkloadTensorParallel,
    WorkloadTimeNotEstimated,
    WorkloadTrainingTime,
)
from engines.findings.registry import finding

from .context import GroupContext
from .estimates import deadline_gpus, derived_estimate, serving_assumptions, training_assumptions
from .serving import (
    ServingPoint,
    Throughput,
    serving_point,
    size_replicas,
)
from .sizing import USABLE_MEMORY_FRACTION, Sizing, kv_model, size_workload
from .training import (
    HIDDEN,
    Plan,
    TrainingTime,
    Utilisation,
    plan_inference,
    plan_training,
    training_memory,
    training_time,
    utilisation,
)

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
                    ctx.path,
                    NicMissing(gpus=gpus, nics=0, group=ctx.group.name),
                )
            )
        elif gpus and multi_node and training and 0 < nics < gpus:
            out.append(_fewer_nics(ctx, subject, gpus, nics))
        adapters = sum(p.quantity for p in ctx.compute_adapters)
        if design.node_count == 1 and design.fabric is None and adapters:
            out.append(_not_needed(ctx, subject, adapters))
    return out


def _fewer_nics(ctx: GroupContext, subject: str, gpus: int, nics: int) -> Finding:
    return finding(subject, NicFewerThanGpus(gpus=gpus, nics=nics, nic_gbps=_nic_speed(ctx) or None))


def _not_needed(ctx: GroupContext, subject: str, adapters: int) -> Finding:
    prices = [p.spec.price_eur * p.quantity for p in ctx.compute_adapters if p.spec.price_eur is not None]
    saving = float(sum(prices)) if prices and len(prices) == len(ctx.compute_adapters) else None
    return finding(subject, NicNotNeeded(nics=adapters, saving_eur=saving))


def workload_findings(design: DesignIn, contexts: list[GroupContext]) -> tuple[list[Finding], Sizing | None]:
    """Rules: size the workload (sizing.py: mode, precision, KV cache) against the design's GPUs. Sizing is advice;
    an error only where the workload physically cannot run: all usable GPU memory (90%) below the weights alone
    (inference, LoRA) or below the fully sharded training states (16 bytes per parameter, ZeRO-3 / FSDP with
    activation checkpointing). Between that minimum and the advised memory: a warning naming the setup it needs.
    Not fitting one GPU: the parallelism plan (training.py) says how the model is split, tensor parallelism never
    beyond one NVLink domain (info). Training whose activations fit only with full checkpointing: a warning (a third
    more compute). Training with ``training_tokens_billion``: the estimated time (info), and a warning naming the
    GPUs and nodes that would meet ``target_days`` when the design cannot. Not fitting one node: the job spans nodes
    (info) and needs a compute fabric (error). 70B-class full training on NVLink of 600 GB/s or less: H100-class
    900 GB/s advised (warning). With mixed GPU groups the smallest GPU memory, the fewest GPUs per node, the smallest
    NVLink domain and the lowest peak are used (the conservative choice).
    Source: NCS seeds; sizing.py and training.py for the figures and their sources."""
    wl = design.workload
    if wl is None:
        return [], None
    gpu_groups = [c for c in contexts if c.gpus and all(g.memory_gb for g in c.gpu_specs)]
    if not gpu_groups:
        return [finding("workload", WorkloadNotSized())], None
    per_node = min(c.gpus_per_node for c in gpu_groups)
    base = _size(wl, gpu_groups, per_node)
    gpu_nodes = sum(c.group.count for c in gpu_groups)
    total_gpus = sum(c.group.count * c.gpus_per_node for c in gpu_groups)
    domain = min(nvlink_domain_gpus(c) or 1 for c in gpu_groups)
    plan = _plan(base, total_gpus, domain)
    sizing = _with_plan(base, plan, domain)
    data = _sizing_fields(wl, base, sizing, plan, per_node, all(_has_nvlink(c) for c in gpu_groups), domain)
    out: list[Finding] = []
    if not sizing.fits_one_gpu:
        out.append(finding("workload", WorkloadTensorParallel(**data)))
    if not sizing.fits_one_node:
        out.append(finding("workload", WorkloadSpansNodes(**data)))
    out.extend(_memory_findings(sizing, gpu_groups, gpu_nodes, data))
    if plan is not None and plan.checkpointing:
        out.append(finding("workload", _checkpointing(data, plan, base)))
    if not sizing.fits_one_node and design.fabric is None and gpu_nodes >= 2:
        out.append(finding("fabric", WorkloadNeedsFabric(min_nodes=sizing.min_nodes, nodes=gpu_nodes)))
    if sizing.mode in FULL_TRAINING_MODES and wl.model_parameters_billion >= SEVENTY_B_CLASS:
        out.extend(_nvlink_bandwidth(gpu_groups, wl.model_parameters_billion, data["tp"]))
    if wl.kind == "training":
        time_findings, sizing = _time(wl, sizing, plan, gpu_groups, domain, per_node)
        out.extend(time_findings)
    elif wl.concurrency:
        serving_findings, sizing = _throughput(wl, sizing, plan, gpu_groups, domain, per_node, total_gpus, data)
        out.extend(serving_findings)
    return out, sizing


def _sizing_fields(
    wl: WorkloadIn, base: Sizing, sizing: Sizing, plan: Plan | None, per_node: int, nvlink: bool, domain: int
) -> SizingFields:
    """What the sizing findings state: the workload's sizing (``base``, as its JSON rounds it), the memory the plan
    needs and leaves (``sizing``), the node shape and the parallelism plan."""
    data: SizingFields = {
        "kind": base.kind,
        "mode": base.mode,
        "precision": base.precision,
        "params_billion": base.params_billion,
        "bytes_per_param": base.bytes_per_param,
        "memory_needed_gb": round(base.memory_needed_gb, 1),
        "minimum_gb": round(base.minimum_gb, 1),
        "minimum_bytes_per_param": base.minimum_bytes_per_param,
        "kv_cache_gb": round(base.kv_cache_gb, 1),
        "kv_model": base.kv_model,
        "context_tokens": base.context_tokens,
        "concurrency": base.concurrency,
        "gpu_memory_gb": base.gpu_memory_gb,
        "usable_gb_per_gpu": round(base.usable_gb_per_gpu, 1),
        "gpus_per_node": base.gpus_per_node,
        "min_gpus": base.min_gpus,
        "min_nodes": base.min_nodes,
        "min_gpus_possible": base.min_gpus_possible,
        "fits_one_gpu": base.fits_one_gpu,
        "fits_one_node": base.fits_one_node,
        "model_parameters_billion": wl.model_parameters_billion,
        "need_gb": sizing.memory_needed_gb,
        "usable_gb": sizing.usable_gb_per_gpu,
        "per_node": per_node,
        "nvlink": nvlink,
        "domain": domain,
        "planned": False,
        "tp": None,
        "pp": None,
        "dp": None,
        "gpus_used": None,
    }
    if plan is not None:
        data["planned"] = True
        data["tp"], data["pp"], data["dp"] = plan.tensor, plan.pipeline, plan.data
        data["gpus_used"] = plan.gpus
        data["zero3"] = plan.zero3
    return data


def nvlink_domain_gpus(ctx: GroupContext) -> int | None:
    """The GPUs of the group that share one NVLink domain: what the system says (a rack-scale NVL72 system: 72),
    else an NVLink board's GPU count (8 on HGX), the largest NVLink bridge fitted on PCIe cards (2 or 4), 1 without
    NVLink; None for a group without GPUs."""
    if not ctx.gpus:
        return None
    said = getattr(ctx.server, "nvlink_domain_gpus", None) if ctx.server is not None else None
    if said:
        return int(said)
    if not _has_nvlink(ctx):
        return 1
    gpu = ctx.gpus[0].spec
    if gpu.is_board:
        return gpu.gpu_count
    return max(b.spec.ways for b in ctx.bridges)


def _plan(sizing: Sizing, gpus: int, domain: int) -> Plan | None:
    if sizing.mode in FULL_TRAINING_MODES:
        return plan_training(sizing.params_billion, gpus, domain, sizing.gpu_memory_gb)
    # LoRA and inference: the advised memory (weights with their margin, or weights and KV cache) split like weights
    weights = sizing.memory_needed_gb - sizing.kv_cache_gb
    return plan_inference(weights, sizing.kv_cache_gb, gpus, domain, sizing.gpu_memory_gb)


def _with_plan(sizing: Sizing, plan: Plan | None, domain: int) -> Sizing:
    if plan is None:
        return replace(sizing, nvlink_domain_gpus=domain)
    training = sizing.mode in FULL_TRAINING_MODES
    return replace(
        sizing,
        parallelism=plan.degrees(),
        gpus_used=plan.gpus,
        nvlink_domain_gpus=domain,
        memory_per_gpu_gb=plan.memory_gb_per_gpu,
        activations_gb_per_gpu=plan.activations_gb_per_gpu if training else None,
        activation_checkpointing=plan.checkpointing if training else None,
        sharded_states=plan.zero3 if training else None,
    )


def _checkpointing(data: SizingFields, plan: Plan, sizing: Sizing) -> WorkloadActivationCheckpointing:
    """The sizing with the memory per GPU that full activation checkpointing leaves, and what it saves."""
    _states, activations = _without_checkpointing(plan, sizing)
    checkpointed = data.copy()
    checkpointed["usable_gb"] = plan.usable_gb_per_gpu
    return WorkloadActivationCheckpointing(
        **checkpointed,
        states_gb=plan.states_gb_per_gpu,
        activations_gb=activations,
        checkpointed_gb=plan.activations_gb_per_gpu,
    )


def _without_checkpointing(plan: Plan, sizing: Sizing) -> tuple[float, float]:
    """The same plan's memory per GPU if every activation were kept (what checkpointing saves)."""
    name, layers, _kv, _hd = kv_model(sizing.params_billion)
    return training_memory(
        sizing.params_billion, layers, HIDDEN[name], plan.tensor, plan.pipeline, plan.data, plan.zero3, False
    )


def _peak(gpu_groups: list[GroupContext], precision: str) -> tuple[Utilisation | None, str]:
    """The peak and MFU the time estimate uses (training.utilisation: FP8 peak for FP8 work where sourced, the A100's
    own MFU), for the design's slowest GPU (lowest peak x MFU), and that GPU's part number; None when a GPU's peak is
    not sourced."""
    found: list[tuple[Utilisation, str]] = []
    for c in gpu_groups:
        spec = c.gpus[0].spec
        util = utilisation(precision, spec.generation, spec.bf16_dense_tflops, spec.fp8_dense_tflops)
        if util is None:
            return None, spec.part_number
        found.append((util, spec.part_number))
    return min(found, key=lambda f: (f[0].peak_tflops * f[0].mfu, f[1]))


def _time(
    wl: WorkloadIn, sizing: Sizing, plan: Plan | None, gpu_groups: list[GroupContext], domain: int, per_node: int
) -> tuple[list[Finding], Sizing]:
    """Time to train (training.py): an info with the estimate, a warning when ``target_days`` is not met, or an info
    saying what the estimate needs (the tokens, or a sourced peak for the GPU)."""
    tokens = wl.training_tokens_billion
    if tokens is None:
        if wl.target_days is not None or sizing.mode == "pretraining":
            return [finding("workload", WorkloadTimeNotEstimated(reason="tokens", target_days=wl.target_days))], sizing
        return [], sizing
    if plan is None:
        return [], sizing  # the memory rules already say the design cannot hold it
    util, gpu = _peak(gpu_groups, sizing.precision)
    if util is None:
        return [finding("workload.training_tokens_billion", WorkloadTimeNotEstimated(reason="peak", gpu=gpu))], sizing
    est = training_time(
        tokens_billion=tokens,
        params_billion=sizing.params_billion,
        mode=sizing.mode,
        gpus=plan.gpus,
        peak_tflops=util.peak_tflops,
        peak_precision=util.precision,
        checkpointing=plan.checkpointing,
        mfu=util.mfu,
        mfu_range=util.mfu_range,
    )
    sizing, params = _with_time(sizing, est, plan, gpu, util, tokens, wl.target_days)
    out = [finding("workload.training_tokens_billion", WorkloadTrainingTime(**params))]
    if wl.target_days is None:
        return out, sizing
    needed = deadline_gpus(
        sizing, plan, lambda gpus: _plan(sizing, gpus, domain), per_node, util, tokens, wl.target_days, est.gpu_hours
    )
    sizing = replace(sizing, deadline_gpus=needed, deadline_nodes=needed // per_node)
    if est.days > wl.target_days:
        out.append(
            finding(
                "workload.target_days",
                WorkloadDeadlineMissed(
                    **params, gpus_needed=needed, nodes_needed=needed // per_node, per_node=per_node
                ),
            )
        )
    return out, sizing


def _with_time(
    sizing: Sizing,
    est: TrainingTime,
    plan: Plan,
    gpu: str,
    util: Utilisation,
    tokens: float,
    target_days: float | None,
) -> tuple[Sizing, dict[str, Any]]:
    """The sizing with the time estimate, and the parameters of the findings that say it."""
    sizing = replace(
        sizing,
        training_days=est.days,
        gpu_hours=est.gpu_hours,
        training_days_range=est.days_range,
        gpu_hours_range=est.gpu_hours_range,
        training_hours=est.hours,
        training_hours_range=est.hours_range,
        assumptions=training_assumptions(est, gpu, sizing.precision, util),
    )
    return sizing, {
        "tokens_billion": tokens,
        "days": est.days,
        "days_low": est.days_range[0],
        "days_high": est.days_range[1],
        "hours": est.hours,
        "hours_low": est.hours_range[0],
        "hours_high": est.hours_range[1],
        "gpu_hours": est.gpu_hours,
        "gpus": plan.gpus,
        "gpu": gpu,
        "peak_tflops": util.peak_tflops,
        "peak_precision": util.precision,
        "precision": sizing.precision,
        "mfu": util.mfu,
        "mfu_low": util.mfu_range[0],
        "mfu_high": util.mfu_range[1],
        "checkpointing": plan.checkpointing,
        "target_days": target_days,
    }


def _throughput(
    wl: WorkloadIn,
    sizing: Sizing,
    plan: Plan | None,
    gpu_groups: list[GroupContext],
    domain: int,
    per_node: int,
    total_gpus: int,
    data: SizingFields,
) -> tuple[list[Finding], Sizing]:
    """Inference with a concurrency: the replicas it needs and their tokens/s from a sourced serving benchmark
    (serving.py) when the design matches one exactly (an info, and a warning naming the GPUs and nodes that would
    serve it when the design has fewer), else the plan with the throughput left unknown (an info). The estimate
    counts replicas of the benchmark's own shape (its GPUs and tensor degree), whatever the memory plan."""
    concurrency = cast(int, wl.concurrency)
    parts = {c.gpus[0].spec.part_number for c in gpu_groups}
    # the context the memory sizing assumed (the workload's, else the default): the benchmark must cover it
    point = serving_point(parts, sizing.precision, wl.model_parameters_billion, domain, sizing.context_tokens)
    if point is None:
        if plan is None:
            return [], sizing  # the memory rules already say the design cannot hold it
        shape = serving_point(parts, sizing.precision, wl.model_parameters_billion, domain, None)
        longer = {"reason": "context", "point_context": shape.context_tokens} if shape else {"reason": "no_point"}
        derived, sizing = derived_estimate(sizing, plan, gpu_groups, concurrency, domain)
        return [finding("workload", WorkloadReplicas(**data, estimated=False, **longer, **derived))], sizing
    est = size_replicas(point, concurrency, total_gpus)
    sizing = replace(
        sizing,
        replicas_needed=est.replicas,
        gpus_needed=est.gpus,
        tokens_per_second=est.tokens_per_second,
        assumptions=serving_assumptions(est),
    )
    replica = _replica_params(point, est, total_gpus)
    out = [finding("workload", WorkloadReplicas(**data, **replica))]
    if est.design_replicas < est.replicas:
        nodes = math.ceil(est.gpus / per_node)
        out.append(
            finding(
                "workload.concurrency",
                WorkloadReplicasShort(**data, **replica, nodes_needed=nodes),
            )
        )
    return out, sizing


def _replica_params(point: ServingPoint, est: Throughput, total_gpus: int) -> ReplicaFields:
    """The parameters of the findings that say a replica estimate from a measured point."""
    return {
        "estimated": True,
        "model": point.model,
        "point_gpus": point.gpus_per_replica,
        "point_gpu": point.gpu_label,
        "point_precision": point.precision,
        "input_tokens": point.input_tokens,
        "output_tokens": point.output_tokens,
        "per_replica": est.per_replica,
        "ttft_ms": est.ttft_ms,
        "replicas_needed": est.replicas,
        "gpus_needed": est.gpus,
        "tokens_per_second": est.tokens_per_second,
        "design_replicas": est.design_replicas,
        "total_gpus": total_gpus,
        "source_key": "NV-NIM-PERF",
    }


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
    sizing: Sizing, gpu_groups: list[GroupContext], gpu_nodes: int, data: SizingFields
) -> list[Finding]:
    """Not enough usable GPU memory for the minimum (error), or fewer GPUs than advised (warning)."""
    total_gpus = sum(c.group.count * c.gpus_per_node for c in gpu_groups)
    total_gb = sum(c.group.count * (c.gpu_memory_gb_per_node or 0) for c in gpu_groups) * USABLE_MEMORY_FRACTION
    kind: type[WorkloadNotEnoughGpus | WorkloadMemoryTight]
    if total_gb < sizing.minimum_gb:
        kind = WorkloadNotEnoughGpus
    elif total_gpus < sizing.min_gpus:
        kind = WorkloadMemoryTight
    else:
        return []
    return [finding("node_groups", kind(total_gpus=total_gpus, gpu_nodes=gpu_nodes, total_gb=total_gb, **data))]


def _has_nvlink(ctx: GroupContext) -> bool:
    """The group's GPUs talk over NVLink: an HGX board (NVSwitch) or cards with NVLink bridges fitted."""
    gpu = ctx.gpus[0].spec
    if gpu.is_board:
        return gpu.has_nvlink or bool(gpu.nvswitch_count)
    return bool(gpu.bridge_sizes) and bool(ctx.bridges)


def _nvlink_bandwidth(gpu_groups: list[GroupContext], params_billion: float, tensor: int | None) -> list[Finding]:
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
                ctx.gpus[0].path,
                WorkloadNvlinkBandwidth(
                    nvlink_gbps=bw, gpu=gpu.part_number, model_parameters_billion=params_billion, tp=tensor
                ),
            )
        )
    return out


# The NICs Spectrum-X configures for lossless RoCE (NV-NETOP-SPCX: "Spectrum-X configuration applies to ConnectX-7
# NIC, ConnectX-8 SuperNIC, ConnectX-9 SuperNIC, and BlueField-3 SuperNIC; Hardware Plane Load Balancing (hwplb)
# additionally requires ConnectX-8 SuperNIC or ConnectX-9 SuperNIC"), by the catalogue's adapter family.
SPECTRUM_X_NIC_FAMILIES = ("ConnectX-7", "ConnectX-8 SuperNIC", "ConnectX-9 SuperNIC", "BlueField-3 SuperNIC")
PLANE_BALANCING_NIC_FAMILIES = ("ConnectX-8 SuperNIC", "ConnectX-9 SuperNIC")


def fabric_advice(
    design: DesignIn, contexts: list[GroupContext], catalog: CatalogView, codes: set[str], sizing: Sizing | None = None
) -> list[Finding]:
    """The distributor's fabric rules. (1) Two or more GPU nodes without a compute fabric: a fabric is advised
    (warning), or, when the design says the nodes run independent jobs (``workload.independent_jobs``), not needed
    (info). Not said when the workload's own sizing already requires one (WORKLOAD_NEEDS_FABRIC, in ``codes``), and
    not for inference whose model fits one NVLink domain inside a node: each node serves independent replicas that
    exchange no GPU traffic (info instead).
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
        if not independent and sizing is not None and _independent_replicas(sizing, contexts):
            par = sizing.parallelism or {}
            out.append(
                finding(
                    "fabric",
                    FabricNotNeededReplicas(
                        nodes=gpu_nodes, replicas=par["data"], tp=par["tensor"], domain=sizing.nvlink_domain_gpus
                    ),
                )
            )
        else:
            advice = FabricOptionalIndependentJobs if independent else FabricAdvised
            out.append(finding("fabric", advice(nodes=gpu_nodes, compute_nics=nics)))
    out += _nvlink_not_needed(design, contexts, codes)
    switch = catalog.get(design.fabric.switch) if design.fabric is not None else None
    if isinstance(switch, SwitchSpec) and switch.protocol == Protocol.ETHERNET and not switch.management:
        adapters = {p.spec.part_number: p.spec.family for c in contexts for p in c.compute_adapters}
        outside = sorted(pn for pn, family in adapters.items() if family not in SPECTRUM_X_NIC_FAMILIES)
        out.append(
            finding(
                "fabric.switch",
                RoceLossless(
                    switch=switch.part_number,
                    generation=switch.generation,
                    not_spectrum_x=outside,
                    plane_balancing=any(f in PLANE_BALANCING_NIC_FAMILIES for f in adapters.values()),
                ),
            )
        )
    return out


def _independent_replicas(sizing: Sizing | None, contexts: list[GroupContext]) -> bool:
    """Inference planned as replicas of one NVLink domain (no pipeline stages), each inside one node: the nodes
    exchange no GPU traffic, so no compute fabric is needed between them."""
    if sizing is None or sizing.kind != "inference" or not sizing.parallelism:
        return False
    per_node = min((c.gpus_per_node for c in contexts if c.gpus_per_node), default=0)
    return sizing.parallelism["pipeline"] == 1 and sizing.parallelism["tensor"] <= per_node


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
    return [finding("workload", NvlinkNotNeeded(boards=boards, inference=small_inference))]
