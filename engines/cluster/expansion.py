"""The expansion of an installed cluster, compared with the installed plan: what to buy, what falls unused, which
cables stay, move, are added or go, which devices stand elsewhere, and what the growth crosses.

Pure Python: two bills of materials, two cabling lists (the cabling CSV's rows with their ``network`` column), two
fabric plans and two rack plans in; the delta out. The service (quotes.services.expansion) validates both designs
and hands their plans here.

* **Delta bill**: per line (section, part, node group; a line without a part by its description), the expanded
  bill's quantity less the installed one's, where it grows; never negative. Lines whose quantity falls are
  ``unused``, with the quantity no longer needed.
* **Re-cabling**: each network's cables compared (``engines.fabric.growth.compare_cabling``): keep, move (one end
  re-terminated), add, remove. A moved or added cable is one labour line (``recable_line``).
* **Findings**: a new fabric tier (spines or cores the installed fabric did not have), a scalable unit boundary
  (more units than installed), installed racks that draw more than the installed plan gave them.
"""

from __future__ import annotations

import csv
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal

from design.jsontext import JsonObject
from engines.fabric.growth import (
    CABLE_FIELDS,
    Action,
    Cable,
    CableRow,
    Change,
    DeviceMove,
    compare_cabling,
    moved_devices,
    row_fields,
)
from engines.fabric.model import NODE_LEAF, FabricPlan
from engines.findings.finding import Finding
from engines.findings.network_codes import NetworkCode
from engines.findings.params.cluster import (
    ExpansionDevicesMoved,
    ExpansionNetworkTier,
    ExpansionNewTier,
    ExpansionRackPower,
    ExpansionStorageSystemsKept,
    ExpansionUnitBoundary,
)
from engines.findings.registry import finding
from engines.networks.model import NetworkPlan
from engines.networks.plan import default_system_ports
from engines.racks.model import DeviceRole, RackPlan

from .bill import NO_PART, BomLine

RECABLE = "SVC-RECABLE"  # the labour line's part: one cable re-terminated or added and tested, in the field
SERVICES = "services"

LineKey = tuple[str, str, str, str]


def _key(line: BomLine) -> LineKey:
    return line.section, line.part_number, line.group or "", line.description if line.part_number == NO_PART else ""


def _summed(lines: Iterable[BomLine]) -> dict[LineKey, BomLine]:
    out: dict[LineKey, BomLine] = {}
    for line in lines:
        key = _key(line)
        seen = out.get(key)
        out[key] = line if seen is None else replace(seen, quantity=seen.quantity + line.quantity)
    return out


def _kept(expanded: Sequence[BomLine], installed: Sequence[BomLine], kept: Mapping[str, int]) -> list[BomLine]:
    """The expanded bill with each kept cable counted as the installed part (an installed line the expanded bill
    lacks is taken from the installed bill)."""
    left = dict(kept)
    out = [replace(line, quantity=max(0, line.quantity + left.pop(line.part_number, 0))) for line in expanded]
    for line in installed:
        if left.get(line.part_number, 0) > 0:
            out.append(replace(line, quantity=left.pop(line.part_number)))
    return out


@dataclass(frozen=True)
class BillDelta:
    """What to buy (``delta``: the quantity more than installed) and what falls unused (``unused``: the quantity
    no longer needed), each line priced as its bill prices it."""

    delta: tuple[BomLine, ...]
    unused: tuple[BomLine, ...]


def bill_delta(
    installed: Sequence[BomLine], expanded: Sequence[BomLine], kept: Mapping[str, int] | None = None
) -> BillDelta:
    """The expanded bill less the installed one, line by line (module docstring); the expanded bill's order, then
    the installed bill's for the unused lines. ``kept``: per cable part, the count the expanded bill's cable lines
    take on because kept cables stay the installed part (``Recabling.kept_parts``)."""
    before, after = _summed(installed), _summed(_kept(expanded, installed, kept or {}))
    delta = [
        replace(line, quantity=line.quantity - (before[k].quantity if k in before else 0))
        for k, line in after.items()
        if line.quantity > (before[k].quantity if k in before else 0)
    ]
    unused = [
        replace(line, quantity=line.quantity - (after[k].quantity if k in after else 0))
        for k, line in before.items()
        if line.quantity > (after[k].quantity if k in after else 0)
    ]
    return BillDelta(tuple(delta), tuple(unused))


