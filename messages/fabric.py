"""Messages of the fabric planner's and fabric checks' findings (codes in engines.fabric.codes)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engines.findings.params.fabric import (
    FabricBeyondReach,
    FabricDistanceAssumed,
    FabricDistanceImplausible,
    FabricDistanceUnused,
    FabricFewerRailsThanGpus,
    FabricGrowthReserve,
    FabricHcaAssumed,
    FabricHdrForNewGpus,
    FabricMediaDiscontinued,
    FabricMediaNotCatalogued,
    FabricNoCable,
    FabricNoMgmtSwitch,
    FabricNoRails,
    FabricPartInvalid,
    FabricPlanesNoMedium,
    FabricPlugTopUnknown,
    FabricPortsExceeded,
    FabricProtocolMismatch,
    FabricReachNotCatalogued,
    FabricRoceAlternative,
    FabricSingleNode,
    FabricSpeedMismatch,
    FabricSwitchIsManagement,
    FabricSwitchPortsUnknown,
    LinkSide,
)

from .base import article, dec, num, renders
from .diagram import LINK_CLASSES, RACK_FIELDS
from .nodes import lifecycle_word, replacement_sentence


def _link_class(link_class: str) -> str:
    """A finding's link class (node-leaf, leaf-spine, spine-core) in the active language."""
    return str(LINK_CLASSES.get(link_class, link_class))


@renders(FabricSingleNode)
def _single_node(p: FabricSingleNode) -> tuple[str, str]:
    return (
        _("The design has a single node: its GPUs talk over NVLink and a compute fabric is not needed."),
        _("Remove the fabric, or keep it only to prepare for more nodes."),
    )


@renders(FabricHdrForNewGpus)
def _hdr_for_new_gpus(p: FabricHdrForNewGpus) -> tuple[str, str]:
    gen = p.generation or f"{p.port_gbps} Gb/s"
    if article(gen) == "an":  # English 'an HDR switch', 'a 200 Gb/s switch'
        message = _(
            "%(switch)s is an %(gen)s switch (%(port_gbps)s Gb/s per port) for %(gpu_generation)s nodes; "
            "%(advised_gbps)s Gb/s per port is the advised fabric for this GPU generation."
        )
    else:
        message = _(
            "%(switch)s is a %(gen)s switch (%(port_gbps)s Gb/s per port) for %(gpu_generation)s nodes; "
            "%(advised_gbps)s Gb/s per port is the advised fabric for this GPU generation."
        )
    if p.advised_switch:
        fix = _(
            "Choose a %(advised_gbps)s Gb/s switch (%(advised_switch)s); keep the slower fabric only as a budget "
            "option or to extend an existing one."
        )
    else:
        fix = _(
            "Choose a switch with %(advised_gbps)s Gb/s ports; keep the slower fabric only as a budget option or to "
            "extend an existing one."
        )
    return message % {**p.as_dict(), "gen": gen}, fix % p.as_dict()


@renders(FabricFewerRailsThanGpus)
def _fewer_rails(p: FabricFewerRailsThanGpus) -> tuple[str, str]:
    return (
        ngettext(
            "The rail-optimized fabric has %(rails)s rail for %(gpus_per_node)s GPUs per node: GPUs share compute "
            "NICs and get %(rails)s/%(gpus_per_node)s of a NIC each.",
            "The rail-optimized fabric has %(rails)s rails for %(gpus_per_node)s GPUs per node: GPUs share compute "
            "NICs and get %(rails)s/%(gpus_per_node)s of a NIC each.",
            p.rails,
        )
        % p.as_dict(),
        _("Fit %(gpus_per_node)s compute NICs per node, one per GPU.") % p.as_dict(),
    )


@renders(FabricRoceAlternative)
def _roce(p: FabricRoceAlternative) -> tuple[str, str]:
    alt = p.alternative
    if alt:
        name = f"{alt['part']} ({alt['generation'] or 'Spectrum'}, {alt['ports']} x {alt['gbps']}GbE)"
    else:
        name = _("an Ethernet switch of %(gbps)s GbE or faster") % {"gbps": p.gbps}
    return (
        _(
            "If the customer prefers Ethernet, RoCE on %(name)s is a serious alternative; InfiniBand keeps an edge "
            "in latency and consistency under high load, which shows in the training time of large distributed "
            "jobs."
        )
        % {"name": name},
        _("Keep InfiniBand for the most demanding training; offer RoCE where Ethernet skills or cost weigh most."),
    )


