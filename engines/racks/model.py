"""What the rack planner gives, and the vocabulary its inputs share (inputs.py): frozen dataclasses, plain values,
no Django.

Inputs are built at the service edge from the design and the catalogue (a node group's height, estimated
maximum power and cooling from its server part; switches from the fabric plan; PDU options from the
catalogue). ``None`` always means *unknown*: the planner never substitutes a guessed number for a missing
fact, it says what it could not check (a finding: ``engines.findings``, codes in ``RackCode``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import cached_property
from typing import Any

from design.jsontext import JsonObject
from engines.findings.finding import Finding

from .ranges import distinct_racks, expand_names, name_ranges, runs_in_order


class Cooling(StrEnum):
    AIR = "air"
    LIQUID = "liquid"


class Feeds(StrEnum):
    A = "A"  # one feed carries the rack
    AB = "A+B"  # two independent feeds, each able to carry the whole rack alone


class SwitchRole(StrEnum):
    """What the planner places besides the nodes: the compute fabric's switches, the racks' management switch,
    and the management racks' equipment (the storage and in-band networks' switches, the control plane's servers
    and the UFM appliances)."""

    LEAF = "leaf"
    SPINE = "spine"
    CORE = "core"
    MANAGEMENT = "management"
    STORAGE_LEAF = "storage-leaf"
    STORAGE_SPINE = "storage-spine"
    STORAGE_CORE = "storage-core"
    INBAND_LEAF = "inband-leaf"
    INBAND_SPINE = "inband-spine"
    INBAND_CORE = "inband-core"
    OOB = "oob"  # an out-of-band switch of the central placement, in a management rack
    CONTROL = "control"  # a control-plane server (head, Kubernetes, Slurm login node)
    UFM = "ufm"  # a UFM Enterprise appliance


# The roles that go into management racks, in the order they are racked: what changes least as the cluster grows
# first (the control plane's servers, then the UFM appliances a larger fabric adds), so that what grows with the
# nodes (out-of-band, in-band and storage switches) is added behind what stands.
MANAGEMENT_RACK_ROLES = (
    SwitchRole.CONTROL,
    SwitchRole.UFM,
    SwitchRole.OOB,
    SwitchRole.INBAND_CORE,
    SwitchRole.INBAND_SPINE,
    SwitchRole.INBAND_LEAF,
    SwitchRole.STORAGE_CORE,
    SwitchRole.STORAGE_SPINE,
    SwitchRole.STORAGE_LEAF,
)


class DeviceRole(StrEnum):
    NODE = "node"
    LEAF = "leaf"
    SPINE = "spine"
    CORE = "core"
    MANAGEMENT = "management"
    PDU = "pdu"
    STORAGE_LEAF = "storage-leaf"
    STORAGE_SPINE = "storage-spine"
    STORAGE_CORE = "storage-core"
    INBAND_LEAF = "inband-leaf"
    INBAND_SPINE = "inband-spine"
    INBAND_CORE = "inband-core"
    OOB = "oob"
    CONTROL = "control"
    UFM = "ufm"
    # Inside a rack-scale system (engines.racks.systems): its NVLink switch trays, power shelves and built-in
    # management switches (part of the system: not billed, not the planner's top-of-rack switch). Its compute trays
    # are NODE devices.
    NVLINK_SWITCH = "nvlink-switch"
    POWER_SHELF = "power-shelf"
    SYSTEM_MANAGEMENT = "system-management"

    @property
    def family(self) -> str:
        """The label family of the role: ``storage``, ``inband``, or the role itself."""
        return self.value.split("-", 1)[0]


class RackKind(StrEnum):
    COMPUTE = "compute"  # nodes (and, in a one-rack cluster, their leaf switches)
    NETWORK = "network"  # leaf, spine or core switches
    MANAGEMENT = "management"  # storage and in-band switches, central out-of-band switches, control plane, UFM


class LeafPlacement(StrEnum):
    MIDDLE_OF_ROW = "middle"  # a network rack in the middle of each row (default, see plan.py)
    END_OF_ROW = "end"  # a network rack at the end of each row


# ----------------------------------------------------------------------------------------------------------
# Outputs


def heights(racks: Iterable[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """(units, racks) summed by height, the tallest first, from (units, racks) of each run or distinct rack."""
    by_units: dict[int, int] = {}
    for units, count in racks:
        by_units[units] = by_units.get(units, 0) + count
    return tuple(sorted(by_units.items(), reverse=True))


@dataclass(frozen=True)
class Device:
    """One device in a rack; ``position_u`` is its lowest unit, counted from U1 at the bottom (EIA-310)."""

    part: str
    name: str
    role: DeviceRole
    position_u: int
    height_u: int
    power_w: int | None
    # The rack's face the device is mounted from: every device with units is front-mounted, its ports and power
    # at the rear (the hot aisle) as servers and NVIDIA's switches are racked; zero-U PDUs are not devices here.
    face: str = "front"

    def to_dict(self) -> JsonObject:
        return {
            "part": self.part,
            "name": self.name,
            "role": str(self.role),
            "position_u": self.position_u,
            "height_u": self.height_u,
            "face": self.face,
        }


@dataclass(frozen=True)
class PduLine:
    part: str
    quantity: int
    cord: str

    def to_dict(self) -> JsonObject:
        return {"part": self.part, "quantity": self.quantity, "cord": self.cord}


@dataclass(frozen=True)
class CordLine:
    """Node power cords: one per inlet, from a PDU outlet type to the node's inlet type."""

    pdu_outlet: str | None
    node_inlet: str | None
    quantity: int
    current_a: float | None = None  # what one supply draws at its rating: the cord must carry it

    def to_dict(self) -> JsonObject:
        return {
            "pdu_outlet": self.pdu_outlet,
            "node_inlet": self.node_inlet,
            "quantity": self.quantity,
            "current_a": self.current_a,
        }


