"""Messages of the GPU-NIC ratio and workload sizing findings."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from engines.findings.params.workload import (
    FabricAdvised,
    FabricNotNeededReplicas,
    FabricOptionalIndependentJobs,
    NicFewerThanGpus,
    NicMissing,
    NicNotNeeded,
    NvlinkNotNeeded,
    RoceLossless,
    SizingParams,
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

from .base import day_count, duration, duration_range, figure, known, num, pct, per_parameter, renders, tokens


@renders(NicMissing)
def _nic_missing(p: NicMissing) -> tuple[str, str]:
    return (
        _(
            "The design has a compute fabric, but the %(gpus)s-GPU nodes of group '%(group)s' have no compute NIC to "
            "connect to it."
        )
        % p.as_dict(),
        _("Add %(gpus)s compute NICs per node, one per GPU.") % p.as_dict(),
    )


@renders(NicFewerThanGpus)
def _fewer_nics(p: NicFewerThanGpus) -> tuple[str, str]:
    values = {**p.as_dict(), "share": num(p.gpus / p.nics, 1)}
    cost = ""
    if p.nic_gbps:
        cost = _("; each GPU gets about %(per_gpu)s Gb/s to other nodes instead of %(speed)s Gb/s") % {
            "per_gpu": num(p.nic_gbps * p.nics / p.gpus),
            "speed": num(p.nic_gbps),
        }
    values["cost"] = cost
    return (
        ngettext(
            "Each node has %(gpus)s GPUs but %(nics)s compute NIC: every NIC is shared by %(share)s GPUs%(cost)s. "
            "Gradient all-reduce between nodes slows down accordingly.",
            "Each node has %(gpus)s GPUs but %(nics)s compute NICs: every NIC is shared by %(share)s GPUs%(cost)s. "
            "Gradient all-reduce between nodes slows down accordingly.",
            p.nics,
        )
        % values,
        _("Use %(gpus)s compute NICs per node, one per GPU, each on its own rail.") % p.as_dict(),
    )


@renders(NicNotNeeded)
def _not_needed(p: NicNotNeeded) -> tuple[str, str]:
    n = p.nics
    if p.saving_eur is not None:
        save = ngettext(
            " Removing it saves about EUR %(saving)s (list price).",
            " Removing them saves about EUR %(saving)s (list price).",
            n,
        ) % {"saving": num(p.saving_eur)}
    else:
        save = ngettext(" Removing it saves money.", " Removing them saves money.", n)
    return (
        ngettext(
            "This is a single node without a compute fabric, so the %(nics)s compute NIC carries no GPU traffic: "
            "NVLink does that inside the node.%(save)s",
            "This is a single node without a compute fabric, so the %(nics)s compute NICs carry no GPU traffic: "
            "NVLink does that inside the node.%(save)s",
            n,
        )
        % {"nics": n, "save": save},
        ngettext(
            "Remove the compute NIC, or keep it if you plan to add nodes and a fabric later.",
            "Remove the compute NICs, or keep them if you plan to add nodes and a fabric later.",
            n,
        ),
    )


@renders(WorkloadNotSized)
def _not_sized(p: WorkloadNotSized) -> tuple[str, str]:
    return (
        _("The design has no GPU with known memory, so we cannot size the workload against it."),
        _("Add GPUs to the node groups."),
    )


MODE_WORDS = {
    "pretraining": gettext_noop("pre-training"),
    "full-finetune": gettext_noop("full fine-tuning"),
    "lora": gettext_noop("LoRA fine-tuning"),
    "inference": gettext_noop("inference"),
}


def _basis(p: SizingParams) -> str:
    """What the model needs and what one GPU offers, the reasoning behind a sizing finding."""
    values = {
        "mode": _(MODE_WORDS.get(p.mode or "", p.kind)),
        "precision": (p.precision or "bf16").upper(),
        "params": num(p.model_parameters_billion, 1),
        "need": num(p.need_gb),
        "bpp": per_parameter(p.bytes_per_param),
        "usable": num(p.usable_gb, 1),
        "memory": num(p.gpu_memory_gb, 1),
    }
    text = _("%(mode)s of a %(params)sB-parameter model in %(precision)s needs about %(need)s GB (%(bpp)s") % values
    if p.kv_cache_gb:
        text += _(
            " plus a %(kv)s GB KV cache for %(sequences)s of %(context)s tokens, with the layers and KV heads of "
            "%(kv_model)s"
        ) % {
            "kv": num(p.kv_cache_gb, 1),
            "sequences": ngettext("%(n)s sequence", "%(n)s sequences", known(p.concurrency))
            % {"n": num(known(p.concurrency))},
            "context": num(known(p.context_tokens)),
            "kv_model": p.kv_model,
        }
    return text + (_("); one GPU offers %(usable)s GB usable (90%% of %(memory)s GB)") % values)


@renders(WorkloadTensorParallel)
def _tensor_parallel(p: WorkloadTensorParallel) -> tuple[str, str]:
    values = {**p.as_dict(), "basis": _basis(p)}
    text = _("The model does not fit one GPU: %(basis)s.") % values
    if not p.planned:
        return (
            text + " " + _("It needs at least %(min_gpus)s GPUs.") % p.as_dict(),
            _("Add GPUs, choose GPUs with more memory, or a lower precision."),
        )
    return text + " " + _plan_sentence(p), _plan_fix(p)


def _plan_sentence(p: SizingParams) -> str:
    """The parallelism plan in words; every degree named is the plan's."""
    parts = []
    if known(p.tp) > 1:
        parts.append(_("tensor parallelism over %(tp)s GPUs inside one NVLink domain of %(domain)s") % p.as_dict())
    if known(p.pp) > 1:
        if p.domain <= 1:
            parts.append(_("%(pp)s pipeline stages over PCIe (these GPUs have no NVLink)") % p.as_dict())
        else:
            parts.append(_("%(pp)s pipeline stages across NVLink domains") % p.as_dict())
    if known(p.dp) > 1:
        if p.kind == "inference":
            parts.append(_("%(dp)s independent replicas") % p.as_dict())
        elif p.zero3:
            parts.append(
                _("data parallelism over %(dp)s with every training state sharded (ZeRO-3 or FSDP)") % p.as_dict()
            )
        else:
            parts.append(_("data parallelism over %(dp)s with the optimizer state sharded (ZeRO-1)") % p.as_dict())
    if not parts:
        parts.append(_("one GPU"))
    return _("Plan for %(gpus)s GPUs: %(plan)s.") % {"gpus": num(known(p.gpus_used)), "plan": "; ".join(parts)}


