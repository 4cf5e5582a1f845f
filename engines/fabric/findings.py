"""Findings the fabric planner raises itself: switch and HCA that do not match (protocol, speed), ports beyond
what the fabric reaches, no medium or none long enough for a link class, and the subnet manager. Each returns a
finding with plain parameters; the service edge renders the message (``messages.fabric``)."""

from __future__ import annotations

from typing import cast

from design.model import RackIn
from design.specs import AdapterSpec, MediaSpec, SwitchSpec
from design.vocabulary import Connector, MediaKind, Protocol
from engines.catalog_view import CatalogView
from engines.findings import Finding, finding, retired_finding
from engines.findings.params import Params
from engines.findings.params.fabric import (
    FabricBeyondReach,
    FabricDistanceImplausible,
    FabricDistanceUnused,
    FabricGrowthReserve,
    FabricMediaDiscontinued,
    FabricMediaNotCatalogued,
    FabricNoCable,
    FabricPlugTopUnknown,
    FabricPortsExceeded,
    FabricProtocolMismatch,
    FabricReachNotCatalogued,
    FabricSmEmbedded,
    FabricSmLimit,
    FabricSmRequired,
    FabricSmUnknown,
    FabricSpeedMismatch,
    LinkSide,
)

from .media import OPTICAL, SLACK_M, MediaChoice, MediaResult, Side
from .rack_model import IN_RACK_PLAUSIBLE_M, ROW_PLAUSIBLE_M, given_distances
from .sizing import Reserve, Size, pod_downlinks


def _finding(params: Params) -> Finding:
    return finding("fabric", params)


def _side(side: Side) -> LinkSide:
    """One end of a link class as plain values, for messages: the part (empty for an assumed HCA), whether it is
    a switch's cages, twin-port, the connector (None: not known from the sources) and the OSFP top."""
    return {
        "part": side.label,
        "is_switch": side.is_switch,
        "twin": side.twin,
        "connector": side.connector.value if side.connector else None,
        "top": side.top.value if side.top else None,
    }


def media_finding(
    name: str, result: MediaResult, a: Side, b: Side, speed: int, distance: float, field_name: str = ""
) -> Finding:
    """No catalogue medium for a link class (a connector unknown, no media class at all for the connector and
    speed, or none joining the two ends), or none reaching the run's length. A connector unknown from the sources
    and a connector for which the catalogue holds no medium at that speed are gaps of the catalogue, not of the
    hardware: a warning (FABRIC_MEDIA_NOT_CATALOGUED) that the bill leaves those links out, never an error."""
    if not result.matched:
        return _unmatched_finding(name, result, a, b, speed)
    return _reach_finding(name, result, _side(a), None if a == b else _side(b), distance, field_name)


def _unmatched_finding(name: str, result: MediaResult, a: Side, b: Side, speed: int) -> Finding:
    """No medium joins the two ends: a connector unknown, none catalogued at the speed, or none joining them."""
    end_a, end_b = _side(a), None if a == b else _side(b)
    sides = [side for n, side in (("a", a), ("b", b)) if n in result.bare]
    unknown = [side for side in sides if side.connector is None]
    if unknown:
        # An unsourced connector stays unknown, visibly: no cable can be chosen for it.
        return _finding(
            FabricMediaNotCatalogued(
                link_class=name,
                a=end_a,
                b=end_b,
                unknown_side=_side(unknown[0]),
                unknown_connector=True,
                bom_incomplete=True,
            )
        )
    if sides:
        # The catalogue has no media class at all for this connector and speed (XDR OSFP, 100G QSFP28):
        # say so plainly instead of suggesting that another cable would join the two sides.
        kinds = list(dict.fromkeys(cast(Connector, side.connector).value for side in sides))  # all known here
        return _finding(
            FabricMediaNotCatalogued(
                link_class=name,
                a=end_a,
                b=end_b,
                missing_media=[{"connector": c, "speed_gbps": speed} for c in kinds],
                bom_incomplete=True,
            )
        )
    return _finding(FabricNoCable(link_class=name, a=end_a, b=end_b, speed_gbps=speed))


