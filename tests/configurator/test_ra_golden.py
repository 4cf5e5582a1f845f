"""Golden cases: NVIDIA's reference-architecture design points through the one validation service, with the
storage, in-band and out-of-band counts the RAs publish (catalog/seed/FACTS.md, "Networks beside the compute
fabric"; source keys in engines/networks/sources.py).

What the design states is reproduced exactly: the DGX SuperPOD H100 RA's Table 7 and 8 give 254 storage and 254
in-band node links for 127 nodes, one out-of-band port per BMC and per switch, and two uplinks from every
out-of-band switch into the in-band network. Three of its switch counts rest on what a design does not say, and
the tests assert what the product's rule gives instead, with the reason:

* storage, 16 QM9700: the RA's storage ports "depend on specific storage selected" (Table 8), so the count needs
  the design's ``networks.storage.system_ports``; the node side alone needs fewer switches, and the storage
  systems' ports add to them (at the one node-side ratio: the RA's storage systems at 1:1 beside the DGX side
  near 4:3 is not modelled);
* in-band, 8 SN4600C: the RA's in-band fabric is oversubscribed at a ratio it does not state; at the ratio its
  cables imply (Table 8: 24 leaf-core cables for 254 node links, so 11:1) the product gives its six leaves, two
  core switches and 24 leaf-core cables; at the product's default 1:1 the same nodes need more switches;
* out-of-band, 8 SN2201: the RA racks them in its management racks, for 38 racks; the rack plan puts one in every
  rack, so the product counts one per rack.
"""

from __future__ import annotations

import pytest

from configurator.services import configuration_create
from design.model import NetworkIn, NetworksIn
from engines.cluster.rackplan import rack_count
from engines.networks.plan import NodePorts, RackSide, plan_networks
from outputs.services import configuration_output
from tests.engines.node.parts import SEED
from tests.results import validate_json

pytestmark = pytest.mark.django_db

# DGX H100 ports (SuperPOD H100 RA, Figure 4 and Table 8): 8 x 400G compute, a pair of 400G storage ports
# (QSFP112) and a pair of 200G in-band ports.
BF3_DUAL_400G = "900-9D3B6-00CN-AB0"
CX7_DUAL_200G = "MCX755106AS-HEAT"


def _superpod(nodes: int, networks: dict | None = None) -> dict:
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
    return doc


# SuperPOD H100 RA: storage on QM9700 at "a ratio near 4:3" on the DGX side, in-band on SN4600C, OOB on SN2201.
RA_NETWORKS = {
    "storage": {"switch": "MQM9700-NS2F", "oversubscription": "4:3"},
    "inband": {"switch": "SN4600C"},
    "oob": {"switch": "SN2201"},
}


@pytest.fixture
def superpod_4su(seeded_catalog):
    """The RA's 4 SU, 127-node DGX SuperPOD (one DGX of the 128 gives way to UFM, Table 4)."""
    return validate_json(document=_superpod(127, RA_NETWORKS))


def _switches(plan: dict) -> int:
    return plan["leaf_switches"] + plan["spine_switches"] + plan["core_switches"]


def test_the_4su_superpod_has_the_ras_compute_storage_and_in_band_node_links(superpod_4su):
    result = superpod_4su
    assert result["valid"] is True
    # Table 7: 48 compute fabric QM9700 (Table 4: 32 leaves, 16 spines).
    fabric = result["fabric_plan"]
    assert (fabric["leaf_switches"], fabric["spine_switches"]) == (32, 16)
    plans = result["network_plans"]
    # Table 8: 254 DGX storage transceivers and 254 in-band cables to the DGX systems, two of each per node.
    assert (plans["storage"]["switch"], plans["storage"]["node_links"]) == ("MQM9700-NS2F", 254)
    assert (plans["inband"]["switch"], plans["inband"]["node_links"]) == ("SN4600C", 254)
    assert plans["storage"]["oversubscription"] == "4:3"


def test_the_ras_16_storage_switches_include_storage_systems_the_design_must_state(seeded_catalog, superpod_4su):
    # Table 7: 16 storage QM9700 for the nodes and the storage systems, whose ports "depend on specific storage
    # selected" (Table 8). The nodes' 254 ports alone need fewer; the storage systems' ports add switches.
    nodes_only = superpod_4su["network_plans"]["storage"]
    assert 0 < _switches(nodes_only) < 16
    with_storage = _superpod(127, {**RA_NETWORKS, "storage": {**RA_NETWORKS["storage"], "system_ports": 128}})
    plan = validate_json(document=with_storage)["network_plans"]["storage"]
    assert plan["node_links"] == 254 + 128
    assert _switches(plan) > _switches(nodes_only)


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


def test_at_the_products_default_1_1_the_in_band_network_keeps_every_ports_bandwidth(superpod_4su):
    # The RA does not state its ratio; without one, every node port keeps its bandwidth: more switches, in pairs.
    inband = superpod_4su["network_plans"]["inband"]
    assert _switches(inband) > 8
    assert inband["leaf_switches"] % 2 == 0  # each node's two ports on different switches


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


def test_the_ras_8_out_of_band_switches_sit_in_its_management_racks_the_plan_puts_one_in_every_rack(superpod_4su):
    # Table 7: 8 SN2201 for 38 racks, racked with the management gear; the rack plan places one per rack, so the
    # product counts one per rack, never fewer than the ports need.
    oob = superpod_4su["network_plans"]["oob"]
    racks = rack_count(superpod_4su["rack_plan"])
    assert oob["rack_switches"] == racks
    assert oob["leaf_switches"] == max(racks, -(-oob["node_links"] // 48)) > 8
    # So the in-band leaves, sized for the nodes at 1:1, lack the free ports for that many uplinks, and say so.
    inband = superpod_4su["network_plans"]["inband"]
    said = [f for f in superpod_4su["findings"] if f["code"] == "NETWORK_OOB_UPLINK_PORTS"]
    assert [(f["subject"], f["severity"]) for f in said] == [("networks.inband", "warning")]
    assert str(oob["uplinks"]) in said[0]["message"]
    assert inband["ports_used"]["leaf"] == inband["node_links"] + inband["oob_uplinks"] + inband["leaf_switches"] * 32


def test_racked_as_the_ra_racks_it_the_out_of_band_rule_gives_table_8s_16_uplinks_on_8_switches():
    # The engine with the RA's own racking instead of the rack plan's: its 8 SN2201 (Table 7), 108 PDUs (96 + 12)
    # and 4 BCM servers + 4 UFM appliances (Table 8: "Management/UFM nodes 8"), beside the 127 DGX, the 48
    # compute switches and the storage and in-band networks of the 4 SU point.
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
        racks=RackSide(pdus=108, switches=8, switch_part="SN2201"),
        catalog=SEED,
        servers=8,
    )
    oob = plans["oob"]
    assert oob is not None and oob.oob is not None
    # Every port fits the RA's 8 switches (Table 7), and each uplinks twice into in-band: Table 8's 16.
    assert oob.oob.ports <= 8 * 48
    assert (oob.leaf_switches, oob.rack_switches, oob.uplinks, oob.uplink_switch) == (8, 8, 16, "SN4600C")
    inband = plans["inband"]
    assert inband is not None and inband.oob_uplinks == 16  # on the in-band SN4600C, no aggregation of its own
    assert oob.spine_switches == 0 and "SN4600C" not in dict(oob.bom)
    assert oob.oob.bmcs + oob.oob.servers + oob.oob.pdus == 127 + 8 + 108  # Table 8's DGX, management/UFM, PDUs


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
