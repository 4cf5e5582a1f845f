"""Worked examples of the fabric planner, with the arithmetic in the comments.

QM9700: 32 OSFP cages x 2 = k = 64 logical NDR ports (fabric.md section 3). At 1:1 a leaf has
64 x 1/2 = 32 downlinks and 32 uplinks.
"""

import dataclasses
from collections import Counter

import pytest

from design.model import RackIn
from engines.fabric.cabling import iter_cabling_csv
from engines.fabric.model import LEAF_SPINE, NODE_LEAF, SPINE_CORE
from engines.fabric.plan import plan_fabric
from engines.findings.fabric_codes import FabricCode
from engines.findings.finding import Severity
from messages import both

from .parts import BF3, CATALOG, CX6_HDR, CX7_NDR, CX7_NDR200, ETH_ONLY, QM8700, QM9700, QM9790, SN2201, SN5600, catalog


def plan(nodes, rails=8, switch=QM9700, hca=CX7_NDR, **kw):
    kw.setdefault("catalog", CATALOG)
    return plan_fabric(nodes=nodes, rails=rails, switch=switch, hca=hca, **kw)


def codes(p) -> set[str]:
    return {f.code for f in p.findings}


def parts(p, link_class) -> dict[str, int]:
    """Part -> quantity for one link class (both ends' transceivers added up)."""
    out: dict[str, int] = {}
    for part, qty, _role in p.link(link_class).parts:
        out[part] = out.get(part, 0) + qty
    return out


def test_one_tier_four_nodes_on_one_qm9700():
    # 4 nodes x 8 rails = 32 endpoints <= 64 ports: one switch, no uplinks, 32 ports free.
    p = plan(4)
    assert (p.tiers, p.leaf_switches, p.spine_switches, p.core_switches) == (1, 1, 0, 0)
    assert (p.node_links, p.leaf_spine_links, p.leaf_uplinks) == (32, 0, 0)
    assert p.to_dict()["ports_used"] == {"leaf": 32} and p.to_dict()["ports_free"] == {"leaf": 32}
    # 4 nodes fit one rack (4 per rack), so the switch sits in it: 2 m + 0.5 m slack -> 2.5 m DAC.
    # MCP7Y00 is a 1:2 splitter, one twin plug at the switch for 2 HCAs: 32 / 2 = 16 cables.
    assert p.link(NODE_LEAF).media == "dac"
    assert parts(p, NODE_LEAF) == {"MCP7Y00-N02A": 16}
    # Out-of-band: 4 BMCs + 1 switch = 5 RJ45 ports -> one 48-port SN2201.
    assert dict(p.bom) == {"MQM9700-NS2F": 1, "MSN2201-CB2FC": 1, "MCP7Y00-N02A": 16}
    assert p.bisection_bandwidth_gbps == 32 * 400 // 2


def test_two_tiers_128_h200_nodes_on_qm9700():
    p = plan(128)
    # 128 x 8 = 1,024 endpoints > 64: two tiers. SU = 32 downlinks = 32 nodes; 128 / 32 = 4 SUs.
    assert (p.tiers, p.nodes_per_unit, p.units) == (2, 32, 4)
    # One leaf per rail per SU: 4 x 8 = 32 leaves, each 32 up -> 1,024 uplinks.
    # Spines: 1,024 / 64 = 16, and 16 divides 32 -> 16 spines, 32 / 16 = 2 links per leaf-spine pair.
    assert (p.leaf_switches, p.spine_switches, p.links_per_leaf_spine_pair) == (32, 16, 2)
    assert (p.node_links, p.leaf_spine_links, p.spine_core_links) == (1024, 1024, 0)
    # Each spine: 32 leaves x 2 = 64 ports: fully populated, as are the leaves.
    assert p.to_dict()["ports_free"] == {"leaf": 0, "spine": 0}
    # Node runs 15 m (+0.5) -> 20 m multimode fibre: twin SR8 at the leaf (2 links), SR4 at each HCA.
    assert parts(p, NODE_LEAF) == {"MMA4Z00-NS": 512, "MFP7E10-N020": 1024, "MMA4Z00-NS400": 1024}
    # Leaf-spine 30 m (+0.5) -> 50 m fibre, twin SR8 at both ends: 1,024 / 2 = 512 per end.
    assert parts(p, LEAF_SPINE) == {"MMA4Z00-NS": 1024, "MFP7E10-N050": 1024}
    # 48 switches; BMC ports 128 + 48 = 176 -> ceil(176 / 48) = 4 SN2201.
    bom = dict(p.bom)
    assert bom["MQM9700-NS2F"] == 48 and bom["MSN2201-CB2FC"] == 4 and bom["MMA4Z00-NS"] == 512 + 1024
    # Bisection: 1,024 x 400 Gb/s / 2 = 204.8 Tb/s.
    assert p.to_dict()["bisection_bandwidth_tbps"] == 204.8


