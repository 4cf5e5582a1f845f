"""Golden cases: NVIDIA's reference-architecture design points through the one validation service, with the
storage, in-band, out-of-band and UFM counts the RAs publish (catalog/seed/FACTS.md, "Networks beside the compute
fabric"; source keys in engines/networks/sources.py).

What the design states is reproduced exactly: the DGX SuperPOD H100 RA's Tables 7 and 8 give 48 compute fabric
switches, 254 storage and 254 in-band node links for 127 nodes, 8 in-band SN4600C (at the 11:1 its cables imply,
the product's default), 4 UFM appliances (a pair for each InfiniBand fabric), one out-of-band port per BMC and per
switch, and two uplinks from every out-of-band switch into the in-band network, and for 8 GB200 NVL72 racks its 8
compute racks, 10 control-plane servers and a UFM pair. Two counts rest on what a design does not say, and the tests
assert what the product's finding says instead:

* storage, 16 QM9700: the RA's storage ports "depend on specific storage selected" (Table 8), and its cable list
  gives 48 storage cables beside the 254 DGX ports; the plan reserves the storage systems' ports in that proportion
  (NETWORK_STORAGE_SYSTEM_PORTS says how many), 48 here, and lands them on leaf ports of their own at the RA's 1:1
  beside the nodes' 4:3: Table 8's 494 node and leaf-spine cables. The RA gives no leaf/spine split of its 16; the
  fewest for those links are 14, and the split is the input the RA leaves open;
* out-of-band, 8 SN2201: central, as the RA racks them, counted by scalable unit (its 317 ports over 4 SU: 2 a
  unit). The design point racks four DGX a rack as the RA does (``facility.rack_power_kw`` 40.8: the RA's example
  racks draw over 40 kW), 32 compute racks, and the rule gives Table 7's 8; its PDUs are the catalogue's AP8886,
  four a compute rack (142, not the RA's 108 Raritan, whose rating is not found), still under 96 ports an SU. At
  the product's default 30 kW a rack the plan has twice the compute racks, 268 PDUs and 12 SN2201, and
  NETWORK_OOB_PLACEMENT states the count.
"""

from __future__ import annotations

import pytest

from configurator.services import configuration_create
from design.model import NetworkIn, NetworksIn
from engines.cluster.rackbill import rack_count
from engines.networks.plan import NodePorts, RackSide, plan_networks
from outputs.services import configuration_output
from tests.engines.node.parts import SEED
from tests.results import validate_json

pytestmark = pytest.mark.django_db

# DGX H100 ports (SuperPOD H100 RA, Figure 4 and Table 8): 8 x 400G compute, a pair of 400G storage ports
# (QSFP112) and a pair of 200G in-band ports.
BF3_DUAL_400G = "900-9D3B6-00CN-AB0"
CX7_DUAL_200G = "MCX755106AS-HEAT"


def _superpod(nodes: int, networks: dict | None = None, facility: dict | None = None) -> dict:
    doc = {
        "schema": "design/v1",
        "name": f"DGX SuperPOD H100 design point, {nodes} nodes",
        "workload": {"kind": "training", "model_parameters_billion": 70},
        "node_groups": [
            {
                "name": "gpu",
                "count": nodes,
                "server": "SYS-821GE-TNHR",
                "components": [
                    {"part": "HGX-H100-8GPU", "quantity": 1},
                    {"part": "MCX75310AAS-NEAT", "quantity": 8, "role": "compute"},
                    {"part": BF3_DUAL_400G, "quantity": 1, "role": "storage"},
                    {"part": CX7_DUAL_200G, "quantity": 1, "role": "management"},
                ],
            }
        ],
        "fabric": {"switch": "MQM9700-NS2F", "oversubscription": "1:1", "topology": "rail-optimized"},
    }
    if networks is not None:
        doc["networks"] = networks
    if facility is not None:
        doc["facility"] = facility
    return doc


# SuperPOD H100 RA: storage on QM9700 at "a ratio near 4:3" on the DGX side, in-band on SN4600C, OOB on SN2201.
RA_NETWORKS = {
    "storage": {"switch": "MQM9700-NS2F", "oversubscription": "4:3"},
    "inband": {"switch": "SN4600C"},
    "oob": {"switch": "SN2201"},
}