@dataclass(slots=True)
class Rack:
    """One rack. ``power_w`` is None when any device's power is unknown; ``power_known_w`` sums the known ones.

    Identical racks share one ``devices`` tuple (the elevation groups them by it). ``slot`` is the rack's place in
    its row, 0 at the row's start; ``node_group``/``first_node``/``nodes`` say which nodes it holds (0-based).
    """

    name: str
    kind: RackKind
    row: int
    slot: int
    u_total: int
    u_used: int
    power_w: int | None
    power_known_w: int
    cooling: Cooling
    devices: tuple[Device, ...]
    pdus: tuple[PduLine, ...]
    cords: tuple[CordLine, ...] = ()
    node_group: str | None = None
    first_node: int = 0
    nodes: int = 0
    system: bool = False  # the rack is a rack-scale system (NVL72): no enclosure, PDUs or cords of its own

    def to_dict(
        self,
        devices: list[JsonObject] | None = None,
        pdus: list[JsonObject] | None = None,
        cords: list[JsonObject] | None = None,
    ) -> JsonObject:
        """``devices``, ``pdus``, ``cords``: already as dicts (racks sharing one tuple share one list)."""
        return {
            "name": self.name,
            "kind": str(self.kind),
            "row": self.row,
            "slot": self.slot,
            "u_total": self.u_total,
            "u_used": self.u_used,
            "blank_u": self.u_total - self.u_used,  # units to close with blanking panels
            "power_w": self.power_w,
            "power_known_w": self.power_known_w,
            "cooling": str(self.cooling),
            "devices": devices if devices is not None else device_dicts(self.devices),
            "pdus": pdus if pdus is not None else [p.to_dict() for p in self.pdus],
            "cords": cords if cords is not None else [c.to_dict() for c in self.cords],
            "node_group": self.node_group,
            "first_node": self.first_node,
            "nodes": self.nodes,
            "system": self.system,
        }


