"""Rack and unit of each node and switch, for the cabling plan's two ends."""

from engines.racks import Facility, node_location, plan_racks, switch_locations
from engines.racks.model import DeviceRole

from .parts import PDU_22K, air_nodes, leaves, mgmt, spines


def plan128():
    return plan_racks(
        node_groups=[air_nodes(128, su=32)],
        switches=[mgmt(), leaves(32), spines(16)],
        facility=Facility(rack_power_kw=60),
        pdu_options=[PDU_22K],
    )


def test_nodes_are_found_in_their_rack_and_unit():
    p = plan128()
    # 5 nodes per rack, 8U each from U1: node 0 at R01-01 U1, node 4 at U33, node 5 starts the next rack
    assert node_location(p, "gpu", 0) == ("R01-01", 1)
    assert node_location(p, "gpu", 4) == ("R01-01", 33)
    assert node_location(p, "gpu", 5) == ("R01-02", 1)
    # the second SU (nodes 32-63) is the second row
    assert node_location(p, "gpu", 32) == ("R02-01", 1)
    # a row per SU, the spines at the end of the first: node 127 is the last node of the fourth row's last rack
    assert node_location(p, "gpu", 127) == ("R04-08", 9)


def test_a_node_beyond_the_group_has_no_location():
    p = plan128()
    assert node_location(p, "gpu", 128) is None
    assert node_location(p, "storage", 0) is None


def test_switches_are_listed_in_placement_order():
    p = plan128()
    leaf = switch_locations(p, DeviceRole.LEAF)
    assert len(leaf) == 32 and len(set(leaf)) == 32
    assert leaf[0] == ("R01-04", 41)  # the first SU's leaf rack, just below the management switch
    assert {rack for rack, _ in switch_locations(p, DeviceRole.SPINE)} == {"R01-09"}  # the first row's end
    assert len(switch_locations(p, DeviceRole.MANAGEMENT)) == len(p.racks)
