"""The rows of a rack plan: compute racks cut into rows, leaf racks in their row, spine and core racks in a row of
their own, and every rack named by its row and slot (rules in ``engines.racks.plan``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from .inputs import NodeGroup
from .model import Device, LeafPlacement, RackKind, RackRun, Row
from .packing import (
    KEPT_FREE,
    MAX_COMPUTE_RACKS_PER_ROW,
    Builder,
    Context,
    Draft,
    Switch,
    ceil_div,
    finish_rack,
    nodes_per_rack,
    reserved,
)

_Content = tuple[tuple[Device, ...], int, bool, int | None, int | None]  # devices, W known, W unknown?, inlets


@dataclass(frozen=True)
class Kept:
    """The first rack of node group ``group`` as an installed one-rack cluster has it: its first ``nodes`` nodes
    with ``switches`` on top (places kept free, then its leaves: ``plan.kept_first_rack``)."""

    group: str
    nodes: int
    switches: tuple[Switch, ...]

    @property
    def leaves(self) -> int:
        return sum(1 for s in self.switches if s.part != KEPT_FREE)


def _group_rows(
    ctx: Context, b: Builder, group: NodeGroup, leaves: Sequence[Switch], kept: Kept | None = None
) -> tuple[list[list[Draft]], int]:
    """The group's compute racks, cut into rows (a row per SU, else at most MAX_COMPUTE_RACKS_PER_ROW racks), and
    how many compute racks a full SU row holds (0 for a group without SUs: its rows are not a unit to fill).
    ``kept``: the group's first rack as installed, its other racks as the plan would have them."""
    leaf_u = sum(s.height_u for s in leaves)
    leaf_w = sum(s.power_w or 0 for s in leaves)
    npr = nodes_per_rack(ctx, b, group, leaf_u, leaf_w)
    inlets = group.inlets
    per_row = group.su_nodes if group.su_nodes else npr * MAX_COMPUTE_RACKS_PER_ROW
    rows: list[list[Draft]] = []
    contents: dict[int, _Content] = {}

    def content(n: int, on_top: Sequence[Switch] = leaves) -> _Content:
        hit = contents.get(n) if on_top is leaves else None
        if hit is None:  # a full rack, or the row's last one: computed once each
            devices, known, unknown = b.compute(group, n, on_top)
            per_feed = None if inlets is None else (n * ceil_div(inlets, 2) if b.feeds == 2 else n * inlets)
            total = None if inlets is None else n * inlets
            hit = (devices, known, unknown, per_feed, total)
            if on_top is leaves:
                contents[n] = hit
        return hit

    start = 0
    while start < group.count:
        row_nodes = min(per_row, group.count - start)
        row: list[Draft] = []
        first = start
        if kept is not None and start == 0:  # the installed rack, as it stands
            n = min(kept.nodes, row_nodes)
            row.append(Draft(RackKind.COMPUTE, *content(n, kept.switches), group, 0, n))
            first = n
        full, rest = divmod(start + row_nodes - first, npr)
        if full:  # the row's full racks, one run
            row.append(Draft(RackKind.COMPUTE, *content(npr), group, first, npr, full))
        if rest:
            row.append(Draft(RackKind.COMPUTE, *content(rest), group, first + full * npr, rest))
        rows.append(row)
        start += row_nodes
    # A row of rack-scale systems is a unit to fill too (the DGX SuperPOD GB200 RA's SU of 8 racks), as is a fat
    # tree's row: its leaf racks stand where the full row has them, so growing it moves no installed rack.
    return rows, ceil_div(per_row, max(1, npr)) if group.su_nodes or group.rack_scale or group.unit_trays else 0


@lru_cache(maxsize=64)
def _slot_names(count: int) -> tuple[str, ...]:
    """ "-01", "-02", ...: the ends of the names of a row's ``count`` racks (rows of a plan share a few lengths)."""
    return tuple(f"-{s + 1:02d}" for s in range(count))