# SuperPOD H100 RA, "System Design": "Rack design can support one, two, or four DGX H100 systems per rack"; its
# example rack layout (Figure 2) draws "power consumption per rack [that] exceeds 40 kW": four DGX H100 of 10.2 kW,
# 40.8 kW (Table 7's 38 racks: 32 compute racks of 4 for 4 SU, and 6 more). The product's own default for an air-
# cooled rack is 30 kW, two such nodes; the RA's design point gives the facility its racks take.
RA_FACILITY = {"rack_power_kw": 40.8}


@pytest.fixture
def superpod_4su(seeded_catalog):
    """The RA's 4 SU, 127-node DGX SuperPOD (one DGX of the 128 gives way to UFM, Table 4), racked four a rack."""
    return validate_json(document=_superpod(127, RA_NETWORKS, RA_FACILITY))


def _switches(plan: dict) -> int:
    return plan["leaf_switches"] + plan["spine_switches"] + plan["core_switches"]


def test_the_4su_superpod_has_the_ras_compute_storage_and_in_band_node_links(superpod_4su):
    result = superpod_4su
    assert result["valid"] is True
    # None of the counted networks lacks ports or a switch (its in-band optics' plug tops are a separate matter).
    assert not [f for f in result["findings"] if f["severity"] == "error"]
    # Table 7: 48 compute fabric QM9700 (Table 4: 32 leaves, 16 spines).
    fabric = result["fabric_plan"]
    assert (fabric["leaf_switches"], fabric["spine_switches"]) == (32, 16)
    plans = result["network_plans"]
    # Table 8: 254 DGX storage transceivers and 254 in-band cables to the DGX systems, two of each per node.
    # The storage network's leaf ports: the nodes' 254 and Table 8's 48 storage cables (see the storage test).
    assert (plans["storage"]["switch"], plans["storage"]["node_links"]) == ("MQM9700-NS2F", 254 + 48)
    assert (plans["inband"]["switch"], plans["inband"]["node_links"]) == ("SN4600C", 254)
    assert plans["storage"]["oversubscription"] == "4:3"


def test_the_storage_systems_get_table_8s_48_leaf_ports_and_the_ras_16_switches_rest_on_a_split_it_leaves_open(
    seeded_catalog, superpod_4su
):
    # Table 8: 48 "NDR Cables, 2x 200 Gbps" to the storage beside the 254 DGX storage ports; without system_ports
    # the plan reserves the storage systems' ports in that proportion, and a finding says how many.
    storage = superpod_4su["network_plans"]["storage"]
    assert (storage["system_ports"], storage["node_links"]) == (48, 254 + 48)
    said = [f for f in superpod_4su["findings"] if f["code"] == "NETWORK_STORAGE_SYSTEM_PORTS"]
    assert [(f["subject"], f["severity"]) for f in said] == [("networks.storage", "info")]
    assert "the plan reserves 48 storage leaf ports for the storage systems" in said[0]["message"]
    # The finding says which input the RA leaves open in its 16 storage switches, and what the plan counts instead.
    assert "not their split into leaves and spines" in said[0]["message"]
    assert "the fewest that carry its links: 14, of which 4 spines and 10 leaves" in said[0]["message"]
    assert "SPOD-H100-STORAGE-PORTS" in storage["sources"]
    # The RA connects the storage at 1:1 beside the DGX ports' 4:3: eight node leaves of 32 down and 24 up, two
    # storage leaves of 24 and 24. Table 8's 494 "DGX H100 systems to leaf, leaf to spine" cables: 254 + 240.
    links = {lp["class"]: lp["links"] for lp in storage["links"]}
    assert (links["node-leaf"] - 48, links["leaf-spine"]) == (254, 240)
    assert links["node-leaf"] - 48 + links["leaf-spine"] == 494
    # Table 7's 16 storage QM9700: the RA gives no leaf/spine split; the fewest for those 240 uplinks are 10 leaves
    # and 4 spines. The split is the input the RA leaves open.
    assert (storage["leaf_switches"], storage["spine_switches"], storage["core_switches"]) == (10, 4, 0)
    assert _switches(storage) == 14 < 16
    # The storage systems' ports land on real leaf ports in the cabling list, after the nodes'.
    config = configuration_create(document=_superpod(127, RA_NETWORKS, RA_FACILITY))
    rows = [
        r.split(",")
        for r in "".join(configuration_output(configuration=config, name="cabling.csv").body).splitlines()[1:]
    ]
    systems = [r for r in rows if r[-1] == "storage" and r[0].startswith("storage-port-")]
    assert len(systems) == 48 and all(r[2].startswith("storage-") for r in systems)
    node_leaves = {r[2] for r in rows if r[-1] == "storage" and r[4] == "node-leaf" and r[0].startswith("node-")}
    assert len({r[2] for r in systems}) == 2 and not {r[2] for r in systems} & node_leaves  # leaves of their own
    assert len({(r[2], r[3]) for r in rows if r[-1] == "storage"}) == len([r for r in rows if r[-1] == "storage"])
    # A design that names its storage systems' ports gets those instead, and no finding.
    named = _superpod(127, {**RA_NETWORKS, "storage": {**RA_NETWORKS["storage"], "system_ports": 128}})
    result = validate_json(document=named)
    assert result["network_plans"]["storage"]["node_links"] == 254 + 128
    assert "NETWORK_STORAGE_SYSTEM_PORTS" not in {f["code"] for f in result["findings"]}


