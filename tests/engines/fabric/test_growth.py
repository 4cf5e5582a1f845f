"""A cluster that grows keeps its wiring and its racks: the smaller plan's racks and compute cables are in the
larger plan unchanged, and when the spines double, half of the leaf-spine cables move (the fewest any balanced
wiring moves). Also the comparison itself (engines.fabric.growth), which the expansion's re-cabling list uses."""

from functools import cache

from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from engines.fabric.cabling import iter_cabling_csv
from engines.fabric.growth import Action, Cable, compare_cabling, minimum_moves, moved_devices, read_cabling
from engines.fabric.model import LEAF_SPINE, NODE_LEAF, SPINE_CORE, FabricPlan
from engines.fabric.plan import plan_fabric
from engines.racks import RackPlan, node_location, plan_racks, switch_locations
from engines.racks.model import DeviceRole
from tests.engines.racks.parts import air_nodes, cores, leaves, mgmt, spines

from .parts import CATALOG, CX7_NDR, QM9700


@cache
def grown(nodes: int, rails: int = 8) -> tuple[FabricPlan, RackPlan, tuple[Cable, ...]]:
    """The fabric, its racks and its cabling list with rack and unit of both ends, as validation makes them."""
    fabric = plan_fabric(nodes=nodes, rails=rails, switch=QM9700, hca=CX7_NDR, catalog=CATALOG)
    racks = plan_racks(
        node_groups=[air_nodes(nodes, su=fabric.nodes_per_unit)],
        switches=[
            mgmt(),
            leaves(fabric.leaf_switches),
            *([spines(fabric.spine_switches)] if fabric.spine_switches else []),
            *([cores(fabric.core_switches)] if fabric.core_switches else []),
        ],
    )
    places = {
        "node": [node_location(racks, "gpu", i) for i in range(nodes)],
        **{role: switch_locations(racks, DeviceRole(role)) for role in ("leaf", "spine", "core")},
    }
    lines = iter_cabling_csv(fabric, lambda kind, i: places[kind][i])
    return fabric, racks, tuple(read_cabling(line.rstrip("\n") for line in lines))


def _of(cables, link_class):
    return [c for c in cables if c.link_class == link_class]


def _devices(racks: RackPlan) -> dict[str, tuple[int, int, set[tuple[str, str, int]]]]:
    """Each rack's row, slot and devices (part, role, unit)."""
    out = {}
    for r in racks.racks:
        out[r.name] = (r.row, r.slot, {(d.part, str(d.role), d.position_u) for d in r.devices})
    return out


# -- the growths: HGX nodes with eight ConnectX-7 on QM9700 -------------------------------------------


def test_adding_an_su_on_the_same_spines_keeps_every_cable_and_rack():
    """96 -> 128 nodes (H100 SuperPOD Table 4: 24 -> 32 leaves, 16 spines both): 256 node and 256 leaf-spine
    cables added, none re-terminated, no device moves (a spine row in the middle of the rows swapped two rows)."""
    _f, _r, old = grown(96)
    _f, _r, new = grown(128)
    delta = compare_cabling(old, new)
    assert delta.count(Action.KEEP) == len(old) == 768 + 768
    assert (delta.count(Action.ADD, NODE_LEAF), delta.count(Action.ADD, LEAF_SPINE)) == (256, 256)
    assert delta.count(Action.MOVE) == delta.count(Action.REMOVE) == 0
    assert moved_devices(old, new) == []


def test_doubling_the_spines_moves_half_of_the_leaf_spine_cables_and_no_device():
    """64 -> 96 (8 -> 16 spines) and 128 -> 256 (16 -> 32): half of the installed uplinks move, the minimum; every
    kept cable keeps both ends, rack and unit; the rule "uplink j to spine j // m" moved 510 of 512 and 1,023 of
    1,024."""
    for small, large, uplinks in ((64, 96, 512), (128, 256, 1024)):
        f_old, _r, old = grown(small)
        f_new, _r, new = grown(large)
        assert f_new.spine_switches == 2 * f_old.spine_switches
        delta = compare_cabling(old, new)
        moved = delta.count(Action.MOVE, LEAF_SPINE) + delta.count(Action.REMOVE, LEAF_SPINE)
        assert moved == uplinks // 2 == minimum_moves(old, new, LEAF_SPINE)
        assert delta.count(Action.KEEP, NODE_LEAF) == small * 8
        assert moved_devices(old, new) == []


