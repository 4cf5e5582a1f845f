"""Messages of the GPU-NIC ratio and workload sizing findings."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from configurator.rules.catalogue import Code as C

from .base import num, renders


@renders(C.NIC_MISSING)
def _nic_missing(p: dict[str, Any]) -> tuple[str, str]:
    return (
        _(
            "The design has a compute fabric, but the %(gpus)s-GPU nodes of group '%(group)s' have no compute NIC to "
            "connect to it."
        )
        % p,
        _("Add %(gpus)s compute NICs per node, one per GPU.") % p,
    )


@renders(C.NIC_FEWER_THAN_GPUS)
def _fewer_nics(p: dict[str, Any]) -> tuple[str, str]:
    values = {**p, "share": num(p["gpus"] / p["nics"], 1)}
    cost = ""
    if p["nic_gbps"]:
        cost = _("; each GPU gets about %(per_gpu)s Gb/s to other nodes instead of %(speed)s Gb/s") % {
            "per_gpu": num(p["nic_gbps"] * p["nics"] / p["gpus"]),
            "speed": num(p["nic_gbps"]),
        }
    values["cost"] = cost
    return (
        ngettext(
            "Each node has %(gpus)s GPUs but %(nics)s compute NIC: every NIC is shared by %(share)s GPUs%(cost)s. "
            "Gradient all-reduce between nodes slows down accordingly.",
            "Each node has %(gpus)s GPUs but %(nics)s compute NICs: every NIC is shared by %(share)s GPUs%(cost)s. "
            "Gradient all-reduce between nodes slows down accordingly.",
            p["nics"],
        )
        % values,
        _("Use %(gpus)s compute NICs per node, one per GPU, each on its own rail.") % p,
    )


@renders(C.NIC_NOT_NEEDED)
def _not_needed(p: dict[str, Any]) -> tuple[str, str]:
    n = p["nics"]
    if p.get("saving_eur") is not None:
        save = ngettext(
            " Removing it saves about EUR %(saving)s (list price).",
            " Removing them saves about EUR %(saving)s (list price).",
            n,
        ) % {"saving": num(p["saving_eur"])}
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


@renders(C.WORKLOAD_NOT_SIZED)
def _not_sized(p: dict[str, Any]) -> tuple[str, str]:
    return (
        _("The design has no GPU with known memory, so we cannot size the workload against it."),
        _("Add GPUs to the node groups."),
    )


def _basis(p: dict[str, Any]) -> str:
    """What the model needs and what one GPU offers, the reasoning behind a sizing finding."""
    values = {
        "params": num(p["model_parameters_billion"], 1),
        "need": num(p["need_gb"]),
        "bpp": num(p["bytes_per_param"], 1),
        "usable": num(p["usable_gb"], 1),
        "memory": num(p["gpu_memory_gb"], 1),
    }
    if p["kind"] == "training":
        return (
            _(
                "training of a %(params)sB-parameter model needs about %(need)s GB (%(bpp)s bytes per parameter); one "
                "GPU offers %(usable)s GB usable (90%% of %(memory)s GB)"
            )
            % values
        )
    return (
        _(
            "inference of a %(params)sB-parameter model needs about %(need)s GB (%(bpp)s bytes per parameter); one GPU "
            "offers %(usable)s GB usable (90%% of %(memory)s GB)"
        )
        % values
    )


@renders(C.WORKLOAD_TENSOR_PARALLEL)
def _tensor_parallel(p: dict[str, Any]) -> tuple[str, str]:
    return (
        _(
            "The model does not fit one GPU: %(basis)s. It needs at least %(min_gpus)s GPUs with tensor parallelism "
            "inside the NVLink domain."
        )
        % {**p, "basis": _basis(p)},
        _("Keep the tensor-parallel group inside one node, where NVLink carries it."),
    )


@renders(C.WORKLOAD_SPANS_NODES)
def _spans_nodes(p: dict[str, Any]) -> tuple[str, str]:
    return (
        _(
            "The model does not fit one node of %(per_node)s GPUs: it needs at least %(min_gpus)s GPUs, so at least "
            "%(min_nodes)s nodes, and the job spans nodes over the compute fabric."
        )
        % p,
        _("Plan pipeline or data parallelism between nodes and tensor parallelism within them."),
    )


@renders(C.WORKLOAD_NOT_ENOUGH_GPUS)
def _not_enough_gpus(p: dict[str, Any]) -> tuple[str, str]:
    return (
        ngettext(
            "Not enough GPU memory: %(basis)s, so at least %(min_gpus)s GPUs (%(min_nodes)s nodes of %(per_node)s); "
            "the design has %(total_gpus)s in %(gpu_nodes)s node.",
            "Not enough GPU memory: %(basis)s, so at least %(min_gpus)s GPUs (%(min_nodes)s nodes of %(per_node)s); "
            "the design has %(total_gpus)s in %(gpu_nodes)s nodes.",
            p["gpu_nodes"],
        )
        % {**p, "basis": _basis(p)},
        _("Raise the node count to at least %(min_nodes)s, or choose GPUs with more memory.") % p,
    )


@renders(C.WORKLOAD_NEEDS_FABRIC)
def _needs_fabric(p: dict[str, Any]) -> tuple[str, str]:
    return (
        _(
            "The model needs at least %(min_nodes)s nodes, so the job spans nodes, but the design has no compute "
            "fabric. Without one the %(nodes)s nodes cannot train it together."
        )
        % p,
        _("Add a compute fabric (for example NDR InfiniBand, rail-optimized) with one NIC per GPU."),
    )


@renders(C.WORKLOAD_NVLINK_BANDWIDTH)
def _nvlink_bandwidth(p: dict[str, Any]) -> tuple[str, str]:
    values = {"params": num(p["model_parameters_billion"], 1), "gpu": p["gpu"]}
    if p["nvlink_gbps"] is None:
        message = _(
            "Training a %(params)sB-parameter model needs tensor parallelism over 8 GPUs, and %(gpu)s has no NVLink, "
            "so tensor parallelism runs over PCIe. It works, but communication becomes the bottleneck sooner; "
            "H100-class NVLink at 900 GB/s (+50%% over A100's 600 GB/s) or better is the sensible minimum."
        )
    else:
        values["bw"] = num(p["nvlink_gbps"])
        message = _(
            "Training a %(params)sB-parameter model needs tensor parallelism over 8 GPUs, and %(gpu)s has %(bw)s "
            "GB/s NVLink per GPU. It works, but communication becomes the bottleneck sooner; H100-class NVLink at "
            "900 GB/s (+50%% over A100's 600 GB/s) or better is the sensible minimum."
        )
    return (
        message % values,
        _("Choose HGX H100, H200 or B200 for this model size."),
    )