def test_at_the_ratio_its_cables_imply_the_in_band_network_is_the_ras_8_switches_and_24_leaf_core_cables(
    seeded_catalog,
):
    # Table 8: 254 node links on 24 leaf-core cables, 10.6 to 1; the whole-number ratio a leaf must carry is 11:1.
    # Table 7: 8 SN4600C; Table 8's 6 ISL are three leaf pairs: six leaves and a core of two.
    networks = {**RA_NETWORKS, "inband": {"switch": "SN4600C", "oversubscription": "11:1"}}
    result = validate_json(document=_superpod(127, networks))
    inband = result["network_plans"]["inband"]
    assert (inband["leaf_switches"], inband["spine_switches"], inband["core_switches"]) == (6, 2, 0)
    assert _switches(inband) == 8
    assert (inband["node_links"], inband["fabric"]["leaf_spine_links"]) == (254, 24)
    assert "SPOD-H100-INBAND-CORE" in inband["sources"]
    bill = {(line["section"], line["part"]): line["quantity"] for line in result["bom"]}
    assert bill[("inband", "SN4600C")] == 8


def test_the_in_band_core_is_a_pair_even_where_one_spine_could_take_every_uplink(seeded_catalog):
    networks = {**RA_NETWORKS, "inband": {"switch": "SN4600C", "oversubscription": "11:1"}}
    config = configuration_create(document=_superpod(127, networks))
    rows = [
        r.split(",")
        for r in "".join(configuration_output(configuration=config, name="cabling.csv").body).splitlines()[1:]
    ]
    leaf_core = [r for r in rows if r[-1] == "inband" and r[4] == "leaf-spine"]
    assert len(leaf_core) == 24
    # each leaf's four uplinks, two to each core switch: a core switch lost leaves every leaf connected
    by_leaf: dict[str, set[str]] = {}
    for r in leaf_core:
        by_leaf.setdefault(r[0], set()).add(r[2])
    assert len(by_leaf) == 6 and all(len(spines) == 2 for spines in by_leaf.values())


def test_by_default_the_in_band_network_is_the_ras_8_switches_at_the_ratio_its_cables_imply(superpod_4su):
    # Table 7: 8 SN4600C; the RA states no ratio, so the product plans at Table 8's implied 11:1 and says so.
    inband = superpod_4su["network_plans"]["inband"]
    assert (inband["leaf_switches"], inband["spine_switches"], inband["oversubscription"]) == (6, 2, "11:1")
    said = [f for f in superpod_4su["findings"] if f["code"] == "NETWORK_INBAND_RATIO"]
    assert [(f["subject"], f["severity"]) for f in said] == [("networks.inband", "info")]
    assert "11:1" in said[0]["message"]


def test_an_in_band_network_without_ports_for_the_out_of_band_uplinks_is_an_error_never_a_warning(seeded_catalog):
    # At 1:1 the in-band leaves are full with the nodes (510 of 512 ports): the out-of-band uplinks do not fit,
    # and the design is not valid until the network grows or they go elsewhere.
    networks = {**RA_NETWORKS, "inband": {"switch": "SN4600C", "oversubscription": "1:1"}}
    result = validate_json(document=_superpod(127, networks))
    said = [f for f in result["findings"] if f["code"] == "NETWORK_OOB_UPLINK_PORTS"]
    assert [(f["subject"], f["severity"]) for f in said] == [("networks.inband", "error")]
    assert result["valid"] is False
    oob = result["network_plans"]["oob"]
    assert str(oob["uplinks"]) in said[0]["message"]


