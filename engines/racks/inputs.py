"""What the rack planner takes: node groups, switch groups, the facility and the PDUs on offer, frozen dataclasses
that check their own values (RackInputError names the field). ``None`` always means *unknown*: the planner never
substitutes a guessed number for a missing fact.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum

from .model import Cooling, Feeds, SwitchRole

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
class RackSystem:
    """What a rack-scale system (GB200/GB300 NVL72) holds, each at its own unit (``engines.racks.systems``): its
    compute trays (the fabric's endpoints), NVLink switch trays, power shelves and built-in management switches
    (``management_switch``: their part, None while the catalogue does not name it). 1U each."""

    compute_trays: int
    switch_trays: int = 0
    power_shelves: int = 0
    management_switches: int = 0
    management_switch: str | None = None

    def __post_init__(self) -> None:
        for name in ("compute_trays", "switch_trays", "power_shelves", "management_switches"):
            _check_whole(self, name, 0, MAX_RACK_UNITS)


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
    inlet_current_a: float | None = None  # what one supply draws at its rating (its watts / the feed's volts)
    su_nodes: int | None = None  # None: not on the compute fabric, or SU size unknown
    # The fabric's own scalable unit when it is smaller than ``su_nodes`` (the fabric spreads the nodes evenly over
    # its units; the rows hold full SUs): a unit's first nodes then stand in the row before its leaves.
    unit_nodes: int | None = None
    # A rack-scale NVLink system (GB200/GB300 NVL72): each "node" is a whole rack of its own, ``height_u`` its own
    # units and ``power_w`` the whole rack's; it brings its own power shelves and management switches.
    rack_scale: bool = False
    system: RackSystem | None = None  # a rack-scale system's trays, shelves and switches; None: not known
    # A rack-scale group's rail-optimized fabric (its endpoints are the systems' compute trays): the trays a unit
    # holds at its full size and the leaves each unit has (one a rail in each plane). A unit's leaves stand in the
    # row holding its first tray at that size, so each row keeps its leaves as the cluster grows, and the places of
    # the leaf racks its full size takes are kept free before then (``rows.place_leaves``).
    unit_trays: int | None = None
    unit_leaves: int | None = None
    # A fat tree's group has units too: a leaf's node-facing links (``unit_trays``) and a leaf in each plane
    # (``unit_leaves``), each node ``unit_endpoints`` links to them (its NICs; None: a rack-scale system's trays);
    # ``leaf_links``: the node-facing links the fabric gives a leaf (its balanced share, at most ``unit_trays``),
    # which tells how far a leaf's nodes stand from its row (None: up to a row either side).
    unit_endpoints: int | None = None
    leaf_links: int | None = None
    # The most nodes a rack of the group holds as installed (an expansion: ``engines.cluster.rackplan.growing_from``):
    # the grown plan racks them no denser, whatever the grown design's facility (a node group that needs more power
    # a rack raises its default), so the installed racks keep their nodes. None: as the facility allows.
    per_rack: int | None = None

    def __post_init__(self) -> None:
        _check_whole(self, "count", 0)
        _check_whole(self, "height_u", 1, MAX_RACK_UNITS)
        _check_whole(self, "power_w", 0, optional=True)
        _check_enum(self, "cooling", Cooling, optional=True)
        _check_whole(self, "inlets", 0, optional=True)
        _check_whole(self, "su_nodes", 1, optional=True)
        _check_whole(self, "unit_nodes", 1, optional=True)
        _check_whole(self, "unit_trays", 1, optional=True)
        _check_whole(self, "unit_leaves", 1, optional=True)
        _check_whole(self, "unit_endpoints", 1, optional=True)
        _check_whole(self, "leaf_links", 1, optional=True)
        _check_whole(self, "per_rack", 1, optional=True)


@dataclass(frozen=True)
class KeptLeaves:
    """The installed cluster's leaf switches row by row (``rows[r]``: how many row *r* holds, the fabric's leaves in
    order), which a plan of the grown cluster keeps: each of its rows holds at least the leaves it held
    (``engines.racks.kept.kept_leaves`` reads them off the installed plan). A leaf the installed fabric's balanced
    share put in its last row, ahead of the unit it stands for, so stays there when a row is added after it."""

    rows: tuple[int, ...]

    def __post_init__(self) -> None:
        if any(not isinstance(n, int) or n < 0 for n in self.rows):
            raise ValueError(f"rows: {self.rows!r} are no counts of leaves")


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
class KeptRack:
    """An installed one-rack cluster's rack, which a plan of the grown cluster keeps as it stands: its ``nodes``
    first nodes of the node group ``node_group`` from the bottom, its ``leaves`` leaf switches below the top, the
    highest of them reaching unit ``leaf_top_u`` (``engines.racks.kept.kept_rack`` reads it off the installed
    plan)."""

    node_group: str
    nodes: int
    leaves: int
    leaf_top_u: int

    def __post_init__(self) -> None:
        _check_whole(self, "nodes", 1)
        _check_whole(self, "leaves", 1)
        _check_whole(self, "leaf_top_u", 1, MAX_RACK_UNITS)


# One place of a management rack, top down below its management switch: (switch role, part, units); a place kept
# free is ("", "", units).
Place = tuple[str, str, int]


@dataclass(frozen=True, kw_only=True)
class KeptManagement:
    """The installed cluster's management racks, which a plan of the grown cluster keeps as they stand: each rack's
    places top down (``rack_places``), read off the installed plan (``engines.racks.kept.kept_management``).
    The grown plan's added equipment goes after them (``Builder.pack_network(kept=...)``). ``slot``: the place of
    the first of them in row ``row`` (0-based), which they keep in the grown plan, the row's racks from there on one
    place further each; None: where a grown plan has its management racks."""

    racks: tuple[tuple[Place, ...], ...]
    slot: int | None = None
    row: int = 0

    def __post_init__(self) -> None:
        _check_whole(self, "slot", 0, optional=True)
        _check_whole(self, "row", 0)
        for i, rack in enumerate(self.racks):
            for role, part, units in rack:
                if not isinstance(units, int) or units < 1 or units > MAX_RACK_UNITS or (part and not role):
                    raise ValueError(f"racks[{i}]: ({role!r}, {part!r}, {units!r}) is no place of a rack")


@dataclass(frozen=True, kw_only=True)
class CentralSwitches:
    """Switches of the management racks whose number follows the plan's PDUs, each PDU a port on them: the central
    out-of-band switches. ``switches(pdus)`` is ``sizer(ports + pdus, per_switch, units)``, the sizing of their
    network's engine (``ports``: every other port they take). ``group`` names the switch; its count is ignored.
    The planner racks as many as the PDUs of the plan with them racked ask for."""

    group: SwitchGroup
    ports: int
    per_switch: int
    units: int
    sizer: Callable[[int, int, int], int] = field(compare=False, repr=False)

    def switches(self, pdus: int) -> int:
        return self.sizer(self.ports + pdus, self.per_switch, self.units)


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
    zero_u_positions: int = 4  # vertical PDUs one rack takes (packing.ZERO_U_PDU_POSITIONS, its source there)

    def __post_init__(self) -> None:
        _check_whole(self, "rack_units", 1, MAX_RACK_UNITS)
        _check_whole(self, "zero_u_positions", 0, 16)
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
    outlet_current_a: int | None = None  # what one outlet (and the cord into it) carries, e.g. 16 for C19

    def __post_init__(self) -> None:
        _check_whole(self, "rating_w", 1)
        _check_whole(self, "outlets", 1, optional=True)
        _check_whole(self, "height_u", 0, MAX_RACK_UNITS)