@dataclass(frozen=True)
class CsvCable(Cable):
    """A cabling row with its cable part and length (the CSV's ``cable_part`` and ``length_m``)."""

    cable_part: str = ""
    length_m: str = ""


@dataclass(frozen=True)
class NetworkChange:
    """One cable's action in one network (``compute``, ``storage``, ``inband``, ``oob``: the CSV's last column)."""

    network: str
    change: Change

    def to_json(self) -> JsonObject:
        c = self.change
        return {
            "action": str(c.action),
            "network": self.network,
            "link_class": c.link_class,
            "old": _ends(c.old),
            "new": _ends(c.new),
        }


def _ends(row: CableRow | None) -> JsonObject | None:
    if row is None:
        return None
    return {
        "a": {"device": row.a_end, "port": row.a_port, "rack": row.a_rack, "u": row.a_u},
        "z": {"device": row.z_end, "port": row.z_port, "rack": row.z_rack, "u": row.z_u},
        "cable_part": _part(row),
        "length_m": row.length_m if isinstance(row, CsvCable) else "",
    }


def _part(row: CableRow | None) -> str:
    return row.cable_part if isinstance(row, CsvCable) else ""


# A cabling list as its columns (the CSV's header) and its rows of fields (engines.fabric.cabling.Row).
Table = tuple[Sequence[str], Iterable[Sequence[str]]]
_READ = (*CABLE_FIELDS, "cable_part", "length_m", "network")  # CsvCable's fields, then the row's network


def read_networks(lines: Iterable[str]) -> dict[str, list[Cable]]:
    """The cabling CSV's rows (header first), by network in the order the CSV lists them."""
    reader = csv.reader(iter(lines))
    return read_table((next(reader, []), reader))


def read_table(table: Table) -> dict[str, list[Cable]]:
    """A cabling list's rows by network, in the order it lists them: each row's columns by the header's names (a
    column the list lacks, or a row lacks, is empty; a row without ``network`` is a compute row)."""
    columns, rows = table
    fields = row_fields(columns, _READ)
    out: dict[str, list[Cable]] = {}
    for r in rows:
        if r:  # a blank line of a CSV is no row
            *cable, network = fields(r)
            out.setdefault(network or "compute", []).append(CsvCable(*cable))
    return out


@dataclass(frozen=True)
class Recabling:
    changes: tuple[NetworkChange, ...]
    moved: tuple[DeviceMove, ...]

    def count(self, action: Action, network: str | None = None) -> int:
        return sum(1 for c in self.changes if c.change.action == action and network in (None, c.network))

    @property
    def labour_cables(self) -> int:
        """The cables a technician terminates: every moved and every added one."""
        return self.count(Action.MOVE) + self.count(Action.ADD)

    def kept_parts(self) -> dict[str, int]:
        """Per cable part (a row's ``cable_part`` may name a fibre and its two transceivers), the kept cables'
        installed parts counted in and the grown plan's parts for them counted out: a kept cable stays the cable
        that is installed, whatever length the grown plan would choose."""
        out: Counter[str] = Counter()
        for c in self.changes:
            if c.change.action == Action.KEEP and _part(c.change.old) != _part(c.change.new):
                out.update(_part(c.change.old).split(" + "))  # "transceiver + fibre + transceiver": each a part
                out.subtract(_part(c.change.new).split(" + "))
        return {part: n for part, n in out.items() if part and n}

    def moved_json(self) -> list[JsonObject]:
        return [
            {
                "device": m.device,
                "old": {"rack": m.old.rack, "u": m.old.unit},
                "new": {"rack": m.new.rack, "u": m.new.unit},
            }
            for m in self.moved
        ]


def recabling(installed: Iterable[str], expanded: Iterable[str]) -> Recabling:
    """The two cabling CSVs (lines, header first) compared network by network; the moved devices over all."""
    return recabling_of(read_networks(installed), read_networks(expanded))


def recabling_tables(installed: Table, expanded: Table) -> Recabling:
    """``recabling`` of two cabling lists given as their columns and rows (outputs.links.cabling_table)."""
    return recabling_of(read_table(installed), read_table(expanded))


