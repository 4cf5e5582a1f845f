"""Invariants of every plan (hypothesis): ports, balance, non-blocking tiers, cables per link.

Counts are checked arithmetically for any size; for small fabrics the streamed cabling CSV is checked
link by link as an independent witness.
"""

import math
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.fabric.cabling import iter_cabling_csv
from engines.fabric.model import LEAF_SPINE, NODE_LEAF, SPINE_CORE
from engines.fabric.plan import plan_fabric
from engines.fabric.sizing import balanced_uppers

from .parts import CATALOG, CX6_HDR, CX7_NDR, CX7_NDR200, QM8700, QM9700, SN5600

SETUPS = [(QM9700, CX7_NDR), (QM9700, CX7_NDR200), (QM9700, None), (QM8700, CX6_HDR), (SN5600, CX7_NDR)]
setups = st.sampled_from(SETUPS)
ratios = st.sampled_from([(1, 1), (2, 1), (3, 1), (5, 3)])
topologies = st.sampled_from(["rail-optimized", "fat-tree"])


def make(nodes, rails, setup, ratio, topology):
    switch, hca = setup
    return plan_fabric(
        nodes=nodes, rails=rails, switch=switch, hca=hca, oversubscription=ratio, topology=topology, catalog=CATALOG
    )


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 20_000), st.integers(1, 8), setups, ratios, topologies)
def test_counts_are_consistent(nodes, rails, setup, ratio, topology):
    p = make(nodes, rails, setup, ratio, topology)
    if not p.tiers:
        return  # beyond three tiers: covered by the worked examples
    k, s = p.logical_ports, p.split
    # Every node port is connected exactly once.
    assert p.node_links == nodes * rails
    # Tiers are the fewest that work.
    if p.tiers >= 2:
        assert nodes * rails > k * s
    if p.tiers == 3:
        assert p.leaf_switches > k
    # No switch has more links than ports.
    for tier, used, total in p.ports:
        assert 0 <= used <= total, tier
    if p.tiers >= 2:
        assert p.leaf_downlinks + p.leaf_uplinks <= k  # sized to the nodes: ports beyond them stay free
        assert p.leaf_uplinks % setup[0].logical_ports_per_cage == 0
        cage = setup[0].logical_ports_per_cage
        assert p.leaf_downlinks % cage == 0  # whole cages: a twin plug never serves a node and a spine
        d, u = ratio
        assert p.leaf_downlinks * u <= p.leaf_uplinks * d  # never more oversubscribed than asked
        # Every leaf spreads its uplinks evenly: same number of links to every spine of its fabric/pod.
        spines_seen = p.spines_per_pod if p.tiers == 3 else p.spine_switches
        assert p.leaf_uplinks == p.links_per_leaf_spine_pair * spines_seen
        if p.topology == "rail-optimized":
            assert p.nodes_per_unit <= p.leaf_downlinks * s
            assert p.nodes_per_unit > (p.leaf_downlinks - setup[0].logical_ports_per_cage) * s  # no idle cage
            assert p.leaf_switches == p.units * rails
            assert p.units == math.ceil(nodes / p.nodes_per_unit)
    if p.tiers == 2:
        assert p.leaf_switches * p.links_per_leaf_spine_pair <= k  # spine ports
        # Spine count is the smallest balanced one.
        assert p.spine_switches == balanced_uppers(p.leaf_switches, p.leaf_uplinks, k)
        for n in range(1, p.spine_switches):
            assert p.leaf_uplinks % n or n * k < p.leaf_switches * p.leaf_uplinks
    if p.tiers == 3:
        assert p.spine_downlinks == p.spine_uplinks == k // 2  # non-blocking spine (k even here)
        assert p.leaves_per_pod * p.links_per_leaf_spine_pair <= p.spine_downlinks
        assert p.spine_uplinks == p.links_per_spine_core_pair * p.cores_per_plane
        assert p.pods * p.links_per_spine_core_pair <= k  # core ports
        assert p.core_switches == p.spines_per_pod * p.cores_per_plane
        assert p.spine_core_links == p.spine_switches * p.spine_uplinks
        # The last pod's spines: balanced for its own leaves, never more than a full pod's.
        last_leaves = p.leaf_switches - (p.pods - 1) * p.leaves_per_pod
        assert p.spine_switches == (p.pods - 1) * p.spines_per_pod + p.last_pod_spines
        assert p.last_pod_spines <= p.spines_per_pod and p.leaf_uplinks % p.last_pod_spines == 0
        assert last_leaves * (p.leaf_uplinks // p.last_pod_spines) <= p.spine_downlinks
        assert p.last_pod_spines == balanced_uppers(last_leaves, p.leaf_uplinks, p.spine_downlinks)
    if ratio == (1, 1) and p.tiers >= 2:
        assert p.leaf_uplinks >= p.leaf_downlinks


def _whole_su_switches(nodes, rails, k, split, ratio, topology, cage):
    """Two-tier switch count of leaves built whole (the widest d:u leaf, full SUs), or None beyond two tiers."""
    d, u = ratio
    down = k * d // (d + u) // cage * cage
    per_leaf = down * split
    leaves = -(-nodes // per_leaf) * rails if topology == "rail-optimized" else -(-(nodes * rails) // per_leaf)
    spines = balanced_uppers(leaves, k - down, k)
    return None if spines is None else leaves + spines


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 3_000), st.integers(1, 8), setups, ratios, topologies)
def test_sized_to_the_nodes_never_needs_more_switches_than_whole_scalable_units(nodes, rails, setup, ratio, topology):
    p = make(nodes, rails, setup, ratio, topology)
    if p.tiers != 2:
        return
    whole = _whole_su_switches(nodes, rails, p.logical_ports, p.split, ratio, topology, setup[0].logical_ports_per_cage)
    assert whole is not None and p.switches <= whole
    # No leaf is bought for growth alone: the last leaf of each rail (or the last fat-tree leaf) has nodes.
    per_leaf = p.nodes_per_unit if topology == "rail-optimized" else p.leaf_downlinks * p.split
    total = nodes if topology == "rail-optimized" else nodes * rails
    assert (p.units if topology == "rail-optimized" else p.leaf_switches) == -(-total // per_leaf)


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 20_000), st.integers(1, 8), setups, ratios, topologies)
def test_cable_counts_match_link_counts(nodes, rails, setup, ratio, topology):
    p = make(nodes, rails, setup, ratio, topology)
    if not p.tiers:
        return
    # Parts are rounded up per switch: side A is the lower switch, side B the upper one (or the HCA).
    side_a = {NODE_LEAF: p.leaf_switches, LEAF_SPINE: p.leaf_switches, SPINE_CORE: p.spine_switches}
    side_b = {NODE_LEAF: 0, LEAF_SPINE: p.spine_switches, SPINE_CORE: p.core_switches}
    for lp in p.links:
        if lp.media is None:
            continue
        for part, qty, role in lp.parts:
            per = _links_per_item(part, role, lp)
            # Enough parts for every link, and at most one partly used part per switch.
            assert qty * per >= lp.links, (part, role)
            switches = side_b[lp.name] if role == "transceiver-b" else side_a[lp.name]
            assert qty * per < lp.links + per * max(switches, 1)
            if role == "transceiver-b" and lp.name == NODE_LEAF:
                assert qty == lp.links  # one HCA-side transceiver per HCA port
    bom = dict(p.bom)
    assert bom[p.switch] == p.leaf_switches + p.spine_switches + p.core_switches
    assert bom["MSN2201-CB2FC"] == math.ceil((nodes + p.switches) / 48)


