"""Day two on fabrics other than one rail-optimized plane (issue #35): growing them moves no installed device.

* Twin-planar Spectrum-X: HGX B300 nodes with eight ConnectX-8 and GB300 NVL72 racks on SN5600, each ConnectX-8 a
  400GbE link to each of two planes (DGX SuperPOD B300 with Spectrum-4; the GB300 NVL72 Enterprise RA). The rack
  plan holds each scalable unit's leaves of both planes together in the row of its first node or tray, and the
  spines of the planes side by side, so a grown fabric's switches come after every installed one.
* Fat trees: a row is filled as an SU row is (its leaf racks where the full row has them), and leaf *i* stands in
  the row of its *i*-th full leaf's share of node links, whatever the cluster's size.
"""

from __future__ import annotations

import pytest

from configurator.services import design_validate
from engines.fabric.cabling import switch_name
from engines.racks import switch_locations
from engines.racks.model import DeviceRole
from quotes.services.expansion import Growth, expansion_plan

from .test_expansion import h200

pytestmark = pytest.mark.usefixtures("seeded_catalog")


def b300(nodes: int) -> dict:
    return {
        "schema": "design/v1",
        "name": f"{nodes} x HGX B300",
        "node_groups": [
            {
                "name": "gpu",
                "count": nodes,
                "server": "SYS-822GS-NB3RT",  # HGX B300 with 8 integrated ConnectX-8 (catalog/seed/FACTS.md)
                "components": [{"part": "HGX-B300-8GPU", "quantity": 1}],
            }
        ],
        "fabric": {"switch": "SN5600"},
    }


def gb300(racks: int) -> dict:
    return {
        "schema": "design/v1",
        "name": f"{racks} x GB300 NVL72",
        "node_groups": [{"name": "gpu", "count": racks, "server": "SRS-GB300-NVL72", "components": []}],
        "fabric": {"switch": "SN5600"},
    }


def fat_tree(doc: dict) -> dict:
    return {**doc, "fabric": {**doc["fabric"], "topology": "fat-tree"}}


def assert_nothing_moves(installed: dict, add: int) -> None:
    answer = expansion_plan(installed=installed, growth=Growth(node_group="gpu", add=add))
    assert answer.cabling.moved == ()
    assert "EXPANSION_DEVICES_MOVED" not in {f.code for f in answer.findings}
    racks = {r.name for r in answer.installed.rack_plan.plan.racks}
    assert racks <= {r.name for r in answer.result.rack_plan.plan.racks}


@pytest.mark.parametrize(("installed", "expanded"), [(8, 16), (16, 32), (32, 64), (64, 128), (64, 96), (100, 200)])
def test_growing_hgx_b300_on_two_spectrum_x_planes_moves_no_installed_device(installed, expanded):
    # 64 -> 128 moved eight plane-2 leaves to the second row and four spines: the leaves stood plane after plane.
    assert_nothing_moves(b300(installed), expanded - installed)


@pytest.mark.parametrize(("installed", "expanded"), [(1, 2), (2, 4), (4, 8), (8, 16), (3, 7), (16, 32)])
def test_growing_gb300_nvl72_racks_on_two_spectrum_x_planes_moves_no_installed_device(installed, expanded):
    # 8 -> 16 racks moved 113 devices, 72 compute trays among them: the first row's leaf racks changed in number.
    # A row keeps the places of the leaf racks its full eight racks take (three units of 64 trays, 24 SN5600).
    assert_nothing_moves(gb300(installed), expanded - installed)


def test_a_scalable_units_leaves_of_both_planes_stand_in_its_row():
    result = design_validate(document=b300(128), language="en")
    plan, fabric = result.rack_plan.plan, result.fabric_plan.plan
    rows = {}
    for i, (rack, _unit) in enumerate(switch_locations(plan, DeviceRole.LEAF)):
        rows.setdefault(rack[:3], set()).add(switch_name(fabric, "leaf", i)[:8])
    # Before, row 1 held both SUs' plane-1 leaves and row 2 both SUs' plane-2 leaves.
    assert rows == {"R01": {"pl1-su01", "pl2-su01"}, "R02": {"pl1-su02", "pl2-su02"}}


@pytest.mark.parametrize(
    ("installed", "expanded"), [(4, 6), (8, 24), (20, 40), (24, 32), (40, 100), (96, 128), (141, 226)]
)
def test_growing_an_hgx_h200_fat_tree_moves_no_installed_device(installed, expanded):
    # 24 -> 32 moved 11 devices (three leaves and four nodes among them): a partial row's leaf rack stood in the
    # middle of its racks, and the leaves were spread evenly over the rows. 141 -> 226 moved the leaf the balanced
    # share put in the last row ahead of its unit: a row now keeps the leaves it held.
    assert_nothing_moves(fat_tree(h200(installed)), expanded - installed)


@pytest.mark.parametrize(("installed", "expanded"), [(8, 16), (16, 40), (40, 100), (64, 128), (47, 148), (94, 99)])
def test_growing_an_hgx_b300_fat_tree_on_two_planes_moves_no_installed_device(installed, expanded):
    assert_nothing_moves(fat_tree(b300(installed)), expanded - installed)


def test_a_fat_tree_whose_leaves_share_its_rows_keeps_its_node_cables_in_the_row():
    # 100 nodes of 8 NICs on 64-port leaves at 1:1: a leaf's 32 links are four nodes, a row's 16 nodes four leaves,
    # so every node's leaf stands in its own row and its cables are the row's (10 m), not the next row's.
    result = design_validate(document=fat_tree(h200(100)), language="en")
    assert result.rack_plan.plan.leaf_reach_rows == result.rack_plan.plan.leaf_reach_back_rows == 0
    assert result.fabric_plan.plan.link("node-leaf").length_m == 10