def _plan_fix(p: SizingParams) -> str:
    if known(p.domain) <= 1 and known(p.pp) > 1:
        return _(
            "Expect lower throughput: the pipeline stages exchange activations over PCIe. A lower precision so fewer "
            "cards hold the model, or GPUs with NVLink (HGX), avoid it."
        )
    return _("No action needed: this is how the model is split over the design's GPUs.")


@renders(WorkloadSpansNodes)
def _spans_nodes(p: WorkloadSpansNodes) -> tuple[str, str]:
    return (
        _(
            "The model does not fit one node of %(per_node)s GPUs: it needs at least %(min_gpus)s GPUs, so at least "
            "%(min_nodes)s nodes, and the job spans nodes over the compute fabric."
        )
        % p.as_dict(),
        _("Plan pipeline or data parallelism between nodes and tensor parallelism inside one NVLink domain.")
        if (p.domain or 0) > 1
        else _("Plan pipeline or data parallelism between nodes; without NVLink these GPUs use no tensor parallelism."),
    )


def _minimum(p: SizingParams) -> str:
    values = {"minimum": num(p.minimum_gb), "bpp": per_parameter(p.minimum_bytes_per_param)}
    if p.mode in ("pretraining", "full-finetune"):
        return (
            _(
                "even fully sharded (ZeRO-3 or FSDP) with activation checkpointing, the weights, gradients and Adam "
                "state alone take %(minimum)s GB (%(bpp)s)"
            )
            % values
        )
    return _("the weights alone take %(minimum)s GB (%(bpp)s)") % values