def _reach_finding(
    name: str, result: MediaResult, end_a: LinkSide, end_b: LinkSide | None, distance: float, field_name: str
) -> Finding:
    """Media join the two ends but none reaches the run: refused where the optics are the limit, a gap of the
    catalogue where only its cables or fibres are."""
    longest = result.longest_m or 0
    # No optics join these ends at all: the longest catalogued cable is a limit of the catalogue, not of the link
    # (longer AOCs and optics exist for every InfiniBand generation), so the gap is a warning and the bill incomplete.
    # Where catalogued optics join the ends, their reach is the limit and the run is refused.
    # Where catalogued optics reach the run but every catalogued fibre is shorter, the fibre is what the catalogue
    # lacks (NVIDIA's single-mode MPO links run up to 500 m "inc. patch panels, trunk and cables"): a gap too.
    reach = result.optics_reach_m
    fibre_short = result.optics_matched and reach is not None and reach >= distance + SLACK_M
    gap = not result.optics_matched or fibre_short
    kind = FabricReachNotCatalogued if gap else FabricBeyondReach
    return _finding(
        kind(
            link_class=name,
            a=end_a,
            b=end_b,
            distance_m=distance,
            slack_m=SLACK_M,
            required_m=distance + SLACK_M,
            longest_m=longest,
            rack_field=field_name or None,
            # No optics join these ends at all: the longest catalogued cable is the limit, and whether a longer one
            # exists is not known from the sources (HDR AOCs beyond 30 m, for one).
            cables_only=not result.optics_matched,
            bom_incomplete=gap,
            fibre_short=True if fibre_short else None,
            optics_reach_m=reach if fibre_short else None,
        )
    )


def subnet_manager_finding(switch: SwitchSpec, ib_nodes: int) -> Finding | None:
    """An InfiniBand fabric needs a subnet manager (fabric.md section 0 rule 6). Managed Quantum switches embed
    one, without adaptive routing or SHARP, for fabrics up to the switch's ``embedded_sm_max_nodes`` (a catalogue
    fact: 2,048 in the MLNX-OS manual); unmanaged switches run none, so UFM or an SM host is required.
    ``SwitchSpec.managed`` None: not known from the sources, said so, never read as unmanaged; a managed switch
    whose limit is not sourced gets the embedded-SM note with the limit said to be unknown. ``ib_nodes`` counts
    InfiniBand endpoints in the SM's sense: HCA ports and switches (not servers)."""
    if switch.protocol != Protocol.INFINIBAND:
        return None
    managed = getattr(switch, "managed", None)
    limit = switch.embedded_sm_max_nodes
    kind: type[FabricSmUnknown | FabricSmRequired | FabricSmLimit | FabricSmEmbedded]
    if managed is None:
        kind = FabricSmUnknown
    elif not managed:
        kind = FabricSmRequired
    elif limit is not None and ib_nodes > limit:
        kind = FabricSmLimit
    else:
        kind = FabricSmEmbedded
    return _finding(kind(switch=switch.part_number, ib_nodes=ib_nodes, sm_limit=limit))


def switch_for_speed(catalog: CatalogView, protocol: Protocol, gbps: int) -> SwitchSpec | None:
    """The catalogue's fabric switch of this protocol at ``gbps`` per port, for fix texts: active before retired,
    managed before not, then the most ports; None when the catalogue holds none."""
    found = [
        s
        for s in catalog.of_type(SwitchSpec)
        if s.protocol == protocol and not s.management and s.port_speed_gbps == gbps
    ]
    return min(found, key=lambda s: (s.retired, s.managed is not True, -s.logical_ports, s.part_number), default=None)


def protocol_finding(switch: SwitchSpec, hca: AdapterSpec | None) -> Finding | None:
    """An InfiniBand-only switch needs InfiniBand or VPI adapters, an Ethernet switch Ethernet or VPI ones
    (ConnectX-7 and BlueField-3 are VPI: either protocol per port; hardware.md section adapters)."""
    if hca is None or hca.protocol is None or hca.protocol == switch.protocol:
        return None
    if Protocol.VPI in (hca.protocol, switch.protocol):
        return None
    return _finding(
        FabricProtocolMismatch(
            switch=switch.part_number,
            hca=hca.part_number,
            switch_protocol=str(switch.protocol),
            hca_protocol=str(hca.protocol),
        ),
    )


def speed_finding(switch: SwitchSpec, hca: AdapterSpec | None, split: int, catalog: CatalogView) -> Finding | None:
    """Mixed speeds negotiate down to the common speed ("InfiniBand speed is auto-adjusted", QM97X0 manual):
    NDR adapters on an HDR QM8700 run at 200 Gb/s; a slower adapter on an unsplit port wastes the rest."""
    if hca is None or not hca.speed_gbps or not switch.port_speed_gbps:
        return None
    port = switch.port_speed_gbps // split
    if hca.speed_gbps == port:
        return None
    example = None
    if hca.speed_gbps > port:
        example = switch_for_speed(catalog, switch.protocol, hca.speed_gbps)
    return _finding(
        FabricSpeedMismatch(
            hca=hca.part_number,
            switch=switch.part_number,
            hca_gbps=hca.speed_gbps,
            port_gbps=port,
            link_gbps=min(hca.speed_gbps, port),
            advised_generation=(example.generation or None) if example else None,
            advised_switch=example.part_number if example else None,
        ),
    )


