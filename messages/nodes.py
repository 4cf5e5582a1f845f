"""Messages of the node rules engine's findings (codes in engines.node.catalogue): parts, GPUs and
NVLink. PCIe, power and workload findings are in their own modules."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engines.findings.params.nodes import (
    GpuCompatibilityUnknown,
    GpuCompatibilityUnverified,
    GpuMixedModels,
    GpuNone,
    GpuNotAccepted,
    GpuTooMany,
    NvlinkBridgeCrossSocket,
    NvlinkBridgePartial,
    NvlinkBridgeSize,
    NvlinkBridgeTooMany,
    NvlinkBridgeUnsupported,
    NvlinkNoNvswitch,
    NvlinkNvswitchUnknown,
    PartDiscontinued,
    PartUnknown,
    PartWrongCategory,
)

from .base import renders


def part_kind(category: str) -> str:
    """A part category with its article, as a finding names what a part is ('a switch', 'an adapter')."""
    kinds = {
        "server": _("a server"),
        "gpu": _("a gpu"),
        "adapter": _("an adapter"),
        "switch": _("a switch"),
        "cable": _("a cable"),
        "transceiver": _("a transceiver"),
        "bridge": _("a bridge"),
        "other": _("another kind of part"),
    }
    return kinds.get(category, f"a {category}")


@renders(PartUnknown)
def _part_unknown(p: PartUnknown) -> tuple[str, str]:
    values = {"part": repr(p.part)}
    if p.field == "server":
        message = _("%(part)s is not in the catalogue, so this server is left out of every check.")
    else:
        message = _("%(part)s is not in the catalogue, so this component is left out of every check.")
    return (
        message % values,
        _("Check the part number, or ask us to add the part."),
    )


@renders(PartWrongCategory)
def _part_wrong_category(p: PartWrongCategory) -> tuple[str, str]:
    values = {"part": repr(p.part), "kind": part_kind(p.category), "where": p.belongs_in}
    belongs = p.belongs
    if p.field == "server":
        message = _("%(part)s is %(kind)s, not a server.")
    elif belongs == "server":
        message = _("%(part)s is %(kind)s, not a node component; servers are chosen on the platform step.")
    elif belongs == "switch":
        message = _("%(part)s is %(kind)s, not a node component; switches are chosen on the fabric step.")
    else:
        message = _("%(part)s is %(kind)s, not a node component; cables and optics come from the fabric plan.")
    return (
        message % values,
        _(
            "Remove it here and choose it on the step it belongs to: servers and GPUs on the platform step, "
            "adapters on the adapters step, switches on the fabric step."
        ),
    )


def lifecycle_word(lifecycle: str) -> str:
    """A retired part's lifecycle in the active language."""
    return str({"discontinued": _("discontinued"), "eol": _("end-of-life")}.get(lifecycle, lifecycle))


def replacement_sentence(replacement: str | None) -> str:
    """What replaces a retired part, or that no replacement is known."""
    if replacement:
        return _("Its replacement: %(replacement)s.") % {"replacement": replacement}
    return _("No replacement is known to us.")


@renders(PartDiscontinued)
def _part_discontinued(p: PartDiscontinued) -> tuple[str, str]:
    values = {"part": p.part, "lifecycle": lifecycle_word(p.lifecycle)}
    message = _("%(part)s is %(lifecycle)s.") % values + " " + replacement_sentence(p.replacement)
    if p.replacement:
        fix = _("Choose the replacement instead (%(replacement)s).") % p.as_dict()
    else:
        fix = _("Choose an active part instead, or ask us which one replaces it.")
    return message, fix


# --- GPUs and NVLink ---------------------------------------------------------------------------------------


@renders(GpuCompatibilityUnknown)
def _gpu_unknown(p: GpuCompatibilityUnknown) -> tuple[str, str]:
    return (
        _("We have no sourced GPU list for %(server)s, so %(gpu)s is not verified.") % p.as_dict(),
        _("Check the GPU against the Supermicro datasheet."),
    )


def _takes(p: GpuNotAccepted | GpuCompatibilityUnverified) -> dict[str, Any]:
    return {**p.as_dict(), "takes": ", ".join(p.accepts)}