@renders(WorkloadNotEnoughGpus)
def _not_enough_gpus(p: WorkloadNotEnoughGpus) -> tuple[str, str]:
    return (
        ngettext(
            "The workload cannot run on this design: %(minimum)s, more than the %(total)s GB usable (90%%) of all "
            "%(total_gpus)s GPUs in %(gpu_nodes)s node together.",
            "The workload cannot run on this design: %(minimum)s, more than the %(total)s GB usable (90%%) of all "
            "%(total_gpus)s GPUs in %(gpu_nodes)s nodes together.",
            p.gpu_nodes,
        )
        % {**p.as_dict(), "minimum": _minimum(p), "total": num(p.total_gb)},
        _(
            "Raise the node count (advised: %(min_nodes)s nodes of %(per_node)s), choose GPUs with more memory, or a "
            "lower precision."
        )
        % p.as_dict(),
    )


@renders(WorkloadMemoryTight)
def _memory_tight(p: WorkloadMemoryTight) -> tuple[str, str]:
    if p.mode in ("pretraining", "full-finetune"):
        setup = _(
            "It can run fully sharded (ZeRO-3 or FSDP) with activation checkpointing and small micro-batches, as "
            "published setups do, with little room to spare."
        )
    else:
        setup = _("The weights fit, but less memory is left for the KV cache and activations than advised.")
    return (
        _(
            "%(basis)s, so %(min_gpus)s GPUs are advised; the design has %(total_gpus)s (%(total)s GB usable in all). "
            "%(setup)s"
        )
        % {**p.as_dict(), "basis": _capital(_basis(p)), "total": num(p.total_gb), "setup": setup},
        _(
            "Acceptable for a planned setup; for headroom use %(min_nodes)s nodes of %(per_node)s, or a shorter "
            "context or fewer concurrent sequences for inference."
        )
        % p.as_dict(),
    )


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


@renders(WorkloadNeedsFabric)
def _needs_fabric(p: WorkloadNeedsFabric) -> tuple[str, str]:
    return (
        _(
            "The model needs at least %(min_nodes)s nodes, so the job spans nodes, but the design has no compute "
            "fabric. Without one the %(nodes)s nodes cannot train it together."
        )
        % p.as_dict(),
        _("Add a compute fabric (for example NDR InfiniBand, rail-optimized) with one NIC per GPU."),
    )


@renders(WorkloadNvlinkBandwidth)
def _nvlink_bandwidth(p: WorkloadNvlinkBandwidth) -> tuple[str, str]:
    values = {"params": num(p.model_parameters_billion, 1), "gpu": p.gpu, "tp": p.tp}
    if p.tp and p.tp > 1:
        split = _("Training a %(params)sB-parameter model uses tensor parallelism over %(tp)s GPUs.") % values
    else:
        split = _("Training a %(params)sB-parameter model exchanges gradients and activations between GPUs.") % values
    if p.nvlink_gbps is None:
        detail = _("%(gpu)s has no NVLink, so that traffic runs over PCIe.") % values
    else:
        values["bw"] = num(p.nvlink_gbps)
        detail = _("%(gpu)s has %(bw)s GB/s NVLink per GPU.") % values
    return (
        split
        + " "
        + detail
        + " "
        + _(
            "It works, but communication becomes the bottleneck sooner; H100-class NVLink at 900 GB/s (+50%% over "
            "A100's 600 GB/s) or better is the sensible minimum."
        )
        % {},
        _("Choose an 8-GPU board with NVLink at 900 GB/s per GPU or more for this model size."),
    )


@renders(WorkloadActivationCheckpointing)
def _activation_checkpointing(p: WorkloadActivationCheckpointing) -> tuple[str, str]:
    values = {
        "states": num(p.states_gb, 1),
        "act": num(p.activations_gb, 1),
        "usable": num(p.usable_gb, 1),
        "plan": _plan_sentence(p),
    }
    return (
        _(
            "Every GPU holds %(states)s GB of training state and, with every activation kept, %(act)s GB of "
            "activations (8,192-token sequences): more than its %(usable)s GB usable. The run fits only with full "
            "activation checkpointing, which recomputes the forward pass: about a third more compute. %(plan)s"
        )
        % values,
        _("Add nodes so the states and activations spread over more GPUs, or accept the slower run."),
    )


