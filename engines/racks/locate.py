"""Where a node or a switch stands: rack and lowest unit, for the cabling plan's "both ends" columns.

``node_location(plan, node_group, index)`` finds node ``index`` (0-based) of a node group; ``switch_locations(plan,
role)`` lists every switch of a role in placement order (leaf *i* of the fabric plan is entry *i*). Both read the
plan only; a node the plan could not place (e.g. too tall for the rack) has no location (None).
"""

from __future__ import annotations

from bisect import bisect_right

from .model import DeviceRole, Rack, RackPlan


def _group_racks(plan: RackPlan, node_group: str) -> list[Rack]:
    return [r for r in plan.racks if r.node_group == node_group and r.nodes]


def node_location(plan: RackPlan, node_group: str, index: int) -> tuple[str, int] | None:
    """(rack name, lowest unit) of node ``index`` of ``node_group``, or None when it was not placed."""
    racks = _group_racks(plan, node_group)
    firsts = [r.first_node for r in racks]
    i = bisect_right(firsts, index) - 1
    if i < 0 or index >= racks[i].first_node + racks[i].nodes:
        return None
    rack = racks[i]
    nodes = [d for d in rack.devices if d.role == DeviceRole.NODE]
    return rack.name, nodes[index - rack.first_node].position_u


def switch_locations(plan: RackPlan, role: DeviceRole) -> list[tuple[str, int]]:
    """(rack name, lowest unit) of every switch of ``role``, rack by rack, top down within a rack."""
    out: list[tuple[str, int]] = []
    for rack in plan.racks:
        out.extend((rack.name, d.position_u) for d in rack.devices if d.role == role)
    return out
