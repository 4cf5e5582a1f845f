"""The management racks of a grown cluster around the installed ones.

An expansion plans the grown cluster from the installed plan (``engines.cluster.rackplan.growing_from``). Its
management racks hold the control plane, the UFM appliances, the central out-of-band switches and the storage and
in-band networks' switches, and all of these grow with the nodes, each at its own pace: packed afresh, a grown count
of one role shifts every device racked after it. So the installed management racks stand as they stood
(``kept_management`` reads them off the installed plan, ``rack_places``), and the grown plan's equipment goes around
them (``around_kept``):

* every installed device the grown cluster still has keeps its rack and unit; one it no longer needs (the BasePOD's
  Kubernetes servers once the SuperPOD's replace them) leaves its units free;
* what the growth adds goes into free units first (top down, where its units and the rack's power allow, and only
  above no installed device of its own role, so every installed device keeps its number and name), then after the
  installed devices in the last management rack while it has room, then into new management racks;
* where packing afresh keeps every installed device in place anyway, the fresh packing stands.

The installed management racks also keep their place in the rows (``place_kept``). An installed one-rack cluster
(``leaf_placement`` "in-rack") has them beside its rack, in the first row, where the grown cluster's second compute
rack would go; racks with no compute fabric (no scalable unit cuts their rows) have them after the last row's
compute racks, where the grown cluster's next compute rack would go. They keep that place and name: the grown
plan's row has them where they stood and its other racks after them, one place further on each; the management
racks the growth adds stand where a grown plan has its management racks.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from .inputs import KeptLeaves, KeptManagement, KeptRack, Place
from .model import Device, DeviceRole, RackKind, RackPlan, SwitchRole
from .packing import KEPT_FREE, Builder, Draft, Switch, reserved
from .rows import insert_racks, place_upper, row_length


def rack_places(devices: Sequence[Device], u_total: int) -> tuple[Place, ...]:
    """A network or management rack's places top down below its management switch, as ``Builder.top_devices``
    fills them: (role, part, units) of each device, and ("", "", units) for units kept free between two of them
    (its PDUs and its management switch are not places)."""
    mine = [d for d in devices if d.role == DeviceRole.MANAGEMENT]
    cursor = min((d.position_u for d in mine), default=u_total + 1)
    out: list[Place] = []
    for d in sorted((d for d in devices if d.role not in (DeviceRole.PDU, DeviceRole.MANAGEMENT)), key=_top_first):
        gap = cursor - (d.position_u + d.height_u)
        if gap > 0:
            out.append(("", KEPT_FREE, gap))
        out.append((str(d.role), d.part, d.height_u))
        cursor = d.position_u
    return tuple(out)


def _top_first(d: Device) -> int:
    return -d.position_u


def kept_management(installed: RackPlan) -> KeptManagement | None:
    """The installed plan's management racks as a grown plan keeps them, with their place in the first row where
    they stand beside a one-rack cluster's rack; None without any."""
    mine = [r for r in installed.racks if r.kind == RackKind.MANAGEMENT]
    if not mine:
        return None
    # Where they stand (beside a one-rack cluster's rack, after the compute racks of a row that holds no scalable
    # unit), the grown plan keeps them, though its own rule would put them at the end of another row or place.
    together = all(r.row == mine[0].row and r.slot == mine[0].slot + i for i, r in enumerate(mine))
    return KeptManagement(
        racks=tuple(rack_places(r.devices, r.u_total) for r in mine),
        slot=mine[0].slot if together else None,
        row=mine[0].row if together else 0,
    )


def kept_rack(installed: RackPlan) -> KeptRack | None:
    """The installed plan's one rack holding its nodes and leaves (``leaf_placement`` "in-rack"), as the grown plan
    keeps it; None for any other plan (whose racks the grown plan keeps by its own placement rules)."""
    if installed.leaf_placement != "in-rack":
        return None
    racks = [r for r in installed.racks if r.nodes and r.node_group]
    leaves = [d for r in racks[:1] for d in r.devices if d.role == DeviceRole.LEAF]
    if len(racks) != 1 or not leaves:
        return None
    return KeptRack(
        node_group=racks[0].node_group or "",
        nodes=racks[0].nodes,
        leaves=len(leaves),
        leaf_top_u=max(d.position_u + d.height_u - 1 for d in leaves),
    )


def kept_leaves(installed: RackPlan) -> KeptLeaves | None:
    """The installed plan's leaves row by row, as the grown plan keeps them; None for a one-rack cluster (its rack
    is ``kept_rack``) or a plan with no leaf racks."""
    if installed.leaf_placement == "in-rack":
        return None
    rows = [0] * len(installed.rows)
    for rack in installed.racks:
        if rack.row < len(rows):
            rows[rack.row] += sum(1 for d in rack.devices if d.role == DeviceRole.LEAF)
    return KeptLeaves(tuple(rows)) if any(rows) else None


def kept_installed(installed: RackPlan) -> tuple[KeptRack | None, KeptManagement | None, KeptLeaves | None]:
    """What a plan of the grown cluster keeps of the ``installed`` plan: its one rack, its management racks, its
    leaves row by row (``plan_racks``'s ``kept``, ``kept_management`` and ``kept_leaves``)."""
    return kept_rack(installed), kept_management(installed), kept_leaves(installed)