def _links_per_item(part, role, lp):
    spec = CATALOG.get(part)
    if role == "transceiver-b" and lp.name == NODE_LEAF:
        return 1
    if role == "cable":
        ends = (spec.end_a, spec.end_b)
        return max(e.legs * (2 if e.twin else 1) for e in ends)
    if role == "fibre":
        return max(spec.end_a.legs, spec.end_b.legs)
    return lp.links_per_plug  # a switch-side transceiver: one plug


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 300), st.integers(1, 8), setups, ratios, topologies)
def test_cabling_csv_connects_every_port_once(nodes, rails, setup, ratio, topology):
    p = make(nodes, rails, setup, ratio, topology)
    rows = [line.rstrip("\n").split(",") for line in iter_cabling_csv(p)]
    assert rows[0] == ["a_end", "a_port", "z_end", "z_port", "link_class", "cable_part", "length_m"]
    rows = rows[1:]
    assert len(rows) == p.node_links + p.leaf_spine_links + p.spine_core_links
    # Every node NIC appears exactly once; no switch port is used twice.
    node_ends = [(a, ap) for a, ap, *_ in rows if a.startswith("node-")]
    assert len(node_ends) == len(set(node_ends)) == nodes * rails
    switch_ports = [(a, ap) for a, ap, *_ in rows if not a.startswith("node-")] + [(z, zp) for _, _, z, zp, *_ in rows]
    assert len(switch_ports) == len(set(switch_ports))
    # No switch uses more logical ports than it has.
    per_switch = Counter(name for name, port in switch_ports if "." not in port or port.endswith(".1"))
    assert max(per_switch.values()) <= p.logical_ports
    for _name, port in switch_ports:
        assert 1 <= int(port[1:].split(".")[0]) <= p.logical_ports
    # Balance: every leaf has the same number of links to every spine it reaches.
    pairs = Counter((a, z) for a, _, z, _, cls, *_ in rows if cls == LEAF_SPINE)
    if pairs:
        last_m = p.leaf_uplinks // p.last_pod_spines if p.tiers == 3 else p.links_per_leaf_spine_pair
        assert set(pairs.values()) <= {p.links_per_leaf_spine_pair, last_m}
        assert sum(pairs.values()) == p.leaf_spine_links
    core_pairs = Counter((a, z) for a, _, z, _, cls, *_ in rows if cls == SPINE_CORE)
    if core_pairs:
        assert set(core_pairs.values()) == {p.links_per_spine_core_pair}


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 300), st.integers(1, 300), st.integers(1, 300))
def test_balanced_uppers_is_smallest_even_spread(lowers, uplinks, ports):
    n = balanced_uppers(lowers, uplinks, ports)
    if n is None:
        assert lowers > ports  # even one link per pair overflows the upper switches
        return
    assert uplinks % n == 0 and n * ports >= lowers * uplinks
    assert all(uplinks % m or m * ports < lowers * uplinks for m in range(1, n))
