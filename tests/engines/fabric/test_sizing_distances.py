"""Distances the design gives are used or said, implausible ones warned about, and default runs never make a
whole class of fabrics invalid."""

import pytest

from design.model import RackIn
from engines.fabric.model import LEAF_SPINE, NODE_LEAF
from engines.fabric.plan import plan_fabric
from engines.findings.fabric_codes import FabricCode
from engines.findings.finding import Severity
from messages import both

from .parts import CATALOG, CX6_HDR, CX7_NDR, QM8700, QM9700, catalog


def plan(nodes, rails=8, switch=QM9700, hca=CX7_NDR, **kw):
    return plan_fabric(nodes=nodes, rails=rails, switch=switch, hca=hca, catalog=CATALOG, **kw)


def finding(p, code):
    return next(f for f in p.findings if f.code == code)


def codes(p):
    return {f.code for f in p.findings}


def test_a_given_node_to_leaf_distance_is_used_for_a_one_switch_fabric():
    # 4 nodes fit one rack and one QM9700: without distances the switch sits in their rack (2.5 m DAC).
    assert plan(4).link(NODE_LEAF).media == "dac"
    # The design says the switch is 60 m away: that run is planned (optics), not the in-rack default.
    p = plan(4, rack=RackIn(node_to_leaf_m=60))
    node = p.link(NODE_LEAF)
    assert node.distance_m == 60 and node.media == "optics"
    assert FabricCode.DISTANCE_UNUSED not in codes(p)


def test_both_runs_given_for_one_switch_in_the_nodes_rack_say_which_is_unused():
    p = plan(4, rack=RackIn(in_rack_m=1.5, node_to_leaf_m=60, leaf_to_spine_m=20))
    assert p.link(NODE_LEAF).distance_m == 1.5
    f = finding(p, FabricCode.DISTANCE_UNUSED)
    assert f.severity == Severity.INFO
    assert f.params.rack_fields == ["leaf_to_spine_m", "node_to_leaf_m"]
    assert "“Leaf to spine switch (m)”" in both(f).message.en and "node_to_leaf_m" not in both(f).message.en
    assert "“Leaf- naar spine-switch (m)”" in both(f).message.nl


@pytest.mark.parametrize(
    ("rack", "field"),
    [
        (RackIn(in_rack_m=40), "in_rack_m"),
        (RackIn(node_to_leaf_m=2500), "node_to_leaf_m"),
        (RackIn.model_construct(leaf_to_spine_m=15_000), "leaf_to_spine_m"),  # beyond what a document may say
    ],
)
def test_implausible_distances_are_warned_about(rack, field):
    p = plan(128, rack=rack)
    f = finding(p, FabricCode.DISTANCE_IMPLAUSIBLE)
    assert f.severity == Severity.WARNING and f.params.rack_field == field
    assert "implausible" in both(f).message.en and "onwaarschijnlijk" in both(f).message.nl


def test_plausible_distances_raise_no_distance_warning():
    p = plan(128, rack=RackIn(node_to_leaf_m=25, leaf_to_spine_m=45))
    assert not codes(p) & {FabricCode.DISTANCE_IMPLAUSIBLE, FabricCode.DISTANCE_UNUSED, FabricCode.DISTANCE_ASSUMED}
    assert p.link(NODE_LEAF).distance_m == 25 and p.link(LEAF_SPINE).distance_m == 45


def test_a_default_hdr_fabric_is_buildable():
    # HDR AOCs in the test catalogue reach 100 m, so the defaults (15 m, 30 m) fit: no error at all.
    p = plan(64, switch=QM8700, hca=CX6_HDR)
    assert not [f for f in p.findings if f.severity == Severity.ERROR]
    assert p.link(LEAF_SPINE).media == "aoc"


def test_default_leaf_spine_run_beyond_the_longest_hdr_aoc_is_shortened_and_said():
    # With AOCs only up to 30 m the default 30 m (+0.5) leaf-spine run fits none: the plan takes the 30 m AOC
    # and warns that the runs must stay within 29.5 m, instead of refusing every default HDR fabric.
    short = catalog(without=("MFS1S00-H050", "MFS1S00-H100"))
    p = plan_fabric(nodes=64, rails=8, switch=QM8700, hca=CX6_HDR, catalog=short)
    assert not [f for f in p.findings if f.severity == Severity.ERROR]
    f = finding(p, FabricCode.DISTANCE_ASSUMED)
    assert (f.params.link_class, f.params.default_m, f.params.planned_m) == (LEAF_SPINE, 30, 29.5)
    assert p.link(LEAF_SPINE).length_m == 30
    # A distance the design gives is evidence: the same run, given, needs a longer HDR medium than the catalogue
    # holds (no HDR optics either): a catalogue gap with the bill incomplete, not an assumption (issue #20).
    q = plan_fabric(nodes=64, rails=8, switch=QM8700, hca=CX6_HDR, catalog=short, rack=RackIn(leaf_to_spine_m=30))
    assert FabricCode.REACH_NOT_CATALOGUED in codes(q) and FabricCode.DISTANCE_ASSUMED not in codes(q)
    assert not q.bom_complete