def test_the_out_of_band_network_gives_every_bmc_and_switch_a_port_as_the_ra_counts_them(superpod_4su):
    result = superpod_4su
    plans, oob = result["network_plans"], result["network_plans"]["oob"]
    fabric = result["fabric_plan"]
    devices = oob["devices"]
    # Table 8, OOB 1 Gbps: one per DGX (127), per InfiniBand switch (compute and storage), per in-band switch,
    # per management/UFM node and per PDU.
    assert devices["bmcs"] == 127
    assert devices["switches"] == _switches(fabric) + _switches(plans["storage"]) + _switches(plans["inband"])
    assert devices["servers"] == sum(line["quantity"] for line in result["control_plane"]["bom"]) >= 8
    assert devices["pdus"] == sum(p["quantity"] for p in result["rack_plan"]["pdus"])
    assert oob["node_links"] == sum(devices.values())


def test_every_out_of_band_switch_uplinks_twice_into_the_in_band_network(superpod_4su):
    # Table 8: "Two uplinks per OOB to in-band", 16 for the 8 SN2201: no aggregation switches.
    plans = superpod_4su["network_plans"]
    oob = plans["oob"]
    assert oob["uplinks"] == 2 * oob["leaf_switches"]
    assert oob["uplink_switch"] == plans["inband"]["switch"] == "SN4600C"
    assert oob["spine_switches"] == 0
    assert "SN4600C" not in {line["part"] for line in oob["bom"]}
    assert plans["inband"]["oob_uplinks"] == oob["uplinks"]
    # The bill's out-of-band section holds no switch but SN2201s.
    oob_bill = {line["part"] for line in superpod_4su["bom"] if line["section"] == "oob"}
    assert oob_bill & {"SN4600C", "SN5600"} == set()