# -- properties ------------------------------------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 15), st.integers(1, 16), st.sampled_from([4, 8]), st.booleans())
def test_a_prefix_keeps_its_racks_and_cables_in_the_larger_plan(small_sus, more_sus, rails, short):
    """Any installed size of whole SUs (or one node short of it) grown by whole SUs, in two or three tiers: where the
    planner sizes both with the same leaves (same SU size and leaf ports), every rack of the smaller plan stands in
    the larger at the same row and slot with its devices at the same units, every node cable is kept with both
    ends' rack and unit, and the switch-to-switch cables move no more than the fewest any balanced wiring moves
    (none with the same spines, half when they double)."""
    small = 32 * small_sus - (1 if short else 0)
    large = 32 * (small_sus + more_sus)
    f_old, r_old, old = grown(small, rails)
    f_new, r_new, new = grown(large, rails)
    assume(f_old.tiers == f_new.tiers >= 2)
    assume(
        (f_old.nodes_per_unit, f_old.leaf_downlinks, f_old.leaf_uplinks)
        == (
            f_new.nodes_per_unit,
            f_new.leaf_downlinks,
            f_new.leaf_uplinks,
        )
    )
    before, after = _devices(r_old), _devices(r_new)
    for name, (row, slot, devices) in before.items():
        assert after[name][:2] == (row, slot) and devices <= after[name][2], name
    assert moved_devices(old, new) == []
    delta = compare_cabling(old, new)
    assert delta.count(Action.KEEP, NODE_LEAF) == len(_of(old, NODE_LEAF))
    for link_class in (LEAF_SPINE, SPINE_CORE):
        moved = delta.count(Action.MOVE, link_class) + delta.count(Action.REMOVE, link_class)
        assert moved == minimum_moves(old, new, link_class)
    if f_old.tiers == 2 and f_new.spine_switches == 2 * f_old.spine_switches:
        assert minimum_moves(old, new, LEAF_SPINE) == len(_of(old, LEAF_SPINE)) // 2


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from([(16, 8), (32, 16), (32, 8), (22, 11), (12, 3), (24, 6), (60, 6), (30, 3)]),
    st.integers(1, 7),
    st.booleans(),
    st.sampled_from([64, 128]),
)
@example(shape=(60, 6), leaves_in=3, twin=True, down=128)  # 12 storage leaves of 10 links a spine to 24 of 5
def test_doubling_the_upper_switches_moves_half_and_leaves_every_port_used_once(shape, leaves_in, twin, down):
    """Wiring alone, any uplink count, spine count and cage: each spine gets the same links of every leaf, no spine
    port twice, and with twice the spines (and up to twice the leaves) exactly the even rounds stay, also where the
    spine's ports are no multiple of the links a pair (128 ports, 10 links a pair halved to 5)."""
    from engines.fabric.wiring import uplinks

    up, uppers = shape
    cage = 2 if twin else 1
    m = up // uppers
    few = max(1, min(down // m // 2, leaves_in * 4))

    def wires(n, s):
        return {(leaf, j): end for leaf in range(n) for j, end in enumerate(uplinks(up, s, down, cage, leaf))}

    for n, s in ((few, uppers), (2 * few, 2 * uppers)):
        if up % s:
            return
        w = wires(n, s)
        assert len(set(w.values())) == len(w) and all(p < down for _s, p in w.values())
        per_pair = {(leaf, end[0]) for (leaf, _j), end in w.items()}
        assert len(per_pair) == n * s
    old, new = wires(few, uppers), wires(2 * few, 2 * uppers)
    assert sum(old[k] != new[k] for k in old) == len(old) // 2


# -- the comparison ------------------------------------------------------------------------------------------------


def _cable(a, ap, z, zp, cls=LEAF_SPINE, ar="R01-04", au="41", zr="R01-09", zu="40"):
    return Cable(a, ap, z, zp, cls, ar, au, zr, zu)


def test_cables_are_kept_moved_added_and_removed_by_their_ends():
    old = [
        _cable("leaf-1", "p33", "spine-01", "p1"),
        _cable("leaf-1", "p34", "spine-01", "p2"),
        _cable("leaf-2", "p33", "spine-02", "p1"),
        _cable("leaf-3", "p33", "spine-02", "p9"),
    ]
    new = [
        _cable("leaf-1", "p33", "spine-01", "p1"),  # kept
        _cable("leaf-1", "p34", "spine-03", "p2"),  # its spine end re-terminated
        _cable("leaf-9", "p33", "spine-02", "p1"),  # the same spine port, another leaf: its A end re-terminated
        _cable("leaf-4", "p33", "spine-03", "p5"),  # added
    ]
    delta = compare_cabling(old, new)
    assert [c.action for c in delta.changes] == [Action.KEEP, Action.MOVE, Action.MOVE, Action.ADD, Action.REMOVE]
    assert delta.changes[1].old == old[1] and delta.changes[2].old == old[2]
    assert delta.changes[4].old == old[3] and delta.changes[4].new is None
    # leaf-1 had 2 links to spine-01 and keeps 1 (a move is unavoidable), leaf-2 and leaf-3 have none to spine-02
    assert minimum_moves(old, new, LEAF_SPINE) == 3


def test_a_device_at_another_rack_or_unit_is_moved():
    old = [_cable("leaf-1", "p33", "spine-01", "p1"), _cable("leaf-2", "p33", "spine-01", "p2", au="39")]
    new = [_cable("leaf-1", "p33", "spine-01", "p1", zr="R03-01"), _cable("leaf-2", "p33", "spine-01", "p2", au="39")]
    moves = moved_devices(old, new)
    assert [(m.device, m.old.rack, m.new.rack) for m in moves] == [("spine-01", "R01-09", "R03-01")]
    # a cable whose ends stay on the same ports is kept, even when a device at one end stands elsewhere
    assert compare_cabling(old, new).count(Action.KEEP) == 2


def test_the_cabling_csv_reads_back_with_and_without_the_rack_columns():
    header = "a_end,a_port,z_end,z_port,link_class,cable_part,length_m"
    plain = read_cabling([header, "node-0001,nic1,su01-leaf-r1,p1,node-leaf,MFP7E10-N015,15"])
    assert plain == [Cable("node-0001", "nic1", "su01-leaf-r1", "p1", NODE_LEAF)]
    row = "node-0001,nic1,su01-leaf-r1,p1,node-leaf,X,1,R01-01,1,R01-04,41"
    located = read_cabling([header + ",a_rack,a_u,z_rack,z_u", row])
    assert located[0].a_rack == "R01-01" and located[0].z_u == "41"
