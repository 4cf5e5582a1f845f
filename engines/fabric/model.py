"""What the fabric planner returns: a ``FabricPlan`` of switch and link counts, its link classes (``LinkPlan``),
ports, bill of materials and findings, and their JSON form (``to_dict``/``from_dict``, for frozen quotes)."""

from __future__ import annotations

from dataclasses import dataclass, field

from design.jsontext import JsonObject
from engines.findings import Finding

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

    def to_dict(self) -> JsonObject:
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
    def from_dict(cls, d: JsonObject) -> LinkPlan:
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
    last_pod_spines: int = 0  # three tiers: the last pod's spines, sized to its leaves; 0 in older plans: full
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
    # Separate fabrics of the same shape, one per link of each NIC port (twin-planar Spectrum-X: a ConnectX-8's
    # 2x 400GbE go to two planes). Switch, link and port counts are of all planes; ``rails`` is per plane (the
    # NICs per node), so a node has ``rails x fabric_planes`` links.
    fabric_planes: int = 1
    # The last endpoints on leaves of their own at 1:1, as many a leaf as it has uplinks (a storage network's storage
    # systems, engines.fabric.sizing.with_one_to_one_leaves); 0: every endpoint at the plan's ratio.
    one_to_one_links: int = 0

    @property
    def switches(self) -> int:
        return self.leaf_switches + self.spine_switches + self.core_switches

    @property
    def endpoints(self) -> int:
        return self.nodes * self.rails * self.fabric_planes

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

    def pod_spines(self, pod: int) -> int:
        """Spines of pod ``pod`` (0-based) of a three-tier plan: the last pod's may be fewer."""
        if pod == self.pods - 1 and self.last_pod_spines:
            return self.last_pod_spines
        return self.spines_per_pod

    def link(self, name: str) -> LinkPlan | None:
        return next((lp for lp in self.links if lp.name == name), None)

    @property
    def uncabled_links(self) -> list[str]:
        """The link classes the bill leaves without a medium (the catalogue holds none that fits or reaches)."""
        return [lp.name for lp in self.links if lp.links and lp.media is None]

    @property
    def bom_complete(self) -> bool:
        """False when some link class has no medium in the bill: the bill of materials is then incomplete."""
        return not self.uncabled_links

    def to_dict(self, findings: list[JsonObject] | None = None) -> JsonObject:
        """The plan as JSON; ``findings`` are its findings as the service edge rendered them (messages are not
        the engine's business)."""
        ports = {tier: {"used": used, "free": total - used, "total": total} for tier, used, total in self.ports}
        return {
            "nodes": self.nodes,
            "rails": self.rails,
            "fabric_planes": self.fabric_planes,
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
            "last_pod_spines": self.last_pod_spines,
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
            "bom_complete": self.bom_complete,
            "uncabled_links": self.uncabled_links,
            "findings": findings or [],
            **({"one_to_one_links": self.one_to_one_links} if self.one_to_one_links else {}),
        }

    @classmethod
    def from_dict(cls, d: JsonObject) -> FabricPlan:
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
            last_pod_spines=d.get("last_pod_spines", 0),
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
            fabric_planes=d.get("fabric_planes", 1),
            one_to_one_links=d.get("one_to_one_links", 0),
        )
