"""The compute fabric's switch names a grown cluster keeps of the installed one (engines.cluster.installed_ends).

A compute switch of the grown plan that stands where an installed one of its role stood (the same rack and unit)
keeps the installed switch's name, as the planners' own name may differ only in its words: the spines of a fabric
that grows a third tier are ``pod01-spine-01`` where they were ``spine-01``, though each stands where it stood, with
the leaf cables the new pod keeps on the same ports. A leaf keeps its name only where every installed node cable
of it stays on its port (the same node, at its place, on the same NIC and switch port): the one switch of a
one-tier fabric that becomes a rail leaf of the first scalable unit serves every rail of its nodes installed and
one rail grown, so its node cables are re-terminated whatever it is called, and it takes its new role's name. No
name is kept where that would give two switches one name.

The names are the planners' (before the design's naming template, design.model.site, which both plans share), so
the compute rows (outputs.links), the out-of-band rows that name the switches (engines.cluster.cabling) and every
hand-over export read the same names. A greenfield plan has no installed ends: nothing is renamed.

Pure Python: no Django.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping

from engines.fabric.cabling import Row, cabling_rows, switch_name
from engines.fabric.model import NODE_LEAF, FabricPlan
from engines.racks.locate import switch_locations
from engines.racks.model import DeviceRole

from .installed_ends import InstalledEnds, NodeCable, Spot
from .rackplan import RackPlanSection, fabric_locator

KINDS = {DeviceRole.LEAF: "leaf", DeviceRole.SPINE: "spine", DeviceRole.CORE: "core"}


def _count(fabric: FabricPlan, kind: str) -> int:
    return {"leaf": fabric.leaf_switches, "spine": fabric.spine_switches}.get(kind, fabric.core_switches)


def compute_switches(section: RackPlanSection, fabric: FabricPlan) -> Iterator[tuple[str, Spot]]:
    """Every racked compute switch of the plan: its planners' name and its place (role, rack, unit)."""
    for role, kind in KINDS.items():
        places = switch_locations(section.plan, role)
        for i in range(min(len(places), _count(fabric, kind))):
            rack, u = places[i]
            yield switch_name(fabric, kind, i), (str(role), rack, str(u))


def node_cables(rows: Iterable[Row]) -> dict[Spot, frozenset[NodeCable]]:
    """Per leaf by its place, its node cables (switch port, the node's rack and unit, its NIC) of the compute rows
    with their rack columns."""
    out: dict[Spot, set[NodeCable]] = defaultdict(set)
    for f in rows:
        if f[4] == NODE_LEAF and len(f) >= 11:
            out[str(DeviceRole.LEAF), f[9], f[10]].add((f[3], f[7], f[8], f[1]))
    return {spot: frozenset(cables) for spot, cables in out.items()}


def placed_rows(section: RackPlanSection, fabric: FabricPlan, group_counts: Mapping[str, int]) -> Iterator[Row]:
    """The compute fabric's rows with their rack columns as the planners name them (none without racks)."""
    locate = fabric_locator(section, group_counts)
    return cabling_rows(fabric, locate) if locate is not None and fabric.tiers else iter(())


def kept_names(section: RackPlanSection, fabric: FabricPlan | None, group_counts: Mapping[str, int]) -> dict[str, str]:
    """The grown plan's compute switches (planners' names) that keep an installed switch's name (module
    docstring); empty for a greenfield plan, or where keeping them would give two switches one name."""
    ends: InstalledEnds | None = section.installed_ends
    if ends is None or not ends.names or fabric is None or not fabric.tiers:
        return {}
    switches = list(compute_switches(section, fabric))
    out = {name: old for name, spot in switches if (old := ends.names.get(spot)) is not None and old != name}
    leaves = {spot: name for name, spot in switches if name in out and spot[0] == str(DeviceRole.LEAF)}
    if leaves:
        grown = node_cables(placed_rows(section, fabric, group_counts))
        for spot, name in leaves.items():
            if not ends.node_cables.get(spot, frozenset()) <= grown.get(spot, frozenset()):
                del out[name]
    every = [switch_name(fabric, kind, i) for kind in KINDS.values() for i in range(_count(fabric, kind))]
    named = [out.get(n, n) for n in every]
    return out if len(set(named)) == len(named) else {}


def renamed_rows(rows: Iterator[Row], names: Mapping[str, str]) -> Iterator[Row]:
    """The compute rows with the switches ``names`` maps under their kept names (the rows as they are without)."""
    if not names:
        return rows
    return ((names.get(f[0], f[0]), f[1], names.get(f[2], f[2]), *f[3:]) for f in rows)


def installed_names(
    section: RackPlanSection, fabric: FabricPlan | None, group_counts: Mapping[str, int], names: Mapping[str, str]
) -> tuple[dict[Spot, str], dict[Spot, frozenset[NodeCable]]]:
    """The installed cluster's compute switch names by place (its own kept ones, ``names``, where it was itself
    grown) and its leaves' node cables: what a plan grown from it keeps (``kept_names``)."""
    if fabric is None or not fabric.tiers:
        return {}, {}
    spots = {spot: names.get(name, name) for name, spot in compute_switches(section, fabric)}
    return spots, node_cables(placed_rows(section, fabric, group_counts))