@dataclass(frozen=True)
class Row:
    """Racks standing side by side; ``racks`` are names in slot order."""

    index: int
    name: str
    racks: tuple[str, ...]

    def to_dict(self) -> JsonObject:
        """The row as written: ``racks`` names its racks in slot order as name ranges (``ranges.name_ranges``: one
        ``"R01-01..R01-33"`` for a row of 33), ``count`` how many there are."""
        return {"index": self.index, "name": self.name, "count": len(self.racks), "racks": name_ranges(self.racks)}


@dataclass(frozen=True, slots=True)
class RackRun:
    """``count`` identical racks side by side in one row, planned and kept once: ``rack`` is the first of them.

    Rack *k* of the run (0-based) is named ``names[k]``, stands at slot ``rack.slot + k`` and holds the group's
    nodes from ``rack.first_node + k * rack.nodes``; everything else it shares with ``rack`` (``at(k)`` builds it).
    A 2,048-node plan's thousand compute racks are a few dozen runs.
    """

    rack: Rack
    count: int
    names: tuple[str, ...]

    def at(self, k: int) -> Rack:
        if k == 0:
            return self.rack
        r = self.rack
        return Rack(
            self.names[k],
            r.kind,
            r.row,
            r.slot + k,
            r.u_total,
            r.u_used,
            r.power_w,
            r.power_known_w,
            r.cooling,
            r.devices,
            r.pdus,
            r.cords,
            r.node_group,
            r.first_node + k * r.nodes,
            r.nodes,
            r.system,
        )

    def racks(self) -> list[Rack]:
        return [self.at(k) for k in range(self.count)]


