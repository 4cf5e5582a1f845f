"""What the rack planner takes and gives: frozen dataclasses, plain values, no Django.

Inputs are built at the service edge from the design and the catalogue (a node group's height, estimated
maximum power and cooling from its server part; switches from the fabric plan; PDU options from the
catalogue). ``None`` always means *unknown*: the planner never substitutes a guessed number for a missing
fact, it says what it could not check (see ``RackCode``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import cached_property
from typing import Any


class Cooling(StrEnum):
    AIR = "air"
    LIQUID = "liquid"


class Feeds(StrEnum):
    A = "A"  # one feed carries the rack
    AB = "A+B"  # two independent feeds, each able to carry the whole rack alone


class SwitchRole(StrEnum):
    LEAF = "leaf"
    SPINE = "spine"
    CORE = "core"
    MANAGEMENT = "management"


class DeviceRole(StrEnum):
    NODE = "node"
    LEAF = "leaf"
    SPINE = "spine"
    CORE = "core"
    MANAGEMENT = "management"
    PDU = "pdu"


class RackKind(StrEnum):
    COMPUTE = "compute"  # nodes (and, in a one-rack cluster, their leaf switches)
    NETWORK = "network"  # leaf, spine or core switches


class LeafPlacement(StrEnum):
    MIDDLE_OF_ROW = "middle"  # a network rack in the middle of each row (default, see plan.py)
    END_OF_ROW = "end"  # a network rack at the end of each row


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


class RackCode(StrEnum):
    """Finding codes of the rack planner; what each means is listed in ``engines.racks.plan``."""

    POWER_DEFAULT = "RACK_POWER_DEFAULT"
    COOLING_DEFAULT = "RACK_COOLING_DEFAULT"
    NODE_TOO_TALL = "RACK_NODE_TOO_TALL"
    NODE_OVER_POWER = "RACK_NODE_OVER_POWER"
    NODE_POWER_UNKNOWN = "RACK_NODE_POWER_UNKNOWN"
    SWITCH_POWER_UNKNOWN = "RACK_SWITCH_POWER_UNKNOWN"
    SWITCH_HEIGHT_UNKNOWN = "RACK_SWITCH_HEIGHT_UNKNOWN"
    AIR_DENSITY = "RACK_AIR_DENSITY"
    LIQUID_NODE_IN_AIR = "RACK_LIQUID_NODE_IN_AIR"
    NO_PDU = "RACK_NO_PDU"
    PDU_KNOWN_LOAD_ONLY = "RACK_PDU_KNOWN_LOAD_ONLY"
    PDU_OUTLETS_UNKNOWN = "RACK_PDU_OUTLETS_UNKNOWN"
    NO_MANAGEMENT_SWITCH = "RACK_NO_MANAGEMENT_SWITCH"
    MANAGEMENT_SWITCH_COUNT = "RACK_MANAGEMENT_SWITCH_COUNT"
    NODE_INLET_UNKNOWN = "RACK_NODE_INLET_UNKNOWN"
    NODE_HEIGHT_UNKNOWN = "RACK_NODE_HEIGHT_UNKNOWN"  # raised at the service edge: the server's height is unknown


# ----------------------------------------------------------------------------------------------------------
# Inputs

MAX_RACK_UNITS = 60  # a bound against nonsense input (the elevation draws every unit), above any rack on offer


class RackInputError(ValueError):
    """Planner input that makes no sense, naming the field; the service edge reports it as a field error."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}")
        self.field = field
        self.problem = problem


def _check_whole(obj: object, name: str, minimum: int, maximum: int | None = None, optional: bool = False) -> None:
    value = getattr(obj, name)
    if value is None and optional:
        return
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum or (maximum and value > maximum):
        bound = f"from {minimum} to {maximum}" if maximum else f"of at least {minimum}"
        raise RackInputError(name, f"must be a whole number {bound}")


def _check_enum(obj: object, name: str, enum: type[StrEnum], optional: bool = False) -> None:
    value = getattr(obj, name)
    if value is None and optional:
        return
    try:
        object.__setattr__(obj, name, enum(value))
    except ValueError:
        raise RackInputError(name, f"must be one of {', '.join(e.value for e in enum)}") from None


@dataclass(frozen=True, kw_only=True)
class NodeGroup:
    """``count`` identical servers. ``su_nodes``: nodes per scalable unit of the compute fabric (one row each)."""

    name: str  # the design's node-group name, used as the finding subject
    part: str
    count: int
    height_u: int
    power_w: int | None  # estimated maximum draw of one node; None: unknown
    cooling: Cooling | None  # as the server part says; None: unknown
    inlets: int | None = None  # power inlets (PSUs) per node; None: unknown
    inlet_type: str | None = None  # e.g. "C20"; None: unknown
    su_nodes: int | None = None  # None: not on the compute fabric, or SU size unknown

    def __post_init__(self) -> None:
        _check_whole(self, "count", 0)
        _check_whole(self, "height_u", 1, MAX_RACK_UNITS)
        _check_whole(self, "power_w", 0, optional=True)
        _check_enum(self, "cooling", Cooling, optional=True)
        _check_whole(self, "inlets", 0, optional=True)
        _check_whole(self, "su_nodes", 1, optional=True)


