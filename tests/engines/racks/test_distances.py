"""Cable run lengths per link class, from the rack plan's racks and rows.

Geometry defaults (distances.py): 1U = 44.45 mm, racks 0.6 m wide, 0.3 m from a port to the rack's cable
manager, 0.3 m from the rack top into the tray, rows 2.4 m apart. A device at unit p of a 42U rack climbs
0.3 + (42 - p + 1) x 0.04445 + 0.3 m to the tray.
"""

from types import SimpleNamespace

import pytest

from engines.racks import Facility, Geometry, LeafPlacement, link_distances, plan_racks

from .parts import PDU_22K, air_nodes, leaves, mgmt, spines

U = 0.04445


def climb(pos_u: int) -> float:
    return 0.3 + (42 - pos_u + 1) * U + 0.3


def plan(nodes, switches=(), **kw):
    return plan_racks(node_groups=[nodes], switches=[mgmt(), *switches], pdu_options=[PDU_22K], **kw)


def up(x: float) -> float:
    """Rounded up to 0.1 m, as the module rounds."""
    return -(-round(x * 10, 6) // 1) / 10


def test_one_rack_cluster_runs_stay_in_the_rack():
    d = link_distances(plan(air_nodes(1), [leaves(1)]))
    # node U1 to leaf U41: 40 units + 0.3 m at each end
    assert d["node_to_leaf_m"].route == "in-rack"
    assert d["node_to_leaf_m"].length_m == up(40 * U + 0.6) == 2.4
    # node U1 to the management switch at U42
    assert d["management_m"].length_m == up(41 * U + 0.6) == 2.5
    assert d["in_rack_m"].length_m == 2.5
    assert d["leaf_to_spine_m"].length_m is None and d["leaf_to_spine_m"].basis == "none"


def test_node_to_leaf_runs_along_the_row_to_the_leaf_rack():
    # [compute, leaf, compute]: one rack width apart; node at U1, leaf at U41
    d = link_distances(plan(air_nodes(4), [leaves(1)]))
    assert d["node_to_leaf_m"].route == "row"
    assert d["node_to_leaf_m"].length_m == up(climb(1) + 0.6 + climb(41)) == 3.8


def test_a_leaf_rack_at_the_end_of_the_row_lengthens_the_longest_node_run():
    middle = link_distances(plan(air_nodes(8), [leaves(1)]))["node_to_leaf_m"].length_m
    end = link_distances(plan(air_nodes(8), [leaves(1)], leaf_placement=LeafPlacement.END_OF_ROW))
    # 4 compute racks: two rack widths to the middle, four to the end
    assert middle == up(climb(1) + 2 * 0.6 + climb(41)) == 4.4
    assert end["node_to_leaf_m"].length_m == up(climb(1) + 4 * 0.6 + climb(41)) == 5.6


def test_leaf_to_spine_runs_between_rows():
    p = plan(air_nodes(128, su=32), [leaves(32), spines(16)], facility=Facility(rack_power_kw=60))
    d = link_distances(p)
    assert d["leaf_to_spine_m"].route == "between-rows"
    # the longest: the fourth row's leaf rack at slot 3 (lowest leaf U34) to the spine rack at the end of the first row
    # (slot 8, lowest spine U26), along the rows to their far end (the first row, 9 racks): 5.5 x 0.6 + 0.5 x 0.6 =
    # 3.6 m, three rows across 3 x 2.4 = 7.2 m
    assert d["leaf_to_spine_m"].length_m == up(climb(34) + 3.6 + 7.2 + climb(26)) == 13.2
    assert d["leaf_to_spine_m"].length_m > d["node_to_leaf_m"].length_m > d["in_rack_m"].length_m


def test_wider_racks_lengthen_row_runs():
    p = plan(air_nodes(4), [leaves(1)])
    wide = link_distances(p, geometry=Geometry(rack_width_m=0.8))
    assert wide["node_to_leaf_m"].length_m == up(climb(1) + 0.8 + climb(41)) == 4.0


def test_slack_is_added_to_every_run_when_asked():
    p = plan(air_nodes(4), [leaves(1)])
    d = link_distances(p, geometry=Geometry(slack_m=1.0))
    assert d["node_to_leaf_m"].length_m == up(climb(1) + 0.6 + climb(41) + 1.0) == 4.8


@pytest.mark.parametrize("override", [{"node_to_leaf_m": 12}, SimpleNamespace(node_to_leaf_m=12.0)])
def test_an_explicit_override_always_wins(override):
    d = link_distances(plan(air_nodes(4), [leaves(1)]), override=override)
    assert (d["node_to_leaf_m"].length_m, d["node_to_leaf_m"].basis) == (12.0, "override")
    assert d["management_m"].basis == "plan"


def test_in_rack_override_applies_to_leaves_that_sit_with_their_nodes():
    # the fabric's rack.in_rack_m is the node-to-switch run when the switch is in the nodes' rack
    d = link_distances(plan(air_nodes(1), [leaves(1)]), override=SimpleNamespace(in_rack_m=1.5, node_to_leaf_m=None))
    assert (d["node_to_leaf_m"].length_m, d["node_to_leaf_m"].basis) == (1.5, "override")


def test_an_override_for_a_class_the_plan_lacks_still_wins():
    d = link_distances(plan(air_nodes(1), [leaves(1)]), override={"leaf_to_spine_m": 30})
    assert d["leaf_to_spine_m"].length_m == 30.0 and d["leaf_to_spine_m"].basis == "override"
