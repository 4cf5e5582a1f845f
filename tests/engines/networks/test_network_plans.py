"""The storage, in-band and out-of-band networks (engines.networks), on the seed catalogue; no database.

Golden rows cite the rule they reproduce: the counts are those the sourced rules give (SPOD-H100-OOB,
ERA-HGX-CONVERGED, BASEPOD-INBAND; engines/networks/sources.py). The DGX SuperPOD H100 RA's own tables are the
golden cases of test_ra_golden.py."""

from __future__ import annotations

import pytest

from design.model import DEFAULT, NetworkIn, NetworksIn
from engines.networks.oob import central_switches, oob_placement
from engines.networks.plan import NodePorts, RackSide, plan_networks
from messages import finding_dicts
from tests.engines.node.parts import SEED

DUAL_200G = SEED.get("MCX755106AS-HEAT")  # ConnectX-7, 2 x 200 Gb/s QSFP112
BF3_DPU = SEED.get("900-9D3B6-00CN-AB0")  # BlueField-3 DPU, 2 x 400 Gb/s QSFP112


def _plan(nodes=4, *, storage=None, inband=None, networks=None, compute_switches=0, racks=None):
    return plan_networks(
        networks=networks,
        storage=storage or NodePorts(),
        inband=inband or NodePorts(),
        bmcs=nodes,
        compute_switches=compute_switches,
        racks=racks or RackSide(pdus=2 * nodes, switches=nodes, switch_part="SN2201"),
        catalog=SEED,
    )


def _mgmt(nodes: int, ports: int = 2) -> NodePorts:
    return NodePorts(nodes=nodes, ports_per_node=ports, ports=nodes * ports, adapter=DUAL_200G)


@pytest.mark.parametrize("nodes", [4, 8, 16, 32])
def test_in_band_network_of_a_small_cluster_is_two_switches_one_per_port(nodes):
    """ERA-HGX-CONVERGED: 'two 200 GbE ports to two separate switches to provide redundancy'."""
    plans, _ = _plan(nodes, inband=_mgmt(nodes))
    inband = plans["inband"]
    assert (inband.leaf_switches, inband.spine_switches) == (2, 0)
    assert inband.node_links == 2 * nodes
    assert ("SN5600", 2) in inband.bom


def test_a_larger_in_band_network_grows_by_pairs_with_spines():
    plans, _ = _plan(300, inband=_mgmt(300))
    inband = plans["inband"]
    assert inband.leaf_switches % 2 == 0 and inband.leaf_switches >= 4
    assert inband.spine_switches >= 1
    assert inband.node_links == 600


def test_a_single_management_port_is_planned_and_warned_without_redundancy():
    plans, _ = _plan(4, inband=_mgmt(4, ports=1))
    assert plans["inband"].leaf_switches == 1
    assert [f.code for f in plans["inband"].findings if f.code == "NETWORK_SINGLE_PORT"]


def test_storage_network_holds_the_nodes_ports_and_the_storage_systems_ports():
    storage = NodePorts(nodes=16, ports_per_node=2, ports=32, adapter=BF3_DPU)
    alone, _ = _plan(16, storage=storage)
    # 32 NDR ports fit one 64-port QM9700.
    assert alone["storage"].switch == "MQM9700-NS2F"
    assert (alone["storage"].leaf_switches, alone["storage"].spine_switches) == (1, 0)
    with_arrays, _ = _plan(16, storage=storage, networks=NetworksIn(storage=NetworkIn(system_ports=40)))
    plan = with_arrays["storage"]
    assert plan.node_links == 72 and plan.system_ports == 40
    assert plan.leaf_switches >= 2 and plan.spine_switches >= 1


def test_node_side_oversubscription_needs_fewer_storage_spines():
    storage = NodePorts(nodes=128, ports_per_node=2, ports=256, adapter=BF3_DPU)
    full, _ = _plan(128, storage=storage)
    half, _ = _plan(128, storage=storage, networks=NetworksIn(storage=NetworkIn(oversubscription="2:1")))
    assert half["storage"].oversubscription == "2:1"
    assert half["storage"].spine_switches < full["storage"].spine_switches