@renders(GpuNotAccepted)
def _gpu_not_accepted(p: GpuNotAccepted) -> tuple[str, str]:
    values = _takes(p)
    if p.reason == "form_factor":
        message = _(
            "%(gpu)s is an HGX baseboard, which needs an HGX server; %(server)s is a PCIe GPU server with slots for "
            "GPU cards and no baseboard socket."
        )
        if p.accepts:
            fix = _("Choose an HGX server for %(gpu)s, or PCIe GPU cards for %(server)s (for example %(takes)s).")
        else:
            fix = _("Choose an HGX server for %(gpu)s, or PCIe GPU cards for %(server)s.")
        return message % values, fix % values
    message = _("%(server)s does not take %(gpu)s; it takes %(takes)s.")
    if len(p.accepts) == 1:
        fix = _("Choose %(takes)s, or a server built for %(gpu)s.")
    else:
        fix = _("Choose one of %(takes)s, or a server built for %(gpu)s.")
    return message % values, fix % values


@renders(GpuCompatibilityUnverified)
def _gpu_unverified(p: GpuCompatibilityUnverified) -> tuple[str, str]:
    values = _takes(p)
    message = _(
        "The GPU list we have for %(server)s is partial: it names %(takes)s, not %(gpu)s. %(gpu)s may well be "
        "supported, but we cannot verify it."
    )
    if len(p.accepts) == 1:
        fix = _("Verify with Supermicro that %(server)s supports %(gpu)s before quoting, or choose %(takes)s.")
    else:
        fix = _("Verify with Supermicro that %(server)s supports %(gpu)s before quoting, or choose one of %(takes)s.")
    return message % values, fix % values


@renders(GpuMixedModels)
def _gpu_mixed(p: GpuMixedModels) -> tuple[str, str]:
    return (
        _(
            "This node mixes GPU models (%(listed)s); NVLink only joins identical GPUs, so the node cannot work as "
            "one GPU domain."
        )
        % {"listed": ", ".join(p.models)},
        _("Use one GPU model per node; put other GPUs in a node group of their own."),
    )


@renders(GpuTooMany)
def _gpu_too_many(p: GpuTooMany) -> tuple[str, str]:
    if p.boards is not None:
        return (
            _("%(server)s holds one GPU baseboard; the design has %(boards)s.") % p.as_dict(),
            _("Use one baseboard per node and raise the node count instead."),
        )
    return (
        ngettext(
            "%(server)s takes up to %(max_cards)s PCIe GPU card; the design has %(cards)s.",
            "%(server)s takes up to %(max_cards)s PCIe GPU cards; the design has %(cards)s.",
            p.max_cards or 0,
        )
        % p.as_dict(),
        _("Use at most %(max_cards)s GPU cards per node and add nodes for the rest.") % p.as_dict(),
    )


@renders(GpuNone)
def _gpu_none(p: GpuNone) -> tuple[str, str]:
    takes = ", ".join(p.accepts) or _("PCIe GPU cards")
    return (
        _("%(server)s is a GPU server, but this node group lists no GPU.") % p.as_dict(),
        _("Add the GPUs (%(takes)s), or choose a server without GPU bays for this role.") % {"takes": takes},
    )


@renders(NvlinkBridgeUnsupported)
def _bridge_unsupported(p: NvlinkBridgeUnsupported) -> tuple[str, str]:
    if p.reason == "no_gpu":
        return (
            _("%(bridge)s is an NVLink bridge, but this node has no GPU to bridge.") % p.as_dict(),
            _("Remove the bridge, or add the PCIe GPUs it is meant for."),
        )
    if p.reason == "baseboard":
        return (
            _(
                "%(gpu)s is an HGX baseboard: its GPUs are joined by NVSwitch on the board, so the NVLink bridge "
                "%(bridge)s has nothing to connect."
            )
            % p.as_dict(),
            _("Remove the bridge."),
        )
    return (
        _(
            "%(gpu)s has no NVLink bridge connector, so %(bridge)s cannot be fitted; these GPUs talk to each other "
            "over PCIe only."
        )
        % p.as_dict(),
        _("Remove the bridge; for NVLink between PCIe cards choose %(cards)s.") % {"cards": ", ".join(cards)}
        if (cards := p.bridgeable)
        else _("Remove the bridge; for NVLink between PCIe cards choose cards that take an NVLink bridge."),
    )