# NVIDIA's published compute-fabric counts, QM9700, 8 rails, 1:1.
# H100 RA-11333-001, Table 4 "Compute fabric component count" (docs.nvidia.com/dgx-superpod/
# reference-architecture-scalable-infrastructure-h100/latest/network-fabrics.html): 1 SU (31 nodes):
# 8 leaf / 4 spine / 256 spine-leaf cables; 2 SU (63): 16/8/512; 3 SU (95): 24/16/768; 4 SU (127): 32/16/1024.
# (NVIDIA: "a 32 node per SU design", node positions given to UFM; the fabric is that of full SUs.)
# B200 RA-11334-001 (…-b200/latest/dgx-superpod-architecture.html): 8 SU (256 nodes) 64/32; 16 SU (512)
# 128 leaf / 128 spine / 64 core with 4,096 cables per layer; 32 SU 256/256/128; 64 SU (2,048) 512/512/256.
@pytest.mark.parametrize(
    ("nodes", "leaves", "spines", "cores", "leaf_spine", "spine_core"),
    [
        (31, 8, 4, 0, 256, 0),
        (63, 16, 8, 0, 512, 0),
        (95, 24, 16, 0, 768, 0),  # 768 / 64 = 12 does not divide 32 -> 16 spines
        (127, 32, 16, 0, 1024, 0),
        (256, 64, 32, 0, 2048, 0),
        (512, 128, 128, 64, 4096, 4096),
        (1024, 256, 256, 128, 8192, 8192),
        (2048, 512, 512, 256, 16384, 16384),
    ],
)
def test_matches_nvidia_superpod_published_counts(nodes, leaves, spines, cores, leaf_spine, spine_core):
    p = plan(nodes)
    assert (p.leaf_switches, p.spine_switches, p.core_switches) == (leaves, spines, cores)
    assert (p.leaf_spine_links, p.spine_core_links) == (leaf_spine, spine_core)


def test_three_tiers_512_nodes():
    p = plan(512)
    # 16 SUs x 8 = 128 leaves > 64 (a leaf needs a link to every spine): 3 tiers.
    # Spines split 32 down / 32 up; a pod holds 32 / 8 = 4 SUs = 32 leaves; 16 / 4 = 4 pods.
    assert (p.tiers, p.units, p.pods, p.leaves_per_pod) == (3, 16, 4, 32)
    # Pod spines: 32 leaves x 32 up / 32 down-ports = 32 per pod (1 link per leaf-spine pair); 4 x 32 = 128.
    assert (p.spines_per_pod, p.spine_switches, p.links_per_leaf_spine_pair) == (32, 128, 1)
    # Plane j = spine j of every pod: 4 pods x 32 up = 128 links per plane / 64 ports = 2 cores,
    # 2 divides 32 -> 16 links per spine-core pair; 32 planes x 2 = 64 cores, each 4 x 16 = 64 ports full.
    assert (p.cores_per_plane, p.core_switches, p.links_per_spine_core_pair) == (2, 64, 16)
    assert p.to_dict()["ports_free"] == {"leaf": 0, "spine": 0, "core": 0}
    # Spine-core 50 m (+0.5) is past multimode's 50 m: single-mode DR8 + 70 m MFP7E30.
    assert parts(p, SPINE_CORE) == {"MMS4X00-NS": 4096, "MFP7E30-N070": 4096}


