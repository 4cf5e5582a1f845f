"""What the network planner returns: one ``NetworkPlan`` per network (storage, in-band, out-of-band), with the
count keys of the fabric plan, its own bill of materials, findings and the sources of its rules."""

from __future__ import annotations

from dataclasses import dataclass, field

from design.jsontext import JsonObject
from engines.fabric.model import FabricPlan
from engines.findings import Finding

STORAGE, INBAND, OOB = "storage", "inband", "oob"
NETWORKS = (STORAGE, INBAND, OOB)


@dataclass(frozen=True)
class OobDevices:
    """What gets a port on the out-of-band network: node BMCs, switch management ports, rack PDUs and the BMCs of
    the control plane's servers (head, management and UFM nodes)."""

    bmcs: int = 0
    switches: int = 0
    pdus: int = 0
    servers: int = 0

    @property
    def ports(self) -> int:
        return self.bmcs + self.switches + self.pdus + self.servers


@dataclass(frozen=True)
class NetworkPlan:
    """One planned network. ``fabric``: the sized switch fabric of a storage or in-band network (its link classes,
    media and tiers, as the compute fabric's plan gives them); None for the out-of-band network, which is planned
    on the racks' management switches. ``bom`` lists what this network adds to the bill: the out-of-band leaves
    that are the rack plan's in-rack management switches are counted in ``leaf_switches`` but carried by the
    racks, not listed again here."""

    network: str
    switch: str | None
    leaf_switches: int = 0
    spine_switches: int = 0
    core_switches: int = 0
    node_links: int = 0
    nodes: int = 0
    ports_per_node: int = 0
    system_ports: int = 0
    oversubscription: str | None = None
    ports_used: tuple[tuple[str, int], ...] = ()
    bom: tuple[tuple[str, int], ...] = ()
    sources: tuple[str, ...] = ()
    findings: tuple[Finding, ...] = field(default_factory=tuple)
    fabric: FabricPlan | None = None
    oob: OobDevices | None = None
    rack_switches: int = 0  # out-of-band leaves that are the rack plan's management switches
    # out-of-band: where its switches stand, "central" (management racks: all ``leaf_switches`` are in ``bom`` and
    # the physical model racks them) or "per-rack" (one in each rack, the rack plan's); None for the others
    placement: str | None = None
    uplink_switch: str | None = None  # out-of-band: the in-band (or converged) switch its uplinks land on
    uplinks: int = 0
    # out-of-band media per link class: (class, cable part label, length in m); a class without one is uncabled
    oob_media: tuple[tuple[str, str, float], ...] = ()
    oob_uplinks: int = 0  # in-band or converged storage: the out-of-band switches' uplinks its leaves take
    ports_per_switch: int = 0  # out-of-band: the RJ45 device ports of one of its switches (not in the JSON)

    @property
    def switches(self) -> int:
        return self.leaf_switches + self.spine_switches + self.core_switches

    def to_dict(self, findings: list[JsonObject] | None = None) -> JsonObject:
        out: JsonObject = {
            "network": self.network,
            "switch": self.switch,
            "leaf_switches": self.leaf_switches,
            "spine_switches": self.spine_switches,
            "core_switches": self.core_switches,
            "node_links": self.node_links,
            "nodes": self.nodes,
            "ports_per_node": self.ports_per_node,
            "system_ports": self.system_ports,
            "oversubscription": self.oversubscription,
            "ports_used": dict(self.ports_used),
            "bom": [{"part": p, "quantity": q} for p, q in self.bom],
            "findings": findings or [],
            "sources": list(self.sources),
        }
        if self.fabric is not None:
            out["tiers"] = self.fabric.tiers
            out["links"] = [lp.to_dict() for lp in self.fabric.links]
            out["fabric"] = self.fabric.to_dict()
        if self.network in (INBAND, STORAGE):
            out["oob_uplinks"] = self.oob_uplinks
        if self.oob is not None:
            out["devices"] = {
                "bmcs": self.oob.bmcs,
                "switches": self.oob.switches,
                "pdus": self.oob.pdus,
                "servers": self.oob.servers,
            }
            out["rack_switches"] = self.rack_switches
            out["placement"] = self.placement
            out["uplink_switch"] = self.uplink_switch
            out["uplinks"] = self.uplinks
            out["media"] = {cls: {"cable_part": part, "length_m": length} for cls, part, length in self.oob_media}
        return out