def kept_density(installed: RackPlan) -> dict[str, int]:
    """The most nodes a compute rack of each node group holds in the ``installed`` plan (``NodeGroup.per_rack``),
    for a group of two racks or more: its first is full, where a group in one rack may hold fewer than a rack takes
    (one node), which says nothing of how many a rack holds."""
    most: dict[str, int] = {}
    racks: Counter[str] = Counter()
    for rack in installed.racks:
        if rack.node_group and rack.nodes:
            most[rack.node_group] = max(most.get(rack.node_group, 0), rack.nodes)
            racks[rack.node_group] += 1
    return {group: n for group, n in most.items() if racks[group] > 1}


def around_kept(b: Builder, equipment: Sequence[Switch], kept: KeptManagement, packed: list[Draft]) -> list[Draft]:
    """The grown plan's management racks: ``packed`` (its ``equipment`` packed afresh) where that keeps every
    installed device in place and adds after them; else the installed racks with the equipment around them (module
    docstring)."""
    if _keeps(b, packed, kept):
        return packed
    by_kind = {(str(s.role), s.part): s for s in equipment if s.part != KEPT_FREE}
    wanted = Counter((str(s.role), s.part) for s in equipment if s.part != KEPT_FREE)
    racks = [_as_switches(rack, by_kind, wanted) for rack in kept.racks]
    more = _into_free_units(b, racks, _added(equipment, wanted))
    return b.pack_network(more, RackKind.MANAGEMENT, racks)


def _keeps(b: Builder, packed: Sequence[Draft], kept: KeptManagement) -> bool:
    """Whether the fresh packing holds the installed racks' places as they were, the last one's as a beginning."""
    places = [rack_places(d.devices, b.ctx.u_total) for d in packed for _ in range(d.count)]
    last = len(kept.racks) - 1
    if len(places) <= last or places[:last] != list(kept.racks[:last]):
        return False
    return places[last][: len(kept.racks[last])] == kept.racks[last]


def _free(units: int) -> Switch:
    return Switch(SwitchRole.CONTROL, KEPT_FREE, units, 0)


def _as_switches(
    rack: Sequence[Place], by_kind: dict[tuple[str, str], Switch], wanted: Counter[tuple[str, str]]
) -> list[Switch]:
    """An installed rack's places as the grown equipment's switches; a device the grown cluster needs no more of
    (``wanted`` counts down what it needs) leaves its units free."""
    out: list[Switch] = []
    for role, part, units in rack:
        sw = by_kind.get((role, part)) if part else None
        if sw is not None and sw.height_u == units and wanted[(role, part)] > 0:
            wanted[(role, part)] -= 1
            out.append(sw)
        else:
            out.append(_free(units))
    return out


def _added(equipment: Sequence[Switch], left: Counter[tuple[str, str]]) -> list[Switch]:
    """The equipment beyond what the installed racks hold (``left``: how many of each the installed ones leave to
    add), in its order: a role's switches are alike, so which of them is new makes no difference."""
    out: list[Switch] = []
    for s in equipment:
        key = (str(s.role), s.part)
        if s.part != KEPT_FREE and left[key] > 0:
            left[key] -= 1
            out.append(s)
    return out


def _into_free_units(b: Builder, racks: list[list[Switch]], added: Sequence[Switch]) -> list[Switch]:
    """Each added switch into the first free units of the installed racks it fits (units, the rack's power) with
    no device of its role below it; returns those that fit none, in order."""
    room_w = b.ctx.limit_w - b.mgmt_w
    left: list[Switch] = []
    for s in added:
        if not any(_fill(rack, racks[r + 1 :], s, room_w) for r, rack in enumerate(racks)):
            left.append(s)
    return left


def _fill(rack: list[Switch], after: Sequence[Sequence[Switch]], s: Switch, room_w: int) -> bool:
    """Put ``s`` into the rack's first free place that takes it (module docstring); whether it did."""
    if sum(x.power_w or 0 for x in rack) + (s.power_w or 0) > room_w:
        return False
    for i, place in enumerate(rack):
        if place.part != KEPT_FREE or place.height_u < s.height_u:
            continue
        below = [x for x in rack[i + 1 :] if x.part != KEPT_FREE] + [x for r in after for x in r if x.part != KEPT_FREE]
        if any(x.role == s.role for x in below):
            continue
        rest = place.height_u - s.height_u
        rack[i : i + 1] = [s, *([_free(rest)] if rest else [])]
        return True
    return False


def place_kept(
    rows: list[list[Draft]],
    spines: list[Draft],
    cores: list[Draft],
    management: Sequence[Draft],
    widths: Sequence[int],
    kept: KeptManagement | None,
) -> None:
    """``place_upper``, but the installed management racks (the first of ``management``, as many as were installed)
    at their place (``KeptManagement.slot`` in its ``row``), the row's racks from there on after them (module
    docstring)."""
    slot = kept.slot if kept is not None and rows and rows[0] else None
    beside, rest = _first_racks(management, len(kept.racks) if kept is not None and slot is not None else 0)
    place_upper(rows, spines, cores, rest, widths)
    if kept is not None and slot is not None and beside:
        while len(rows) <= kept.row:
            rows.append([])
        row = rows[kept.row]
        if row_length(row) < slot:
            row.append(reserved(slot - row_length(row)))
        insert_racks(row, slot, beside)


def _first_racks(drafts: Sequence[Draft], count: int) -> tuple[list[Draft], list[Draft]]:
    """The first ``count`` racks of ``drafts`` and the others, a run split where the count ends in it."""
    first: list[Draft] = []
    rest: list[Draft] = []
    for d in drafts:
        take = min(d.count, count)
        count -= take
        if take:
            first.append(d if take == d.count else d.part(0, take))
        if take < d.count:
            rest.append(d if not take else d.part(take, d.count - take))
    return first, rest