def test_partial_pod_keeps_full_pod_spines_and_balanced_cores():
    p = plan(600)
    # 600 / 32 = 18.75 -> 19 SUs (the last wired full), 152 leaves; pods: ceil(19 / 4) = 5, 5 x 32 = 160 spines.
    assert (p.units, p.leaf_switches, p.pods, p.spine_switches) == (19, 152, 5, 160)
    # Plane: 5 x 32 = 160 links / 64 = 2.5 -> 3, not a divisor of 32 -> 4 cores per plane, 8 links each pair.
    assert (p.cores_per_plane, p.core_switches, p.links_per_spine_core_pair) == (4, 128, 8)
    assert p.spine_core_links == 160 * 32


def test_the_last_pod_gets_spines_for_its_own_leaves():
    # 520 nodes: 17 SUs; pods of 4 SUs -> 5 pods, the last with 1 SU = 8 leaves. Those 8 leaves x 32 uplinks
    # fill 8 spines' 32 down-ports (4 links per pair), so the last pod has 8 spines, not a full pod's 32.
    p = plan(520)
    assert (p.tiers, p.pods, p.spines_per_pod, p.last_pod_spines) == (3, 5, 32, 8)
    assert p.spine_switches == 4 * 32 + 8
    assert p.spine_core_links == p.spine_switches * 32
    # Every leaf still reaches every spine of its pod evenly: 4 links to each of the last pod's 8 spines.
    rows = [line.split(",") for line in iter_cabling_csv(p)][1:]
    last_pod = Counter((a, z) for a, _ap, z, _zp, cls, *_ in rows if cls == LEAF_SPINE and z.startswith("pod05"))
    assert set(last_pod.values()) == {4} and len(last_pod) == 8 * 8
    full = plan(512)  # whole pods: unchanged, NVIDIA's 128 spines
    assert (full.spine_switches, full.last_pod_spines) == (128, 32)


def test_two_to_one_oversubscription():
    p = plan(128, oversubscription=(2, 1))
    # The widest 2:1 leaf is 42 down / 22 up, but 128 nodes need 4 leaves per rail either way (42 x 3 < 128):
    # spread evenly that is 32 nodes per leaf, which 2:1 serves with 16 uplinks. 32 leaves x 16 = 512 uplinks
    # / 64 = 8 spines (8 divides 16): 40 switches, where whole 42/22 leaves needed 32 + 11 = 43.
    assert (p.leaf_downlinks, p.leaf_uplinks, p.nodes_per_unit, p.units) == (32, 16, 32, 4)
    assert (p.leaf_switches, p.spine_switches, p.links_per_leaf_spine_pair) == (32, 8, 2)
    assert p.leaf_spine_links == 512
    # Bisection limited by the uplinks: 512 x 400 / 2.
    assert p.bisection_bandwidth_gbps == 512 * 400 // 2
    assert p.to_dict()["oversubscription"] == "2:1"