@dataclass(frozen=True, kw_only=True)
class SwitchGroup:
    """``count`` switches of one role. Height or power ``None``: unknown (see RACK_SWITCH_* findings)."""

    role: SwitchRole
    part: str
    count: int
    height_u: int | None
    power_w: int | None

    def __post_init__(self) -> None:
        _check_enum(self, "role", SwitchRole)
        _check_whole(self, "count", 0)
        _check_whole(self, "height_u", 1, MAX_RACK_UNITS, optional=True)
        _check_whole(self, "power_w", 0, optional=True)


@dataclass(frozen=True, kw_only=True)
class Facility:
    """The design's ``facility`` (design-v1 "Additions"); every field optional.

    ``pdu_feeds`` defaults to A+B: the HGX servers' power supplies are redundant in halves (hardware.md: 3+3, 2+2,
    4+4), which is what two independent feeds are for; a single-feed site says ``A``.
    """

    rack_units: int = 42
    rack_power_kw: float | None = None  # the most one rack may draw; None: default per cooling (plan.py)
    cooling: Cooling | None = None  # None: liquid if any node group is liquid-cooled, else air
    pdu_feeds: Feeds = Feeds.AB

    def __post_init__(self) -> None:
        _check_whole(self, "rack_units", 1, MAX_RACK_UNITS)
        power = self.rack_power_kw
        if power is not None and (
            isinstance(power, bool) or not isinstance(power, int | float) or not 0 < power < math.inf
        ):
            raise RackInputError("rack_power_kw", "must be a positive number of kilowatts")
        _check_enum(self, "cooling", Cooling, optional=True)
        _check_enum(self, "pdu_feeds", Feeds)


@dataclass(frozen=True, kw_only=True)
class PduOption:
    """A rack PDU the catalogue offers. ``rating_w``: the continuous load one PDU may carry on its feed."""

    part: str
    rating_w: int
    outlets: int | None  # None: unknown
    cord: str  # the PDU's own input cord / plug, e.g. "IEC 60309 32A 3P+N+E"; the site must offer it
    outlet_type: str | None = None  # e.g. "C19"
    height_u: int = 0  # 0: a vertical zero-U PDU beside the rails

    def __post_init__(self) -> None:
        _check_whole(self, "rating_w", 1)
        _check_whole(self, "outlets", 1, optional=True)
        _check_whole(self, "height_u", 0, MAX_RACK_UNITS)


# ----------------------------------------------------------------------------------------------------------
# Outputs


@dataclass(frozen=True)
class Finding:
    """A fact about the plan: stable code, severity, subject and plain parameters; text is rendered later."""

    code: RackCode
    severity: Severity
    subject: str
    params: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"code": str(self.code), "severity": str(self.severity), "subject": self.subject, "params": self.params}


@dataclass(frozen=True)
class Device:
    """One device in a rack; ``position_u`` is its lowest unit, counted from U1 at the bottom (EIA-310)."""

    part: str
    name: str
    role: DeviceRole
    position_u: int
    height_u: int
    power_w: int | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "part": self.part,
            "name": self.name,
            "role": str(self.role),
            "position_u": self.position_u,
            "height_u": self.height_u,
        }


@dataclass(frozen=True)
class PduLine:
    part: str
    quantity: int
    cord: str

    def to_dict(self) -> dict[str, Any]:
        return {"part": self.part, "quantity": self.quantity, "cord": self.cord}


@dataclass(frozen=True)
class CordLine:
    """Node power cords: one per inlet, from a PDU outlet type to the node's inlet type."""

    pdu_outlet: str | None
    node_inlet: str | None
    quantity: int

    def to_dict(self) -> dict[str, Any]:
        return {"pdu_outlet": self.pdu_outlet, "node_inlet": self.node_inlet, "quantity": self.quantity}


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

    def to_dict(
        self,
        devices: list[dict[str, Any]] | None = None,
        pdus: list[dict[str, Any]] | None = None,
        cords: list[dict[str, Any]] | None = None,
    ) -> dict[str, Any]:
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
            "devices": devices if devices is not None else [d.to_dict() for d in self.devices],
            "pdus": pdus if pdus is not None else [p.to_dict() for p in self.pdus],
            "cords": cords if cords is not None else [c.to_dict() for c in self.cords],
            "node_group": self.node_group,
            "first_node": self.first_node,
            "nodes": self.nodes,
        }


