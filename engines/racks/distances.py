"""Cable run lengths per link class, from the racks and rows of a rack plan.

``link_distances(plan, override=..., geometry=...)`` gives each link class the *longest* run it needs in this
plan (the length its media must reach), named like the fabric's ``rack`` overrides so the media choice can take
them as they are:

===================  ==========================================================  ===========================
key                  link class                                                  route
===================  ==========================================================  ===========================
``in_rack_m``        a node to a switch in its own rack (leaf or management)      in the rack
``node_to_leaf_m``   a node to its leaf: in the rack when the leaves sit with     in the rack, or along the
                     their nodes, else to the row's leaf rack                     row (middle or end)
``leaf_to_spine_m``  a leaf to a spine                                            along the row, or between
                                                                                  rows
``spine_to_core_m``  a spine to a core switch                                     along or between rows
``management_m``     any device to the management switch of its rack              in the rack
===================  ==========================================================  ===========================

An explicit override always wins: a value in ``override`` (an object with these attributes, such as the design's
``RackIn``, or a mapping) replaces the computed one and is marked ``basis="override"``; for node-to-leaf runs in
the rack the fabric's ``in_rack_m`` override applies, as in the fabric planner. A class with no links in the
plan has ``length_m=None`` unless overridden.

Geometry (``Geometry``; every figure a stated assumption that a caller may change):

* one rack unit is 44.45 mm (1.75 in, EIA-310 [V]); racks are ``rack_width_m`` = 0.6 m wide, the common width of
  a 19-inch server cabinet (an assumption: the site's cabinets may be 0.8 m, e.g. for network racks);
* cables leave a device, run ``rack_exit_m`` = 0.3 m to the rack's vertical cable manager, rise to the top of the
  rack and ``tray_rise_m`` = 0.3 m more into an overhead tray, run horizontally, and come down the same way;
* rows stand ``row_pitch_m`` = 2.4 m apart (1.2 m rack depth plus a 1.2 m aisle, the cold-aisle width commonly
  cited from TIA-942 [S, not checked against the standard]), all rows start at the same end, and a run between
  rows goes along its row to the nearer end, across, and back along the other row;
* a device's worst port is taken at its lowest unit (longest climb); a run between racks is taken between the
  lowest device of each kind in them;
* ``slack_m`` (default 0) is added to every run; it is 0 because the fabric's media choice already adds its own
  service loop (``engines.fabric.media.SLACK_M``, 0.5 m) before picking a cable length.

A node's leaf rack is in its own row, or up to ``RackPlan.leaf_reach_rows`` rows after it and
``leaf_reach_back_rows`` rows before it where the fabric's units cross rows; every node rack of a row is then
paired with every leaf rack of those rows (an upper bound: only a row's end racks hold such a unit's nodes).

Lengths are rounded up to 0.1 m. Leaf-to-spine and spine-to-core take the worst pair over all leaf (spine) and
spine (core) racks, an upper bound: in a three-tier fabric a leaf reaches only the spines of its own pod.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from design.jsontext import JsonObject

from .model import DeviceRole, Rack, RackPlan, RackRun

LINK_CLASSES = ("in_rack_m", "node_to_leaf_m", "leaf_to_spine_m", "spine_to_core_m", "management_m")
UNIT_M = 0.04445  # EIA-310: 1U = 1.75 in


@dataclass(frozen=True, kw_only=True)
class Geometry:
    rack_width_m: float = 0.6
    row_pitch_m: float = 2.4
    rack_exit_m: float = 0.3
    tray_rise_m: float = 0.3
    slack_m: float = 0.0


@dataclass(frozen=True)
class LinkLength:
    """One link class's length; ``route`` is "in-rack", "row" or "between-rows" (None when overridden/absent)."""

    link: str
    length_m: float | None
    basis: str  # "plan", "override" or "none"
    route: str | None

    def to_dict(self) -> JsonObject:
        return {"link": self.link, "length_m": self.length_m, "basis": self.basis, "route": self.route}


def _round_up(x: float) -> float:
    return math.ceil(round(x * 10, 6)) / 10


def _override(override: object, key: str) -> float | None:
    if override is None:
        return None
    value = override.get(key) if isinstance(override, Mapping) else getattr(override, key, None)
    return None if value is None else float(value)