def row_length(row: Sequence[Draft]) -> int:
    return sum(d.count for d in row)


def insert_racks(row: list[Draft], at: int, drafts: Sequence[Draft]) -> None:
    """Put ``drafts`` before rack ``at`` of the row, splitting the run that holds it."""
    for i, d in enumerate(row):
        if at < d.count:
            if at:
                row[i : i + 1] = [d.part(0, at), *drafts, d.part(at, d.count - at)]
            else:
                row[i:i] = drafts
            return
        at -= d.count
    row.extend(drafts)


def _spread(items: Sequence[Switch], parts: int) -> list[list[Switch]]:
    """Split items into ``parts`` consecutive runs whose sizes differ by at most one."""
    base, extra = divmod(len(items), parts)
    out, i = [], 0
    for p in range(parts):
        n = base + (1 if p < extra else 0)
        out.append(list(items[i : i + n]))
        i += n
    return out


@dataclass(frozen=True)
class _Units:
    """How a fabric's leaves follow its units: ``unit`` endpoints (trays, links or nodes) a full unit, ``per`` leaves
    a unit, each node of a group ``endpoints`` of them, the group's first one ``offset`` into the fabric's."""

    unit: int
    per: int
    endpoints: dict[int, int]
    offset: dict[int, int]
    share: int = 0  # several groups: the endpoints a unit of the fabric holds (its balanced share, at most ``unit``)