@dataclass(frozen=True)
class RackPlan:
    """The rack plan (design-v1 ``rack_plan``) plus what the service needs for totals and findings.

    Racks are kept as ``runs`` of identical racks; ``racks`` lists every rack one by one (built on first use) for
    the readers that need each rack on its own."""

    runs: tuple[RackRun, ...]
    rows: tuple[Row, ...]
    pdus: tuple[PduLine, ...]  # over all racks
    cords: tuple[CordLine, ...]  # over all racks
    rack_units: int
    rack_power_limit_w: int
    rack_power_basis: str  # "facility", "default-air" or "default-liquid"
    cooling: Cooling
    cooling_basis: str  # "facility" or "nodes"
    feeds: Feeds
    leaf_placement: str  # "in-rack", "middle" or "end"
    facility_power_w: int | None  # nodes + switches + other IT load; None when any part is unknown
    facility_power_known_w: int
    findings: tuple[Finding, ...]
    # Rows after its own in which a node's leaf may stand (1: the fabric's units are smaller than the rows' full
    # SUs, so a unit's first nodes stand in the row before its leaves); measured by the planner, not written.
    leaf_reach_rows: int = 0
    # Rows before its own in which a node's leaf may stand (1: a rack-scale row's first trays belong to a unit whose
    # leaves stand in the row before, ``NodeGroup.unit_trays``); measured by the planner, not written.
    leaf_reach_back_rows: int = 0

    @cached_property
    def racks(self) -> tuple[Rack, ...]:
        return tuple(rack for run in self.runs for rack in run.racks())

    @property
    def rack_count(self) -> int:
        return sum(run.count for run in self.runs)

    @property
    def rack_heights(self) -> tuple[tuple[int, int], ...]:
        """(units, racks) for each height of rack the plan holds, the tallest first: a rack-scale system's own rack
        (48U) beside the facility's 42U."""
        return heights((run.rack.u_total, run.count) for run in self.runs)

    def to_dict(self) -> JsonObject:
        """The design-v1 ``rack_plan``: ``racks`` lists each distinct rack content once with its ``count`` and the
        ``ranges`` of racks holding it (``ranges.distinct_racks`` of ``merged_runs``); ``rows`` names the racks of
        each row as name ranges."""
        return {
            "racks": distinct_racks(merged_runs(self.runs)),
            "rows": [r.to_dict() for r in self.rows],
            "pdus": [p.to_dict() for p in self.pdus],
            "cords": [c.to_dict() for c in self.cords],
            "rack_units": self.rack_units,
            "rack_power_limit_w": self.rack_power_limit_w,
            "rack_power_basis": self.rack_power_basis,
            "cooling": str(self.cooling),
            "cooling_basis": self.cooling_basis,
            "pdu_feeds": str(self.feeds),
            "leaf_placement": self.leaf_placement,
        }

    @classmethod
    def from_dict(cls, d: JsonObject) -> RackPlan:
        """The plan back from ``to_dict()`` (a stored validation result), for the elevation and the cabling list:
        every rack again, by its own name. Device power, totals and findings are not in the dict and come back as
        unknown / empty; identical racks share one ``devices`` tuple again, as the planner made them. A result
        stored before distinct racks (runs of identical racks in plan order, ``rows`` naming every rack), or before
        racks had a ``count`` (every rack an entry of its own), reads back the same way."""
        rows = tuple(Row(w["index"], w["name"], tuple(expand_names(w["racks"]))) for w in d.get("rows", []))
        return cls(
            runs=tuple(_runs_from_entries(runs_in_order(d.get("racks", [])), rows)),
            rows=rows,
            pdus=tuple(PduLine(p["part"], p["quantity"], p["cord"]) for p in d.get("pdus", [])),
            cords=tuple(
                CordLine(c["pdu_outlet"], c["node_inlet"], c["quantity"], c.get("current_a"))
                for c in d.get("cords", [])
            ),
            rack_units=d["rack_units"],
            rack_power_limit_w=d["rack_power_limit_w"],
            rack_power_basis=d["rack_power_basis"],
            cooling=Cooling(d["cooling"]),
            cooling_basis=d["cooling_basis"],
            feeds=Feeds(d["pdu_feeds"]),
            leaf_placement=d["leaf_placement"],
            facility_power_w=None,
            facility_power_known_w=0,
            findings=(),
        )

    def with_facility_power(self, known_w: int, complete: bool) -> RackPlan:
        """The plan with its facility totals set from the cluster's one power sum (the power rules compute it
        from the nodes and the fabric's bill of materials): ``facility_power_known_w`` is that sum,
        ``facility_power_w`` the same or None when part of it is unknown. The racks' own loads are unchanged."""
        return replace(self, facility_power_w=known_w if complete else None, facility_power_known_w=known_w)

    def totals(self) -> JsonObject:
        """``totals.racks`` and ``totals.facility_power_w``; overheads are named as not included."""
        return {
            "racks": self.rack_count,
            "facility_power_w": self.facility_power_w,
            "facility_power_known_w": self.facility_power_known_w,
            "overhead_included": {"pdu_losses": False, "cooling": False},
        }


def _alike(a: Rack, b: Rack) -> bool:
    """Whether two racks hold the same (their names, places and nodes aside)."""
    return (
        b.devices is a.devices
        and (b.kind, b.u_total, b.u_used, b.power_w, b.power_known_w, b.cooling)
        == (a.kind, a.u_total, a.u_used, a.power_w, a.power_known_w, a.cooling)
        and (b.pdus, b.cords, b.node_group, b.nodes) == (a.pdus, a.cords, a.node_group, a.nodes)
    )


def _continues(first: Rack, count: int, rack: Rack) -> bool:
    """Whether ``rack`` is the next of a run of ``count`` racks starting with ``first``: alike, and next in place."""
    return (
        rack.row == first.row
        and rack.slot == first.slot + count
        and rack.first_node == first.first_node + count * first.nodes
        and _alike(first, rack)
    )