class _Routes:
    def __init__(self, plan: RackPlan, g: Geometry) -> None:
        self.g = g
        self.u_total = plan.rack_units
        # A row's length in places: its last rack's, free places of a partial SU counted.
        self.row_len = {row.index: len(row.racks) for row in plan.rows}
        for run in plan.runs:
            end = run.rack.slot + run.count
            if end > self.row_len.get(run.rack.row, 0):
                self.row_len[run.rack.row] = end

    def in_rack(self, low_u: int, high_u: int) -> float:
        return abs(high_u - low_u) * UNIT_M + 2 * self.g.rack_exit_m + self.g.slack_m

    def climb(self, pos_u: int, u_total: int | None = None) -> float:
        """From a device at ``pos_u`` to the overhead tray, over the top of its rack (``u_total``: its own height,
        a rack-scale system's 48U; the plan's racks by default)."""
        return self.g.rack_exit_m + ((u_total or self.u_total) - pos_u + 1) * UNIT_M + self.g.tray_rise_m

    def between(self, a: Rack, pos_a: int, b: Rack, pos_b: int) -> tuple[float, str]:
        if a.name == b.name:
            return self.in_rack(min(pos_a, pos_b), max(pos_a, pos_b)), "in-rack"
        w = self.g.rack_width_m
        xa, xb = (a.slot + 0.5) * w, (b.slot + 0.5) * w
        if a.row == b.row:
            horizontal, route = abs(xa - xb), "row"
        else:
            far = max(self.row_len[a.row], self.row_len[b.row]) * w
            horizontal = min(xa + xb, 2 * far - xa - xb) + abs(a.row - b.row) * self.g.row_pitch_m
            route = "between-rows"
        return self.climb(pos_a, a.u_total) + horizontal + self.climb(pos_b, b.u_total) + self.g.slack_m, route


def _shape(routes: _Routes, rack: Rack) -> tuple[dict[DeviceRole, int], float | None]:
    """The lowest unit of each role in a rack, and its longest run to its management switch (None: none)."""
    lows: dict[DeviceRole, int] = {}
    for d in rack.devices:
        if d.role not in lows or d.position_u < lows[d.role]:
            lows[d.role] = d.position_u
    top_switch = max((d.position_u for d in rack.devices if d.role == DeviceRole.MANAGEMENT), default=None)
    low_any = min((d.position_u for d in rack.devices if d.role != DeviceRole.MANAGEMENT), default=None)
    run = None if top_switch is None or low_any is None else routes.in_rack(low_any, top_switch)
    return lows, run


def _worst_pairs(
    routes: _Routes,
    lows_a: list[tuple[Rack, int]],
    lows_b: list[tuple[Rack, int]],
    *,
    same_row: bool,
    reach: int = 0,
    back: int = 0,
) -> tuple[float, str] | None:
    """The longest run between any rack of ``lows_a`` and any of ``lows_b`` (within each row if ``same_row``, the
    ``reach`` rows after it and the ``back`` rows before it).

    The run is the two climbs (set by the units) plus the horizontal run, so the ``lows_b`` racks are grouped by
    row and unit and only the candidates that can be farthest are tried: within a row the horizontal run grows
    with the distance between slots (the group's two end racks); between rows it is the shorter way round the
    row ends, which is largest for the slot nearest its peak (the two slots either side of it)."""
    groups: dict[tuple[int, int], list[tuple[int, Rack]]] = {}
    for rb, pb in lows_b:
        groups.setdefault((rb.row, pb), []).append((rb.slot, rb))
    everywhere: list[tuple[int, int, list[int], list[tuple[int, Rack]]]] = []
    by_row: dict[int, list[tuple[int, int, list[int], list[tuple[int, Rack]]]]] = {}
    for (row, pb), members in groups.items():
        members.sort(key=_first)
        entry = (row, pb, [m[0] for m in members], members)
        everywhere.append(entry)
        by_row.setdefault(row, []).append(entry)
    w = routes.g.rack_width_m
    best: tuple[float, str] | None = None
    for ra, pa in lows_a:
        rows = range(ra.row - back, ra.row + reach + 1)
        near = [e for r in rows for e in by_row.get(r, ())] if same_row else everywhere
        for row, pb, slots, members in near:
            if row == ra.row:
                picks: tuple[tuple[int, Rack], ...] = (members[0], members[-1])
            else:
                far = max(routes.row_len[ra.row], routes.row_len[row]) * w
                peak = far - (ra.slot + 0.5) * w  # the xb where xa + xb meets 2 far - xa - xb
                at = bisect_left(slots, peak / w - 0.5)
                picks = tuple(members[i] for i in (at - 1, at) if 0 <= i < len(members))
            for _slot_b, rb in picks:
                cand = routes.between(ra, pa, rb, pb)
                if best is None or cand[0] > best[0]:
                    best = cand
    return best


def _first(item: tuple[int, Rack]) -> int:
    return item[0]