@renders(FabricPartInvalid)
def _part_invalid(p: FabricPartInvalid) -> tuple[str, str]:
    return (
        _("%(path)s: %(reason)s.") % p.as_dict(),
        _("Choose a switch (and adapter) from the lists on the fabric and adapters steps."),
    )


@renders(FabricNoRails)
def _no_rails(p: FabricNoRails) -> tuple[str, str]:
    return (
        _("The design has a compute fabric but no compute NICs in its nodes to connect to it."),
        _("Add compute NICs (one per GPU), or remove the fabric."),
    )


# --- the planner -------------------------------------------------------------------------------------------


def side_label(side: LinkSide, both: bool = False) -> str:
    """'the MQM9700-NS2F cages (twin-port OSFP, finned top)': one end of a link class."""
    top = {
        "finned": _(", finned top"),
        "flat": _(", flat top"),
    }.get(side["top"] or "", "")
    twin = _("twin-port ") if side["twin"] else ""
    connector = side["connector"] or _("unknown connector")
    if side["is_switch"]:
        if both:
            where = _("the %(part)s cages at both ends")
        else:
            where = _("the %(part)s cages")
    elif side["part"]:
        where = _("the %(part)s port")
    else:
        where = _("the assumed HCA port")
    return f"{where % {'part': side['part']}} ({twin}{connector}{top})"


def _join(a: LinkSide, b: LinkSide | None) -> str:
    if b is None:
        return side_label(a, both=True)
    return _("%(a)s and %(b)s") % {"a": side_label(a), "b": side_label(b)}


@renders(FabricNoCable, FabricMediaNotCatalogued)
def _no_cable(p: FabricNoCable | FabricMediaNotCatalogued) -> tuple[str, str]:
    message, fix = _no_cable_text(p)
    if p.bom_incomplete:
        message = f"{message} {_('The bill of materials leaves these links out, so it is incomplete.')}"
    return message, fix


def _no_cable_text(p: FabricNoCable | FabricMediaNotCatalogued) -> tuple[str, str]:
    if isinstance(p, FabricMediaNotCatalogued) and p.unknown_side:
        return (
            _(
                "The connector of %(side)s is not known from the sources, so no cable can be chosen for the "
                "%(link_class)s links."
            )
            % {"side": side_label(p.unknown_side), "link_class": _link_class(p.link_class)},
            _("Choose another adapter or switch, or ask us to quote the cabling separately."),
        )
    if isinstance(p, FabricMediaNotCatalogued) and p.missing_media:
        what = ""
        for m in p.missing_media:
            one = f"{m['speed_gbps']} Gb/s {m['connector']}"
            what = _("%(a)s or %(b)s") % {"a": what, "b": one} if what else one
        if p.b is None:
            links = _("the %(link_class)s links of %(join)s") % {
                "link_class": _link_class(p.link_class),
                "join": _join(p.a, p.b),
            }
        else:
            links = _("the %(link_class)s links between %(a)s and %(b)s") % {
                "link_class": _link_class(p.link_class),
                "a": side_label(p.a),
                "b": side_label(p.b),
            }
        return (
            _(
                "We offer no %(what)s cables or optics yet, so %(links)s cannot be cabled here; we can quote the "
                "cabling separately."
            )
            % {"what": what, "links": links},
            _("Choose a switch or adapter with other connectors, or ask us to quote the %(what)s cabling.")
            % {"what": what},
        )
    return (
        _("No catalogue cable or optic set joins %(join)s at %(speed_gbps)s Gb/s for the %(link_class)s links.")
        % {**p.as_dict(), "join": _join(p.a, p.b), "link_class": _link_class(p.link_class)},
        _("Choose a switch and adapter with matching connectors, or ask us to quote the joining cable."),
    )