def rack_entries(runs: Sequence[RackRun]) -> list[JsonObject]:
    """The runs of identical racks in plan order as written before distinct racks (``merged_runs``, each with its
    ``name``, ``count`` and ``last_name``): what ``ranges.runs_in_order`` reads a stored result back into."""
    return [
        {"name": r.name, "count": count, "last_name": last, **r.to_dict(*lines)}
        for r, count, last, lines in merged_runs(runs)
    ]


def merged_runs(runs: Sequence[RackRun]) -> list[tuple[Rack, int, str, tuple[Any, ...]]]:
    """The plan's runs of identical racks in plan order, where a run goes on into the next row when that row starts
    with the same racks (the compute racks after one row's leaf rack and before the next row's): each its first
    rack, how many, its last rack's name and its written lines (devices, PDUs, cords). Rack *k* of a run holds the
    group's nodes from ``first_node + k * nodes``; its racks are the next ``count`` names of the rows.

    Identical racks share one devices tuple and so one list of device dicts (the result is read, never changed in
    place); the same holds for the PDU and cord lines."""
    shared: dict[int, list[JsonObject]] = {}
    out: list[tuple[Rack, int, str, tuple[Any, ...]]] = []
    for run in runs:
        r = run.rack
        last = out[-1] if out else None
        same = last is not None and r.first_node == last[0].first_node + last[1] * r.nodes
        if same and last is not None and (r.devices, r.pdus, r.cords) != (last[0].devices, last[0].pdus, last[0].cords):
            lines = (_shared(shared, r.devices, device_dicts), _shared(shared, r.pdus), _shared(shared, r.cords))
            same = _alike_written(last[0], last[3], r, lines)
        elif same and last is not None:
            same = _alike_written(last[0], (), r, ())  # the same lines (a row's racks share one tuple each)
        if same and last is not None:
            out[-1] = (last[0], last[1] + run.count, run.names[-1], last[3])
            continue
        lines = (_shared(shared, r.devices, device_dicts), _shared(shared, r.pdus), _shared(shared, r.cords))
        out.append((r, run.count, run.names[-1], lines))
    return out


def _alike_written(a: Rack, a_lines: tuple[Any, ...], b: Rack, b_lines: tuple[Any, ...]) -> bool:
    """Whether two racks write the same (their names, places and nodes aside): as the JSON reads, not as the
    planner keeps them (a device's power is not written)."""
    return (b.kind, b.u_total, b.u_used, b.power_w, b.power_known_w, b.cooling, b.node_group, b.nodes) == (
        a.kind,
        a.u_total,
        a.u_used,
        a.power_w,
        a.power_known_w,
        a.cooling,
        a.node_group,
        a.nodes,
    ) and all(x is y or x == y for x, y in zip(a_lines, b_lines, strict=True))


def _shared(
    shared: dict[int, list[JsonObject]],
    lines: tuple[Any, ...],
    write: Callable[[tuple[Any, ...]], list[JsonObject]] | None = None,
) -> list[JsonObject]:
    found = shared.get(id(lines))
    if found is None:
        found = shared[id(lines)] = write(lines) if write else [line.to_dict() for line in lines]
    return found


def device_dicts(devices: Sequence[Device]) -> list[JsonObject]:
    """A rack's ``devices`` as written: a stack of identical devices next to each other (a rack's nodes, a leaf
    rack's leaves) is one entry with its ``count``, from ``position_u`` (the first) to ``last_position_u`` (the
    last), each ``height_u`` units on from the one before, in the order the rack lists them."""
    out: list[JsonObject] = []
    last: Device | None = None
    step = 0
    for d in devices:
        if last is not None and (d.part, d.name, d.role, d.height_u) == (
            last.part,
            last.name,
            last.role,
            last.height_u,
        ):
            moved = d.position_u - last.position_u
            entry = out[-1]
            if abs(moved) == d.height_u and (entry["count"] == 1 or moved == step):
                step = moved
                entry["count"] += 1
                entry["last_position_u"] = d.position_u
                last = d
                continue
        out.append({**d.to_dict(), "count": 1, "last_position_u": d.position_u})
        last, step = d, 0
    return out