_PAIRED_SWITCHES = frozenset({DeviceRole.LEAF, DeviceRole.SPINE, DeviceRole.CORE})


def _first_slot(run: RackRun) -> int:
    return run.rack.slot


def _last_slot(run: RackRun) -> int:
    return run.rack.slot + run.count - 1


def link_distances(
    plan: RackPlan, *, override: object = None, geometry: Geometry | None = None
) -> dict[str, LinkLength]:
    """Longest run per link class in this plan (module docstring); an override always wins."""
    routes = _Routes(plan, geometry or Geometry())
    lows, mgmt = _lows_of(routes, plan)
    node_lows = {id(r): p for r, p in lows[DeviceRole.NODE]}
    in_rack = 0.0
    has_in_rack = False
    for rack, leaf_low in lows[DeviceRole.LEAF]:
        if id(rack) in node_lows:
            has_in_rack = True
            in_rack = max(in_rack, routes.in_rack(node_lows[id(rack)], leaf_low))
    if mgmt is not None:
        in_rack = max(in_rack, mgmt)
        has_in_rack = True

    computed: dict[str, tuple[float, str] | None] = {
        "in_rack_m": (in_rack, "in-rack") if has_in_rack else None,
        "management_m": (mgmt, "in-rack") if mgmt is not None else None,
        "node_to_leaf_m": _worst_pairs(
            routes,
            lows[DeviceRole.NODE],
            lows[DeviceRole.LEAF],
            same_row=True,
            reach=plan.leaf_reach_rows,
            back=plan.leaf_reach_back_rows,
        ),
        "leaf_to_spine_m": _worst_pairs(routes, lows[DeviceRole.LEAF], lows[DeviceRole.SPINE], same_row=False),
        "spine_to_core_m": _worst_pairs(routes, lows[DeviceRole.SPINE], lows[DeviceRole.CORE], same_row=False),
    }
    in_rack_leaves = plan.leaf_placement == "in-rack" and lows[DeviceRole.LEAF]
    return _lengths(computed, override, {"node_to_leaf_m": "in_rack_m"} if in_rack_leaves else {})


def central_oob_run(plan: RackPlan, geometry: Geometry | None = None) -> float | None:
    """The longest out-of-band cord run of a plan whose out-of-band switches stand in the management racks: from
    the lowest device of any rack (its BMCs, switches and PDUs have management ports) to those switches' lowest,
    rounded up to 0.1 m; None when no such switch is racked (per rack: the run is in the rack).

    The racks on each side are taken by row and height, each group as the span of its slots with its lowest device
    (the longest climb): within a row the run is longest between the spans' far ends; between rows the run along the
    rows, min(xa + xb, 2 far - xa - xb), is longest where xa + xb is nearest ``far`` (``_Routes.between``), taken as
    ``far`` wherever the spans reach it: an upper bound by at most a rack's width or two (128 H200 nodes: 21.1 m for
    20.5 m rack by rack). So a few dozen groups stand for every rack of a 100,000-node plan."""
    if not any(d.role == DeviceRole.OOB for run in plan.runs for d in run.rack.devices):
        return None
    routes = _Routes(plan, geometry or Geometry())
    lows, _mgmt = _lows_of(routes, plan)
    devices = _spans(pair for role, pairs in lows.items() if role != DeviceRole.OOB for pair in pairs)
    switches = _spans(lows[DeviceRole.OOB])
    worst = max(
        (_span_run(routes, a, span_a, b, span_b) for a, span_a in devices.items() for b, span_b in switches.items()),
        default=None,
    )
    return None if worst is None else _round_up(worst)


_Group = tuple[int, int]  # the racks of one row and height


def _spans(pairs: Iterable[tuple[Rack, int]]) -> dict[_Group, tuple[int, int, int]]:
    """Per row and rack height: the lowest unit of the racks' devices (the longest climb) and their first and last
    slot."""
    lows: dict[_Group, list[int]] = {}
    slots: dict[_Group, list[int]] = {}
    for rack, low in pairs:
        key = (rack.row, rack.u_total)
        if key in lows:
            lows[key].append(low)
            slots[key].append(rack.slot)
        else:
            lows[key], slots[key] = [low], [rack.slot]
    return {key: (min(lows[key]), min(slots[key]), max(slots[key])) for key in lows}


