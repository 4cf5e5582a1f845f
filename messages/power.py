"""Messages of the power and cooling findings, and the power estimate's stated assumptions."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from engines.findings.params.power import (
    CoolingLiquid,
    PowerAssumption,
    PowerCapacityUnknown,
    PowerEstimateAboveSupplies,
    PowerEstimateBasis,
    PowerEstimateIncomplete,
    PowerEstimateParams,
    PowerNearCapacity,
    PowerOverCapacity,
    PowerRedundancyNPlus0,
    PowerRedundancyNPlusN,
    RedundancyUnknown,
    SupplyLoad,
)

from .base import num, pct, renders


def assumption(a: PowerAssumption) -> str:
    """One assumption of a power estimate, in the active language."""
    kind = a["kind"]
    if kind == "sockets":
        return _("socket count not sourced, %(sockets)s assumed") % a
    if kind == "cpu_tdp" and a.get("part"):
        return _("%(part)s TDP not sourced, %(watts)s W assumed") % {"part": a["part"], "watts": a["watts"]}
    if kind == "cpu_tdp":
        return _("CPU TDP not sourced, %(watts)s W per socket assumed") % {"watts": a["watts"]}
    if kind == "adapter":
        return _("%(part)s power not sourced, %(watts)s W assumed") % {"part": a["part"], "watts": num(a["watts"])}
    if kind == "integrated_nics":
        return _("%(count)s integrated NICs, %(watts)s W each assumed") % {
            "count": a["count"],
            "watts": num(a["watts"]),
        }
    return _("optics %(watts)s W per adapter port assumed (a 400G optic; copper draws almost nothing)") % {
        "watts": num(a["watts"])
    }


def _estimate(p: PowerEstimateParams) -> dict[str, str]:
    """The peak, its breakdown and the closing 'Assumptions: ...' sentence of a power finding."""
    b = p.breakdown
    values = {"gpu": num(b["gpu_w"]), "cpu": num(b["cpu_w"]), "memory": num(b["memory_w"]), "fans": b["fan_pct"]}
    if b["adapters_w"]:
        values["adapters"] = num(b["adapters_w"])
        breakdown = (
            _(
                "GPUs %(gpu)s W, CPUs %(cpu)s W, memory and drives %(memory)s W, adapters and optics %(adapters)s W, "
                "plus %(fans)s%% for fans"
            )
            % values
        )
    else:
        breakdown = (
            _("GPUs %(gpu)s W, CPUs %(cpu)s W, memory and drives %(memory)s W, plus %(fans)s%% for fans") % values
        )
    basis = ""
    if p.assumptions:
        basis = " " + _("Assumptions: %(list)s.") % {"list": "; ".join(assumption(a) for a in p.assumptions)}
    out = {"peak": num(p.peak_w), "breakdown": breakdown, "basis": basis, "server": p.server}
    if isinstance(p, SupplyLoad):
        n = p.psu_count - p.psu_redundant
        out["pct"] = pct(p.load)
        out["supplies"] = _(
            "%(cap)s W from the %(n)s of %(count)s supplies that carry the load (%(n)s+%(redundant)s)"
        ) % {"cap": num(p.capacity_w), "n": n, "count": p.psu_count, "redundant": p.psu_redundant}
    return out


@renders(PowerEstimateIncomplete)
def _incomplete(p: PowerEstimateIncomplete) -> tuple[str, str]:
    return (
        _(
            "The TDP of %(listed)s is unknown, so its GPUs are left out of the power estimate, which is therefore "
            "too low."
        )
        % {"listed": ", ".join(p.gpus)},
        _("Check the GPU power in the NVIDIA datasheet before quoting."),
    )


@renders(PowerCapacityUnknown)
def _capacity_unknown(p: PowerCapacityUnknown) -> tuple[str, str]:
    return (
        _(
            "Estimated peak per node is %(peak)s W (%(breakdown)s), but the PSU configuration of %(server)s is not "
            "sourced, so we cannot check it against the supplies.%(basis)s"
        )
        % _estimate(p),
        _("Confirm the PSU count, wattage and redundancy with Supermicro."),
    )


@renders(PowerOverCapacity)
def _over_capacity(p: PowerOverCapacity) -> tuple[str, str]:
    return (
        _(
            "Estimated peak per node is %(peak)s W (%(breakdown)s), %(pct)s of %(supplies)s. Under full load the "
            "node loses redundancy or shuts down.%(basis)s"
        )
        % _estimate(p),
        _("Choose lower-power GPUs or fewer of them, cap the GPU power, or choose a server with larger supplies."),
    )


@renders(PowerEstimateAboveSupplies)
def _above_supplies(p: PowerEstimateAboveSupplies) -> tuple[str, str]:
    values = {**_estimate(p), "vendor": p.vendor or _("the vendor")}
    return (
        _(
            "Estimated peak per node is %(peak)s W (%(breakdown)s), %(pct)s of %(supplies)s. This is %(server)s with a "
            "GPU its sources name and its own supplies, so an estimate is no reason to refuse it.%(basis)s"
        )
        % values,
        _("Confirm the node's power budget with %(vendor)s before quoting; cap the GPU power if they advise it.")
        % values,
    )


@renders(PowerNearCapacity)
def _near_capacity(p: PowerNearCapacity) -> tuple[str, str]:
    return (
        _(
            "Estimated peak per node is %(peak)s W (%(breakdown)s), %(pct)s of %(supplies)s. That leaves little "
            "headroom above the 80%% we advise.%(basis)s"
        )
        % _estimate(p),
        _("Acceptable if the GPUs rarely peak together; otherwise cap GPU power or choose larger supplies."),
    )


@renders(CoolingLiquid)
def _cooling_liquid(p: CoolingLiquid) -> tuple[str, str]:
    return (
        ngettext(
            "%(server)s is liquid-cooled: the node needs a coolant distribution unit (CDU) or facility water in the "
            "data centre.",
            "%(server)s is liquid-cooled: the %(nodes)s nodes need a coolant distribution unit (CDU) or facility "
            "water in the data centre.",
            p.nodes,
        )
        % p.as_dict(),
        _("Confirm the site's water loop, or add a CDU to the quote."),
    )


def basis_sentence(p: PowerEstimateParams) -> str:
    """How the peak was estimated: the sum of parts, or the published maximum of NVIDIA's own system."""
    if p.basis == "reference_system":
        text = _(
            "The sum of parts is %(parts)s W; NVIDIA publishes %(reference)s W as the maximum of %(system)s, its own "
            "system on this baseboard (baseboard and NVSwitch overhead, fans at full speed, PSU losses), so the "
            "estimate uses %(reference)s W."
        ) % {
            "parts": num(p.parts_w),
            "reference": num(p.reference_w or 0),  # a reference_system basis has its figure
            "system": p.reference_system,
        }
        return text + unconfirmed_sentence(p) + cpu_sentence(p)
    return (
        _(
            "The estimate is the sum of the parts with a fan margin; it does not include PSU losses, whose "
            "efficiency is not sourced."
        )
        + skipped_sentence(p)
        + cpu_sentence(p)
    )