@renders(WorkloadTrainingTime)
def _training_time(p: WorkloadTrainingTime) -> tuple[str, str]:
    values = {
        "tokens": tokens(p.tokens_billion),
        "gpus": num(p.gpus),
        "gpu": p.gpu,
        "time": duration(p.days),
        "range": duration_range(p.days, p.days_low, p.days_high),
        "hours": figure(float(f"{p.gpu_hours:.3g}")),
        "peak": num(p.peak_tflops, 1),
        "precision": str(p.peak_precision or "bf16").upper(),
        "mfu": num(p.mfu * 100),
        "mfu_low": num(p.mfu_low * 100),
        "mfu_high": num(p.mfu_high * 100),
    }
    text = (
        _(
            "Training on %(tokens)s takes about %(time)s on %(gpus)s GPUs (%(range)s), %(hours)s GPU-hours: an "
            "estimate at "
            "%(peak)s TFLOPS dense %(precision)s per %(gpu)s GPU and %(mfu)s%% model-FLOPs utilisation "
            "(%(mfu_low)s to %(mfu_high)s%% in published runs)."
        )
        % values
    )
    if p.precision == "fp8" and p.peak_precision != "fp8":
        text += " " + _("This GPU has no FP8 tensor-core peak, so the FP8 run is estimated at its BF16 peak.")
    if p.checkpointing:
        text += " " + _("It counts a third more compute for activation checkpointing.")
    return text, _("Compare it with the time the run may take; give the days it may take to have it checked.")


@renders(WorkloadTimeNotEstimated)
def _time_not_estimated(p: WorkloadTimeNotEstimated) -> tuple[str, str]:
    if p.reason == "peak":
        return (
            _("The time to train is not estimated: no sourced peak dense throughput is known for %(gpu)s.")
            % p.as_dict(),
            _("Ask us for the GPU's figure, or choose a GPU whose figure is known."),
        )
    if p.target_days is not None:
        text = _("The time to train cannot be checked against the %(days)s wanted: the tokens are not given.") % {
            "days": day_count(p.target_days)
        }
    else:
        text = _("How long this training takes is not estimated: the tokens it trains on are not given.")
    return text, _("Give the number of tokens the run trains on to estimate the time to train.")


@renders(WorkloadDeadlineMissed)
def _deadline_missed(p: WorkloadDeadlineMissed) -> tuple[str, str]:
    values = {
        "days": day_count(p.days),
        "target": day_count(known(p.target_days)),
        "gpus": num(p.gpus),
        "needed": num(p.gpus_needed),
        "nodes": num(p.nodes_needed),
        "per_node": num(p.per_node),
    }
    return (
        _(
            "The estimate of %(days)s on %(gpus)s GPUs exceeds the %(target)s wanted. About %(needed)s GPUs "
            "(%(nodes)s nodes of %(per_node)s) would meet it at the same estimate."
        )
        % values,
        _("Raise the node count to %(nodes)s, train on fewer tokens, or allow more days.") % values,
    )


@renders(WorkloadReplicas)
def _replicas(p: WorkloadReplicas) -> tuple[str, str]:
    if p.derived:
        return _plan_sentence(p) + " " + _derived_estimate(p), _(
            "Treat the derived figure as a first size; confirm it with a benchmark of this model on this GPU."
        )
    if not p.estimated:
        text = _plan_sentence(p) + " "
        if p.reason == "context":
            text += _(
                "How many tokens per second they serve for %(concurrency)s concurrent sequences is not estimated: the "
                "sourced benchmark for this GPU and precision covers requests of up to %(point)s tokens, shorter than "
                "the %(context)s tokens per sequence here, so the throughput stays unknown."
            ) % {
                "concurrency": num(p.concurrency or 0),
                "point": num(p.point_context or 0),
                "context": num(p.context_tokens or 0),
            }
        else:
            text += _(
                "How many tokens per second they serve for %(concurrency)s concurrent sequences is not estimated: "
                "there is no sourced tokens-per-second figure for this model size on this GPU and precision, so the "
                "throughput stays unknown."
            ) % {"concurrency": num(p.concurrency or 0)}
        return text, _("Size the replicas for the throughput with a benchmark of this model on this GPU.")
    return (
        _serving_estimate(p),
        _("No action needed: compare the estimate with the throughput the service must reach."),
    )


def _gpus(n: int) -> str:
    return ngettext("%(n)s GPU", "%(n)s GPUs", n) % {"n": num(n)}


