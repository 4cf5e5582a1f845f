"""The leaves of a cluster of rack-scale systems (pure engine, no Django): a row of eight GB200 NVL72 racks holds 144
compute trays, 4.5 units of a QM9700 leaf's 32 ports, so each row's leaf rack holds the leaves of the units that start
in it, and a row keeps them whatever the cluster grows to."""

import pytest

from engines.racks import NodeGroup, RackSystem, SwitchGroup, SwitchRole, plan_racks, switch_locations
from engines.racks.distances import Geometry, _Routes, link_distances
from engines.racks.model import DeviceRole

TRAYS, UNIT, RAILS = 18, 32, 4  # a GB200 rack's compute trays, a QM9700 leaf's node ports at 1:1, a tray's NICs
SYSTEM = RackSystem(compute_trays=TRAYS, switch_trays=9, power_shelves=8, management_switches=2)


def plan(racks: int, unit_trays: int | None = UNIT):
    group = NodeGroup(
        name="gpu",
        part="SRS-GB200-NVL72",
        count=racks,
        height_u=48,
        power_w=120000,
        cooling="liquid",
        rack_scale=True,
        system=SYSTEM,
        unit_trays=unit_trays,
        unit_leaves=RAILS if unit_trays else None,
    )
    leaves = -(-racks * TRAYS // UNIT) * RAILS  # the fabric's units of whole leaves, one leaf a rail each
    switches = [
        SwitchGroup(role=SwitchRole.LEAF, part="MQM9700-NS2F", count=leaves, height_u=1, power_w=1720),
        SwitchGroup(role=SwitchRole.SPINE, part="MQM9700-NS2F", count=leaves // 2, height_u=1, power_w=1720),
    ]
    return plan_racks(node_groups=[group], switches=switches)


def leaf_rows(p) -> dict[int, int]:
    rows: dict[int, int] = {}
    for rack in p.racks:
        rows[rack.row] = rows.get(rack.row, 0) + sum(d.role == DeviceRole.LEAF for d in rack.devices)
    return {row: n for row, n in rows.items() if n}


def test_each_row_holds_the_leaves_of_the_units_that_start_in_it():
    # 16 racks, 288 trays: units of 32 trays start at trays 0, 32, ..., 128 in the first row (5 units, 20 leaves)
    # and 160, ..., 256 in the second (4 units, 16 leaves); an even share would be 18 and 18.
    assert leaf_rows(plan(16)) == {0: 20, 1: 16}
    assert leaf_rows(plan(8)) == {0: 20}
    assert leaf_rows(plan(16, unit_trays=None)) == {0: 18, 1: 18}  # units unknown: the leaves spread evenly


@pytest.mark.parametrize("smaller", [5, 8, 9, 12, 16])
def test_every_leaf_of_a_smaller_cluster_stands_where_the_larger_one_has_it(smaller):
    # The cabling list places leaf i of the fabric at the i-th leaf of the rack plan: the smaller plan's leaves are
    # the first of the larger one's, at the same racks and units, for every larger size up to four rows.
    before = switch_locations(plan(smaller), DeviceRole.LEAF)
    for larger in range(smaller + 1, 33):
        after = switch_locations(plan(larger), DeviceRole.LEAF)
        assert after[: len(before)] == before, larger


def test_the_node_to_leaf_run_reaches_the_trays_of_a_unit_in_the_next_row():
    # The fifth unit's trays 128-159 stand in the first row's last rack and the second row's first: the run the
    # plan measures for node-to-leaf links is at least the longest of the cables that are there, longer than any
    # within one row.
    p = plan(16)
    routes = _Routes(p, Geometry())
    racks = {r.name: r for r in p.racks}
    leaves = switch_locations(p, DeviceRole.LEAF)
    longest = 0.0
    for rack in (r for r in p.racks if r.kind == "compute"):
        low = min(d.position_u for d in rack.devices if d.role == DeviceRole.NODE)
        for tray in range(rack.first_node * TRAYS, (rack.first_node + 1) * TRAYS):
            for rail in range(RAILS):
                name, unit = leaves[tray // UNIT * RAILS + rail]
                longest = max(longest, routes.between(rack, low, racks[name], unit)[0])
    measured = link_distances(p)["node_to_leaf_m"]
    assert measured.route == "between-rows"
    assert measured.length_m >= longest > link_distances(plan(8))["node_to_leaf_m"].length_m
