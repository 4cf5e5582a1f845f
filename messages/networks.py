"""Messages of the network planner's findings (codes in engines.findings.network_codes)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engines.findings.params.networks import (
    NetworkConverged,
    NetworkCustomerSupplied,
    NetworkInbandRatio,
    NetworkMediaNotCatalogued,
    NetworkNoAdapters,
    NetworkNoSwitch,
    NetworkOobExtraSwitches,
    NetworkOobNotManagement,
    NetworkOobPlacement,
    NetworkOobUplinkPorts,
    NetworkSinglePort,
    NetworkStorageSystemPorts,
)

from .base import num, renders


def network_name(key: str) -> str:
    """The network as a sentence names it."""
    return {
        "storage": _("the storage network"),
        "inband": _("the in-band management network"),
        "oob": _("the out-of-band management network"),
    }.get(key, key)


@renders(NetworkCustomerSupplied)
def _customer(p: NetworkCustomerSupplied) -> tuple[str, str]:
    return (
        _("The customer supplies %(network)s: its switches, cables and ports are not in this plan or its bill.")
        % {"network": network_name(p.network)},
        _("Check that the customer's network has the ports and speed these nodes need."),
    )


@renders(NetworkNoAdapters)
def _no_adapters(p: NetworkNoAdapters) -> tuple[str, str]:
    return (
        _("The design asks for %(network)s, but no node adapter has the role %(role)s: there is nothing to connect.")
        % {"network": network_name(p.network), "role": p.role},
        _(
            "Give the adapters that carry this traffic the role %(role)s, or tell us that the customer supplies "
            "this network."
        )
        % {"role": p.role},
    )


@renders(NetworkConverged)
def _converged(p: NetworkConverged) -> tuple[str, str]:
    return (
        _(
            "No node adapter has the role management: in-band management shares the storage adapters and network "
            "(converged north-south)."
        ),
        _("Give an adapter the role management to plan a separate in-band network."),
    )


@renders(NetworkSinglePort)
def _single_port(p: NetworkSinglePort) -> tuple[str, str]:
    return (
        ngettext(
            "%(count)s node has one management port: it reaches one in-band switch, without redundancy.",
            "%(count)s nodes have one management port: each reaches one in-band switch, without redundancy.",
            p.nodes,
        )
        % {"count": num(p.nodes)},
        _("Cable two management ports per node, one to each switch of the pair."),
    )


@renders(NetworkNoSwitch)
def _no_switch(p: NetworkNoSwitch) -> tuple[str, str]:
    if p.switch:
        return (
            _("%(switch)s is not a switch in the catalogue; %(network)s is not planned.")
            % {"switch": p.switch, "network": network_name(p.network)},
            _("Choose one of our switches for it."),
        )
    return (
        _("The catalogue has no default switch for %(network)s; it is not planned.")
        % {"network": network_name(p.network)},
        _("Ask us which switch to use for it."),
    )


@renders(NetworkOobNotManagement)
def _oob_not_management(p: NetworkOobNotManagement) -> tuple[str, str]:
    return (
        _("%(switch)s is not a 1 GbE management switch; the out-of-band network is not planned.")
        % {"switch": p.switch or "?"},
        _("Choose a management switch such as SN2201 for the out-of-band network."),
    )


@renders(NetworkOobExtraSwitches)
def _oob_extra(p: NetworkOobExtraSwitches) -> tuple[str, str]:
    return (
        ngettext(
            "The out-of-band network has %(ports)s ports, more than the racks' %(in_racks)s management switches "
            "take: %(extra)s more %(switch)s is needed, which the rack plan does not place.",
            "The out-of-band network has %(ports)s ports, more than the racks' %(in_racks)s management switches "
            "take: %(extra)s more %(switch)s are needed, which the rack plan does not place.",
            p.extra,
        )
        % {"ports": num(p.ports), "in_racks": num(p.in_racks), "extra": num(p.extra), "switch": p.switch},
        _("Reserve a unit and power for them in the network racks."),
    )


@renders(NetworkOobUplinkPorts)
def _uplink_ports(p: NetworkOobUplinkPorts) -> tuple[str, str]:
    return (
        _(
            "The %(uplinks)s uplinks of the out-of-band switches need ports on %(network)s, whose leaves have "
            "%(free)s free."
        )
        % {"uplinks": num(p.uplinks), "network": network_name(p.network), "free": num(p.free)},
        _(
            "Lower that network's oversubscription or give it a larger switch, or uplink the out-of-band switches "
            "into your own network."
        ),
    )


@renders(NetworkOobPlacement)
def _oob_placement(p: NetworkOobPlacement) -> tuple[str, str]:
    values = {
        "densest": num(p.densest),
        "threshold": num(p.threshold),
        "switches": num(p.switches),
        "switch": p.switch,
        "ports": num(p.ports),
        "units": num(p.units),
    }
    if p.placement == "central":
        text = ngettext(
            "The out-of-band network has %(switches)s %(switch)s in the management racks, as the DGX SuperPOD RA "
            "racks them: %(ports)s ports in %(units)s scalable unit, 48 ports to a switch in each unit.",
            "The out-of-band network has %(switches)s %(switch)s in the management racks, as the DGX SuperPOD RA "
            "racks them: %(ports)s ports over %(units)s scalable units, 48 ports to a switch in each unit.",
            p.units,
        )
    else:
        text = _("Each rack has its own out-of-band %(switch)s: %(switches)s for %(ports)s ports.")
    if p.basis == "density" and p.placement == "central":
        why = _(
            "The default: the fullest compute rack has %(densest)s management ports, fewer than %(threshold)s. Set "
            "networks.oob.placement to per-rack for a switch in every rack."
        )
    elif p.basis == "density":
        why = _(
            "The default: the fullest compute rack has %(densest)s management ports, %(threshold)s or more. Set "
            "networks.oob.placement to central for the management racks."
        )
    elif p.basis == "rack":
        why = _("The default for a cluster in one rack: its switch stands in that rack.")
    else:
        why = _("As the design asks (networks.oob.placement).")
    return text % values, why % values


@renders(NetworkInbandRatio)
def _inband_ratio(p: NetworkInbandRatio) -> tuple[str, str]:
    return (
        _(
            "The in-band network is planned at %(ratio)s, the ratio the DGX SuperPOD H100 RA's cables imply (254 "
            "node links on 24 leaf-core cables); the RA does not state one."
        )
        % {"ratio": p.ratio},
        _("Set networks.inband.oversubscription for another ratio."),
    )


@renders(NetworkStorageSystemPorts)
def _storage_system_ports(p: NetworkStorageSystemPorts) -> tuple[str, str]:
    return (
        _reserved(p) + _split(p),
        _(
            "Set networks.storage.system_ports to the ports your storage systems need. Their cables are quoted "
            "with the nodes' storage transceiver at the storage end too: check it against the storage chosen."
        ),
    )


def _split(p: NetworkStorageSystemPorts) -> str:
    """Which input the RA leaves open in its storage switch count: their split into leaves and spines."""
    if not p.leaves:
        return ""
    return " " + _(
        "The RA lists 16 storage switches for its 127 nodes but not their split into leaves and spines; the plan "
        "counts the fewest that carry its links: %(switches)s, of which %(spines)s and %(leaves)s."
    ) % {
        "switches": num(p.leaves + p.spines),
        "spines": ngettext("%(n)s spine", "%(n)s spines", p.spines) % {"n": num(p.spines)},
        "leaves": ngettext("%(n)s leaf", "%(n)s leaves", p.leaves) % {"n": num(p.leaves)},
    }


def _reserved(p: NetworkStorageSystemPorts) -> str:
    return ngettext(
        "The design gives no storage system ports: the plan reserves %(reserved)s storage leaf port for the "
        "storage systems, in the proportion of the DGX SuperPOD H100 reference architecture (48 storage cables "
        "for the 254 storage ports of its 127 nodes). Free leaf ports beyond: %(free)s.",
        "The design gives no storage system ports: the plan reserves %(reserved)s storage leaf ports for the "
        "storage systems, in the proportion of the DGX SuperPOD H100 reference architecture (48 storage cables "
        "for the 254 storage ports of its 127 nodes). Free leaf ports beyond: %(free)s.",
        p.reserved,
    ) % {"reserved": num(p.reserved), "free": num(p.free)}


@renders(NetworkMediaNotCatalogued)
def _media_missing(p: NetworkMediaNotCatalogued) -> tuple[str, str]:
    if p.length_m is not None:
        values = {"links": num(p.links), "speed": num(p.speed_gbps), "connector": p.connector or "?"}
        return (
            ngettext(
                "%(links)s link of %(speed)s Gb/s %(connector)s runs up to %(length)s m, to the out-of-band switches "
                "in the management racks: the catalogue has no cable that long, so the bill leaves it out.",
                "%(links)s links of %(speed)s Gb/s %(connector)s run up to %(length)s m, to the out-of-band switches "
                "in the management racks: the catalogue has no cable that long, so the bill leaves them out.",
                p.links,
            )
            % {**values, "length": num(p.length_m, 1)},
            _(
                "Ask us to quote these cords separately, or set networks.oob.placement to per-rack for a switch "
                "in every rack and short cords."
            ),
        )
    return (
        ngettext(
            "%(links)s link of %(speed)s Gb/s %(connector)s: the catalogue has no cable for it, so the bill leaves "
            "it out.",
            "%(links)s links of %(speed)s Gb/s %(connector)s: the catalogue has no cable for them, so the bill "
            "leaves them out.",
            p.links,
        )
        % {"links": num(p.links), "speed": num(p.speed_gbps), "connector": p.connector or "?"},
        _("Ask us to quote these cables separately."),
    )