@renders(FabricBeyondReach, FabricReachNotCatalogued)
def _beyond_reach(p: FabricBeyondReach | FabricReachNotCatalogued) -> tuple[str, str]:
    values = {
        "link_class": _link_class(p.link_class),
        "distance": dec(p.distance_m),
        "slack": dec(p.slack_m),
        "required": dec(p.required_m),
        "join": _join(p.a, p.b),
        "longest": dec(p.longest_m),
        "fits": dec(p.longest_m - p.slack_m),
        "rack_field": RACK_FIELDS.get(p.rack_field or "", p.rack_field),
    }
    if p.fibre_short:
        return _fibre_short(p, values)
    message = (
        _(
            "The %(link_class)s run of %(distance)s m (+%(slack)s m slack) needs a medium of at least %(required)s m, "
            "but the longest catalogue medium that joins %(join)s reaches %(longest)s m."
        )
        % values
    )
    if p.cables_only:
        message += " " + _(
            "No optics for these ports are on offer and no longer cable of this kind is known from the sources, so "
            "these links cannot be quoted as they stand."
        )
    if p.bom_incomplete:
        message += " " + _("The bill of materials leaves these links out, so it is incomplete.")
    if p.rack_field and p.longest_m - p.slack_m > 0:
        fix = (
            _(
                "If the run is shorter, enter at most %(fits)s m as “%(rack_field)s” on the fabric step and the "
                "%(longest)s m medium reaches; otherwise move the switches closer, or ask us to quote a longer "
                "medium (active copper, AOC or optics)."
            )
            % values
        )
    else:
        fix = _("Move the switches closer (shorter runs), or ask us to quote a medium with longer reach.")
    return message, fix


def _fibre_short(p: FabricBeyondReach | FabricReachNotCatalogued, values: dict[str, Any]) -> tuple[str, str]:
    """A run the catalogued optics reach but no catalogued fibre spans: the fibre is what is missing."""
    values = {**values, "reach": dec(p.optics_reach_m or 0)}  # a fibre-short run has its optics' reach
    message = (
        _(
            "The %(link_class)s run of %(distance)s m (+%(slack)s m slack) is within the %(reach)s m reach of the "
            "optics that join %(join)s, but the longest fibre in the catalogue is %(longest)s m: a fibre of at "
            "least %(required)s m (or a trunk with patch panels of that length in all) is missing from the catalogue."
        )
        % values
    )
    message += " " + _("The bill of materials leaves these links out, so it is incomplete.")
    fix = _("Ask us to quote the single-mode fibre or trunk for these runs; the optics reach them.")
    return message, fix


def _protocol_name(protocol: str) -> str:
    return {"infiniband": "InfiniBand", "ethernet": "Ethernet"}.get(protocol, protocol)


@renders(FabricProtocolMismatch)
def _protocol_mismatch(p: FabricProtocolMismatch) -> tuple[str, str]:
    # Only InfiniBand and Ethernet mismatch (VPI speaks both), so English always reads 'an'.
    sw, hca = _protocol_name(p.switch_protocol), _protocol_name(p.hca_protocol)
    values = {
        "switch": p.switch,
        "hca": p.hca,
        "sw_p": sw,
        "hca_p": hca,
    }
    return (
        _("%(switch)s is an %(sw_p)s switch but %(hca)s speaks only %(hca_p)s; the links will not come up.") % values,
        _("Choose an %(sw_p)s or VPI adapter, or an %(hca_p)s switch.") % values,
    )


@renders(FabricSpeedMismatch)
def _speed_mismatch(p: FabricSpeedMismatch) -> tuple[str, str]:
    if p.hca_gbps > p.port_gbps:
        message = _(
            "%(hca)s runs at %(hca_gbps)s Gb/s but the %(switch)s ports at %(port_gbps)s Gb/s; the links negotiate "
            "down to %(link_gbps)s Gb/s."
        )
        if p.advised_generation:
            fix = _(
                "Choose a switch of the adapter's generation (%(advised_generation)s adapters: %(advised_switch)s)."
            )
        else:
            fix = _("Choose a switch with %(hca_gbps)s Gb/s ports.")
    else:
        message = _(
            "%(hca)s runs at %(hca_gbps)s Gb/s on %(port_gbps)s Gb/s %(switch)s ports; the links run at "
            "%(link_gbps)s Gb/s and the rest of each port's bandwidth stays unused."
        )
        fix = _("Choose adapters at the switch's speed, or split ports with a splitter cable.")
    return message % p.as_dict(), fix % p.as_dict()


@renders(FabricPlanesNoMedium)
def _planes_no_medium(p: FabricPlanesNoMedium) -> tuple[str, str]:
    return (
        _(
            "%(hca)s runs as %(links)s x %(gbps)s GbE on %(switch)s, one link to each of %(links)s planes as NVIDIA "
            "plans Spectrum-X, but no catalogue plug for its cage carries %(links)s links: the fabric is planned as "
            "one plane of one %(gbps)s Gb/s link per adapter."
        )
        % p.as_dict(),
        _("Ask us to quote the twin-port transceivers for the adapters' cages to build both planes."),
    )