def _cooled(cooling: str | None) -> str:
    return {"air": pgettext("cooling", "air-cooled"), "liquid": pgettext("cooling", "liquid-cooled")}.get(
        cooling or "", cooling or "?"
    )


def unconfirmed_sentence(p: PowerEstimateParams) -> str:
    """Why a published maximum stands although the cooling of the node or of NVIDIA's system is not sourced."""
    unconfirmed = p.reference_unconfirmed
    if not unconfirmed:
        return ""
    return " " + _(
        "The cooling of %(system)s or of %(server)s is not sourced, so the two are not confirmed alike; the published "
        "maximum of %(system)s, the closest NVIDIA system, is used rather than the lower sum of parts."
    ) % {"system": unconfirmed["system"], "server": p.server}


def skipped_sentence(p: PowerEstimateParams) -> str:
    """Why a published system maximum was not applied (another cooling)."""
    skipped = p.reference_skipped
    if not skipped:
        return ""
    values = {
        "system": skipped["system"],
        "reference": num(skipped["reference_w"]),
        "server": p.server,
        "theirs": _cooled(skipped["reference_cooling"]),
        "ours": _cooled(skipped["server_cooling"]),
    }
    text = _(
        "NVIDIA's maximum of %(reference)s W for %(system)s is not applied: that system is %(theirs)s and "
        "%(server)s is %(ours)s, so its fans and chassis say nothing of this node."
    )
    return " " + text % values


def cpu_sentence(p: PowerEstimateParams) -> str:
    """Where the CPU figure of the estimate comes from (empty when it is an assumption: the assumptions say so)."""
    parts = sorted(set(p.cpu_parts or ()))
    if p.cpu_basis == "cpus" and parts:
        return " " + _("The CPUs count at their own TDP (%(parts)s: %(watts)s W per node).") % {
            "parts": ", ".join(parts),
            "watts": num(p.cpu_w or 0),
        }
    if p.cpu_basis == "platform_limit":
        return " " + _(
            "The node names no CPUs, so every socket counts at the highest TDP the server takes (%(watts)s W per node)."
        ) % {"watts": num(p.cpu_w or 0)}
    return ""


@renders(PowerEstimateBasis)
def _estimate_basis(p: PowerEstimateBasis) -> tuple[str, str]:
    values = _estimate(p)
    return (
        _("Estimated peak per node is %(peak)s W (%(breakdown)s).") % values
        + " "
        + basis_sentence(p)
        + values["basis"],
        _("Plan the facility's power and cooling for this peak per node."),
    )


def _redundancy_values(p: RedundancyUnknown) -> dict[str, object]:
    half = p.psu_count // 2
    return {
        **_estimate(p),
        "count": p.psu_count,
        "watts": num(p.psu_watts),
        "half": half,
        "nn": num(p.n_plus_n_w),
        "n0": num(p.n_plus_0_w),
        "pct_nn": pct(p.load_n_plus_n) if p.load_n_plus_n is not None else "-",
        "pct_n0": pct(p.load_n_plus_0),
    }


@renders(PowerRedundancyNPlusN)
def _redundancy_nn(p: PowerRedundancyNPlusN) -> tuple[str, str]:
    return (
        _(
            "Estimated peak per node is %(peak)s W. %(server)s has %(count)s supplies of %(watts)s W, but their "
            "redundancy mode is not sourced. With N+N (%(half)s+%(half)s, %(nn)s W) the load is %(pct_nn)s, so the "
            "node holds with full redundancy and without it."
        )
        % _redundancy_values(p),
        _("Confirm the redundancy mode with Supermicro when quoting."),
    )


@renders(PowerRedundancyNPlus0)
def _redundancy_n0(p: PowerRedundancyNPlus0) -> tuple[str, str]:
    return (
        _(
            "Estimated peak per node is %(peak)s W. %(server)s has %(count)s supplies of %(watts)s W, but their "
            "redundancy mode is not sourced. With N+N (%(half)s+%(half)s, %(nn)s W) the load would be %(pct_nn)s: "
            "it does not hold. Only with all supplies carrying the load (N+0, %(n0)s W, %(pct_n0)s) does it hold, "
            "without redundancy."
        )
        % _redundancy_values(p),
        _(
            "Confirm the redundancy mode with Supermicro; if the node must survive a supply failure, cap GPU power or "
            "choose a server with larger supplies."
        ),
    )