def _derived_estimate(p: WorkloadReplicas) -> str:
    """The derived replicas and tokens/s sentence: no measured benchmark matches, so the rule's figures, said to be
    derived, with the rule and its error against the measured points held back from its fit; where TensorRT-LLM
    measured this model on this GPU at maximum load, that figure too."""
    replicas = int(known(p.derived_replicas))
    text = _(
        "No measured serving benchmark matches this model size, GPU, precision and context. Derived by rule instead "
        "(decode bound by memory bandwidth, prefill by compute; %(error)s median error against measured points held "
        "back): %(replicas)s of %(tp)s, %(gpus)s in all, for the %(concurrency)s concurrent sequences at about "
        "%(tps)s output tokens per second."
    ) % {
        "error": pct(known(p.derived_error)),
        "replicas": ngettext("%(n)s replica", "%(n)s replicas", replicas) % {"n": num(replicas)},
        "tp": _gpus(int(known(p.derived_tp))),
        "gpus": _gpus(int(known(p.derived_gpus))),
        "concurrency": num(known(p.concurrency)),
        "tps": num(float(f"{known(p.derived_tps):.2g}")),
    }
    if p.measured_tps:
        text += " " + _(
            "For comparison, TensorRT-LLM measured %(measured)s output tokens per second on one replica of %(gpus)s at "
            "maximum load, for requests of %(input)s input and %(output)s output tokens (%(model)s)."
        ) % {
            "measured": num(p.measured_tps),
            "gpus": _gpus(int(known(p.measured_gpus))),
            "input": num(known(p.measured_input)),
            "output": num(known(p.measured_output)),
            "model": p.measured_model,
        }
    return text


def _serving_values(p: WorkloadReplicas | WorkloadReplicasShort) -> dict[str, str]:
    return {
        "concurrency": num(known(p.concurrency)),
        "replicas": num(known(p.replicas_needed)),
        "gpus": num(known(p.gpus_needed)),
        "tp": num(known(p.point_gpus)),
        "gpu": known(p.point_gpu),
        "precision": known(p.point_precision).upper(),
        "model": known(p.model),
        "per_replica": num(known(p.per_replica)),
        "ttft": num(known(p.ttft_ms) / 1000, 2),
        "tps": num(round(known(p.tokens_per_second), -1)),
        "input": num(known(p.input_tokens)),
        "output": num(known(p.output_tokens)),
    }


def _serving_estimate(p: WorkloadReplicas | WorkloadReplicasShort) -> str:
    return ngettext(
        "Throughput estimate for %(concurrency)s concurrent requests: %(replicas)s replica of %(tp)s GPUs as "
        "benchmarked (%(gpus)s GPUs), delivering about %(tps)s tokens per second. NVIDIA measured %(model)s in "
        "%(precision)s on %(tp)s x %(gpu)s (tensor parallel %(tp)s) serving up to %(per_replica)s requests of "
        "%(input)s input and %(output)s output tokens per replica with a time to first token of %(ttft)s s; "
        "beyond that the first token waits seconds (NIM benchmarking, Performance).",
        "Throughput estimate for %(concurrency)s concurrent requests: %(replicas)s replicas of %(tp)s GPUs as "
        "benchmarked (%(gpus)s GPUs), delivering about %(tps)s tokens per second. NVIDIA measured %(model)s in "
        "%(precision)s on %(tp)s x %(gpu)s (tensor parallel %(tp)s) serving up to %(per_replica)s requests of "
        "%(input)s input and %(output)s output tokens per replica with a time to first token of %(ttft)s s; "
        "beyond that the first token waits seconds (NIM benchmarking, Performance).",
        known(p.replicas_needed),
    ) % _serving_values(p)


@renders(WorkloadReplicasShort)
def _replicas_short(p: WorkloadReplicasShort) -> tuple[str, str]:
    values = {
        **_serving_values(p),
        "total": num(p.total_gpus),
        "held": num(p.design_replicas),
        "nodes": num(p.nodes_needed),
        "per_node": num(p.per_node),
    }
    return (
        ngettext(
            "The design's %(total)s GPUs hold %(held)s replica of %(tp)s GPUs, but %(concurrency)s concurrent requests "
            "need %(replicas)s to keep the time to first token under a second (an estimate: up to %(per_replica)s "
            "requests per replica). About %(gpus)s GPUs (%(nodes)s nodes of %(per_node)s) would serve them.",
            "The design's %(total)s GPUs hold %(held)s replicas of %(tp)s GPUs, but %(concurrency)s concurrent "
            "requests need %(replicas)s to keep the time to first token under a second (an estimate: up to "
            "%(per_replica)s requests per replica). About %(gpus)s GPUs (%(nodes)s nodes of %(per_node)s) would serve "
            "them.",
            p.design_replicas,
        )
        % values,
        _("Raise the node count to %(nodes)s, or accept a longer wait for the first token.") % values,
    )