@dataclass(frozen=True)
class Row:
    """Racks standing side by side; ``racks`` are names in slot order."""

    index: int
    name: str
    racks: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "name": self.name, "racks": list(self.racks)}


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

    @cached_property
    def racks(self) -> tuple[Rack, ...]:
        return tuple(rack for run in self.runs for rack in run.racks())

    @property
    def rack_count(self) -> int:
        return sum(run.count for run in self.runs)

    def to_dict(self) -> dict[str, Any]:
        # Identical racks share one devices tuple, and so one list of device dicts: a 2,048-node plan writes a
        # few dozen lists instead of thousands of dicts (the result is read, never changed in place).
        # The same holds for the racks' PDU and cord lines (one tuple per distinct rack load).
        # A rack's dict differs from an identical rack's only in its name, place and first node: the rest is
        # written once per content and copied (keys keep their order).
        shared: dict[int, list[dict[str, Any]]] = {}
        bases: dict[tuple, dict[str, Any]] = {}
        racks = []
        for run in self.runs:
            r = run.rack
            key = (id(r.devices), id(r.pdus), id(r.cords), r.kind, r.u_total, r.u_used, r.power_w, r.power_known_w)
            key += (r.cooling, r.node_group, r.nodes)
            base = bases.get(key)
            if base is None:
                devices = shared.get(id(r.devices))
                if devices is None:
                    devices = shared[id(r.devices)] = [d.to_dict() for d in r.devices]
                pdus = shared.get(id(r.pdus))
                if pdus is None:
                    pdus = shared[id(r.pdus)] = [p.to_dict() for p in r.pdus]
                cords = shared.get(id(r.cords))
                if cords is None:
                    cords = shared[id(r.cords)] = [c.to_dict() for c in r.cords]
                base = bases[key] = r.to_dict(devices, pdus, cords)
            row, slot, first, step = r.row, r.slot, r.first_node, r.nodes
            racks += [
                {**base, "name": name, "row": row, "slot": slot + k, "first_node": first + k * step}
                for k, name in enumerate(run.names)
            ]
        return {
            "racks": racks,
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
    def from_dict(cls, d: dict[str, Any]) -> RackPlan:
        """The plan back from ``to_dict()`` (a stored validation result), for the elevation and the cabling list.
        Device power, totals and findings are not in the dict and come back as unknown / empty; identical racks
        share one ``devices`` tuple again, as the planner made them."""
        shared: dict[tuple, tuple[Device, ...]] = {}
        runs: list[tuple[Rack, list[str]]] = []
        for r in d.get("racks", []):
            devices = tuple(
                Device(x["part"], x["name"], DeviceRole(x["role"]), x["position_u"], x["height_u"], None)
                for x in r.get("devices", [])
            )
            devices = shared.setdefault(devices, devices)
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
                tuple(CordLine(c["pdu_outlet"], c["node_inlet"], c["quantity"]) for c in r.get("cords", [])),
                r.get("node_group"),
                r.get("first_node", 0),
                r.get("nodes", 0),
            )
            if runs and _continues(runs[-1][0], len(runs[-1][1]), rack):
                runs[-1][1].append(rack.name)
            else:
                runs.append((rack, [rack.name]))
        return cls(
            runs=tuple(RackRun(rack, len(names), tuple(names)) for rack, names in runs),
            rows=tuple(Row(w["index"], w["name"], tuple(w["racks"])) for w in d.get("rows", [])),
            pdus=tuple(PduLine(p["part"], p["quantity"], p["cord"]) for p in d.get("pdus", [])),
            cords=tuple(CordLine(c["pdu_outlet"], c["node_inlet"], c["quantity"]) for c in d.get("cords", [])),
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

    def totals(self) -> dict[str, Any]:
        """``totals.racks`` and ``totals.facility_power_w``; overheads are named as not included."""
        return {
            "racks": self.rack_count,
            "facility_power_w": self.facility_power_w,
            "facility_power_known_w": self.facility_power_known_w,
            "overhead_included": {"pdu_losses": False, "cooling": False},
        }


def _continues(first: Rack, count: int, rack: Rack) -> bool:
    """Whether ``rack`` is the next of a run of ``count`` racks starting with ``first``: alike, and next in place."""
    return (
        rack.row == first.row
        and rack.slot == first.slot + count
        and rack.first_node == first.first_node + count * first.nodes
        and rack.devices is first.devices
        and (rack.kind, rack.u_total, rack.u_used, rack.power_w, rack.power_known_w, rack.cooling)
        == (first.kind, first.u_total, first.u_used, first.power_w, first.power_known_w, first.cooling)
        and (rack.pdus, rack.cords, rack.node_group, rack.nodes)
        == (first.pdus, first.cords, first.node_group, first.nodes)
    )
