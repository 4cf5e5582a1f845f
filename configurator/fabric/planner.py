"""The fabric planner: switches, links, media and bill of materials of a rail-optimized or fat-tree fabric.

Pure arithmetic on counts: nothing here enumerates individual ports or cables (configurator.fabric.cabling
does that lazily, for the cabling CSV). The rules, their sources and the worked arithmetic are in README.md.

Sizing in short (k = logical ports of the switch, s = split factor of node-facing ports):

* 1 tier when every endpoint (nodes x rails) fits on one switch (k x s ports).
* Leaf: down = floor(k d / (d + u)) logical ports to the nodes, up = k - down to the spines.
* Rail-optimized: an SU holds down x s nodes; each SU has one leaf per rail; a partial SU is wired full.
  Fat-tree: endpoints packed onto leaves by port count.
* 2 tiers while leaves <= k (each leaf needs at least one link to every spine); spines: the smallest count
  that divides every leaf's uplinks evenly and has ports for all of them.
* 3 tiers: spines split half down, half up; pods of at most k/2 leaves (whole SUs) with their own spines;
  the spines of position j in every pod form plane j, balanced over the core switches of that plane.
  Up to k pods (k^3/4 endpoints at 1:1); beyond, an error finding.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from dataclasses import replace as _replace
from typing import Any

from configurator.findings import FabricCode, Finding, finding
from configurator.rules.design import RackIn
from configurator.rules.specs import AdapterSpec, CatalogView, Connector, Protocol, SwitchSpec, Top

from .facts import EMBEDDED_SM_MAX_NODES, IB_SWITCH_FOR_SPEED
from .media import SLACK_M, MediaResult, Side, item_quantity, select_media

# Rack model defaults (README "Rack model"); every one can be overridden through RackIn.
RACK_U = 42
RACK_RESERVED_U = 4  # PDUs, patch panel and the out-of-band switch
RACK_POWER_W = 60_000
DEFAULT_NODES_PER_RACK = 4  # four 8U HGX nodes of <= 14 kW in a 42U rack at ~56 kW
IN_RACK_M = 2.0
NODE_TO_LEAF_M = 15.0
LEAF_TO_SPINE_M = 30.0
SPINE_TO_CORE_M = 50.0

NODE_LEAF, LEAF_SPINE, SPINE_CORE = "node-leaf", "leaf-spine", "spine-core"


@dataclass(frozen=True)
class LinkPlan:
    """One link class: how many links, at what speed and distance, over which parts."""

    name: str
    links: int
    speed_gbps: int
    distance_m: float
    media: str | None  # dac, acc, aoc, optics; None when nothing in the catalogue fits
    length_m: float | None
    cable_part: str | None  # the part label for the cabling CSV
    parts: tuple[tuple[str, int, str], ...]  # (part, quantity, role)
    links_per_plug: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "class": self.name,
            "links": self.links,
            "speed_gbps": self.speed_gbps,
            "distance_m": self.distance_m,
            "media": self.media,
            "length_m": self.length_m,
            "cable_part": self.cable_part,
            "links_per_switch_plug": self.links_per_plug,
            "parts": [{"part": p, "quantity": q, "role": r} for p, q, r in self.parts],
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> LinkPlan:
        return cls(
            name=d["class"],
            links=d["links"],
            speed_gbps=d["speed_gbps"],
            distance_m=d["distance_m"],
            media=d.get("media"),
            length_m=d.get("length_m"),
            cable_part=d.get("cable_part"),
            parts=tuple((p["part"], p["quantity"], p.get("role", "")) for p in d.get("parts", [])),
            links_per_plug=d.get("links_per_switch_plug", 1),
        )


@dataclass(frozen=True)
class FabricPlan:
    nodes: int
    rails: int
    switch: str
    hca: str | None
    topology: str
    oversubscription: tuple[int, int]
    tiers: int  # 0: no plan could be sized (see findings)
    logical_ports: int = 0
    split: int = 1  # node-facing logical ports split into this many slower ports
    leaf_downlinks: int = 0  # logical ports per leaf facing the nodes
    leaf_uplinks: int = 0
    nodes_per_unit: int = 0
    units: int = 0
    pods: int = 0
    leaves_per_pod: int = 0
    spines_per_pod: int = 0
    cores_per_plane: int = 0
    spine_downlinks: int = 0  # logical ports per spine reserved for leaves
    spine_uplinks: int = 0
    leaf_switches: int = 0
    spine_switches: int = 0
    core_switches: int = 0
    node_links: int = 0
    leaf_spine_links: int = 0
    spine_core_links: int = 0
    links_per_leaf_spine_pair: int = 0
    links_per_spine_core_pair: int = 0
    link_speed_gbps: int = 0
    uplink_speed_gbps: int = 0
    ports: tuple[tuple[str, int, int], ...] = ()  # (tier, used, total)
    links: tuple[LinkPlan, ...] = ()
    management_switch: str | None = None
    management_switches: int = 0
    nodes_per_rack: int = 0
    node_racks: int = 0
    bom: tuple[tuple[str, int], ...] = ()
    findings: tuple[Finding, ...] = field(default_factory=tuple)

    @property
    def switches(self) -> int:
        return self.leaf_switches + self.spine_switches + self.core_switches

    @property
    def endpoints(self) -> int:
        return self.nodes * self.rails

    @property
    def bisection_bandwidth_gbps(self) -> int:
        """Half the smallest of node, leaf-spine and spine-core capacity (ideal routing)."""
        if not self.tiers:
            return 0
        caps = [self.node_links * self.link_speed_gbps]
        if self.tiers >= 2:
            caps.append(self.leaf_spine_links * self.uplink_speed_gbps)
        if self.tiers >= 3:
            caps.append(self.spine_core_links * self.uplink_speed_gbps)
        return min(caps) // 2

    def link(self, name: str) -> LinkPlan | None:
        return next((lp for lp in self.links if lp.name == name), None)

    def to_dict(self, findings: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        """The plan as JSON; ``findings`` are its findings as the service edge rendered them (messages are not
        the engine's business)."""
        ports = {tier: {"used": used, "free": total - used, "total": total} for tier, used, total in self.ports}
        return {
            "nodes": self.nodes,
            "rails": self.rails,
            "switch": self.switch,
            "hca": self.hca,
            "topology": self.topology,
            "oversubscription": f"{self.oversubscription[0]}:{self.oversubscription[1]}",
            "tiers": self.tiers,
            "logical_ports_per_switch": self.logical_ports,
            "port_split": self.split,
            "leaf_downlinks": self.leaf_downlinks,
            "leaf_uplinks": self.leaf_uplinks,
            "nodes_per_unit": self.nodes_per_unit,
            "units": self.units,
            "pods": self.pods,
            "leaves_per_pod": self.leaves_per_pod,
            "spines_per_pod": self.spines_per_pod,
            "cores_per_plane": self.cores_per_plane,
            "spine_downlinks": self.spine_downlinks,
            "spine_uplinks": self.spine_uplinks,
            "leaf_switches": self.leaf_switches,
            "spine_switches": self.spine_switches,
            "core_switches": self.core_switches,
            "node_links": self.node_links,
            "leaf_spine_links": self.leaf_spine_links,
            "spine_core_links": self.spine_core_links,
            "links_per_leaf_spine_pair": self.links_per_leaf_spine_pair,
            "links_per_spine_core_pair": self.links_per_spine_core_pair,
            "link_speed_gbps": self.link_speed_gbps,
            "uplink_speed_gbps": self.uplink_speed_gbps,
            "bisection_bandwidth_gbps": self.bisection_bandwidth_gbps,
            "bisection_bandwidth_tbps": self.bisection_bandwidth_gbps / 1000,
            "ports_used": {t: v["used"] for t, v in ports.items()},
            "ports_free": {t: v["free"] for t, v in ports.items()},
            "links": [lp.to_dict() for lp in self.links],
            "management_switch": self.management_switch,
            "management_switches": self.management_switches,
            "nodes_per_rack": self.nodes_per_rack,
            "node_racks": self.node_racks,
            "bom": [{"part": p, "quantity": q} for p, q in self.bom],
            "findings": findings or [],
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> FabricPlan:
        """Rebuild a plan from ``to_dict()`` output (a frozen quote's snapshot), e.g. to redraw its diagram or
        re-stream its cabling. Findings are not rebuilt (the dict holds them in one language only)."""
        down, _, up = str(d.get("oversubscription", "1:1")).partition(":")
        totals = {
            t: d.get("ports_used", {}).get(t, 0) + d.get("ports_free", {}).get(t, 0) for t in d.get("ports_used", {})
        }
        return cls(
            nodes=d["nodes"],
            rails=d["rails"],
            switch=d["switch"],
            hca=d.get("hca"),
            topology=d["topology"],
            oversubscription=(int(down or 1), int(up or 1)),
            tiers=d["tiers"],
            logical_ports=d.get("logical_ports_per_switch", 0),
            split=d.get("port_split", 1),
            leaf_downlinks=d.get("leaf_downlinks", 0),
            leaf_uplinks=d.get("leaf_uplinks", 0),
            nodes_per_unit=d.get("nodes_per_unit", 0),
            units=d.get("units", 0),
            pods=d.get("pods", 0),
            leaves_per_pod=d.get("leaves_per_pod", 0),
            spines_per_pod=d.get("spines_per_pod", 0),
            cores_per_plane=d.get("cores_per_plane", 0),
            spine_downlinks=d.get("spine_downlinks", 0),
            spine_uplinks=d.get("spine_uplinks", 0),
            leaf_switches=d.get("leaf_switches", 0),
            spine_switches=d.get("spine_switches", 0),
            core_switches=d.get("core_switches", 0),
            node_links=d.get("node_links", 0),
            leaf_spine_links=d.get("leaf_spine_links", 0),
            spine_core_links=d.get("spine_core_links", 0),
            links_per_leaf_spine_pair=d.get("links_per_leaf_spine_pair", 0),
            links_per_spine_core_pair=d.get("links_per_spine_core_pair", 0),
            link_speed_gbps=d.get("link_speed_gbps", 0),
            uplink_speed_gbps=d.get("uplink_speed_gbps", 0),
            ports=tuple((t, d["ports_used"][t], totals[t]) for t in d.get("ports_used", {})),
            links=tuple(LinkPlan.from_dict(lk) for lk in d.get("links", [])),
            management_switch=d.get("management_switch"),
            management_switches=d.get("management_switches", 0),
            nodes_per_rack=d.get("nodes_per_rack", 0),
            node_racks=d.get("node_racks", 0),
            bom=tuple((row["part"], row["quantity"]) for row in d.get("bom", [])),
        )


# ----------------------------------------------------------------------------------------------------------
# Sizing


@dataclass(frozen=True)
class _Size:
    tiers: int
    down: int = 0
    up: int = 0
    nodes_per_unit: int = 0
    units: int = 0
    leaves: int = 0
    node_groups: tuple[tuple[int, int], ...] = ()  # (leaves, node links on each)
    spines: int = 0
    m: int = 0  # links per leaf-spine pair
    pods: int = 0
    leaves_per_pod: int = 0
    spines_per_pod: int = 0
    spine_down: int = 0
    spine_up: int = 0
    spine_groups: tuple[tuple[int, int], ...] = ()  # (spines, leaf links on each)
    cores_per_plane: int = 0
    mc: int = 0  # links per spine-core pair
    cores: int = 0
    capacity: int = 0  # endpoints the largest fabric of this switch and ratio reaches (when infeasible)


def balanced_uppers(lowers: int, uplinks: int, upper_ports: int) -> int | None:
    """Smallest number of upper switches that divides each lower switch's uplinks evenly and has ports for
    all of them (fabric.md section 0 rule 4), or None when even one link per pair overflows the uppers."""
    need = lowers * uplinks
    for n in range(max(1, -(-need // upper_ports)), uplinks + 1):
        if uplinks % n == 0 and n * upper_ports >= need:
            return n
    return None


def _groups(*pairs: tuple[int, int]) -> tuple[tuple[int, int], ...]:
    return tuple((c, e) for c, e in pairs if c > 0 and e > 0)


def size_fabric(
    nodes: int, rails: int, k: int, split: int, oversub: tuple[int, int], topology: str, cage_ports: int = 1
) -> _Size:
    """Switch and link counts. ``cage_ports``: logical ports per cage; down/up are kept to whole cages so a
    twin-port plug never serves a node and a spine at once."""
    endpoints = nodes * rails
    if endpoints <= k * split:
        return _Size(tiers=1, nodes_per_unit=nodes, units=1, leaves=1, node_groups=((1, endpoints),))
    d, u = oversub
    down = k * d // (d + u) // cage_ports * cage_ports
    up = k - down
    per_leaf = down * split
    if topology == "rail-optimized":
        npu = per_leaf
        units = -(-nodes // npu)
        leaves = units * rails
        full, rem = divmod(nodes, npu)
        node_groups = _groups((full * rails, npu), (rails if rem else 0, rem))
    else:
        npu, units = nodes, 1
        leaves = -(-endpoints // per_leaf)
        full, rem = divmod(endpoints, per_leaf)
        node_groups = _groups((full, per_leaf), (1 if rem else 0, rem))
    base = _Size(tiers=2, down=down, up=up, nodes_per_unit=npu, units=units, leaves=leaves, node_groups=node_groups)
    spines = balanced_uppers(leaves, up, k)
    if spines is not None:
        return _replace(
            base, spines=spines, m=up // spines, spine_down=k, spine_groups=((spines, leaves * up // spines),)
        )
    # Three tiers: spines non-blocking (half down, half up), pods of whole SUs.
    spine_down = k // 2 // cage_ports * cage_ports
    spine_up = k - spine_down
    if topology == "rail-optimized":
        units_per_pod = spine_down // rails
        leaves_per_pod = units_per_pod * rails
        pods = -(-units // units_per_pod) if units_per_pod else 0
    else:
        leaves_per_pod = spine_down
        pods = -(-leaves // leaves_per_pod)
    spp = balanced_uppers(leaves_per_pod, up, spine_down) if leaves_per_pod else None
    cpp = balanced_uppers(pods, spine_up, k) if spp else None
    if not leaves_per_pod or spp is None or cpp is None:
        units_per_pod = leaves_per_pod // rails if topology == "rail-optimized" else 0
        per_pod = units_per_pod * npu * rails if topology == "rail-optimized" else leaves_per_pod * per_leaf
        return _replace(base, tiers=0, capacity=k * per_pod)
    m = up // spp
    last = leaves - (pods - 1) * leaves_per_pod
    spine_groups = _groups(((pods - 1) * spp, leaves_per_pod * m), (spp, last * m))
    return _replace(
        base,
        tiers=3,
        spines=pods * spp,
        m=m,
        pods=pods,
        leaves_per_pod=leaves_per_pod,
        spines_per_pod=spp,
        spine_down=spine_down,
        spine_up=spine_up,
        spine_groups=spine_groups,
        cores_per_plane=cpp,
        mc=spine_up // cpp,
        cores=spp * cpp,
    )


# ----------------------------------------------------------------------------------------------------------
# Rack model


def nodes_per_rack(rack: RackIn | None, node_height_u: int | None, node_power_w: int | None) -> int:
    """Nodes in one rack: the override, else what height and power allow, else 4 (README "Rack model")."""
    if rack is not None and rack.nodes_per_rack:
        return rack.nodes_per_rack
    if node_height_u is None and node_power_w is None:
        return DEFAULT_NODES_PER_RACK
    by_u = (RACK_U - RACK_RESERVED_U) // node_height_u if node_height_u else DEFAULT_NODES_PER_RACK * 8
    by_w = RACK_POWER_W // node_power_w if node_power_w else DEFAULT_NODES_PER_RACK * 8
    return max(1, min(by_u, by_w))


def _distance(rack: RackIn | None, name: str, default: float) -> float:
    value = getattr(rack, name, None) if rack is not None else None
    return float(value) if value is not None else default


# ----------------------------------------------------------------------------------------------------------
# Findings raised by the planner itself


def _finding(code: FabricCode, **params: Any) -> Finding:
    return finding(code, "fabric", **params)


def _side(side: Side) -> dict[str, Any]:
    """One end of a link class as plain values, for messages: the part (empty for an assumed HCA), whether it is
    a switch's cages, twin-port, the connector (None: not known from the sources) and the OSFP top."""
    return {
        "part": side.label,
        "is_switch": side.is_switch,
        "twin": side.twin,
        "connector": side.connector.value if side.connector else None,
        "top": side.top.value if side.top else None,
    }


def _media_finding(
    name: str, result: MediaResult, a: Side, b: Side, speed: int, distance: float, field_name: str = ""
) -> Finding:
    """No catalogue medium for a link class (a connector unknown, no media class at all for the connector and
    speed, or none joining the two ends), or none reaching the run's length."""
    ends = {"link_class": name, "a": _side(a), "b": None if a == b else _side(b)}
    if not result.matched:
        sides = [side for n, side in (("a", a), ("b", b)) if n in result.bare]
        unknown = [side for side in sides if side.connector is None]
        if unknown:
            # An unsourced connector stays unknown, visibly: no cable can be chosen for it.
            return _finding(FabricCode.NO_CABLE, **ends, unknown_side=_side(unknown[0]), unknown_connector=True)
        if sides:
            # The catalogue has no media class at all for this connector and speed (XDR OSFP, 100G QSFP28):
            # say so plainly instead of suggesting that another cable would join the two sides.
            kinds = list(dict.fromkeys(side.connector.value for side in sides))
            return _finding(
                FabricCode.NO_CABLE, **ends, missing_media=[{"connector": c, "speed_gbps": speed} for c in kinds]
            )
        return _finding(FabricCode.NO_CABLE, **ends, speed_gbps=speed)
    longest = result.longest_m or 0
    return _finding(
        FabricCode.BEYOND_REACH,
        **ends,
        distance_m=distance,
        slack_m=SLACK_M,
        required_m=distance + SLACK_M,
        longest_m=longest,
        rack_field=field_name or None,
    )


def _subnet_manager_finding(switch: SwitchSpec, ib_nodes: int) -> Finding | None:
    """An InfiniBand fabric needs a subnet manager (fabric.md section 0 rule 6). Managed Quantum switches embed
    one for fabrics up to 2,048 nodes, without adaptive routing or SHARP (MLNX-OS manual); unmanaged switches
    run none, so UFM or an SM host is required. ``SwitchSpec.managed`` None: not known from the sources, said
    so, never read as unmanaged. ``ib_nodes`` counts InfiniBand endpoints in the SM's sense: HCA ports and
    switches (not servers)."""
    if switch.protocol != Protocol.INFINIBAND:
        return None
    managed = getattr(switch, "managed", None)
    params = {"switch": switch.part_number, "ib_nodes": ib_nodes, "sm_limit": EMBEDDED_SM_MAX_NODES}
    if managed is None:
        return _finding(FabricCode.SM_UNKNOWN, **params)
    if not managed:
        return _finding(FabricCode.SM_REQUIRED, **params)
    if ib_nodes > EMBEDDED_SM_MAX_NODES:
        return _finding(FabricCode.SM_LIMIT, **params)
    return _finding(FabricCode.SM_EMBEDDED, **params)


def protocol_finding(switch: SwitchSpec, hca: AdapterSpec | None) -> Finding | None:
    """An InfiniBand-only switch needs InfiniBand or VPI adapters, an Ethernet switch Ethernet or VPI ones
    (ConnectX-7 and BlueField-3 are VPI: either protocol per port; hardware.md section adapters)."""
    if hca is None or Protocol.VPI in (hca.protocol, switch.protocol) or hca.protocol == switch.protocol:
        return None
    return _finding(
        FabricCode.PROTOCOL_MISMATCH,
        switch=switch.part_number,
        hca=hca.part_number,
        switch_protocol=str(switch.protocol),
        hca_protocol=str(hca.protocol),
    )


def speed_finding(switch: SwitchSpec, hca: AdapterSpec | None, split: int) -> Finding | None:
    """Mixed speeds negotiate down to the common speed ("InfiniBand speed is auto-adjusted", QM97X0 manual):
    NDR adapters on an HDR QM8700 run at 200 Gb/s; a slower adapter on an unsplit port wastes the rest."""
    if hca is None or not hca.speed_gbps or not switch.port_speed_gbps:
        return None
    port = switch.port_speed_gbps // split
    if hca.speed_gbps == port:
        return None
    example = None
    if hca.speed_gbps > port and switch.protocol == Protocol.INFINIBAND:
        example = IB_SWITCH_FOR_SPEED.get(hca.speed_gbps)
    return _finding(
        FabricCode.SPEED_MISMATCH,
        hca=hca.part_number,
        switch=switch.part_number,
        hca_gbps=hca.speed_gbps,
        port_gbps=port,
        link_gbps=min(hca.speed_gbps, port),
        advised_generation=example[0] if example else None,
        advised_switch=example[1] if example else None,
    )


# ----------------------------------------------------------------------------------------------------------
# The planner


def _switch_side(switch: SwitchSpec, split: int, label: str) -> Side:
    return Side(
        connector=switch.cage_connector,
        top=switch.top,
        twin=switch.logical_ports_per_cage >= 2,
        links_per_plug=switch.logical_ports_per_cage * split,
        label=label,
        is_switch=True,
    )


def _hca_side(switch: SwitchSpec, hca: AdapterSpec | None) -> Side:
    if hca is None:
        # The assumed HCA mirrors the switch port (README): flat-top OSFP for OSFP cages (ConnectX-7 OSFP).
        top = Top.FLAT if switch.cage_connector == Connector.OSFP else None
        return Side(switch.cage_connector, top, False, 1, "", False)
    return Side(hca.connector, hca.top, False, 1, hca.part_number, False)


def _split_options(switch: SwitchSpec, hca_speed: int) -> list[int]:
    """Split factors to try, largest first: an NDR200 HCA on an NDR port may use half a split port."""
    port = switch.port_speed_gbps
    if hca_speed and port and hca_speed < port and switch.max_split > 1:
        best = min(switch.max_split, port // hca_speed)
        return list(range(best, 0, -1))
    return [1]


def _empty(
    nodes: int,
    rails: int,
    switch: SwitchSpec,
    hca: AdapterSpec | None,
    topology: str,
    oversub: tuple[int, int],
    findings: list[Finding],
    **extra: Any,
) -> FabricPlan:
    return FabricPlan(
        nodes=nodes,
        rails=rails,
        switch=switch.part_number,
        hca=hca.part_number if hca else None,
        topology=topology,
        oversubscription=oversub,
        tiers=0,
        findings=tuple(findings),
        **extra,
    )


def _pod_downlinks(switch: SwitchSpec) -> int:
    """Downlinks of a three-tier spine (half its ports, whole cages): the most leaves one pod can hold."""
    cage = max(1, switch.logical_ports_per_cage)
    return switch.logical_ports // 2 // cage * cage


def _rails_exceeded_finding(nodes: int, rails: int, switch: SwitchSpec, size: _Size) -> Finding:
    """Rail-optimized needs one leaf per rail in every SU, and an SU's leaves share their spines: two tiers take
    at most k leaves in all, a three-tier pod at most k/2 (whole SUs). More rails than a pod holds cannot be
    wired rail-optimized beyond the SUs two tiers take; say that instead of a meaningless capacity."""
    k, pod = switch.logical_ports, _pod_downlinks(switch)
    return _finding(
        FabricCode.PORTS_EXCEEDED,
        nodes=nodes,
        rails=rails,
        switch=switch.part_number,
        ports=k,
        nodes_per_unit=size.nodes_per_unit,
        units=size.units,
        max_rails=pod,
        leaves=size.leaves,
    )


def plan_fabric(
    *,
    nodes: int,
    rails: int,
    switch: SwitchSpec,
    oversubscription: tuple[int, int] = (1, 1),
    topology: str = "rail-optimized",
    hca: AdapterSpec | None = None,
    catalog: CatalogView,
    rack: RackIn | None = None,
    node_height_u: int | None = None,
    node_power_w: int | None = None,
) -> FabricPlan:
    """Size the compute fabric and its bill of materials; problems come back as findings on the plan."""
    findings: list[Finding] = []
    k = switch.logical_ports
    common = (nodes, rails, switch, hca, topology, oversubscription)
    if switch.management:
        findings.append(_finding(FabricCode.SWITCH_IS_MANAGEMENT, switch=switch.part_number))
        return _empty(*common, findings)
    if k <= 0 or switch.port_speed_gbps <= 0:
        findings.append(_finding(FabricCode.SWITCH_PORTS_UNKNOWN, switch=switch.part_number))
        return _empty(*common, findings)
    if hca is None:
        findings.append(_finding(FabricCode.HCA_ASSUMED, switch=switch.part_number, port_gbps=switch.port_speed_gbps))
    mismatch = protocol_finding(switch, hca)
    if mismatch is not None:
        findings.append(mismatch)
    hca_speed = (hca.speed_gbps if hca is not None else None) or switch.port_speed_gbps
    port_speed = switch.port_speed_gbps
    npr = nodes_per_rack(rack, node_height_u, node_power_w)
    switch_label = switch.part_number
    protocol = switch.protocol

    # Prefer split ports when the HCA is slower and a catalogue splitter makes them; fall back to whole ports.
    options = []
    for split in _split_options(switch, hca_speed):
        size = size_fabric(nodes, rails, k, split, oversubscription, topology, switch.logical_ports_per_cage)
        if not size.tiers:
            options.append((split, size, None, None, None, 0.0, ""))
            continue
        # In-rack rule (README "Rack model"): the node runs are in-rack only when the whole fabric is one
        # switch and every node fits one rack, so that switch sits in the nodes' rack.
        in_rack = size.tiers == 1 and nodes <= npr
        field_name, default = ("in_rack_m", IN_RACK_M) if in_rack else ("node_to_leaf_m", NODE_TO_LEAF_M)
        distance = _distance(rack, field_name, default)
        a, b = _switch_side(switch, split, switch_label), _hca_side(switch, hca)
        result = select_media(
            catalog, a, b, speed_gbps=min(hca_speed, port_speed // split), distance_m=distance, protocol=protocol
        )
        options.append((split, size, result, a, b, distance, field_name))
        if result.choice is not None:
            break
    # A split that a cable makes wins; else the split whose cables join the connectors but fall short (so the
    # finding is BEYOND_REACH with the lengths, not a false NO_CABLE of the split nothing makes); else any sized.
    chosen = next((o for o in options if o[2] is not None and o[2].choice is not None), None)
    chosen = chosen or next((o for o in options if o[2] is not None and o[2].matched), None)
    chosen = chosen or next((o for o in options if o[1].tiers), options[0])
    split, size, node_media, a_node, b_node, node_distance, node_field = chosen

    if not size.tiers and topology == "rail-optimized" and rails > _pod_downlinks(switch):
        findings.append(_rails_exceeded_finding(nodes, rails, switch, size))
        return _empty(*common, findings, logical_ports=k, split=split)
    if not size.tiers:
        endpoints = nodes * rails
        findings.append(
            _finding(
                FabricCode.PORTS_EXCEEDED,
                nodes=nodes,
                rails=rails,
                switch=switch.part_number,
                ports=k,
                oversubscription=f"{oversubscription[0]}:{oversubscription[1]}",
                endpoints=endpoints,
                capacity=size.capacity,
            )
        )
        return _empty(*common, findings, logical_ports=k, split=split)

    speed_warning = speed_finding(switch, hca, split)
    if speed_warning is not None:
        findings.append(speed_warning)
    node_links = nodes * rails
    speed = min(hca_speed, port_speed // split)
    leaf_spine_links = size.leaves * size.up if size.tiers >= 2 else 0
    spine_core_links = size.spines * size.spine_up if size.tiers == 3 else 0

    # Media per link class.
    link_plans: list[LinkPlan] = []

    def add_class(
        name: str,
        links: int,
        lspeed: int,
        distance: float,
        result: MediaResult,
        a: Side,
        b: Side,
        a_groups,
        b_groups,
        field_name: str,
    ) -> None:
        if result.choice is None:
            findings.append(_media_finding(name, result, a, b, lspeed, distance, field_name))
            link_plans.append(LinkPlan(name, links, lspeed, distance, None, None, None, (), a.links_per_plug))
            return
        choice = result.choice
        parts = tuple((i.part.part_number, item_quantity(i, a_groups, b_groups, links), i.role) for i in choice.items)
        link_plans.append(
            LinkPlan(name, links, lspeed, distance, choice.kind, choice.length_m, choice.label, parts, a.links_per_plug)
        )

    add_class(
        NODE_LEAF, node_links, speed, node_distance, node_media, a_node, b_node, size.node_groups, None, node_field
    )
    if size.tiers >= 2:
        up_side = _switch_side(switch, 1, switch_label)
        d_ls = _distance(rack, "leaf_to_spine_m", LEAF_TO_SPINE_M)
        res = select_media(
            catalog, up_side, up_side, speed_gbps=port_speed, distance_m=d_ls, protocol=protocol, pair_links=size.m
        )
        add_class(
            LEAF_SPINE,
            leaf_spine_links,
            port_speed,
            d_ls,
            res,
            up_side,
            up_side,
            ((size.leaves, size.up),),
            size.spine_groups,
            "leaf_to_spine_m",
        )
    if size.tiers == 3:
        d_sc = _distance(rack, "spine_to_core_m", SPINE_TO_CORE_M)
        res = select_media(
            catalog, up_side, up_side, speed_gbps=port_speed, distance_m=d_sc, protocol=protocol, pair_links=size.mc
        )
        add_class(
            SPINE_CORE,
            spine_core_links,
            port_speed,
            d_sc,
            res,
            up_side,
            up_side,
            ((size.spines, size.spine_up),),
            ((size.cores, size.pods * size.mc),),
            "spine_to_core_m",
        )

    # Ports per tier (logical ports; a split port counts once).
    leaf_used = sum(c * -(-e // split) for c, e in size.node_groups) + size.leaves * (size.up if size.tiers >= 2 else 0)
    ports = [("leaf", leaf_used, size.leaves * k)]
    if size.tiers >= 2:
        ports.append(("spine", leaf_spine_links + spine_core_links, size.spines * k))
    if size.tiers == 3:
        ports.append(("core", spine_core_links, size.cores * k))

    fabric_switches = size.leaves + size.spines + size.cores
    # Out-of-band: one 1 GbE port per node BMC and per fabric switch (the management switches' own ports aside).
    mgmt = [s for s in catalog.of_type(SwitchSpec) if s.management and s.rj45_ports > 0]
    mgmt_part, mgmt_count = None, 0
    if mgmt:
        mgmt_switch = min(mgmt, key=lambda s: (s.price_eur is None, s.price_eur or 0, -s.rj45_ports, s.part_number))
        mgmt_part = mgmt_switch.part_number
        mgmt_count = -(-(nodes + fabric_switches) // mgmt_switch.rj45_ports)
    else:
        findings.append(_finding(FabricCode.NO_MGMT_SWITCH, ports=nodes + fabric_switches))

    sm = _subnet_manager_finding(switch, node_links + fabric_switches)
    if sm is not None:
        findings.append(sm)

    bom: dict[str, int] = {switch.part_number: fabric_switches}
    if mgmt_part:
        bom[mgmt_part] = bom.get(mgmt_part, 0) + mgmt_count
    for lp in link_plans:
        for part, qty, _role in lp.parts:
            bom[part] = bom.get(part, 0) + qty

    return FabricPlan(
        nodes=nodes,
        rails=rails,
        switch=switch.part_number,
        hca=hca.part_number if hca else None,
        topology=topology,
        oversubscription=oversubscription,
        tiers=size.tiers,
        logical_ports=k,
        split=split,
        leaf_downlinks=size.down if size.tiers >= 2 else k,
        leaf_uplinks=size.up,
        nodes_per_unit=size.nodes_per_unit,
        units=size.units,
        pods=size.pods,
        leaves_per_pod=size.leaves_per_pod,
        spines_per_pod=size.spines_per_pod,
        cores_per_plane=size.cores_per_plane,
        spine_downlinks=size.spine_down,
        spine_uplinks=size.spine_up,
        leaf_switches=size.leaves,
        spine_switches=size.spines,
        core_switches=size.cores,
        node_links=node_links,
        leaf_spine_links=leaf_spine_links,
        spine_core_links=spine_core_links,
        links_per_leaf_spine_pair=size.m,
        links_per_spine_core_pair=size.mc,
        link_speed_gbps=speed,
        uplink_speed_gbps=port_speed if size.tiers >= 2 else 0,
        ports=tuple(ports),
        links=tuple(link_plans),
        management_switch=mgmt_part,
        management_switches=mgmt_count,
        nodes_per_rack=npr,
        node_racks=-(-nodes // npr),
        bom=tuple(bom.items()),
        findings=tuple(findings),
    )