@renders(FabricAdvised)
def _fabric_advised(p: FabricAdvised) -> tuple[str, str]:
    if p.compute_nics:
        detail = _(
            "The nodes have compute NICs, but an adapter in every server is not enough: the switches that join them "
            "are missing."
        )
    else:
        detail = _("Without one the nodes cannot work on one job together.")
    return (
        _("The design has %(nodes)s GPU nodes but no compute fabric.") % p.as_dict()
        + " "
        + _("From two GPU nodes on, a compute fabric is advised.")
        + " "
        + detail,
        _(
            "Add a compute fabric (InfiniBand, or RoCE on Spectrum Ethernet) with one NIC per GPU, or say that the "
            "nodes run independent jobs."
        ),
    )


@renders(FabricOptionalIndependentJobs)
def _fabric_optional(p: FabricOptionalIndependentJobs) -> tuple[str, str]:
    return (
        _("The %(nodes)s GPU nodes run independent jobs, so they exchange no GPU traffic and need no compute fabric.")
        % p.as_dict(),
        _("Add a compute fabric when a job has to span nodes."),
    )


@renders(FabricNotNeededReplicas)
def _fabric_not_needed_replicas(p: FabricNotNeededReplicas) -> tuple[str, str]:
    values = {"nodes": num(p.nodes), "replicas": num(p.replicas), "tp": num(p.tp)}
    return (
        ngettext(
            "The model fits one NVLink domain, so the %(nodes)s GPU nodes serve %(replicas)s independent replica of "
            "%(tp)s GPUs each inside a node; they exchange no GPU traffic and need no compute fabric.",
            "The model fits one NVLink domain, so the %(nodes)s GPU nodes serve %(replicas)s independent replicas "
            "of %(tp)s GPUs each inside a node; they exchange no GPU traffic and need no compute fabric.",
            p.replicas,
        )
        % values,
        _("Add a compute fabric only when a model has to span nodes."),
    )


@renders(RoceLossless)
def _roce_lossless(p: RoceLossless) -> tuple[str, str]:
    text = (
        _(
            "%(switch)s is an Ethernet switch, so the fabric runs RoCE. RoCE needs a lossless fabric: priority flow "
            "control (PFC) and explicit congestion notification (ECN) set for the RoCE traffic on every switch and "
            "NIC."
        )
        % p.as_dict()
        + " "
        + _(
            "Spectrum-X, NVIDIA's Ethernet for AI, tunes BlueField-3 SuperNICs, ConnectX-7 NICs and ConnectX-8 "
            "SuperNICs for it; its hardware plane load balancing needs ConnectX-8 SuperNICs."
        )
    )
    if p.not_spectrum_x:
        text += " " + _("%(parts)s is not among those NICs.") % {"parts": ", ".join(p.not_spectrum_x)}
    fix = (
        _("Choose BlueField-3 SuperNICs, ConnectX-7 or ConnectX-8 SuperNICs, and plan PFC and ECN with us.")
        if p.not_spectrum_x
        else _("Plan the lossless settings (PFC and ECN) with us before the cluster goes live.")
    )
    return text, fix


@renders(NvlinkNotNeeded)
def _nvlink_not_needed(p: NvlinkNotNeeded) -> tuple[str, str]:
    if p.inference:
        text = _("The model fits one GPU, so each GPU can serve it on its own and NVLink between them adds little.")
    else:
        text = _("The nodes run independent jobs, so NVLink between their GPUs adds little.")
    return (
        text
        + " "
        + _("%(boards)s is an NVLink board; a PCIe GPU server is often the more cost-efficient choice.")
        % {"boards": ", ".join(p.boards)},
        _("Compare with a PCIe GPU server before you decide."),
    )