def test_sixteen_nodes_get_a_fabric_sized_to_them():
    # 128 endpoints > 64: two tiers. One leaf per rail with 16 nodes needs only 16 uplinks: 8 x 16 = 128
    # uplinks on 2 spines (8 links per pair), 10 switches, where a whole 32-node SU took 8 + 4 = 12.
    p = plan(16)
    assert (p.leaf_switches, p.spine_switches, p.switches) == (8, 2, 10)
    assert (p.leaf_downlinks, p.leaf_uplinks, p.links_per_leaf_spine_pair) == (16, 16, 8)
    assert (p.node_links, p.leaf_spine_links) == (128, 128)
    # Still non-blocking: every leaf carries as much up as down, and the BOM counts exactly these switches.
    assert p.bisection_bandwidth_gbps == 128 * 400 // 2
    assert dict(p.bom)["MQM9700-NS2F"] == 10
    assert FabricCode.GROWTH_RESERVE not in codes(p)


def test_48_nodes_at_two_to_one_choose_the_split_with_fewest_switches():
    # Whole 42/22 leaves: 2 per rail, 16 x 22 = 352 uplinks over 11 spines (11 | 22) each half empty: 27.
    # 24 nodes per leaf with 12 uplinks (2:1): 16 x 12 = 192 uplinks on 3 spines (3 | 12): 19 switches.
    p = plan(48, oversubscription=(2, 1))
    assert (p.leaf_switches, p.spine_switches) == (16, 3)
    assert (p.nodes_per_unit, p.leaf_downlinks, p.leaf_uplinks) == (24, 24, 12)
    assert p.to_dict()["ports_free"]["spine"] == 0
    assert p.leaf_downlinks * 1 <= p.leaf_uplinks * 2  # never more oversubscribed than asked


def test_balanced_spines_beyond_the_links_are_said_with_their_cost():
    # 95 nodes: 24 leaves x 32 uplinks = 768 need 12 spines' ports, but 12 does not divide 32: 16 spines
    # (NVIDIA's count). The 4 extra spines are a reserve: 256 spine ports free, room for 1 more node now
    # and a whole fourth SU with only its 8 leaves.
    p = plan(95)
    f = next(f for f in p.findings if f.code == FabricCode.GROWTH_RESERVE)
    assert f.severity == Severity.INFO
    assert (f.params.reserve_switches, f.params.room_nodes) == (4, 1)
    assert f.params.free_ports["spine"] == 256
    price = QM9700.price_eur
    assert f.params.cost_eur == (float(price) * 4 if price is not None else None)
    msg = both(f).message
    assert "4" in msg.en and "256" in msg.en and "reserve" in msg.en
    assert "reserve" in msg.nl


def test_three_tier_whole_pods_are_a_reserve_with_its_cost():
    # 600 nodes: 19 SUs in 5 pods of 4; the last pod (3 SUs) gets a full pod's spines and the cores are sized
    # for 5 full pods. Against port counts alone (152 leaves, 152 spines, 76 cores) that is 8 + 52 switches.
    p = plan(600)
    f = next(f for f in p.findings if f.code == FabricCode.GROWTH_RESERVE)
    assert f.params.reserve_switches == (152 + 160 + 128) - (152 + 152 + 76)
    assert f.params.room_nodes == 5 * 4 * 32 - 600
    assert f.params.three_tier is True


def test_fat_tree_packs_endpoints_by_port_count():
    p = plan(100, topology="fat-tree")
    # 800 endpoints / 32 downlinks = 25 leaves; 800 uplinks / 64 = 12.5 -> 13, next divisor of 32 is 16.
    assert (p.tiers, p.leaf_switches, p.spine_switches, p.links_per_leaf_spine_pair) == (2, 25, 16, 2)
    assert p.to_dict()["ports_used"]["spine"] == 800  # 25 leaves x 2 x 16 spines


def test_ndr200_split_ports_give_128_on_one_switch():
    # NDR200 HCAs on 400G ports: each port splits in 2 (max_split 2): 64 x 2 = 128 ports on one QM9700.
    p = plan(16, hca=CX7_NDR200)
    assert (p.tiers, p.split, p.link_speed_gbps, p.node_links) == (1, 2, 200, 128)
    # 16 nodes span 4 racks -> 15 m: one twin SR8 per cage + 2 MFP7E20 1:2 splitter fibres = 4 x NDR200.
    assert parts(p, NODE_LEAF) == {"MMA4Z00-NS": 32, "MFP7E20-N020": 64, "MMA4Z00-NS400": 128}
    assert FabricCode.SPEED_MISMATCH not in codes(p)