def recabling_of(old: Mapping[str, list[Cable]], new: Mapping[str, list[Cable]]) -> Recabling:
    """The cables of the two lists by network (``read_table``) compared network by network; the moved devices over
    all."""
    changes: list[NetworkChange] = []
    for network in [*new, *(n for n in old if n not in new)]:
        delta = compare_cabling(old.get(network, []), new.get(network, []))
        changes += [NetworkChange(network, c) for c in delta.changes]
    every_old = [c for rows in old.values() for c in rows]
    every_new = [c for rows in new.values() for c in rows]
    return Recabling(tuple(changes), tuple(moved_devices(every_old, every_new)))


def recable_line(cables: int, price: Decimal | None, description: str) -> BomLine | None:
    """The labour line of the re-cabling: one per moved or added cable; ``price`` None: on request."""
    if cables <= 0:
        return None
    return BomLine(SERVICES, RECABLE, description, cables, price)


def expansion_findings(
    installed: FabricPlan | None, expanded: FabricPlan | None, racks: tuple[RackPlan, RackPlan]
) -> list[Finding]:
    """What the growth crosses: a new fabric tier, a scalable unit boundary, installed racks drawing more."""
    out: list[Finding] = []
    if installed is not None and expanded is not None and installed.tiers and expanded.tiers:
        if expanded.tiers > installed.tiers:
            out.append(
                finding(
                    "fabric",
                    ExpansionNewTier(
                        installed_tiers=installed.tiers,
                        expanded_tiers=expanded.tiers,
                        switch=expanded.switch,
                        new_spines=max(0, expanded.spine_switches - installed.spine_switches),
                        new_cores=max(0, expanded.core_switches - installed.core_switches),
                    ),
                )
            )
        if expanded.nodes_per_unit and expanded.units > installed.units:
            out.append(
                finding(
                    "fabric",
                    ExpansionUnitBoundary(
                        nodes_per_unit=expanded.nodes_per_unit,
                        installed_units=installed.units,
                        expanded_units=expanded.units,
                    ),
                )
            )
    power = _rack_power(*racks)
    if power is not None:
        out.append(finding("rack_plan", power))
    new_tier = bool(installed and expanded and installed.tiers and expanded.tiers > installed.tiers)
    moved = devices_moved(*racks, new_tier=new_tier)
    if moved is not None:
        out.append(finding("rack_plan", moved))
    return out


Place = tuple[str, str, str, int]  # rack, role, part, lowest unit


def _placed(plan: RackPlan) -> Counter[Place]:
    return Counter((r.name, str(d.role), d.part, d.position_u) for r in plan.racks for d in r.devices)


def devices_moved(installed: RackPlan, expanded: RackPlan, *, new_tier: bool = False) -> ExpansionDevicesMoved | None:
    """The installed plan's racked devices that the grown plan has elsewhere (not at their rack and unit, where it
    holds at least as many of their role and part: fewer are unused devices, not moved ones), the first of them,
    and why; None when every installed device keeps its place."""
    before, after = _placed(installed), _placed(expanded)
    gone = before - after
    if not gone:
        return None
    fewer: Counter[tuple[str, str]] = Counter()
    for counter, sign in ((before, 1), (after, -1)):
        for (_rack, role, part, _u), n in counter.items():
            fewer[(role, part)] += sign * n
    moved: list[Place] = []
    for place in sorted(gone, key=lambda p: (p[0], -p[3])):
        unused = min(max(0, fewer[place[1:3]]), gone[place])
        fewer[place[1:3]] -= unused
        moved += [place] * (gone[place] - unused)
    if not moved:
        return None
    rack, role, part, unit = moved[0]
    return ExpansionDevicesMoved(
        devices=len(moved), role=role, part=part, rack=rack, unit=unit, reason=_why(installed, expanded, new_tier)
    )


def moved_by_cabling(moves: Sequence[DeviceMove], installed: RackPlan) -> ExpansionDevicesMoved | None:
    """EXPANSION_DEVICES_MOVED for the devices the re-cabling finds elsewhere (a device, by name, whose cables leave
    from another rack or unit), where the rack plans' places alone do not tell it: devices of one part trading
    places, such as the servers of a node group that the grown group before it pushes along. None without moves."""
    if not moves:
        return None
    first = moves[0]
    unit = int(first.old.unit) if first.old.unit.isdigit() else 0
    placed = [d for r in installed.racks if r.name == first.old.rack for d in r.devices if d.position_u == unit]
    groups = {r.node_group for r in installed.racks if r.node_group}
    return ExpansionDevicesMoved(
        devices=len(moves),
        role=str(placed[0].role) if placed else "",
        part=placed[0].part if placed else first.device,
        rack=first.old.rack,
        unit=unit,
        reason="node-groups" if len(groups) > 1 else "layout",
    )