@renders(FabricPortsExceeded)
def _ports_exceeded(p: FabricPortsExceeded) -> tuple[str, str]:
    if p.max_rails is not None:
        values = {
            **p.as_dict(),
            "nodes": num(p.nodes),
            "units": num(p.units or 0),
            "leaves": num(p.leaves or 0),
        }
        return (
            ngettext(
                "%(nodes)s nodes x %(rails)s rails cannot be wired rail-optimized on %(switch)s (%(ports)s ports): "
                "every scalable unit of up to %(nodes_per_unit)s nodes has one leaf per rail, so %(units)s unit "
                "needs %(leaves)s leaves, more than two tiers take (%(ports)s); and a three-tier pod holds whole "
                "units under spines with %(max_rails)s downlinks, fewer than the %(rails)s leaves of one unit. "
                "Beyond two tiers, rail-optimized %(switch)s fabrics take at most %(max_rails)s rails.",
                "%(nodes)s nodes x %(rails)s rails cannot be wired rail-optimized on %(switch)s (%(ports)s ports): "
                "every scalable unit of up to %(nodes_per_unit)s nodes has one leaf per rail, so %(units)s units "
                "need %(leaves)s leaves, more than two tiers take (%(ports)s); and a three-tier pod holds whole "
                "units under spines with %(max_rails)s downlinks, fewer than the %(rails)s leaves of one unit. "
                "Beyond two tiers, rail-optimized %(switch)s fabrics take at most %(max_rails)s rails.",
                p.units or 0,
            )
            % values,
            _(
                "Use topology fat-tree (endpoints packed onto leaves by port count), or fewer rails: one compute NIC "
                "per GPU, usually 8."
            ),
        )
    endpoints, capacity = num(p.endpoints or 0), num(p.capacity or 0)
    values = {**p.as_dict(), "nodes": num(p.nodes), "endpoints": endpoints, "capacity": capacity}
    return (
        _(
            "%(nodes)s nodes x %(rails)s rails need %(endpoints)s switch ports; three tiers of %(switch)s "
            "(%(ports)s ports) at %(oversubscription)s reach at most %(capacity)s."
        )
        % values,
        _("Choose a switch with more ports, fewer rails or nodes, or split the cluster into separate fabrics."),
    )


@renders(FabricSwitchIsManagement)
def _switch_is_management(p: FabricSwitchIsManagement) -> tuple[str, str]:
    return (
        _("%(switch)s is an out-of-band management switch (1 GbE RJ45); it cannot carry the compute fabric.")
        % p.as_dict(),
        _("Choose an InfiniBand or Ethernet fabric switch on the fabric step."),
    )


@renders(FabricSwitchPortsUnknown)
def _switch_ports_unknown(p: FabricSwitchPortsUnknown) -> tuple[str, str]:
    return (
        _("The catalogue gives no ports or port speed for %(switch)s; the fabric cannot be sized.") % p.as_dict(),
        _("Choose another switch, or ask us to confirm this switch's ports."),
    )


@renders(FabricHcaAssumed)
def _hca_assumed(p: FabricHcaAssumed) -> tuple[str, str]:
    return (
        _("No HCA given: node cables assume a single-port HCA at %(port_gbps)s Gb/s matching the %(switch)s port.")
        % p.as_dict(),
        _("Name the HCA to have its connector and speed checked."),
    )


@renders(FabricNoMgmtSwitch)
def _no_mgmt_switch(p: FabricNoMgmtSwitch) -> tuple[str, str]:
    return (
        _(
            "No out-of-band management switch in the catalogue for the %(ports)s BMC and switch management ports "
            "(1 GbE)."
        )
        % {"ports": num(p.ports)},
        _("Ask us to add a 1 GbE management switch to the quote."),
    )


@renders(FabricPlugTopUnknown)
def _plug_top_unknown(p: FabricPlugTopUnknown) -> tuple[str, str]:
    values = {"medium": p.medium, "side": side_label(p.side), "link_class": _link_class(p.link_class)}
    if p.medium_top is None and p.side["top"] is None:
        what = _("The plug tops of %(medium)s and of %(side)s are not known from the sources") % values
    elif p.medium_top is None:
        what = _("The plug top of %(medium)s is not known from the sources") % values
    else:
        what = _("The plug top that %(side)s takes is not known from the sources") % values
    return (
        _("%(what)s, so the %(link_class)s links assume that %(medium)s fits %(side)s.") % {**values, "what": what},
        _("Confirm the plug top (flat or finned) with us before ordering."),
    )