def _units(groups: Sequence[NodeGroup], leaves: int) -> _Units | None:
    """The units of the fabric rows' groups (in their order on the fabric): one group's own (``unit_trays``); for
    several groups, a fat tree's (the same ``unit_trays`` each) or a rail-optimized fabric's full SUs (the same
    ``su_nodes`` each, its leaves a unit the fabric's leaves over its SUs). None: no such units (mixed kinds)."""
    if len(groups) == 1:
        g = groups[0]
        trays = g.unit_endpoints or (g.system.compute_trays if g.system else 0)
        if not (g.unit_trays and g.unit_leaves and trays):
            return None
        return _Units(g.unit_trays, g.unit_leaves, {id(g): trays}, {id(g): 0})
    kinds = {(g.unit_trays, g.unit_leaves, g.unit_endpoints, g.su_nodes, g.rack_scale) for g in groups}
    if len(kinds) != 1:
        return None
    unit, per, each, su, rack_scale = kinds.pop()
    if rack_scale:
        return None
    if unit and per and each:
        endpoints = dict.fromkeys(map(id, groups), each)
    elif su and not unit:  # a rail-optimized fabric's SUs: the rows hold full SUs of nodes
        units = ceil_div(sum(g.count for g in groups), su)
        unit, per, endpoints = su, leaves // units if not leaves % units else 0, dict.fromkeys(map(id, groups), 1)
    else:
        return None
    offset, at = {}, 0
    for g in groups:
        offset[id(g)] = at
        at += g.count * endpoints[id(g)]
    if not per:
        return None
    links = groups[0].leaf_links if unit and each else None
    return _Units(unit, per, endpoints, offset, links or ceil_div(at, max(1, leaves // per)))


def _span_reach(spans: Sequence[tuple[int, int, int]], unit_row: Sequence[int], u: _Units) -> tuple[int, int]:
    """(rows after, rows before) a node's leaf rack may stand from its own row where several groups share the
    fabric: each row (``spans``: its index, its first endpoint and the one after its last) against the rows of the
    leaves of the units (``unit_row``) its endpoints belong to, at their full size or their balanced share."""
    after = before = 0
    for r, start, end in spans:
        if end <= start:
            continue
        units = {*range(start // u.unit, ceil_div(end, u.unit)), *range(start // u.share, ceil_div(end, u.share))}
        for k in units:
            if k < len(unit_row):
                after, before = max(after, unit_row[k] - r), max(before, r - unit_row[k])
    return after, before


def _unit_rows(
    rows: list[list[Draft]],
    fabric_rows: Sequence[int],
    leaves: Sequence[Any],
    full: Sequence[int] = (),
    installed: Sequence[int] = (),
) -> tuple[list[list[Any]], list[int], tuple[int, int]] | None:
    """The leaves of each fabric row whose fabric units are known (``_units``: a rack-scale group's, a fat tree's,
    several groups' on one fabric): unit *u*'s leaves in the row that holds endpoint *u* x ``unit`` of the fabric
    (its groups' endpoints one after the other), the last row any left; and how many leaves the row holds when
    full (``full``: its compute racks when full). None where there are no such units (the leaves are then spread
    evenly over the rows, as a fabric's of one tier are). A row so holds the leaves of the units that start in it
    at their full size whatever the cluster's size: a row added by growth brings its own, as does a group added
    after the others; a unit's trays reach at most one row either side of its leaves (``plan._leaf_reach``);
    several groups' nodes may reach further (the rows after and before their own: ``_span_reach``). A grown
    cluster's rows keep the leaves they held as installed (``installed``, per row): the last row of several groups
    on a fat tree holds a leaf more than its units start where the fabric's balanced share is smaller than a unit."""
    groups = {id(d.group): d.group for i in fabric_rows for d in rows[i] if d.group is not None}
    u = _units(list(groups.values()), len(leaves))
    if u is None:
        return None
    units, done = len(leaves) // u.per, 0
    out: list[list[Any]] = []
    whole: list[int] = []
    spans: list[tuple[int, int, int]] = []
    unit_row: list[int] = []
    held = 0  # the leaves the rows so far held as installed
    for k, i in enumerate(fabric_rows):
        racks = [d for d in rows[i] if not d.reserved]
        g = next((d.group for d in racks if d.group is not None), None)
        e, at = (u.endpoints[id(g)], u.offset[id(g)]) if g is not None else (0, 0)
        first = min((d.first_node for d in racks), default=0)
        end = at + max((d.first_node + d.nodes * d.count for d in racks), default=0) * e
        held += installed[i] if i < len(installed) else 0
        upto = units if k == len(fabric_rows) - 1 else min(units, max(done, ceil_div(end, u.unit), held // u.per))
        out.append(list(leaves[done * u.per : upto * u.per]))
        spans.append((i, at + first * e, end))
        unit_row += [i] * (upto - done)
        size = max((d.nodes for d in racks), default=0) * (full[i] if i < len(full) else 0)
        starts = ceil_div(at + (first + size) * e, u.unit) - ceil_div(at + first * e, u.unit)
        whole.append(max(0, starts) * u.per)
        done = upto
    # A fabric of one tier (a switch a plane) is no units of leaves: its leaves spread, the places kept the same.
    if len(leaves) % u.per:
        return _spread(leaves, len(fabric_rows)), whole, (0, 0)
    return out, whole, _span_reach(spans, unit_row, u) if u.share else (0, 0)


def leaves_in_rack(ctx: Context, b: Builder, groups: Sequence[NodeGroup], leaves: Sequence[Switch]) -> bool:
    """True when the whole cluster, leaves included, fits one rack (then the leaves stay with their nodes)."""
    if not leaves or len(groups) != 1 or groups[0].rack_scale:  # a rack-scale system's rack holds no leaves
        return False
    g = groups[0]
    leaf_u = sum(s.height_u for s in leaves)
    leaf_w = sum(s.power_w or 0 for s in leaves)
    npr = nodes_per_rack(ctx, b, g, leaf_u, leaf_w)
    fits_power = (g.power_w or 0) * g.count + leaf_w + b.mgmt_w <= ctx.limit_w  # unknown node power counts 0
    one_row = g.su_nodes is None or g.count <= g.su_nodes  # a second SU would be a second row
    return npr >= g.count and one_row and fits_power


def compute_rows(
    ctx: Context, b: Builder, groups: list[NodeGroup], in_rack_leaves: Sequence[Any], kept: Kept | None = None
) -> tuple[list[list[Draft]], list[int], list[int]]:
    """The compute rows of every node group, which of them hold the fabric's nodes (their leaves go there), and
    how many compute racks each row holds as a full SU (0: not an SU row). ``kept``: a group's first rack as
    installed."""
    rows: list[list[Draft]] = []
    fabric_rows: list[int] = []
    full: list[int] = []
    on_fabric = {id(g) for g in groups if g.su_nodes} or {id(g) for g in groups}
    for g in groups:
        group_rows, full_row = _group_rows(ctx, b, g, in_rack_leaves, kept if kept and kept.group == g.name else None)
        for row in group_rows:
            if id(g) in on_fabric:
                fabric_rows.append(len(rows))
            rows.append(row)
            full.append(full_row)
    return rows, fabric_rows, full


def place_leaves(
    b: Builder,
    rows: list[list[Draft]],
    fabric_rows: list[int],
    leaves: Sequence[Any],
    placement: LeafPlacement,
    full: Sequence[int] = (),
    kept: int = 0,
    installed: Sequence[int] = (),
) -> tuple[int, tuple[int, int]]:
    """Leaf racks in the middle (or at the end) of each fabric row, the leaves spread evenly over the rows; returns
    how many places the most leaf racks of an SU row take. An SU row (``full``: the compute racks of its full SU)
    has its leaf racks where the full SU has them, the places a partial SU is short of before them kept free
    (``reserved``), so growing the SU moves no rack; a row of no SU has them in its middle. ``kept``: the first
    row's first leaves, which stand in its first rack as installed (``Kept``), not in a leaf rack; ``installed``:
    the leaves each row held as installed (``KeptLeaves``), which it keeps. With the
    places, the rows after and before a node's own its leaves may stand where several groups share the fabric."""
    if not fabric_rows:
        rows.append([])
        fabric_rows.append(len(rows) - 1)
        full = [*full, 0]
    slots = 0
    by_unit = _unit_rows(rows, fabric_rows, leaves, full, installed)
    spread, whole, reach = by_unit or (_spread(leaves, len(fabric_rows)), [0] * len(fabric_rows), (0, 0))
    spread[0] = spread[0][kept:]
    for row_index, row_leaves, row_whole in zip(fabric_rows, spread, whole, strict=True):
        if not row_leaves and not (row_whole and leaves):
            continue
        row = rows[row_index]
        length = row_length(row)
        su = full[row_index] if row_index < len(full) else 0
        at = max(su, length) // (2 if placement == LeafPlacement.MIDDLE_OF_ROW else 1)
        if length < at:
            row.append(reserved(at - length))
        # A row none of whose units' leaves it holds yet keeps their places free all the same (the units that start
        # in its full SU bring them when the row fills): the compute racks behind them stand where it has them.
        drafts = _leaf_racks(b, row_leaves, row_whole) if row_leaves else _places(b, leaves[0], row_whole)
        insert_racks(row, at, drafts)
        if su:
            slots = max(slots, row_length(drafts))
    return slots, reach


def _leaf_racks(b: Builder, leaves: Sequence[Any], whole: int) -> list[Draft]:
    """The racks of a row's ``leaves``, and after them the places kept free for the racks its ``whole`` leaves
    take when the row is full (a row of rack-scale systems gains leaves as it fills: ``_unit_rows``), so the
    compute racks behind them stand where the full row has them."""
    drafts = b.pack_network(leaves)
    if whole > len(leaves):
        short = row_length(b.pack_network([*leaves, *[leaves[-1]] * (whole - len(leaves))])) - row_length(drafts)
        if short > 0:
            drafts.append(reserved(short))
    return drafts


def _places(b: Builder, leaf: Any, whole: int) -> list[Draft]:
    """The places kept free for the racks of ``whole`` leaves like ``leaf``."""
    return [reserved(row_length(b.pack_network([leaf] * whole)))]


def _pad(row: list[Draft], width: int) -> None:
    """Keep the row's places free up to ``width`` (an SU row's full length)."""
    if row_length(row) < width:
        row.append(reserved(width - row_length(row)))


def place_upper(
    rows: list[list[Draft]],
    spine_racks: list[Draft],
    core_racks: list[Draft],
    management_racks: Sequence[Draft] = (),
    widths: Sequence[int] = (),
) -> None:
    """Spine racks at the end of the first row, management racks at the end of the second and core racks at the
    end of the third, where growth adds racks behind them and rows behind the last: none of them moves, as each
    of the three grows on its own (the longest leaf-spine run is the last row's, not half of it; see plan.py).
    ``widths``: per row, the places its full SU takes (0: not an SU row); an SU row's end is its full SU's, and
    the second and third rows are there for their racks before the SUs fill them. A plan of no SU rows has its
    core racks, then its management racks, at the end of the second row (after the spines in a plan of one)."""
    if not rows:
        rows.append([])
    width = [*widths, *([0] * (len(rows) - len(widths)))]

    def at_end(index: int, racks: list[Draft]) -> None:
        while len(rows) <= index:
            rows.append([])
            width.append(width[0])
        _pad(rows[index], width[index])
        rows[index].extend(racks)

    if spine_racks:
        at_end(0, spine_racks)
    if width[0]:
        if management_racks:
            at_end(1, list(management_racks))
        if core_racks:
            at_end(2, core_racks)
    elif core_racks or management_racks:
        at_end(1 if len(rows) > 1 else 0, [*core_racks, *management_racks])
    if not rows[0]:
        rows.pop(0)


def finish_rows(
    ctx: Context, b: Builder, rows: list[list[Draft]], finished: dict[tuple[int, ...], Any] | None = None
) -> tuple[list[RackRun], list[Row], list[RackRun], bool]:
    """Name and finish every rack run row by row: (runs, rows, runs whose PDUs could not be sized, whether any
    rack's outlets are unknown). ``finished``: rows finished before, by their place and drafts, taken as they were
    (a plan finishes its rows again when only its management racks change)."""
    runs: list[RackRun] = []
    out_rows: list[Row] = []
    unsized: list[RackRun] = []
    outlets_unknown = False
    for r, row in enumerate(rows):
        while row and row[-1].reserved:  # nothing stands behind the free places: they are no part of the row
            row.pop()
        key = (r, *map(id, row))
        done = finished.get(key) if finished is not None else None
        if done is None:
            done = _finish_row(ctx, b, r, row)
            if finished is not None:
                finished[key] = done
        row_runs, out_row, row_unsized, row_outlets = done
        runs += row_runs
        unsized += row_unsized
        outlets_unknown = outlets_unknown or row_outlets
        out_rows.append(out_row)
    return runs, out_rows, unsized, outlets_unknown


def _finish_row(ctx: Context, b: Builder, r: int, row: list[Draft]) -> tuple[list[RackRun], Row, list[RackRun], bool]:
    prefix = f"R{r + 1:02d}"
    names = tuple([prefix + suffix for suffix in _slot_names(row_length(row))])
    runs: list[RackRun] = []
    unsized: list[RackRun] = []
    outlets_unknown = False
    placed: list[str] = []
    s = 0
    for draft in row:
        if draft.reserved:
            s += draft.count
            continue
        placed.extend(names[s : s + draft.count])
        rack, no_size, no_outlets = finish_rack(b, draft, names[s], r, s, ctx)
        run = RackRun(rack, draft.count, names[s : s + draft.count])
        runs.append(run)
        if no_size:
            unsized.append(run)
        outlets_unknown = outlets_unknown or no_outlets
        s += draft.count
    return runs, Row(r, prefix, names if len(placed) == len(names) else tuple(placed)), unsized, outlets_unknown