def _devices_from(entries: Sequence[JsonObject]) -> tuple[Device, ...]:
    """The devices one by one from ``device_dicts`` (or from entries without ``count``: one device each)."""
    out: list[Device] = []
    for x in entries:
        count, first, height = x.get("count", 1), x["position_u"], x["height_u"]
        step = height if x.get("last_position_u", first) >= first else -height
        role = DeviceRole(x["role"])
        face = x.get("face", "front")
        out += [Device(x["part"], x["name"], role, first + k * step, height, None, face) for k in range(count)]
    return tuple(out)


def _slot(row: Row, index: int, name: str) -> int:
    """A rack's place in its row: the number its name ends in (``R01-09``: 8, places a partial SU keeps free
    counted), else its index among the row's racks."""
    tail = name[len(row.name) + 1 :] if name.startswith(row.name + "-") else ""
    return int(tail) - 1 if tail.isdigit() and int(tail) > index else index


def _runs_from_entries(entries: Sequence[JsonObject], rows: Sequence[Row]) -> list[RackRun]:
    """The plan's runs (within a row) from ``rack_plan.racks``: an entry of ``count`` racks is the next ``count``
    names of the rows (cut where a row ends); an entry without ``count`` is one rack. Consecutive identical racks
    of a row are one run again, and identical racks share one ``devices`` tuple."""
    names = [(w.index, _slot(w, slot, name), name) for w in rows for slot, name in enumerate(w.racks)]
    shared: dict[tuple[Any, ...], tuple[Device, ...]] = {}
    # By the written list's identity (the list kept alive with it): the ranges of one entry share one list.
    read: dict[int, tuple[list[JsonObject], tuple[Device, ...]]] = {}
    runs: list[tuple[Rack, list[str]]] = []
    at = 0
    for r in entries:
        written = r.get("devices", [])
        hit = read.get(id(written))
        if hit is None:
            devices = _devices_from(written)
            hit = read[id(written)] = (written, shared.setdefault(devices, devices))
        devices = hit[1]
        rack = Rack(
            r["name"],
            RackKind(r["kind"]),
            r["row"],
            r["slot"],
            r["u_total"],
            r["u_used"],
            r["power_w"],
            r["power_known_w"],
            Cooling(r["cooling"]),
            devices,
            tuple(PduLine(p["part"], p["quantity"], p["cord"]) for p in r.get("pdus", [])),
            tuple(
                CordLine(c["pdu_outlet"], c["node_inlet"], c["quantity"], c.get("current_a"))
                for c in r.get("cords", [])
            ),
            r.get("node_group"),
            r.get("first_node", 0),
            r.get("nodes", 0),
            r.get("system", False),
        )
        count = r.get("count", 1)
        placed = names[at : at + count] if at < len(names) and names[at][2] == rack.name else []
        if len(placed) != count:  # rows that do not name the racks: slot by slot from the entry's own place, named
            row_name = rack.name.rsplit("-", 1)[0]  # as the planner names racks, R<row>-<slot>
            placed = [(rack.row, rack.slot + k, f"{row_name}-{rack.slot + k + 1:02d}") for k in range(count)]
            placed[0] = (rack.row, rack.slot, rack.name)
        at += count
        first, start = rack, 0  # the first rack of the entry in the current row, and its place in the entry
        for k, (row, slot, name) in enumerate(placed):
            if k and (row, slot) == (rack.row, rack.slot + k - start):
                runs[-1][1].append(name)  # the same row: the run goes on
                continue
            if k:
                rack = replace(first, name=name, row=row, slot=slot, first_node=first.first_node + k * first.nodes)
                start = k
            if runs and _continues(runs[-1][0], len(runs[-1][1]), rack):
                runs[-1][1].append(rack.name)
            else:
                runs.append((rack, [rack.name]))
    return [RackRun(rack, len(names), tuple(names)) for rack, names in runs]
