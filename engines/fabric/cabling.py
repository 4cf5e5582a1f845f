"""The cabling list of a fabric plan as CSV, one row per link, streamed.

Naming: ``node-0001/nic3`` (NIC 3 = rail 3), ``su01-leaf-r3/p17`` (leaf of rail 3 in SU 1, logical port 17;
``p9.2`` is the second half of split port 9), ``leaf-007`` (fat-tree), ``spine-05/p33``, ``pod02-spine-05``
(3 tiers) and ``core-0012``. Leaf ports 1..down face the nodes, down+1..k the spines; spine ports
1..k/2 face the leaves in a 3-tier fabric. Wiring keeps its place as the fabric grows (``wiring.py``): leaf
uplink j, lane i of cage g, goes to spine q mod S with q = i·(up/cages) + g (m = up / S links per leaf-spine
pair; in the last pod of three tiers, S is its spines), so when the spines double half of the uplinks stay;
spine uplinks go to the cores of plane j by the same rule (the pod in the place of the leaf); core c of plane j
is ``core-{c · planes + j + 1}``, so the cores a plane gains as pods are added come after every installed one.
A fabric of several planes (twin-planar Spectrum-X) lists each plane as a fabric of its own, its switches named
``pl2-su01-leaf-r3`` and the node end of its links the NIC's link to that plane (``nic3.2``: NIC 3's second
400GbE link). The rack plan racks a unit's leaves of every plane together and the planes' spines and cores side by
side (``rack_index``), so growth adds switches after the installed ones of every plane.

The rows are made once, as fields (``cabling_rows``: a tuple of the CSV's columns, each field the text the CSV
holds, unquoted), and written out by ``csv_line``: the CSV, and every reader that wants the rows rather than the
text (the hand-over exports, outputs.links), read the same rows without parsing text.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator

from design.spreadsheets import csv_text

from .model import LEAF_SPINE, NODE_LEAF, SPINE_CORE, FabricPlan
from .sizing import one_to_one_per_leaf
from .wiring import uplinks

HEADER = "a_end,a_port,z_end,z_port,link_class,cable_part,length_m"
RACK_COLUMNS = ",a_rack,a_u,z_rack,z_u"  # appended when the rack plan is known: rack and lowest unit of both ends

# (kind, index) -> (rack, lowest unit) or None; kind is node, leaf, spine or core, index 0-based in plan order.
Locate = Callable[[str, int], tuple[str, int] | None]
# A row of the cabling list: its columns in order, each field as the CSV holds it (csv_text), unquoted.
Row = tuple[str, ...]
_NO_PLACE = ("", "")


def _quoted(text: str) -> str:
    return '"' + text.replace('"', '""') + '"' if any(c in text for c in ',"\n\r') else text


def csv_line(row: Row) -> str:
    """A row as a CSV line, newline-terminated: a field with a comma, a quote or a line break quoted."""
    line = ",".join(row)
    if line.count(",") != len(row) - 1 or '"' in line or "\n" in line or "\r" in line:
        line = ",".join(map(_quoted, row))
    return line + "\n"


def _media(plan: FabricPlan, name: str) -> tuple[str, str]:
    lp = plan.link(name)
    if lp is None or lp.cable_part is None:
        return "", ""
    return csv_text(lp.cable_part), f"{lp.length_m:g}"


def port_name(index: int, split: int) -> str:
    """Logical port of the index-th (0-based) node-facing port; split halves get a suffix."""
    if split == 1:
        return f"p{index + 1}"
    return f"p{index // split + 1}.{index % split + 1}"


def iter_cabling_csv(plan: FabricPlan, locate: Locate | None = None) -> Iterator[str]:
    """Yield the header, then one CSV line per link (node links, leaf-spine, spine-core), each ending in a
    newline, so ``"".join(...)`` is the file and a streaming response can send it as it comes. With ``locate``
    (the rack plan's positions), four columns are appended: the rack and unit of the A end and of the Z end."""
    yield HEADER + (RACK_COLUMNS if locate else "") + "\n"
    yield from map(csv_line, cabling_rows(plan, locate))


Place = Callable[[str, int], tuple[str, str]]


def _placer(locate: Locate | None) -> Place | None:
    """(rack, unit) of a switch or node as the CSV's fields, looked up once per device (a node's place serves its
    eight links)."""
    if locate is None:
        return None
    seen: dict[tuple[str, int], tuple[str, str]] = {}

    def at(kind: str, index: int) -> tuple[str, str]:
        key = (kind, index)
        found = seen.get(key)
        if found is None:
            where = locate(kind, index)
            found = seen[key] = _NO_PLACE if where is None else (csv_text(where[0]), str(where[1]))
        return found

    return at


def cabling_rows(plan: FabricPlan, locate: Locate | None = None) -> Iterator[Row]:
    """The node links, the leaf-spine links and the spine-core links the plan's tiers have, plane after plane, as
    rows (no header): the CSV's columns, with the rack columns when ``locate`` is given."""
    if not plan.tiers:
        return
    planes = max(1, plan.fabric_planes)
    one = _one_plane(plan, planes)
    for p in range(planes):
        view = _Plane(p, planes, one) if planes > 1 else None
        at = _placer(view.locate(locate) if view is not None and locate is not None else locate)
        rows = [_node_rows(one, at, view)]
        if plan.tiers >= 2:
            rows.append(_leaf_spine_rows(one, at))
        if plan.tiers >= 3:
            rows.append(_spine_core_rows(one, at))
        for part in rows:
            yield from (view.name(row) if view is not None else row for row in part)


def _one_plane(plan: FabricPlan, planes: int) -> FabricPlan:
    """The plan of one of ``planes`` identical planes."""
    if planes == 1:
        return plan
    return dataclasses.replace(
        plan,
        fabric_planes=1,
        leaf_switches=plan.leaf_switches // planes,
        spine_switches=plan.spine_switches // planes,
        core_switches=plan.core_switches // planes,
        node_links=plan.node_links // planes,
        leaf_spine_links=plan.leaf_spine_links // planes,
        spine_core_links=plan.spine_core_links // planes,
    )


@dataclasses.dataclass(frozen=True)
class _Plane:
    """Plane ``index`` of a multi-plane fabric: its switch names and rack positions."""

    index: int
    planes: int
    one: FabricPlan

    def name(self, row: Row) -> Row:
        """A row of the one-plane list with this plane's switch names (the node end is already plane-aware)."""
        a, a_port, z = row[0], row[1], row[2]
        plane = f"pl{self.index + 1}-"
        return (a if a.startswith("node-") else plane + a, a_port, z if z.startswith("node-") else plane + z, *row[3:])

    def locate(self, locate: Locate) -> Locate:
        """Rack positions of this plane's switches (``rack_index``: the rack plan's order of every plane's)."""
        return lambda kind, i: locate(
            kind, i if kind == "node" else rack_index(self.one, self.planes, kind, self.index, i)
        )


def _unit_leaves(one: FabricPlan) -> int:
    """The leaves of one plane's scalable unit that the rack plan keeps together (a rail leaf of each rail; 0
    where the plane's leaves are not counted so: one tier, a fat tree)."""
    if one.tiers >= 2 and one.topology == "rail-optimized" and one.rails and not one.leaf_switches % one.rails:
        return one.rails
    return 0


def rack_index(one: FabricPlan, planes: int, kind: str, plane: int, index: int) -> int:
    """The rack plan's index of switch ``index`` of ``kind`` in plane ``plane`` of ``planes`` identical ones
    (``one``: one plane's plan). A rail-optimized fabric's leaves stand unit by unit, each unit's leaves of every
    plane together (plane after plane within it); spines, cores and other leaves alternate plane by plane. So a
    grown fabric's switches come after every installed one: the installed switches keep their places."""
    per = _unit_leaves(one) if kind == "leaf" else 0
    if per:
        unit, rail = divmod(index, per)
        return (unit * planes + plane) * per + rail
    return index * planes + plane


def plane_index(one: FabricPlan, planes: int, kind: str, at: int) -> tuple[int, int]:
    """(plane, index within it) of the rack plan's switch ``at`` of ``kind``: ``rack_index`` the other way."""
    per = _unit_leaves(one) if kind == "leaf" else 0
    if per:
        block, rail = divmod(at, per)
        unit, plane = divmod(block, planes)
        return plane, unit * per + rail
    index, plane = divmod(at, planes)
    return plane, index


def _ends(at: Place | None, a_kind: str, a: int, z_kind: str, z: int) -> tuple[str, ...]:
    """The rack columns of one row (none without a rack plan)."""
    return at(a_kind, a) + at(z_kind, z) if at is not None else ()


def switch_name(plan: FabricPlan, kind: str, index: int) -> str:
    """The cabling name of the index-th (0-based, as the rack plan racks them: ``rack_index``) switch of
    ``kind`` (``leaf``, ``spine`` or ``core``): the names the rows above give it."""
    planes = max(1, plan.fabric_planes)
    one = _one_plane(plan, planes)
    plane, i = plane_index(one, planes, kind, index)
    if kind == "leaf":
        name = leaf_name(one, i)
    elif kind == "spine" and one.tiers == 3 and one.spines_per_pod:
        pod, spine = divmod(i, one.spines_per_pod)
        name = f"pod{pod + 1:02d}-spine-{spine + 1:02d}"
    elif kind == "spine":
        name = f"spine-{i + 1:02d}"
    else:
        name = f"core-{i + 1:04d}"
    return f"pl{plane + 1}-{name}" if planes > 1 else name


def leaf_name(plan: FabricPlan, index: int) -> str:
    """The cabling name of the index-th (0-based) leaf: the one switch, a rail leaf of an SU, or a fat-tree leaf."""
    if plan.tiers == 1:
        return "switch-01"
    if plan.topology == "rail-optimized":
        unit, r = divmod(index, plan.rails)
        return f"su{unit + 1:02d}-leaf-r{r + 1}"
    return f"leaf-{index + 1:03d}"


def _node_rows(plan: FabricPlan, at: Place | None, plane: _Plane | None = None) -> Iterator[Row]:
    """One row per node NIC: rail r of node n to its leaf's node-facing port (split halves numbered p9.2); in a
    plane of several, the NIC's link to that plane (``nic3.2``)."""
    width = max(4, len(str(plan.nodes)))
    s = plan.split
    part, length = _media(plan, NODE_LEAF)
    rail = plan.topology == "rail-optimized"
    per_leaf = plan.leaf_downlinks * s
    link = f".{plane.index + 1}" if plane is not None else ""
    for n in range(plan.nodes):
        node = f"node-{n + 1:0{width}d}"
        for r in range(plan.rails):
            if plan.tiers == 1:
                leaf, pos = 0, n * plan.rails + r
            elif rail:
                unit, pos = divmod(n, plan.nodes_per_unit)
                leaf = unit * plan.rails + r
            else:
                leaf, pos = _fat_tree_port(plan, n * plan.rails + r, per_leaf)
            yield (
                node, f"nic{r + 1}{link}", leaf_name(plan, leaf), port_name(pos, s), NODE_LEAF, part, length,
                *_ends(at, "node", n, "leaf", leaf),
            )  # fmt: skip


def _fat_tree_port(plan: FabricPlan, endpoint: int, per_leaf: int) -> tuple[int, int]:
    """A fat tree's leaf and position of an endpoint: the plan's last ``one_to_one_links`` endpoints (a storage
    network's storage systems) on leaves of their own, as many a leaf as it has uplinks, first; the others packed
    ``per_leaf`` to a leaf after them. So a larger cluster with the same storage systems keeps every installed
    cable where it is: its added nodes take leaves after the installed ones."""
    if not plan.one_to_one_links:
        return divmod(endpoint, per_leaf)
    first = plan.nodes * plan.rails - plan.one_to_one_links
    per_own = one_to_one_per_leaf(plan.leaf_uplinks, plan.leaf_downlinks)
    if endpoint >= first:
        return divmod(endpoint - first, per_own)
    leaf, pos = divmod(endpoint, per_leaf)
    return -(-plan.one_to_one_links // per_own) + leaf, pos


def _cage(plan: FabricPlan, name: str) -> int:
    """Logical ports per switch cage of a switch-to-switch link class (1 when the plan does not say)."""
    lp = plan.link(name)
    return lp.links_per_plug if lp is not None and lp.links_per_plug > 0 else 1


def _leaf_spine_rows(plan: FabricPlan, at: Place | None) -> Iterator[Row]:
    """Leaf uplinks to the spines (of the leaf's pod in three tiers) as ``wiring.uplinks`` places them."""
    part, length = _media(plan, LEAF_SPINE)
    down = plan.leaf_downlinks
    per_pod = plan.leaves_per_pod
    cage = _cage(plan, LEAF_SPINE)
    spine_down = plan.spine_downlinks or plan.logical_ports
    for leaf in range(plan.leaf_switches):
        name = leaf_name(plan, leaf)
        pod, local = divmod(leaf, per_pod) if plan.tiers == 3 else (0, leaf)
        spines = plan.pod_spines(pod) if plan.tiers == 3 else plan.spine_switches
        for j, (spine, port) in enumerate(uplinks(plan.leaf_uplinks, spines, spine_down, cage, local)):
            spine_name = f"pod{pod + 1:02d}-spine-{spine + 1:02d}" if plan.tiers == 3 else f"spine-{spine + 1:02d}"
            yield (
                name, f"p{down + j + 1}", spine_name, f"p{port + 1}", LEAF_SPINE, part, length,
                *_ends(at, "leaf", leaf, "spine", pod * plan.spines_per_pod + spine if plan.tiers == 3 else spine),
            )  # fmt: skip


def _spine_core_rows(plan: FabricPlan, at: Place | None) -> Iterator[Row]:
    """Spine uplinks of spine j in pod p to the cores of plane j, as ``wiring.uplinks`` places them (the pod is
    the lower switch's place)."""
    part, length = _media(plan, SPINE_CORE)
    cpp = plan.cores_per_plane
    cage = _cage(plan, SPINE_CORE)
    for pod in range(plan.pods):
        wires = uplinks(plan.spine_uplinks, cpp, plan.logical_ports, cage, pod)
        for spine in range(plan.pod_spines(pod)):
            name = f"pod{pod + 1:02d}-spine-{spine + 1:02d}"
            for i, (plane_core, port) in enumerate(wires):
                core = plane_core * plan.spines_per_pod + spine  # core by core across the planes
                core_name = f"core-{core + 1:04d}"
                yield (
                    name, f"p{plan.spine_downlinks + i + 1}", core_name, f"p{port + 1}", SPINE_CORE, part, length,
                    *_ends(at, "spine", pod * plan.spines_per_pod + spine, "core", core),
                )  # fmt: skip