def rails_exceeded_finding(nodes: int, rails: int, switch: SwitchSpec, size: Size) -> Finding:
    """Rail-optimized needs one leaf per rail in every SU, and an SU's leaves share their spines: two tiers take
    at most k leaves in all, a three-tier pod at most k/2 (whole SUs). More rails than a pod holds cannot be
    wired rail-optimized beyond the SUs two tiers take; say that instead of a meaningless capacity."""
    k, pod = switch.logical_ports, pod_downlinks(switch)
    return _finding(
        FabricPortsExceeded(
            nodes=nodes,
            rails=rails,
            switch=switch.part_number,
            ports=k,
            nodes_per_unit=size.nodes_per_unit,
            units=size.units,
            max_rails=pod,
            leaves=size.leaves,
        ),
    )


def named_part_findings(switch: SwitchSpec, hca: AdapterSpec | None) -> list[Finding]:
    """Lifecycle warnings for the fabric's switch and HCA as the request names them."""
    named = [("fabric.switch", switch), ("fabric.hca", hca)]
    return [retired_finding(subject, spec) for subject, spec in named if spec is not None and spec.retired]


def choice_findings(name: str, choice: MediaChoice, a: Side, b: Side) -> list[Finding]:
    """What the chosen medium of a link class leaves open: a plug top not known at an end (the fit is assumed),
    and a discontinued or end-of-life part chosen because no active option reaches."""
    if not choice.unknown_tops and not choice.retired:
        return []
    found: list[Finding] = []
    sides = {"a": a, "b": b}
    for side_name in choice.unknown_tops:
        part = next((i.part for i in choice.items if i.at == side_name), choice.items[0].part)
        found.append(
            _finding(
                FabricPlugTopUnknown(
                    link_class=name,
                    side=_side(sides[side_name]),
                    medium=part.part_number,
                    medium_top=_end_top(part, side_name),
                ),
            )
        )
    for part in choice.retired:
        found.append(
            _finding(
                FabricMediaDiscontinued(
                    link_class=name,
                    part=part.part_number,
                    lifecycle=part.lifecycle,
                    replacement=part.replacement or None,
                ),
            )
        )
    return found


def _end_top(part: MediaSpec, side_name: str) -> str | None:
    """The plug top of the medium's end at the side (a transceiver's electrical end, a cable's end A or B)."""
    if part.kind == MediaKind.TRANSCEIVER:
        end = part.end_a if part.end_b.connector in OPTICAL else part.end_b
    else:
        end = part.end_a if side_name == "a" else part.end_b
    return end.top.value if end.top else None


def growth_reserve_finding(switch: SwitchSpec, reserve: Reserve) -> Finding:
    """A plan that holds switches beyond what its links need says so, with what they cost and the room they give
    (info: a balanced fabric or whole pods are sound design, but the customer pays for them)."""
    price = switch.price_eur
    return _finding(
        FabricGrowthReserve(
            switch=switch.part_number,
            reserve_switches=reserve.switches,
            cost_eur=float(price) * reserve.switches if price is not None else None,
            room_nodes=reserve.room_nodes,
            free_ports=dict(reserve.free_ports),
            three_tier=reserve.three_tier,
        ),
    )


def distance_findings(rack: RackIn | None, tiers: int, node_field: str) -> list[Finding]:
    """Distances the design gives are never passed over in silence: an implausible one is a warning (a run inside
    one rack beyond a few metres, kilometres between rows), one the plan has no link for is said (info)."""
    given = given_distances(rack)
    out: list[Finding] = []
    for name in sorted(given):
        value = float(getattr(rack, name))
        limit = IN_RACK_PLAUSIBLE_M if name == "in_rack_m" else ROW_PLAUSIBLE_M
        if value > limit:
            out.append(_finding(FabricDistanceImplausible(rack_field=name, distance_m=value, limit_m=limit)))
    # An in-rack run is never called unused: the rack plan may put leaves (or the management switch) in the nodes'
    # racks and route the node runs over it.
    used = {node_field, "in_rack_m"} | ({"leaf_to_spine_m"} if tiers >= 2 else set())
    unused = sorted(given - used - ({"spine_to_core_m"} if tiers >= 3 else set()))
    if unused:
        out.append(_finding(FabricDistanceUnused(rack_fields=unused, tiers=tiers, node_field=node_field)))
    return out