def test_ndr200_without_splitters_falls_back_to_whole_ports_and_warns():
    p = plan(16, hca=CX7_NDR200, catalog=catalog(without=("MFP7E20", "MCP7Y50")))
    assert (p.split, p.tiers) == (1, 2)  # 128 endpoints > 64 whole ports
    assert FabricCode.SPEED_MISMATCH in codes(p)


def test_bluefield3_in_rack_uses_optics_not_the_discontinued_qsfp112_splitter():
    # MCP7Y10 (OSFP to 2 x QSFP112 DAC) reaches, but NVIDIA discontinued it and names transceivers instead (NV-LX-CU):
    # a twin-port OSFP transceiver in the switch feeds two QSFP112 transceivers in the cards over fibre.
    p = plan(4, hca=BF3)
    assert parts(p, NODE_LEAF) == {"MMA4Z00-NS": 16, "MFP7E10-N003": 32, "MMA1Z00-NS400": 32}
    assert FabricCode.MEDIA_DISCONTINUED not in codes(p)


def test_short_leaf_spine_runs_use_twin_dacs_only_with_even_links_per_pair():
    short = RackIn(leaf_to_spine_m=1.0)
    p = plan(128, rack=short)  # 2 links per leaf-spine pair: one MCP4Y10 (1.5 m) carries both
    assert parts(p, LEAF_SPINE) == {"MCP4Y10-N01A": 512}
    q = plan(256, rack=short)  # 64 leaves, 32 spines: 1 link per pair, a twin DAC cannot split over two spines
    assert q.links_per_leaf_spine_pair == 1
    assert q.link(LEAF_SPINE).media == "optics"


def test_hdr_fabric_uses_qsfp56_cables():
    p = plan(64, switch=QM8700, hca=CX6_HDR)
    # k = 40: at most 20 down; 64 nodes need 4 leaves per rail, evenly 16 nodes each with 16 uplinks (1:1).
    # 32 leaves x 16 = 512 uplinks / 40 = 12.8 -> 13, next divisor of 16 = 16 spines (whole 20/20 leaves: 20).
    assert (p.units, p.nodes_per_unit, p.leaf_switches, p.spine_switches) == (4, 16, 32, 16)
    assert p.link(NODE_LEAF).media == "aoc"


def test_ndr_osfp_adapter_on_hdr_switch_has_no_cable_and_runs_at_200():
    p = plan(64, switch=QM8700, hca=CX7_NDR)
    assert {FabricCode.NO_CABLE, FabricCode.SPEED_MISMATCH} <= codes(p)
    no_cable = next(f for f in p.findings if f.code == FabricCode.NO_CABLE)
    assert "QSFP56" in both(no_cable).message.en and "OSFP" in both(no_cable).message.nl
    speed = next(f for f in p.findings if f.code == FabricCode.SPEED_MISMATCH)
    assert "200 Gb/s" in both(speed).message.en
    assert p.link(NODE_LEAF).parts == ()


def test_beyond_three_tiers_is_an_error_with_the_numbers():
    p = plan(16384)
    # 131,072 endpoints; 3 tiers of 64-port switches reach 64^3 / 4 = 65,536.
    assert p.tiers == 0 and p.bom == ()
    f = next(f for f in p.findings if f.code == FabricCode.PORTS_EXCEEDED)
    assert f.severity == Severity.ERROR
    assert "131,072" in both(f).message.en and "65,536" in both(f).message.en and "65.536" in both(f).message.nl


