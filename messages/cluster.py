"""Messages of the control plane's and the services' findings (configurator.cluster)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engines.findings.params.cluster import (
    ControlPlaneAdded,
    ControlPlaneUfm,
    ExpansionDevicesMoved,
    ExpansionNetworkTier,
    ExpansionNewTier,
    ExpansionRackPower,
    ExpansionStorageSystemsKept,
    ExpansionUnitBoundary,
    OfferLeftOut,
    ServicesDeclined,
    ServicesOnRequest,
)

from .base import num, renders


@renders(ControlPlaneAdded)
def _control_plane(p: ControlPlaneAdded) -> tuple[str, str]:
    if p.basis == "superpod":
        text = _(
            "The offer adds %(servers)s control-plane servers for %(nodes)s nodes, as NVIDIA's DGX SuperPOD "
            "reference architecture lists them: two Base Command Manager head nodes in high availability, six "
            "Kubernetes nodes and two Slurm login nodes."
        )
    else:
        text = _(
            "The offer adds %(servers)s control-plane servers for %(nodes)s nodes, as NVIDIA's DGX BasePOD lists "
            "them: two Base Command Manager head nodes in high availability and three Kubernetes control-plane "
            "nodes."
        )
    if p.priced:
        return text % p.as_dict(), _(
            "They are priced at our indicative list price per server; the exact servers are confirmed with the order."
        )
    return text % p.as_dict(), _(
        "We quote these servers on request: no list price is set for servers without GPUs yet."
    )


@renders(ControlPlaneUfm)
def _ufm(p: ControlPlaneUfm) -> tuple[str, str]:
    if p.because == "superpod":
        text = _(
            "The offer carries %(appliances)s UFM Enterprise appliances, a high-availability pair for each "
            "InfiniBand fabric (compute and storage), as the DGX SuperPOD reference architecture counts them."
        )
    else:
        text = _(
            "The InfiniBand fabric needs more than the switches' embedded subnet manager: the offer carries "
            "%(appliances)s UFM Enterprise appliances (a high-availability pair)."
        )
    if p.priced:
        return text % p.as_dict(), _(
            "They are priced at our indicative list price per appliance, its licence included; confirmed with the "
            "order."
        )
    return text % p.as_dict(), _("We quote the UFM appliances with their licence on request.")


@renders(ServicesDeclined)
def _declined(p: ServicesDeclined) -> tuple[str, str]:
    names = {
        "support": _("hardware warranty and support"),
        "installation": _("installation and rack integration"),
        "ai_enterprise": _("NVIDIA AI Enterprise"),
    }
    return (
        _("The design declines: %(services)s.") % {"services": ", ".join(names[d] for d in p.declined)},
        _("Make sure the site arranges these itself; without support, repairs are billed per call."),
    )


@renders(ServicesOnRequest)
def _on_request(p: ServicesOnRequest) -> tuple[str, str]:
    return (
        _("%(lines)s control-plane or service lines have no list price yet: we quote them on request.") % p.as_dict(),
        _("We add their prices to the quote."),
    )


def left_out_items(items: list[str]) -> str:
    """What the offer leaves out, as a sentence lists it (items of design.contract.SUPPLIED_ITEMS)."""
    names = {
        "racks": _("racks"),
        "power": _("PDUs and power cords"),
        "oob": _("the out-of-band management network (its switches and cables)"),
        "control_plane": _("the control plane (head and management nodes)"),
    }
    return ", ".join(names.get(i, i) for i in items)


@renders(OfferLeftOut)
def _left_out(p: OfferLeftOut) -> tuple[str, str]:
    items = left_out_items(p.items)
    if p.basis == "design":
        return (
            _("Not in this offer, as the site already has them: %(items)s.") % {"items": items},
            _("The rack plan still shows where every part goes, so the site can check that what it has fits."),
        )
    text = ngettext(
        "Not in this offer, as one server usually goes into what the site already has: %(items)s.",
        "Not in this offer, as a cluster of %(nodes)s nodes usually does without them or has them already: %(items)s.",
        p.nodes,
    )
    return text % {"items": items, "nodes": p.nodes}, _(
        "If the site does not have them, ask for them on the review step (What the site already has)."
    )


@renders(ExpansionNewTier)
def _new_tier(p: ExpansionNewTier) -> tuple[str, str]:
    return (
        _(
            "The installed fabric has %(installed_tiers)s tiers; the grown cluster needs %(expanded_tiers)s: "
            "%(new_spines)s spine and %(new_cores)s core %(switch)s switches are added, and the installed leaves' "
            "uplinks are re-cabled to them."
        )
        % p.as_dict(),
        _(
            "Quote the fabric for the planned size at once where the cluster will grow again: the reference "
            "architecture builds the full scalable unit and leaves part of it unused."
        ),
    )


@renders(ExpansionUnitBoundary)
def _unit_boundary(p: ExpansionUnitBoundary) -> tuple[str, str]:
    return (
        _(
            "The growth crosses a scalable unit boundary (%(nodes_per_unit)s nodes a unit): from %(installed_units)s "
            "to %(expanded_units)s units."
        )
        % p.as_dict(),
        _("The new unit's leaves and their uplinks are added as a whole."),
    )


@renders(ExpansionRackPower)
def _rack_power(p: ExpansionRackPower) -> tuple[str, str]:
    rows = zip(p.racks, p.installed_w, p.expanded_w, strict=True)
    grown = ", ".join(f"{name} ({num(old)} → {num(new)} W)" for name, old, new in rows)
    return (
        ngettext(
            "An installed rack draws more after the growth: %(racks)s.",
            "%(n)s installed racks draw more after the growth: %(racks)s.",
            len(p.racks),
        )
        % {"n": len(p.racks), "racks": grown},
        _(
            "Check these racks' PDUs, power feed and cooling (the plan's limit is %(limit)s W a rack) before the "
            "new devices are mounted."
        )
        % {"limit": num(p.rack_power_limit_w)},
    )


def _moved_because(reason: str) -> str:
    if reason == "one-rack":
        return _("The installed cluster stands in one rack with its switches; the grown one has racks for them.")
    if reason == "new-tier":
        return _("The grown fabric has a tier more than the installed one.")
    if reason == "control-plane":
        return _("The grown cluster has a larger control plane, racked ahead of the switches in the management racks.")
    if reason == "node-groups":
        return _(
            "The grown node group's racks come before those of the node groups after it, so their servers and "
            "switches move along; grow the last node group, or add the new nodes as a node group of their own."
        )
    return _("The grown plan lays the racks out otherwise.")


@renders(ExpansionDevicesMoved)
def _devices_moved(p: ExpansionDevicesMoved) -> tuple[str, str]:
    return (
        ngettext(
            "An installed device stands elsewhere in the grown plan: the %(part)s in %(rack)s at U%(unit)s.",
            "%(n)s installed devices stand elsewhere in the grown plan; the first is the %(part)s in %(rack)s at "
            "U%(unit)s.",
            p.devices,
        )
        % {"n": num(p.devices), "part": p.part, "rack": p.rack, "unit": p.unit},
        _moved_because(p.reason) + " " + _("The re-cabling lists every moved device with its old and new place."),
    )


@renders(ExpansionStorageSystemsKept)
def _storage_systems_kept(p: ExpansionStorageSystemsKept) -> tuple[str, str]:
    return (
        ngettext(
            "The installed storage network's %(ports)s storage-system port is kept, so its cable stays where it is; "
            "by the reference architecture's proportion the grown cluster would reserve %(default)s.",
            "The installed storage network's %(ports)s storage-system ports are kept, so their cables stay where "
            "they are; by the reference architecture's proportion the grown cluster would reserve %(default)s.",
            p.ports,
        )
        % {"ports": num(p.ports), "default": num(p.default_ports)},
        _(
            "To connect more storage, set networks.storage.system_ports to the ports all your storage systems need, "
            "or ask us to quote it."
        ),
    )


@renders(ExpansionNetworkTier)
def _network_tier(p: ExpansionNetworkTier) -> tuple[str, str]:
    text = _kept_tier_text(p.network) if p.node_cables_kept else _tier_text(p.network)
    values = {
        "installed": num(p.installed_tiers),
        "expanded": num(p.expanded_tiers),
        "leaves": num(p.new_leaves),
        "spines": num(p.new_spines),
        "switch": p.switch,
    }
    return text % values, _(
        "Plan the re-cabling in a maintenance window, or quote the network for the planned size at once where the "
        "cluster will grow again."
    )


def _kept_tier_text(network: str) -> str:
    """The finding's text where every installed node cable of the network stays on its port."""
    return (
        _(
            "The grown cluster's storage network needs %(expanded)s tiers where the installed one has %(installed)s: "
            "%(leaves)s leaf and %(spines)s spine %(switch)s switches are added and cabled to the installed ones, "
            "whose node cables stay on their ports."
        )
        if network == "storage"
        else _(
            "The grown cluster's in-band network needs %(expanded)s tiers where the installed one has %(installed)s: "
            "%(leaves)s leaf and %(spines)s spine %(switch)s switches are added and cabled to the installed ones, "
            "whose node cables stay on their ports."
        )
    )


def _tier_text(network: str) -> str:
    """The finding's text where installed node cables are re-terminated (or the re-cabling was not compared)."""
    return (
        _(
            "The grown cluster's storage network needs %(expanded)s tiers where the installed one has %(installed)s: "
            "%(leaves)s leaf and %(spines)s spine %(switch)s switches are added, and the installed switches' node "
            "cables are re-terminated (part of their ports become uplinks)."
        )
        if network == "storage"
        else _(
            "The grown cluster's in-band network needs %(expanded)s tiers where the installed one has %(installed)s: "
            "%(leaves)s leaf and %(spines)s spine %(switch)s switches are added, and the installed switches' node "
            "cables are re-terminated (part of their ports become uplinks)."
        )
    )