def test_out_of_band_gives_every_bmc_switch_and_pdu_a_port_on_the_racks_switches():
    """SPOD-H100-OOB: the OOB fabric connects the management ports of all devices, rack PDUs included."""
    storage = NodePorts(nodes=31, ports_per_node=2, ports=62, adapter=BF3_DPU)
    plans, _ = _plan(
        31,
        storage=storage,
        inband=_mgmt(31),
        compute_switches=12,  # SuperPOD H100 1 SU: 8 leaves + 4 spines (RA Table 4)
        racks=RackSide(pdus=20, switches=10, switch_part="SN2201"),
    )
    oob = plans["oob"]
    network_switches = plans["storage"].switches + plans["inband"].switches
    assert oob.oob.bmcs == 31 and oob.oob.pdus == 20
    assert oob.oob.switches == 12 + network_switches + oob.spine_switches
    assert oob.node_links == oob.oob.ports
    # The leaves are the rack plan's in-rack SN2201s; the bill adds only what the racks do not carry.
    assert (oob.leaf_switches, oob.rack_switches) == (10, 10)
    assert "SN2201" not in dict(oob.bom)
    # SPOD-H100-OOB-UPLINKS: two uplinks from every out-of-band switch into the in-band switches, which take
    # them; no aggregation switches of the out-of-band network's own.
    assert oob.spine_switches == 0 and "SN4600C" not in dict(oob.bom)
    assert (oob.uplinks, oob.uplink_switch) == (20, plans["inband"].switch)
    assert plans["inband"].oob_uplinks == 20


