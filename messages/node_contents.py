"""Messages of the node-contents findings: CPUs, memory, drives and the default node set the service adds."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engines.findings.params.node_contents import (
    DriveM2Slots,
    DriveNoBay,
    MemoryBelowReference,
    MemoryDownclocked,
    MemoryMixed,
    MemoryTooMany,
    MemoryTwoPerChannel,
    MemoryUnbalanced,
    NodeCpuCount,
    NodeCpuMixed,
    NodeCpuNotAccepted,
    NodeCpuSocketEmpty,
    NodeCpuSocketEmptyHgx,
    NodeCpuTdp,
    NodeCpuTdpUnknown,
    NodeCpuUnverified,
    NodeDefaultsAdded,
    NodeIncomplete,
)

from .base import num, renders


def role_name(role: str | None) -> str:
    """A node-part role as users read it ('CPUs', 'memory', 'boot drive')."""
    return {
        "cpu": _("CPUs"),
        "memory": _("memory"),
        "boot": _("boot drive"),
        "storage": _("data drives"),
    }.get(role or "", role or "")


def _parts(parts: list[str]) -> str:
    return ", ".join(parts)


@renders(NodeDefaultsAdded)
def _defaults_added(p: NodeDefaultsAdded) -> tuple[str, str]:
    added = "; ".join(_("%(quantity)s × %(part)s (%(role)s)") % {**a, "role": role_name(a["role"])} for a in p.added)
    return (
        _("The design names no %(roles)s for %(server)s, so its default node set was added and priced: %(added)s.")
        % {"roles": ", ".join(role_name(a["role"]) for a in p.added), "server": p.server, "added": added},
        _("Keep the defaults, or name the CPUs, memory and boot drive yourself to change them."),
    )


@renders(NodeIncomplete)
def _incomplete(p: NodeIncomplete) -> tuple[str, str]:
    return (
        _(
            "This node names no %(missing)s and the catalogue holds no default set for %(server)s, so the quote "
            "leaves them out and the node cannot start as quoted."
        )
        % {"missing": ", ".join(role_name(r) for r in p.missing), "server": p.server},
        _("Add the CPUs, memory and boot drive by part number, or ask us to quote them."),
    )


@renders(NodeCpuMixed)
def _cpu_mixed(p: NodeCpuMixed) -> tuple[str, str]:
    return (
        _("This node mixes CPU models (%(parts)s); every socket of %(server)s takes the same CPU.")
        % {"parts": _parts(p.parts), "server": p.server},
        _("Choose one CPU model for all sockets."),
    )


@renders(NodeCpuSocketEmptyHgx)
def _cpu_socket_empty_hgx(p: NodeCpuSocketEmptyHgx) -> tuple[str, str]:
    values = {"server": p.server, "sockets": p.sockets, "cpus": p.cpus, "part": p.part}
    message = ngettext(
        "%(server)s hosts an HGX 8-GPU board through both of its %(sockets)s CPU sockets (four GPUs and their "
        "compute NICs on each); with %(cpus)s CPU, half the GPUs and their NICs have no host.",
        "%(server)s hosts an HGX 8-GPU board through both of its %(sockets)s CPU sockets (four GPUs and their "
        "compute NICs on each); with %(cpus)s CPUs, half the GPUs and their NICs have no host.",
        p.cpus,
    )
    return message % values, _("Set the quantity of %(part)s to %(sockets)s.") % values


@renders(NodeCpuCount, NodeCpuSocketEmpty)
def _cpu_count(p: NodeCpuCount | NodeCpuSocketEmpty) -> tuple[str, str]:
    values = {"server": p.server, "sockets": p.sockets, "cpus": p.cpus, "part": p.part}
    if p.cpus < p.sockets:
        message = ngettext(
            "%(server)s has %(sockets)s CPU sockets and needs every one populated for its PCIe and GPU lanes; "
            "this node has %(cpus)s CPU.",
            "%(server)s has %(sockets)s CPU sockets and needs every one populated for its PCIe and GPU lanes; "
            "this node has %(cpus)s CPUs.",
            p.cpus,
        )
    else:
        message = ngettext(
            "%(server)s has %(sockets)s CPU sockets; %(cpus)s CPU does not fit.",
            "%(server)s has %(sockets)s CPU sockets; %(cpus)s CPUs do not fit.",
            p.cpus,
        )
    return message % values, _("Set the quantity of %(part)s to %(sockets)s.") % values


def _cpu_values(p: NodeCpuNotAccepted | NodeCpuUnverified) -> dict[str, str]:
    """The values of a CPU-against-server message, unknowns as '?'."""
    return {
        "part": p.part,
        "server": p.server,
        "socket": p.socket or "?",
        "family": p.family or "?",
        "server_socket": p.server_socket or "?",
        "families": _parts(p.families) or "?",
        "suggestion": p.suggestion or "",
        "vendor": p.vendor or _("the vendor"),
    }


@renders(NodeCpuNotAccepted)
def _cpu_not_accepted(p: NodeCpuNotAccepted) -> tuple[str, str]:
    values = _cpu_values(p)
    message = _(
        "%(part)s (%(family)s, %(socket)s) does not fit %(server)s, which takes %(families)s in %(server_socket)s."
    )
    if p.suggestion:
        fix = _("Choose a CPU the server takes, such as %(suggestion)s.")
    else:
        fix = _("Choose a CPU of a family the server takes.")
    return message % values, fix % values


@renders(NodeCpuTdp)
def _cpu_tdp(p: NodeCpuTdp) -> tuple[str, str]:
    values = {"part": p.part, "tdp": num(p.tdp_w), "limit": num(p.limit_w), "server": p.server}
    return (
        _("%(part)s has a TDP of %(tdp)s W; %(server)s takes CPUs up to %(limit)s W per socket.") % values,
        _("Choose a CPU of at most %(limit)s W.") % values,
    )


@renders(NodeCpuUnverified)
def _cpu_unverified(p: NodeCpuUnverified) -> tuple[str, str]:
    values = _cpu_values(p)
    message = _(
        "%(part)s (%(family)s) fits the %(server_socket)s socket of %(server)s, but our sources for %(server)s name "
        "only %(families)s, so support for %(family)s is not confirmed."
    )
    fix = _("Confirm BIOS support for %(part)s with %(vendor)s.") % values
    if p.suggestion:
        fix += " " + _("Or choose %(suggestion)s, which they name.") % values
    return message % values, fix


@renders(NodeCpuTdpUnknown)
def _cpu_tdp_unknown(p: NodeCpuTdpUnknown) -> tuple[str, str]:
    values = {"parts": _parts(p.parts), "limit": num(p.limit_w), "server": p.server}
    return (
        _(
            "The TDP of %(parts)s is not sourced, so we cannot check it against the %(limit)s W per socket that "
            "%(server)s takes."
        )
        % values,
        _("Confirm that the CPU's TDP is at most %(limit)s W.") % values,
    )


@renders(MemoryDownclocked)
def _memory_downclocked(p: MemoryDownclocked) -> tuple[str, str]:
    values = {"part": p.part, "dimm": num(p.dimm_mts), "runs": num(p.runs_mts), "cpu": p.cpu or ""}
    if p.cpu:
        message = _(
            "%(part)s is rated at %(dimm)s MT/s, but %(cpu)s runs memory at up to %(runs)s MT/s in this "
            "population, so the DIMMs run at %(runs)s MT/s."
        )
    else:
        message = _(
            "%(part)s is rated at %(dimm)s MT/s, but the server runs memory at up to %(runs)s MT/s in this "
            "population, so the DIMMs run at %(runs)s MT/s."
        )
    return message % values, _("Nothing to change; DIMMs rated at %(runs)s MT/s would do as well.") % values


@renders(MemoryMixed)
def _memory_mixed(p: MemoryMixed) -> tuple[str, str]:
    return (
        _("This node mixes DIMM models (%(parts)s); all DIMMs of a node must be identical.")
        % {"parts": _parts(p.parts)},
        _("Choose one DIMM model for the whole node."),
    )


@renders(MemoryTooMany)
def _memory_too_many(p: MemoryTooMany) -> tuple[str, str]:
    values = {"dimms": num(p.dimms), "slots": num(p.slots), "server": p.server, "part": p.part}
    return (
        _("%(dimms)s DIMMs do not fit %(server)s, which has %(slots)s DIMM slots.") % values,
        _("Set the quantity of %(part)s to at most %(slots)s, or choose larger DIMMs.") % values,
    )


@renders(MemoryUnbalanced)
def _memory_unbalanced(p: MemoryUnbalanced) -> tuple[str, str]:
    values = {
        "dimms": num(p.dimms),
        "channels": num(p.channels),
        "sockets": p.sockets,
        "part": p.part,
        "options": _(" or ").join(num(n) for n in p.options) or "?",
    }
    return (
        ngettext(
            "%(dimms)s DIMMs cannot be spread evenly over the %(channels)s memory channels of %(sockets)s socket.",
            "%(dimms)s DIMMs cannot be spread evenly over the %(channels)s memory channels of %(sockets)s sockets.",
            p.sockets,
        )
        % values,
        _("Set the quantity of %(part)s to %(options)s (the same number on every channel).") % values,
    )


@renders(MemoryTwoPerChannel)
def _memory_two_per_channel(p: MemoryTwoPerChannel) -> tuple[str, str]:
    values: dict[str, object] = {"dimms": num(p.dimms), "channels": num(p.channels), "server": p.server}
    if p.speed_1dpc and p.speed_2dpc:
        values.update(one=num(p.speed_1dpc), two=num(p.speed_2dpc), drop=p.drop_pct)
        message = _(
            "%(dimms)s DIMMs on %(channels)s channels is two per channel, so memory runs at %(two)s MT/s instead of "
            "%(one)s MT/s (%(drop)s%% slower)."
        )
    else:
        message = _(
            "%(dimms)s DIMMs on %(channels)s channels is two per channel, so memory runs slower than at one per "
            "channel; the sources do not say by how much."
        )
    return (
        message % values,
        _("For full memory speed use one DIMM per channel, with larger DIMMs for the same capacity."),
    )


@renders(MemoryBelowReference)
def _memory_below_reference(p: MemoryBelowReference) -> tuple[str, str]:
    values = {
        "system": num(p.system_gb),
        "gpu": num(p.gpu_gb),
        "ratio": num(p.ratio, 2),
        "ref": p.ref_system,
        "ref_ratio": num(p.ref_ratio, 2),
        "needed": num(p.needed_gb),
    }
    return (
        _(
            "%(system)s GB of system memory for %(gpu)s GB of GPU memory is %(ratio)s GB per GB, below the "
            "%(ref_ratio)s that %(ref)s ships with."
        )
        % values,
        _("Choose more or larger DIMMs: at least %(needed)s GB per node.") % values,
    )


@renders(DriveNoBay)
def _drive_no_bay(p: DriveNoBay) -> tuple[str, str]:
    values = {
        "drives": num(p.drives),
        "form": f"{p.form} {p.interface}".strip(),
        "bays": num(p.bays),
        "server": p.server,
        "server_bays": _parts(p.server_bays),
    }
    if p.bays:
        message = _("%(drives)s %(form)s drives do not fit the %(bays)s bays of that type in %(server)s.")
    else:
        message = _("%(server)s has no bays for %(form)s drives (its bays: %(server_bays)s).")
    return message % values, _("Choose drives for the server's bays (%(server_bays)s), or fewer drives.") % values


@renders(DriveM2Slots)
def _drive_m2_slots(p: DriveM2Slots) -> tuple[str, str]:
    values = {"drives": num(p.drives), "slots": num(p.slots), "server": p.server}
    return (
        _("%(drives)s M.2 drives do not fit the %(slots)s M.2 slots of %(server)s.") % values,
        _("Use at most %(slots)s M.2 drives per node.") % values,
    )