@renders(NvlinkBridgeSize)
def _bridge_size(p: NvlinkBridgeSize) -> tuple[str, str]:
    sizes = ""
    for s in p.supported:
        one = _("%(n)s-way") % {"n": s}
        sizes = _("%(a)s or %(b)s") % {"a": sizes, "b": one} if sizes else one
    values = {**p.as_dict(), "sizes": sizes}
    return (
        _("%(bridge)s joins %(ways)s GPUs, but %(gpu)s supports %(sizes)s bridges only.") % values,
        _("Use a %(sizes)s bridge.") % values,
    )


@renders(NvlinkBridgeTooMany)
def _bridge_too_many(p: NvlinkBridgeTooMany) -> tuple[str, str]:
    return (
        ngettext(
            "%(sets)s bridge set joins %(joined)s GPUs, but the node has %(gpus)s.",
            "%(sets)s bridge sets join %(joined)s GPUs, but the node has %(gpus)s.",
            p.sets,
        )
        % p.as_dict(),
        _("Order one bridge set per group of GPUs it joins."),
    )


@renders(NvlinkBridgePartial)
def _bridge_partial(p: NvlinkBridgePartial) -> tuple[str, str]:
    return (
        _("The bridges join %(joined)s of the %(gpus)s GPUs; the other %(left)s talk over PCIe only.")
        % {**p.as_dict(), "left": p.gpus - p.joined},
        _("Add bridge sets if those GPUs work on the same job."),
    )


@renders(NvlinkNvswitchUnknown)
def _nvswitch_unknown(p: NvlinkNvswitchUnknown) -> tuple[str, str]:
    return (
        _(
            "The number of NVSwitch chips on %(gpu)s is not published in our sources; NVIDIA lists the board as "
            "NVSwitch-based, but we cannot show the count."
        )
        % p.as_dict(),
        _("No action needed; check the NVIDIA HGX documentation if the count matters."),
    )


@renders(NvlinkNoNvswitch)
def _no_nvswitch(p: NvlinkNoNvswitch) -> tuple[str, str]:
    ways = p.bridge_ways
    if ways == 2:
        message = _(
            "%(gpus)s GPUs without NVSwitch: only the bridged pairs talk at NVLink speed; all other GPU-to-GPU "
            "traffic crosses PCIe."
        )
    elif ways:
        message = _(
            "%(gpus)s GPUs without NVSwitch: only the bridged groups of %(bridge_ways)s talk at NVLink speed; all "
            "other GPU-to-GPU traffic crosses PCIe."
        )
    else:
        message = _("%(gpus)s GPUs without NVSwitch or NVLink bridges: all GPU-to-GPU traffic crosses PCIe.")
    return (
        message % p.as_dict(),
        _(
            "For training that spreads a model over all GPUs, choose an HGX system with NVSwitch; for independent "
            "inference jobs this is fine."
        ),
    )


@renders(NvlinkBridgeCrossSocket)
def _bridge_cross_socket(p: NvlinkBridgeCrossSocket) -> tuple[str, str]:
    layout = ", ".join(
        _("%(n)s on CPU %(socket)s") % {"n": n, "socket": sock} for sock, n in sorted(p.per_socket.items())
    )
    values = {**p.as_dict(), "layout": layout}
    if p.bridges == 1:
        message = _(
            "The GPUs sit %(layout)s, so the %(ways)s-way bridge must join GPUs under different CPU sockets. NVIDIA "
            "calls that acceptable but not recommended."
        )
    else:
        message = ngettext(
            "The GPUs sit %(layout)s, so %(cross)s of the %(bridges)s %(ways)s-way bridges must join GPUs under "
            "different CPU sockets. NVIDIA calls that acceptable but not recommended.",
            "The GPUs sit %(layout)s, so %(cross)s of the %(bridges)s %(ways)s-way bridges must join GPUs under "
            "different CPU sockets. NVIDIA calls that acceptable but not recommended.",
            p.cross,
        )
    return (
        message % values,
        _("Use a GPU count per CPU socket that is a multiple of %(ways)s, or place the GPUs explicitly.") % values,
    )