def test_out_of_band_ports_beyond_the_racks_switches_get_more_switches_and_a_warning():
    plans, _ = _plan(100, racks=RackSide(pdus=4, switches=1, switch_part="SN2201"))
    oob = plans["oob"]
    assert oob.leaf_switches == -(-oob.oob.ports // 48) and oob.leaf_switches > 1
    assert dict(oob.bom)["SN2201"] == oob.leaf_switches - 1
    assert any(f.code == "NETWORK_OOB_EXTRA_SWITCHES" for f in oob.findings)


def _without_media(*connectors):
    """The seed catalogue without the cables and optics that have an end of these connectors."""
    from design.specs import MediaSpec
    from engines.catalog_view import CatalogView

    keep = {
        pn: p
        for pn, p in SEED.parts.items()
        if not (isinstance(p, MediaSpec) and {p.end_a.connector, p.end_b.connector} & set(connectors))
    }
    return CatalogView(version=SEED.version + "-cut", parts=keep)


def test_every_out_of_band_port_gets_a_patch_cord_and_every_uplink_its_cable():
    """SPOD-H100-OOB: each BMC, switch management port and PDU is one RJ45 port on the rack's SN2201, which uplinks
    over its QSFP28 ports to the two aggregation switches (SN2201-UPLINKS)."""
    plans, _ = _plan(31, compute_switches=12, racks=RackSide(pdus=20, switches=10, switch_part="SN2201"))
    oob = plans["oob"]
    bom = dict(oob.bom)
    cord, _length = next((part, m) for cls, part, m in oob.oob_media if cls == "device-leaf")
    uplink = next(part for cls, part, _m in oob.oob_media if cls == "leaf-uplink")
    assert SEED.get(cord).end_a.connector == "RJ45" and bom[cord] == oob.node_links == oob.oob.ports
    assert SEED.get(uplink).end_a.connector == "QSFP28" and bom[uplink] == oob.uplinks == 20
    # A device and its rack's management switch share the rack: the cord covers an in-rack run, no more.
    assert SEED.get(cord).length_m >= 2.0 and SEED.get(cord).length_m <= 5.0
    assert not [f for f in oob.findings if f.code == "NETWORK_MEDIA_NOT_CATALOGUED"]


def test_an_in_band_pair_on_sn4600c_is_cabled_with_100g_qsfp28_media():
    """BASEPOD-INBAND: H100-era in-band on SN4600C (QSFP28 100 GbE); ConnectX-7's QSFP112 cages take QSFP28 plugs
    (NV-LX-OV), so every in-band port and the pair's peer link get a cable."""
    plans, _ = _plan(8, inband=_mgmt(8), networks=NetworksIn(inband=NetworkIn(switch="SN4600C")))
    inband = plans["inband"]
    assert inband.switch == "SN4600C" and (inband.leaf_switches, inband.spine_switches) == (2, 0)
    node = inband.fabric.link("node-leaf")
    assert node.speed_gbps == 100 and sum(q for _p, q, _r in node.parts) == inband.node_links == 16
    peer = inband.fabric.link("peer")
    assert peer.cable_part and sum(q for _p, q, _r in peer.parts) == peer.links == 2
    bom = dict(inband.bom)
    for part, _q, _r in node.parts + peer.parts:
        assert SEED.get(part).end_a.connector == "QSFP28" and bom[part] > 0
    assert not [f for f in inband.findings if f.code in ("FABRIC_NO_CABLE", "FABRIC_MEDIA_NOT_CATALOGUED")]


def test_cables_the_catalogue_lacks_are_counted_and_said_not_invented():
    bare = _without_media("RJ45", "QSFP28")
    plans, _ = plan_networks(
        networks=None,
        storage=NodePorts(),
        inband=NodePorts(),
        bmcs=100,
        compute_switches=0,
        racks=RackSide(pdus=4, switches=1, switch_part="SN2201"),
        catalog=bare,
    )
    oob = plans["oob"]
    missing = {f.params.connector: f.params.links for f in oob.findings if f.code == "NETWORK_MEDIA_NOT_CATALOGUED"}
    assert missing == {"RJ45": oob.node_links, "QSFP28": oob.uplinks} and oob.uplinks > 0
    assert all(SEED.get(part) is not None for part, _q in oob.bom)
    assert not [p for p, _q in oob.bom if isinstance(SEED.get(p), type(SEED.get("CAT6-UTP-3M")))]
    assert oob.oob_media == ()


def test_a_customer_supplied_network_is_left_out_and_named():
    plans, findings = _plan(4, inband=_mgmt(4), networks=NetworksIn(inband=None, oob=None))
    assert plans["inband"] is None and plans["oob"] is None
    assert {f.subject for f in findings if f.code == "NETWORK_CUSTOMER_SUPPLIED"} == {"networks.inband", "networks.oob"}


def test_a_storage_network_asked_for_without_storage_adapters_is_a_warning():
    plans, findings = _plan(4, networks=NetworksIn(storage=NetworkIn(switch="MQM9700-NS2F")))
    assert plans["storage"] is None
    assert [(f.code, f.severity) for f in findings if f.subject == "networks.storage"] == [
        ("NETWORK_NO_ADAPTERS", "warning")
    ]


def test_in_band_without_management_adapters_is_converged_on_storage():
    storage = NodePorts(nodes=4, ports_per_node=2, ports=8, adapter=BF3_DPU)
    plans, findings = _plan(4, storage=storage)
    assert plans["inband"] is None and plans["storage"] is not None
    assert any(f.code == "NETWORK_CONVERGED" for f in findings)


def test_an_out_of_band_switch_must_be_a_management_switch():
    plans, findings = _plan(4, networks=NetworksIn(oob=NetworkIn(switch="SN5600")))
    assert plans["oob"] is None
    assert [f.code for f in findings if f.subject == "networks.oob"] == ["NETWORK_OOB_NOT_MANAGEMENT"]


def test_an_infiniband_storage_network_reports_its_subnet_manager():
    storage = NodePorts(nodes=16, ports_per_node=2, ports=32, adapter=BF3_DPU)
    plans, _ = _plan(16, storage=storage)
    assert any(f.code.startswith("FABRIC_SM_") and f.subject == "networks.storage" for f in plans["storage"].findings)


def test_the_two_switches_of_an_in_band_pair_are_joined_by_a_peer_link():
    """BASEPOD-INBAND: the two in-band switches are MLAG peers over a two-port peer link (swp57, swp58)."""
    plans, _ = _plan(4, inband=_mgmt(4))
    inband = plans["inband"]
    peer = inband.fabric.link("peer")
    assert peer is not None and peer.links == 2 and peer.cable_part
    # The peer link's cable is in the bill, and its ports are counted on the pair.
    assert all(dict(inband.bom).get(part) for part, _q, _r in peer.parts)
    assert dict(inband.ports_used)["leaf"] >= inband.node_links // 2 + 4


def test_a_catalogue_without_a_switch_for_the_network_plans_none_and_says_so():
    """The storage default switches (and any named one) missing from the catalogue: no plan is invented."""
    from design.specs import SwitchSpec
    from engines.catalog_view import CatalogView

    bare = CatalogView(
        version=SEED.version, parts={pn: p for pn, p in SEED.parts.items() if not isinstance(p, SwitchSpec)}
    )
    storage = NodePorts(nodes=4, ports_per_node=2, ports=8, adapter=BF3_DPU)
    plans, findings = plan_networks(
        networks=None,
        storage=storage,
        inband=NodePorts(),
        bmcs=4,
        compute_switches=0,
        racks=RackSide(pdus=8, switches=4, switch_part="SN2201"),
        catalog=bare,
    )
    assert plans["storage"] is None and plans["oob"] is None
    no_switch = [f for f in findings if f.code == "NETWORK_NO_SWITCH"]
    assert {f.subject for f in no_switch} == {"networks.storage", "networks.oob"}


# --- sized as the RAs size them -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "ports,units,switches",
    [
        (317, 4, 8),  # the H100 RA's Table 8 1 GbE ports over its 4 SU: Table 7's 8 SN2201 (SPOD-H100-OOB-CENTRAL)
        (317, 1, 7),  # one pool
        (46, 5, 1),  # a few ports are not spread over many small units
        (0, 4, 0),
    ],
)
def test_central_out_of_band_switches_are_counted_by_scalable_unit(ports, units, switches):
    assert central_switches(ports, 48, units) == switches