def test_run_beyond_every_medium_is_an_error():
    p = plan(600, rack=RackIn(spine_to_core_m=800))
    f = next(f for f in p.findings if f.code == FabricCode.BEYOND_REACH)
    assert f.severity == Severity.ERROR and f.params.longest_m == 500
    assert p.link(SPINE_CORE).media is None


def test_subnet_manager_findings():
    assert FabricCode.SM_EMBEDDED in codes(plan(64))
    assert FabricCode.SM_REQUIRED in codes(plan(64, switch=QM9790))
    assert FabricCode.SM_LIMIT in codes(plan(512))  # 4,096 HCAs + 320 switches > 2,048
    assert not codes(plan(64, switch=SN5600, hca=ETH_ONLY)) & {
        FabricCode.SM_EMBEDDED,
        FabricCode.SM_REQUIRED,
        FabricCode.SM_LIMIT,
    }


def test_management_switch_cannot_be_the_fabric():
    p = plan(8, switch=SN2201)
    assert p.tiers == 0 and codes(p) == {FabricCode.SWITCH_IS_MANAGEMENT}


def test_a_switch_without_sourced_ports_cannot_be_sized():
    unsourced = dataclasses.replace(QM9700, part_number="TEST-SWITCH-NO-PORTS", cages=0)
    p = plan(8, switch=unsourced)
    assert p.tiers == 0 and codes(p) == {FabricCode.SWITCH_PORTS_UNKNOWN}
    f = p.findings[0]
    assert f.severity == Severity.ERROR
    assert both(f).message.en == (
        "The catalogue gives no ports or port speed for TEST-SWITCH-NO-PORTS; the fabric cannot be sized."
    )
    assert both(f).message.nl.startswith("De catalogus geeft geen poorten of poortsnelheid voor TEST-SWITCH-NO-PORTS")


def test_protocol_mismatch_ib_switch_ethernet_adapter():
    assert FabricCode.PROTOCOL_MISMATCH in codes(plan(8, hca=ETH_ONLY))
    assert FabricCode.PROTOCOL_MISMATCH not in codes(plan(8, switch=SN5600, hca=ETH_ONLY))
    assert FabricCode.PROTOCOL_MISMATCH not in codes(plan(8, switch=SN5600, hca=CX7_NDR))  # VPI


def test_spectrum4_has_128_ports():
    p = plan(64, switch=SN5600, hca=CX7_NDR)
    # k = 64 cages x 2 = 128: 512 endpoints -> SU of 64 nodes, 8 leaves, 512 uplinks / 128 = 4 spines.
    assert (p.logical_ports, p.leaf_switches, p.spine_switches) == (128, 8, 4)


def test_without_hca_assumes_a_matching_one():
    p = plan(4, hca=None)
    assert FabricCode.HCA_ASSUMED in codes(p)
    assert parts(p, NODE_LEAF) == {"MCP7Y00-N02A": 16}


def test_without_management_switch_in_catalogue_says_so():
    p = plan(4, catalog=catalog(without=("MSN2201",)))
    assert FabricCode.NO_MGMT_SWITCH in codes(p) and p.management_switches == 0


def test_rack_model_from_node_height_and_power():
    # 38 usable U / 4U = 9; 60 kW / 10 kW = 6 -> 6 per rack; 6 nodes fit one rack -> in-rack DAC.
    p = plan(6, node_height_u=4, node_power_w=10_000)
    assert p.nodes_per_rack == 6 and p.link(NODE_LEAF).media == "dac"
    assert plan(6).link(NODE_LEAF).media == "optics"  # default 4 per rack: a row run


def test_to_dict_has_the_contract_keys():
    d = plan(128).to_dict()
    for key in (
        "tiers",
        "nodes_per_unit",
        "units",
        "leaf_switches",
        "spine_switches",
        "core_switches",
        "node_links",
        "leaf_spine_links",
        "spine_core_links",
        "bom",
    ):
        assert key in d
    assert all(set(row) == {"part", "quantity"} for row in d["bom"])