def _span_run(
    routes: _Routes, a: _Group, span_a: tuple[int, int, int], b: _Group, span_b: tuple[int, int, int]
) -> float:
    """The longest run between any rack of one group and any of the other (``_Routes.between`` at its worst)."""
    (row_a, u_a), (low_a, first_a, last_a) = a, span_a
    (row_b, u_b), (low_b, first_b, last_b) = b, span_b
    if row_a == row_b and first_a == last_a == first_b == last_b:
        return routes.in_rack(min(low_a, low_b), max(low_a, low_b))  # one rack: the switch stands with the devices
    w = routes.g.rack_width_m
    if row_a == row_b:
        horizontal = max(last_a - first_b, last_b - first_a, 0) * w
    else:
        far = max(routes.row_len[row_a], routes.row_len[row_b]) * w
        low_sum, high_sum = (first_a + first_b + 1) * w, (last_a + last_b + 1) * w
        along = far if low_sum <= far <= high_sum else high_sum if high_sum < far else 2 * far - low_sum
        horizontal = along + abs(row_a - row_b) * routes.g.row_pitch_m
    return routes.climb(low_a, u_a) + horizontal + routes.climb(low_b, u_b) + routes.g.slack_m


_last: list[tuple[RackPlan, Geometry, tuple[dict[DeviceRole, list[tuple[Rack, int]]], float | None]]] = []


def _lows_of(routes: _Routes, plan: RackPlan) -> tuple[dict[DeviceRole, list[tuple[Rack, int]]], float | None]:
    """``_device_lows`` of the plan, kept for the plan last asked about: the link lengths and the out-of-band run
    of one validation read the same plan."""
    if _last and _last[0][0] is plan and _last[0][1] == routes.g:
        return _last[0][2]
    found = _device_lows(routes, plan)
    _last[:] = [(plan, routes.g, found)]
    return found


def _device_lows(routes: _Routes, plan: RackPlan) -> tuple[dict[DeviceRole, list[tuple[Rack, int]]], float | None]:
    """Per device role, the racks that hold it with its lowest slot, and the longest management run (None: no
    management switch).

    Identical racks share one devices tuple: their shape is computed once, and they are taken run by run of the
    plan. Racks holding nodes and no other switch than the management one are only compared with leaf racks of
    their own row, where the run grows with the distance between slots, so the two at the row's ends stand for
    all the others (a 2,048-node plan's thousand node racks come down to a few dozen candidates, and only those
    two are written out of their runs)."""
    lows: dict[DeviceRole, list[tuple[Rack, int]]] = {role: [] for role in DeviceRole}
    alike: dict[tuple[int, int], list[RackRun]] = {}
    for run in plan.runs:
        alike.setdefault((id(run.rack.devices), run.rack.row), []).append(run)
    mgmt: float | None = None
    shapes: dict[int, tuple[dict[DeviceRole, int], float | None]] = {}
    for same_runs in alike.values():
        devices = same_runs[0].rack.devices
        shape = shapes.get(id(devices))
        if shape is None:
            shape = shapes[id(devices)] = _shape(routes, same_runs[0].rack)
        rack_lows, mgmt_run = shape
        same = _standing_for(same_runs, rack_lows, every=bool(plan.leaf_reach_rows or plan.leaf_reach_back_rows))
        for role, low in rack_lows.items():
            lows[role] += [(rack, low) for rack in same]
        if mgmt_run is not None:
            mgmt = mgmt_run if mgmt is None else max(mgmt, mgmt_run)
    return lows, mgmt


def _standing_for(same_runs: list[RackRun], rack_lows: dict[DeviceRole, int], *, every: bool = False) -> list[Rack]:
    """The racks of alike runs whose distances must be measured: the row's two end racks stand for node racks
    without a paired switch (unless ``every``: their leaves may stand in the next row); otherwise every rack."""
    if not every and not _PAIRED_SWITCHES.intersection(rack_lows) and sum(run.count for run in same_runs) > 2:
        first = min(same_runs, key=_first_slot).rack
        last_run = max(same_runs, key=_last_slot)
        last = last_run.at(last_run.count - 1)
        return [first] if first is last else [first, last]
    return [rack for run in same_runs for rack in run.racks()]


def _lengths(
    computed: dict[str, tuple[float, str] | None], override: object, override_key_for: dict[str, str]
) -> dict[str, LinkLength]:
    """Each link class's length: the override when given, else the plan's (rounded up), else none."""
    out: dict[str, LinkLength] = {}
    for link in LINK_CLASSES:
        forced = _override(override, override_key_for.get(link, link))
        if forced is not None:
            out[link] = LinkLength(link, forced, "override", None)
        elif (found := computed[link]) is not None:
            length, route = found
            out[link] = LinkLength(link, _round_up(length), "plan", route)
        else:
            out[link] = LinkLength(link, None, "none", None)
    return out