@pytest.mark.parametrize(
    "entry,densest,placement",
    [
        (DEFAULT, 7, ("central", "density")),  # the RA's 4 DGX and 3 PDUs a rack
        (DEFAULT, 23, ("central", "density")),
        (DEFAULT, 24, ("per-rack", "density")),
        (NetworkIn(placement="central"), 40, ("central", "design")),
        (NetworkIn(placement="per-rack"), 2, ("per-rack", "design")),
    ],
)
def test_the_out_of_band_placement_is_the_designs_else_central_where_racks_are_sparse(entry, densest, placement):
    assert oob_placement(entry, densest) == placement


def test_central_out_of_band_switches_are_all_on_the_bill_and_none_in_the_racks():
    plans, _ = _plan(
        64,
        inband=_mgmt(64),
        networks=NetworksIn(oob=NetworkIn(placement="central")),
        racks=RackSide(pdus=64, central=True),
    )
    oob = plans["oob"]
    assert (oob.placement, oob.rack_switches) == ("central", 0)
    assert dict(oob.bom)["SN2201"] == oob.leaf_switches == -(-oob.oob.ports // 48)
    codes = {f.code for f in oob.findings}
    assert "NETWORK_OOB_PLACEMENT" in codes and "NETWORK_OOB_EXTRA_SWITCHES" not in codes


@pytest.mark.parametrize(
    ("run", "cord"), [(None, "CAT6-UTP-3M"), (8.3, "CAT6-UTP-10M"), (20.5, "CAT6-UTP-30M"), (75, None)]
)
def test_central_cords_reach_the_management_racks_or_say_how_far_they_run(run, cord):
    # Central, each device's cord runs from its rack to the management racks (the rack plan's longest such run
    # plus 0.5 m slack picks the cord); per rack (no run) it stays in the rack. Past the longest cord: said.
    plans, _ = _plan(
        64,
        inband=_mgmt(64),
        networks=NetworksIn(oob=NetworkIn(placement="central" if run else "per-rack")),
        racks=RackSide(pdus=64, central=True, cord_run_m=run) if run else None,
    )
    oob = plans["oob"]
    cords = {part: n for part, n in oob.bom if part.startswith("CAT6-UTP-")}
    missing = [f for f in oob.findings if f.code == "NETWORK_MEDIA_NOT_CATALOGUED" and f.params.connector == "RJ45"]
    if cord is None:
        assert cords == {} and [f.params.length_m for f in missing] == [75]
        assert "run up to 75 m" in finding_dicts(missing)[0]["message"]
    else:
        assert cords == {cord: oob.node_links} and not missing


def test_without_system_ports_the_storage_systems_ports_are_reserved_in_the_ras_proportion_and_stated():
    # 60 node ports: 12 storage-system ports reserved (48 for 254, SPOD-H100-STORAGE-PORTS), 72 leaf ports, more
    # than one 64-port QM9700 holds; system_ports given: those, and no such finding.
    storage = NodePorts(nodes=30, ports_per_node=2, ports=60, adapter=BF3_DPU)
    stated = NetworksIn(storage=NetworkIn(switch="MQM9700-NS2F", system_ports=4))
    given, _ = _plan(30, storage=storage, networks=stated)
    assert "NETWORK_STORAGE_SYSTEM_PORTS" not in {f.code for f in given["storage"].findings}
    assert (given["storage"].node_links, given["storage"].leaf_switches) == (64, 1)
    absent, _ = _plan(30, storage=storage, networks=NetworksIn(storage=NetworkIn(switch="MQM9700-NS2F")))
    plan = absent["storage"]
    said = [f for f in plan.findings if f.code == "NETWORK_STORAGE_SYSTEM_PORTS"]
    assert [f.params.reserved for f in said] == [12]
    assert (plan.system_ports, plan.node_links) == (12, 72) and plan.leaf_switches >= 2
    assert "SPOD-H100-STORAGE-PORTS" in plan.sources
    # None: none reserved, none stated.
    none, _ = _plan(30, storage=storage, networks=NetworksIn(storage=NetworkIn(switch="MQM9700-NS2F", system_ports=0)))
    assert none["storage"].node_links == 60


def test_on_an_ethernet_compute_fabric_the_converged_north_south_network_is_an_ethernet_pair():
    storage = NodePorts(nodes=32, ports_per_node=2, ports=64, adapter=DUAL_200G)  # VPI: InfiniBand-capable
    infiniband, _ = _plan(32, storage=storage)
    assert infiniband["storage"].switch == "MQM9700-NS2F"
    plans, findings = plan_networks(
        networks=None,
        storage=storage,
        inband=NodePorts(),
        bmcs=32,
        compute_switches=2,
        racks=RackSide(pdus=16, central=True),
        catalog=SEED,
        ethernet_fabric=True,
    )
    north_south = plans["storage"]
    assert (north_south.switch, north_south.leaf_switches, north_south.spine_switches) == ("SN5600", 2, 0)
    assert "ERA-HGX-CONVERGED" in north_south.sources
    assert plans["inband"] is None and "NETWORK_CONVERGED" in {f.code for f in findings}
    assert plans["oob"].uplink_switch == "SN5600"


def test_out_of_band_uplinks_without_free_in_band_ports_are_an_error():
    # 31 nodes on a pair of 64-port SN4600C leave 31 ports free on each (31 node ports and 2 peer ports used):
    # the 80 uplinks of 40 per-rack out-of-band switches cannot land, and the design is not valid.
    plans, _ = _plan(
        31,
        inband=_mgmt(31),
        networks=NetworksIn(inband=NetworkIn(switch="SN4600C")),
        racks=RackSide(pdus=62, switches=40, switch_part="SN2201"),
    )
    assert plans["inband"].leaf_switches == 2 and plans["oob"].uplinks == 80
    said = [f for f in plans["inband"].findings if f.code == "NETWORK_OOB_UPLINK_PORTS"]
    assert [f.severity for f in said] == ["error"]


@pytest.mark.parametrize(("nodes", "system_ports"), [(127, 48), (127, 7), (64, 30), (200, 100)])
def test_the_storage_systems_connect_at_one_to_one_on_leaves_of_their_own(nodes, system_ports):
    # SPOD-H100-COMPONENTS: "The storage devices are connected at a 1:1 port to uplink ratio", the DGX side near
    # 4:3: every leaf that takes storage-system ports has as many uplinks, and takes no node port.
    storage = NodePorts(nodes=nodes, ports_per_node=2, ports=2 * nodes, adapter=BF3_DPU)
    networks = NetworksIn(storage=NetworkIn(switch="MQM9700-NS2F", oversubscription="4:3", system_ports=system_ports))
    plan = _plan(nodes, storage=storage, networks=networks)[0]["storage"].fabric
    alone = NetworksIn(storage=NetworkIn(switch="MQM9700-NS2F", oversubscription="4:3", system_ports=0))
    node_side = _plan(nodes, storage=storage, networks=alone)[0]["storage"].fabric
    assert plan.one_to_one_links == system_ports
    own = plan.leaf_switches - node_side.leaf_switches
    per = min(plan.leaf_uplinks, plan.leaf_downlinks)
    assert own == -(-system_ports // per)
    assert (plan.leaf_downlinks, plan.leaf_uplinks) == (node_side.leaf_downlinks, node_side.leaf_uplinks)
    assert plan.leaf_uplinks * 4 >= plan.leaf_downlinks * 3  # the node leaves at 4:3 or better
    assert plan.leaf_spine_links == plan.leaf_switches * plan.leaf_uplinks
