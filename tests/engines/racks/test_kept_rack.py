"""A one-rack cluster grown: the grown plan keeps the installed rack as it stands (``plan_racks(kept=...)``), its
leaves with its nodes, and plans every other rack and leaf as it always does (engines.racks.plan.kept_first_rack).
Inputs from ``parts.py``: 8U nodes of 10.2 kW, two to a 30 kW air rack with a 1 kW leaf."""

from engines.racks import KeptRack, plan_racks, switch_locations
from engines.racks.kept import kept_rack
from engines.racks.model import DeviceRole

from .parts import PDU_22K, air_nodes, leaves, mgmt, spines


def _plan(nodes, switches, *, management=True, kept=None):
    return plan_racks(
        node_groups=[nodes], switches=[*([mgmt()] if management else []), *switches], pdu_options=[PDU_22K], kept=kept
    )


def _placed(plan, rack_name):
    (rack,) = [r for r in plan.racks if r.name == rack_name]
    return [(str(d.role), d.part, d.position_u, d.face) for d in rack.devices]


def _nodes(plan):
    return sorted(
        (r.first_node + i, r.name) for r in plan.racks for i, d in enumerate(d for d in r.devices if d.role == "node")
    )


def test_the_installed_rack_stands_as_it_was_and_its_leaf_is_the_fabrics_first():
    installed = _plan(air_nodes(2, su=16), [leaves(1)])
    assert installed.leaf_placement == "in-rack"
    kept = kept_rack(installed)
    assert kept == KeptRack(node_group="gpu", nodes=2, leaves=1, leaf_top_u=41)
    grown = _plan(air_nodes(40, su=16), [leaves(6), spines(3)], kept=kept)
    greenfield = _plan(air_nodes(40, su=16), [leaves(6), spines(3)])
    assert _placed(grown, "R01-01") == _placed(installed, "R01-01")
    assert switch_locations(grown, DeviceRole.LEAF)[0] == ("R01-01", 41)
    assert len(switch_locations(grown, DeviceRole.LEAF)) == 6  # the five others in the leaf racks
    assert _nodes(grown) == _nodes(greenfield)  # every node once, in the greenfield plan's rack
    assert "R01-01" not in {name for name, _u in switch_locations(greenfield, DeviceRole.LEAF)}


def test_without_the_management_switch_on_top_the_installed_leaf_keeps_its_unit():
    installed = _plan(air_nodes(2, su=16), [leaves(1)])
    grown = _plan(air_nodes(3, su=16), [leaves(1)], management=False, kept=kept_rack(installed))
    assert [p for p in _placed(installed, "R01-01") if p[0] != "management"] == _placed(grown, "R01-01")
    assert [r.name for r in grown.racks if any(d.role == DeviceRole.LEAF for d in r.devices)] == ["R01-01"]


def test_an_installed_rack_the_grown_plan_cannot_keep_leaves_the_plan_greenfield():
    # Three installed nodes in a rack that takes two with its leaf at the grown plan's power: not kept.
    kept = KeptRack(node_group="gpu", nodes=3, leaves=1, leaf_top_u=41)
    grown = _plan(air_nodes(6, su=16), [leaves(1)], kept=kept)
    assert grown == _plan(air_nodes(6, su=16), [leaves(1)])
    other_group = KeptRack(node_group="cpu", nodes=2, leaves=1, leaf_top_u=41)
    assert _plan(air_nodes(6, su=16), [leaves(1)], kept=other_group) == _plan(air_nodes(6, su=16), [leaves(1)])