def _why(installed: RackPlan, expanded: RackPlan, new_tier: bool) -> str:
    if installed.leaf_placement == "in-rack" and expanded.leaf_placement != "in-rack":
        return "one-rack"
    if new_tier:
        return "new-tier"
    control = str(DeviceRole.CONTROL)
    if _placed_parts(installed, control) != _placed_parts(expanded, control):
        return "control-plane"
    return "layout"


def _placed_parts(plan: RackPlan, role: str) -> set[str]:
    return {d.part for r in plan.racks for d in r.devices if str(d.role) == role}


def _rack_power(installed: RackPlan, expanded: RackPlan) -> ExpansionRackPower | None:
    """Installed racks (by name) whose draw grows beyond the installed plan's (the power the sources give: a device
    without a power figure adds nothing to either)."""
    before = {r.name: r.power_known_w for r in installed.racks if not r.system}
    grown = [
        (r.name, before[r.name], r.power_known_w)
        for r in expanded.racks
        if r.name in before and r.power_known_w > before[r.name]
    ]
    if not grown:
        return None
    return ExpansionRackPower(
        racks=[name for name, _old, _new in grown],
        installed_w=[old for _name, old, _new in grown],
        expanded_w=[new for _name, _old, new in grown],
        rack_power_limit_w=installed.rack_power_limit_w,
    )


def storage_systems_kept(installed: NetworkPlan | None, expanded: NetworkPlan | None) -> list[Finding]:
    """EXPANSION_STORAGE_SYSTEMS_KEPT where the installed storage network reserved the default count of storage-
    system ports and the grown one keeps exactly those (the grown design states them: the service's
    ``grown_document``), so the storage systems' cables stay on their leaves."""
    kept = defaulted_system_ports(installed)
    if not kept or expanded is None or defaulted_system_ports(expanded) or expanded.system_ports != kept:
        return []
    node_ports = max(0, expanded.node_links - expanded.system_ports)
    params = ExpansionStorageSystemsKept(ports=kept, default_ports=default_system_ports(node_ports))
    return [finding("networks.storage.system_ports", params)]


def defaulted_system_ports(plan: NetworkPlan | None) -> int:
    """The storage-system ports a storage network reserved by default, its finding saying how many (0: none, or
    the design stated them)."""
    if plan is None or not any(f.code == NetworkCode.STORAGE_SYSTEM_PORTS for f in plan.findings):
        return 0
    return plan.system_ports


def network_tiers(
    installed: Mapping[str, NetworkPlan], expanded: Mapping[str, NetworkPlan], cables: Recabling | None = None
) -> list[Finding]:
    """EXPANSION_NETWORK_TIER for each storage or in-band network (by key) whose switch fabric the growth gives more
    tiers: the in-band pair that becomes leaves under spines past its ports, a storage fabric that needs a core.
    ``cables``: the re-cabling, which says whether every installed node cable of the network stays on its port."""
    out: list[Finding] = []
    for key, after in expanded.items():
        before = installed.get(key)
        if before is None or before.fabric is None or after.fabric is None or not before.fabric.tiers:
            continue
        if after.fabric.tiers <= before.fabric.tiers:
            continue
        params = ExpansionNetworkTier(
            network=key,
            installed_tiers=before.fabric.tiers,
            expanded_tiers=after.fabric.tiers,
            switch=after.switch or "",
            new_leaves=max(0, after.leaf_switches - before.leaf_switches),
            new_spines=max(0, after.spine_switches - before.spine_switches),
            node_cables_kept=None if cables is None else not _node_cables_changed(cables, key),
        )
        out.append(finding(f"networks.{key}", params))
    return out


def _node_cables_changed(cables: Recabling, network: str) -> bool:
    """Whether an installed node cable of the network is re-terminated or removed."""
    return any(
        c.network == network and c.change.link_class == NODE_LEAF and c.change.action in (Action.MOVE, Action.REMOVE)
        for c in cables.changes
    )