def test_the_out_of_band_switches_stand_central_counted_by_scalable_unit(superpod_4su):
    # The RA racks its SN2201 with the management gear (Table 7: 8 for 38 racks), not one per rack. The racks are
    # sparse (a few BMCs and PDUs each), so central is the default; the switches are counted per SU.
    oob = superpod_4su["network_plans"]["oob"]
    assert (oob["placement"], oob["rack_switches"]) == ("central", 0)
    units = superpod_4su["fabric_plan"]["units"]
    assert units == 4
    per_unit = -(-oob["node_links"] // units)
    assert oob["leaf_switches"] == units * -(-per_unit // 48) == 8  # Table 7: 8 SN2201
    # No rack of the plan carries a management switch of its own; the bill carries every central one.
    for rack in superpod_4su["rack_plan"]["racks"]:
        assert "management" not in {d["role"] for d in rack["devices"]}
    bill = {(line["section"], line["part"]): line["quantity"] for line in superpod_4su["bom"]}
    assert bill[("oob", "SN2201")] == oob["leaf_switches"]
    said = [f for f in superpod_4su["findings"] if f["code"] == "NETWORK_OOB_PLACEMENT"]
    assert [(f["subject"], f["severity"]) for f in said] == [("networks.oob", "info")]
    assert f"has {oob['leaf_switches']} SN2201 in the management racks" in said[0]["message"]
    assert "over 4 scalable units" in said[0]["message"]
    assert said[0]["fix"].startswith("The default:") and "fewer than 24" in said[0]["fix"]
    # Its uplinks fit the in-band leaves: no finding about them.
    assert "NETWORK_OOB_UPLINK_PORTS" not in {f["code"] for f in superpod_4su["findings"]}


def test_racked_four_a_rack_as_the_ra_racks_them_the_compute_racks_are_table_7s_32(superpod_4su):
    # Table 7: 38 racks, 96 + 12 PDUs: 32 compute racks (8 an SU, "DGX H100 servers distributed across 8 racks")
    # with three PDUs each, and 6 more with two. The plan: 32 compute racks of 4 nodes (the last of 3) and 7 for the
    # switches and the control plane. Its compute racks carry four zero-U AP8886, two on each feed (A+B): the RA's
    # Raritan PX3-5878I2R-P1Q2R1A15D5 is not catalogued (its rating is not found), so the PDU count is the plan's.
    racks = superpod_4su["rack_plan"]["racks"]
    compute = [r for r in racks if r["kind"] == "compute"]
    assert sum(r["count"] for r in compute) == 32
    assert sorted({r["nodes"] for r in compute}) == [3, 4]
    assert rack_count(superpod_4su["rack_plan"]) == 39
    devices = superpod_4su["network_plans"]["oob"]["devices"]
    assert devices["pdus"] == 32 * 4 + 7 * 2 != 108
    # Its 1 GbE ports still need two SN2201 in each SU: at most 96 an SU, as Table 8's 317 need 80.
    assert -(-superpod_4su["network_plans"]["oob"]["node_links"] // 4) <= 2 * 48


def test_at_the_products_default_rack_power_twice_the_racks_take_twelve_out_of_band_switches(seeded_catalog):
    # The design without the RA's 40.8 kW racks: the air-cooled default of 30 kW takes two nodes a rack, 64 compute
    # racks of four PDUs, so 476 management ports, 119 an SU: three SN2201 each. The input that differs from the RA
    # is the rack power (facility.rack_power_kw), and NETWORK_OOB_PLACEMENT states the count.
    result = validate_json(document=_superpod(127, RA_NETWORKS))
    compute = [r for r in result["rack_plan"]["racks"] if r["kind"] == "compute"]
    assert sum(r["count"] for r in compute) == 64 and max(r["nodes"] for r in compute) == 2
    oob = result["network_plans"]["oob"]
    assert oob["devices"]["pdus"] == 64 * 4 + 6 * 2
    assert oob["leaf_switches"] == 12
    said = [f for f in result["findings"] if f["code"] == "NETWORK_OOB_PLACEMENT"]
    assert "has 12 SN2201 in the management racks" in said[0]["message"]
    assert [f["code"] for f in result["findings"] if f["code"] == "RACK_POWER_DEFAULT"] == ["RACK_POWER_DEFAULT"]


def test_per_rack_placement_puts_a_management_switch_in_every_rack(seeded_catalog):
    networks = {**RA_NETWORKS, "oob": {"switch": "SN2201", "placement": "per-rack"}}
    result = validate_json(document=_superpod(127, networks))
    oob = result["network_plans"]["oob"]
    assert oob["placement"] == "per-rack"
    assert oob["rack_switches"] == rack_count(result["rack_plan"]) > 8
    said = [f for f in result["findings"] if f["code"] == "NETWORK_OOB_PLACEMENT"]
    assert said[0]["fix"] == "As the design asks (networks.oob.placement)."


def test_racked_as_the_ra_racks_it_the_out_of_band_rule_gives_table_7s_8_switches_and_table_8s_16_uplinks():
    # The engine with the RA's own racking instead of the rack plan's: 108 PDUs (96 + 12) and 4 BCM servers + 4 UFM
    # appliances (Table 8: "Management/UFM nodes 8"), beside the 127 DGX, the 48 compute switches and the storage
    # and in-band networks of the 4 SU point; the out-of-band switches central, counted over its 4 SU.
    plans, _ = plan_networks(
        networks=NetworksIn(
            storage=NetworkIn(switch="MQM9700-NS2F", oversubscription="4:3"),
            inband=NetworkIn(switch="SN4600C"),
            oob=NetworkIn(switch="SN2201"),
        ),
        storage=NodePorts(nodes=127, ports_per_node=2, ports=254, adapter=SEED.get(BF3_DUAL_400G)),
        inband=NodePorts(nodes=127, ports_per_node=2, ports=254, adapter=SEED.get(CX7_DUAL_200G)),
        bmcs=127,
        compute_switches=48,
        racks=RackSide(pdus=108, central=True),
        catalog=SEED,
        servers=8,
        units=4,
    )
    oob = plans["oob"]
    assert oob is not None and oob.oob is not None
    # Table 8's 1 GbE ports, within a few (the storage switches are the nodes' side only: see the storage test):
    # one pool would need 7 switches of 48; by SU, 2 each: Table 7's 8, and two uplinks each: Table 8's 16.
    assert 6 * 48 < oob.oob.ports <= 317
    assert (oob.leaf_switches, oob.rack_switches, oob.placement) == (8, 0, "central")
    assert (oob.uplinks, oob.uplink_switch) == (16, "SN4600C")
    inband = plans["inband"]
    assert inband is not None and inband.oob_uplinks == 16  # on the in-band SN4600C, no aggregation of its own
    assert inband.switches == 8  # Table 7, at the default 11:1
    assert oob.spine_switches == 0 and dict(oob.bom) == {"SN2201": 8, **{k: v for k, v in oob.bom if k != "SN2201"}}
    assert oob.oob.bmcs + oob.oob.servers + oob.oob.pdus == 127 + 8 + 108  # Table 8's DGX, management/UFM, PDUs


def test_the_superpod_has_a_ufm_pair_for_each_infiniband_fabric(superpod_4su):
    # Table 7: 4 UFM appliances for 127 nodes, whose compute and storage fabrics are both InfiniBand (Table 8: two
    # UFM back-to-back cables, one per pair), though 127 nodes are far below the embedded SM's 2,048 endpoints.
    lines = {line["part"]: line["quantity"] for line in superpod_4su["control_plane"]["bom"]}
    assert lines["UFM-ENTERPRISE-APPLIANCE"] == 4
    said = [f for f in superpod_4su["findings"] if f["code"] == "CONTROL_PLANE_UFM"]
    assert len(said) == 1 and "4 UFM Enterprise appliances" in said[0]["message"]
    assert "for each InfiniBand fabric (compute and storage)" in said[0]["message"]
    # Their BMCs are out-of-band ports, with the 10 management servers'.
    assert superpod_4su["network_plans"]["oob"]["devices"]["servers"] == 14


@pytest.mark.parametrize("nodes", [4, 8])
def test_a_basepod_has_one_in_band_pair_and_its_out_of_band_switches_uplink_into_it(seeded_catalog, nodes):
    # DGX BasePOD RA V5, Table 4.2 (a transcription, [S]): 2 SN4600C at 4 and 8 nodes, and a 100 GbE
    # "OOB to in-band" pair of AOCs per SN2201.
    result = validate_json(document=_superpod(nodes, RA_NETWORKS))
    plans = result["network_plans"]
    assert (plans["inband"]["leaf_switches"], plans["inband"]["spine_switches"]) == (2, 0)
    oob = plans["oob"]
    assert (oob["uplinks"], oob["uplink_switch"]) == (2 * oob["leaf_switches"], "SN4600C")
    # The pair has the ports for them.
    assert "NETWORK_OOB_UPLINK_PORTS" not in {f["code"] for f in result["findings"]}


def test_the_cabling_list_lands_the_out_of_band_uplinks_on_the_in_band_pair(seeded_catalog):
    config = configuration_create(document=_superpod(8, RA_NETWORKS))
    rows = [
        r.split(",")
        for r in "".join(configuration_output(configuration=config, name="cabling.csv").body).splitlines()[1:]
    ]
    uplinks = [r for r in rows if r[-1] == "oob" and r[4] == "leaf-uplink"]
    inband_switches = {r[2] for r in rows if r[-1] == "inband" and r[4] == "node-leaf"}
    assert inband_switches == {"inband-switch-01", "inband-switch-02"}
    # Uplink 1 of every out-of-band switch to in-band switch 1, uplink 2 to switch 2.
    assert {(r[1], r[2]) for r in uplinks} == {("u1", "inband-switch-01"), ("u2", "inband-switch-02")}
    result = validate_json(document=_superpod(8, RA_NETWORKS))
    assert len(uplinks) == result["network_plans"]["oob"]["uplinks"]


def test_without_an_in_band_network_the_uplinks_land_on_the_converged_or_the_customers_network(seeded_catalog):
    # The Enterprise RAs' converged north-south network: in-band rides the storage adapters, so the out-of-band
    # uplinks land on its Ethernet switches; a customer-supplied in-band network takes them on the customer's.
    converged = _superpod(8, {"storage": {"switch": "SN5600"}})
    converged["node_groups"][0]["components"].pop()  # no management adapters
    oob = validate_json(document=converged)["network_plans"]["oob"]
    assert (oob["uplinks"], oob["uplink_switch"]) == (2 * oob["leaf_switches"], "SN5600")
    customer = validate_json(document=_superpod(8, {**RA_NETWORKS, "inband": None}))["network_plans"]["oob"]
    assert (customer["uplinks"], customer["uplink_switch"]) == (2 * customer["leaf_switches"], None)


# Enterprise RA, HGX H100/H200/B200 AI Factory: the compute fabric on Spectrum-X (8 BlueField-3 SuperNICs a node
# on SN5600) and a CPU converged north-south network of "two 200 GbE ports to two separate switches" (ERA-HGX-
# CONVERGED): in-band rides it (no management adapter).
def _spectrum_x(nodes: int) -> dict:
    return {
        "schema": "design/v1",
        "name": f"HGX H100 Spectrum-X, {nodes} nodes",
        "node_groups": [
            {
                "name": "gpu",
                "count": nodes,
                "server": "SYS-821GE-TNHR",
                "components": [
                    {"part": "HGX-H100-8GPU", "quantity": 1},
                    {"part": "900-9D3D4-00EN-HA0", "quantity": 8, "role": "compute"},
                    {"part": CX7_DUAL_200G, "quantity": 1, "role": "storage"},
                ],
            }
        ],
        "fabric": {"switch": "SN5600"},
    }


def test_an_ethernet_designs_north_south_network_is_the_enterprise_ras_converged_pair_of_ethernet_switches(
    seeded_catalog,
):
    result = validate_json(document=_spectrum_x(32))
    plans = result["network_plans"]
    north_south = plans["storage"]
    # Two redundant Ethernet switches, each node's two ports on different ones, joined by their peer link.
    assert (north_south["switch"], north_south["leaf_switches"], north_south["spine_switches"]) == ("SN5600", 2, 0)
    assert north_south["node_links"] == 64
    assert {lp["class"] for lp in north_south["links"]} >= {"peer"}
    assert "ERA-HGX-CONVERGED" in north_south["sources"]
    assert plans["inband"] is None
    said = {f["code"]: f for f in result["findings"] if f["subject"] == "networks.inband"}
    assert said["NETWORK_CONVERGED"]["severity"] == "info"
    # The out-of-band switches uplink into it.
    assert plans["oob"]["uplink_switch"] == "SN5600"


def test_an_infiniband_designs_storage_network_stays_infiniband(superpod_4su):
    assert superpod_4su["network_plans"]["storage"]["switch"] == "MQM9700-NS2F"


# DGX SuperPOD GB200 RA-11338-001: one SU is 8 DGX GB200 racks, 144 compute trays, each "an individual DGX node"
# (Mission Control systems administration guide), on an InfiniBand compute fabric.
def test_eight_nvl72_racks_get_the_superpod_control_plane_and_ufm_counted_by_compute_trays(seeded_catalog):
    doc = {
        "schema": "design/v1",
        "name": "GB200 NVL72, one SU",
        "node_groups": [{"name": "gpu", "count": 8, "server": "SRS-GB200-NVL72", "components": []}],
        "fabric": {"switch": "MQM9700-NS2F"},
    }
    result = validate_json(document=doc)
    # "Figure 1 shows the rack layout of a single SU": 8 DGX GB200 rack systems, each a rack of its own.
    compute = [r for r in result["rack_plan"]["racks"] if r["kind"] == "compute"]
    assert sum(r["count"] for r in compute) == 8 and {r["nodes"] for r in compute} == {1}
    lines = {line["part"]: line["quantity"] for line in result["control_plane"]["bom"]}
    assert sum(q for part, q in lines.items() if part != "UFM-ENTERPRISE-APPLIANCE") == 10
    assert lines["UFM-ENTERPRISE-APPLIANCE"] == 2  # one InfiniBand fabric: one pair
    added = [f for f in result["findings"] if f["code"] == "CONTROL_PLANE_ADDED"]
    assert "10 control-plane servers for 144 nodes" in added[0]["message"]
    # Four racks are 72 trays: counted as racks (4 nodes) they would get the BasePOD's five servers.
    doc["node_groups"][0]["count"] = 4
    four = {line["part"]: line["quantity"] for line in validate_json(document=doc)["control_plane"]["bom"]}
    assert sum(q for part, q in four.items() if part != "UFM-ENTERPRISE-APPLIANCE") == 10