@renders(FabricMediaDiscontinued)
def _media_discontinued(p: FabricMediaDiscontinued) -> tuple[str, str]:
    values = {"part": p.part, "lifecycle": lifecycle_word(p.lifecycle), "link_class": _link_class(p.link_class)}
    message = (
        _(
            "No active cable or optic reaches for the %(link_class)s links, so the plan uses %(part)s, which is "
            "%(lifecycle)s."
        )
        % values
    )
    return (
        message + " " + replacement_sentence(p.replacement),
        _("Move the switches closer so an active cable or optic reaches, or ask us to quote the replacement."),
    )


def _rack_field(name: str) -> str:
    """A rack distance as the fabric step labels it."""
    if name == "spine_to_core_m":
        return _("Spine to core switch (m)")
    return str(RACK_FIELDS.get(name, name))


@renders(FabricGrowthReserve)
def _growth_reserve(p: FabricGrowthReserve) -> tuple[str, str]:
    free = p.free_ports
    values = {
        "n": num(p.reserve_switches),
        "switch": p.switch,
        "room": num(p.room_nodes),
        "spine": num(free.get("spine", 0)),
        "core": num(free.get("core", 0)),
    }
    if p.three_tier:
        why = (
            _(
                "A three-tier fabric is balanced per pod and per plane: the spines of a pod and the core switches "
                "of a plane are whole, so %(n)s %(switch)s switches more than the links need are a reserve for "
                "growth (%(spine)s spine and %(core)s core ports free)."
            )
            % values
        )
    else:
        why = (
            _(
                "Every leaf needs the same number of links to every spine, so the fabric has %(n)s %(switch)s "
                "switches more than its links fill: a reserve for growth (%(spine)s spine ports free)."
            )
            % values
        )
    room = (
        ngettext(
            " Room for %(room)s more node without new switches.",
            " Room for %(room)s more nodes without new switches.",
            p.room_nodes,
        )
        % values
        if p.room_nodes
        else ""
    )
    if p.cost_eur is not None:
        cost = _("The reserve costs about EUR %(cost)s (list price).") % {"cost": num(p.cost_eur)}
    else:
        cost = _("The reserve's cost is not known: the switch has no list price yet.")
    return (
        why + room,
        cost + " " + _("Keep it if the cluster will grow; otherwise ask us for a fabric sized exactly to the nodes."),
    )


@renders(FabricDistanceAssumed)
def _distance_assumed(p: FabricDistanceAssumed) -> tuple[str, str]:
    values = {
        "link_class": _link_class(p.link_class),
        "default": dec(p.default_m),
        "planned": dec(p.planned_m),
        "field": _rack_field(p.rack_field),
    }
    return (
        _(
            "No distance given for the %(link_class)s runs: the default layout assumes %(default)s m, longer "
            "than any catalogue medium for these ports. The plan assumes runs of at most %(planned)s m."
        )
        % values,
        _(
            "Measure the runs and enter them as “%(field)s” on the fabric step; place the switches within "
            "%(planned)s m, or ask us to quote longer optics."
        )
        % values,
    )


@renders(FabricDistanceImplausible)
def _distance_implausible(p: FabricDistanceImplausible) -> tuple[str, str]:
    values = {"field": _rack_field(p.rack_field), "distance": num(p.distance_m, 1), "limit": num(p.limit_m)}
    if p.rack_field == "in_rack_m":
        message = _(
            "“%(field)s” is %(distance)s m, but a run inside one rack is a few metres at most (a 42U rack is "
            "about 2 m tall; more than %(limit)s m is implausible)."
        )
    else:
        message = _(
            "“%(field)s” is %(distance)s m: runs between the rows of one site are not that long (more than "
            "%(limit)s m is implausible)."
        )
    return (
        message % values,
        _("Check the distance and its unit (metres); the cables are chosen for it as given.") % values,
    )


@renders(FabricDistanceUnused)
def _distance_unused(p: FabricDistanceUnused) -> tuple[str, str]:
    why = {
        "node_to_leaf_m": _("the one switch sits in the nodes' rack, so the run within a rack applies"),
        "leaf_to_spine_m": _("the fabric is one switch, without spines"),
        "spine_to_core_m": _("the fabric has no core switches"),
    }
    reasons = "; ".join(
        _("“%(field)s”: %(why)s") % {"field": _rack_field(name), "why": why.get(name, "")} for name in p.rack_fields
    )
    return (
        _("A distance you gave has no link in this fabric and is not used (%(reasons)s).") % {"reasons": reasons},
        _("Nothing to do, unless you expected a different layout: then check the switch and the node count."),
    )
