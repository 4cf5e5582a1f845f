"""Issue #20, "the current generation must be buildable": the compute fabrics of the Blackwell generation through the
one validation service and the seeded catalogue, against the counts NVIDIA publishes.

Published and reproduced here (catalog/seed/FACTS.md, "Blackwell compute fabrics"):

* DGX SuperPOD B300 with Quantum-X800 RA-11339-001, Table 3 (HGX B300 nodes, 8 ConnectX-8 at 800 Gb/s, Q3400).
* DGX SuperPOD B300 with Spectrum-4, Table 3 (the same nodes on a twin-planar Spectrum-X fabric: "Each GPU has
  2x 400GbE connectivity through two different planes").

The GB200 and GB300 NVL72 racks' own leaf and spine tables (DGX SuperPOD GB200 RA-11338-001 Figure 9, the GB300
NVL72 Enterprise RA's design points) are not in the stored copies of those documents: for the racks this file holds
what the sources do say (the trays' NICs, the two planes, the 576-GPU scalable unit) and the planner's arithmetic,
said to be that and not NVIDIA's table.
"""

import csv
from collections import Counter

import pytest

from configurator.services import configuration_create
from outputs.services import configuration_output
from tests.results import fabric_plan_json, validate_json

pytestmark = pytest.mark.django_db

GB200, GB300 = "SRS-GB200-NVL72", "SRS-GB300-NVL72"
B300_NODE = "SYS-822GS-NB3RT"  # HGX B300 with 8 integrated ConnectX-8 (catalog/seed/FACTS.md)
CX8 = "900-9X81E-00EX-ST0"


def _doc(server, count, switch, components=()):
    return {
        "schema": "design/v1",
        "name": "golden",
        "node_groups": [{"name": "gpu", "count": count, "server": server, "components": list(components)}],
        "fabric": {"switch": switch},
    }


def _hgx_b300(nodes, switch):
    return _doc(B300_NODE, nodes, switch, [{"part": "HGX-B300-8GPU", "quantity": 1}])


def _codes(result):
    return {f["code"] for f in result["findings"]}


def _counts(plan):
    return (plan["leaf_switches"], plan["spine_switches"], plan["core_switches"])


# --- DGX SuperPOD B300, Quantum-X800 (XDR) ----------------------------------------------------------------------

# RA-11339-001, Table 3 "Example Compute Fabric Components for DGX SuperPOD Counts": SU of 72 nodes.
# (SU count, node count) -> leaf, spine, node-leaf cables, leaf-spine cables. (The table's GPU column says 9,216 for
# 18 SUs; 1,296 nodes x 8 GPUs are 10,368, as its cable columns count.)
B300_XDR = [
    (72, 8, 4, 576, 576),
    (144, 16, 8, 1152, 1152),
    (288, 32, 18, 2304, 2304),  # 2,304 uplinks on 144-port spines: 16 would not divide 72 links per leaf -> 18
    (576, 64, 36, 4608, 4608),
    (1296, 144, 72, 10368, 10368),
]


@pytest.mark.parametrize(("nodes", "leaves", "spines", "node_leaf", "leaf_spine"), B300_XDR)
def test_hgx_b300_on_quantum_x800_reproduces_the_superpod_table(
    seeded_catalog, nodes, leaves, spines, node_leaf, leaf_spine
):
    result = validate_json(document=_hgx_b300(nodes, "Q3400-RA"))
    plan = result["fabric_plan"]
    assert plan["tiers"] == 2 and plan["nodes_per_unit"] == 72  # "This reference architecture is focused on 8 SU"
    assert _counts(plan) == (leaves, spines, 0)
    assert (plan["node_links"], plan["leaf_spine_links"]) == (node_leaf, leaf_spine)
    assert plan["link_speed_gbps"] == 800 and plan["fabric_planes"] == 1  # XDR: one 800G link per ConnectX-8
    assert "FABRIC_SPEED_MISMATCH" not in _codes(result)


# --- DGX SuperPOD B300, Spectrum-X (twin-planar) ----------------------------------------------------------------

# Spectrum-4 RA, Table 3 "Larger DGX SuperPOD component counts": SU of 64 nodes ("Each group of 64 nodes is
# rail-aligned"); (nodes) -> leaf, spine. Its cable columns (512 node-leaf and 512 leaf-spine per SU) count one per
# GPU; each GPU's ConnectX-8 runs as 2x 400GbE, one link to each plane, so the fabric carries twice as many 400G links.
B300_SPECTRUM_X = [(64, 16, 8), (128, 32, 16), (256, 64, 32), (512, 128, 64), (1024, 256, 128)]


@pytest.mark.parametrize(("nodes", "leaves", "spines"), B300_SPECTRUM_X)
def test_hgx_b300_on_spectrum_x_is_twin_planar_as_the_superpod_table(seeded_catalog, nodes, leaves, spines):
    result = validate_json(document=_hgx_b300(nodes, "SN5600"))
    plan = result["fabric_plan"]
    assert plan["fabric_planes"] == 2 and plan["rails"] == 8 and plan["nodes_per_unit"] == 64
    # Two planes of 400GbE keep even 16 SUs (256 leaves) at two tiers: each plane's 128 leaves meet 128-port spines.
    assert plan["tiers"] == 2
    assert _counts(plan) == (leaves, spines, 0)
    gpus = nodes * 8
    assert plan["node_links"] == plan["leaf_spine_links"] == 2 * gpus  # "2x 400GbE" per GPU, 1:1
    assert plan["link_speed_gbps"] == 400
    assert "FABRIC_SPEED_MISMATCH" not in _codes(result)  # 2x 400GbE on 400GbE ports, no 800 -> 400 loss


def test_a_connectx8_card_is_two_planes_on_flat_top_twin_plugs(seeded_catalog):
    # The C8180 card's cage takes flat-top plugs (NVIDIA XDR LinkX page): its 2x 400GbE leave the card on the flat-top
    # twin-port MMA4Z00-NS-FLT, one link to each plane; the finned MMA4Z00-NS stays in the switch cages.
    plan = fabric_plan_json(request={"nodes": 64, "rails": 8, "switch": "SN5600", "hca": CX8})
    codes = {f["code"] for f in plan["findings"]}
    assert not codes & {"FABRIC_PLANES_NO_MEDIUM", "FABRIC_NO_CABLE", "FABRIC_PLUG_TOP_UNKNOWN"}
    assert (plan["fabric_planes"], plan["node_links"], plan["link_speed_gbps"]) == (2, 1024, 400)
    node_leaf = next(link for link in plan["links"] if link["class"] == "node-leaf")
    by_role = {p["role"]: p["part"] for p in node_leaf["parts"]}
    assert by_role["transceiver-b"] == "MMA4Z00-NS-FLT" and by_role["transceiver-a"] == "MMA4Z00-NS"
    # On InfiniBand the same card is one 800 Gb/s XDR link: one fabric, as designed.
    xdr = fabric_plan_json(request={"nodes": 64, "rails": 8, "switch": "Q3400-RA", "hca": CX8})
    assert (xdr["fabric_planes"], xdr["node_links"], xdr["link_speed_gbps"]) == (1, 512, 800)
    assert "FABRIC_PLANES_NO_MEDIUM" not in {f["code"] for f in xdr["findings"]}


def test_a_connectx8_card_without_a_flat_twin_plug_in_the_catalogue_is_one_plane_and_says_so(seeded_catalog):
    # Without a flat-top twin-port plug the two planes cannot be cabled from the catalogue: one plane of one 400GbE
    # link per card, said so, and never the finned switch plug in the card's flat-top cage.
    from catalog.models import Part
    from configurator.snapshot import clear_cache

    Part.objects.filter(part_number="MMA4Z00-NS-FLT").delete()
    clear_cache()
    plan = fabric_plan_json(request={"nodes": 64, "rails": 8, "switch": "SN5600", "hca": CX8})
    codes = {f["code"] for f in plan["findings"]}
    assert "FABRIC_PLANES_NO_MEDIUM" in codes and "FABRIC_NO_CABLE" not in codes
    assert (plan["fabric_planes"], plan["node_links"], plan["link_speed_gbps"]) == (1, 512, 400)
    # One plane on Spectrum-X: the card's cage still gets a flat-top plug, the single-port 400G MMA4Z00-NS400.
    node_leaf = next(link for link in plan["links"] if link["class"] == "node-leaf")
    assert {p["role"]: p["part"] for p in node_leaf["parts"]}["transceiver-b"] == "MMA4Z00-NS400"
    assert "FABRIC_PLUG_TOP_UNKNOWN" not in codes
    said = next(f for f in plan["findings"] if f["code"] == "FABRIC_PLANES_NO_MEDIUM")
    assert "2 x 400 GbE" in said["message"] and "one plane" in said["message"]
    dutch = fabric_plan_json(request={"nodes": 64, "rails": 8, "switch": "SN5600", "hca": CX8}, language="nl")
    assert "één vlak" in next(f for f in dutch["findings"] if f["code"] == "FABRIC_PLANES_NO_MEDIUM")["message"]


# --- GB300 NVL72 ----------------------------------------------------------------------------------------------


# Enterprise RA for GB300 NVL72: each tray's "4 ConnectX-8", the compute fabric on Spectrum switches in two planes
# ("Each compute networking plane forms a separate fabric"); MLPerf tray file: "4x ConnectX-8 (XDR 800 / 2x 400GbE)".
# Its design points are 2, 4 and 8 racks (144, 288 and 576 GPUs).
@pytest.mark.parametrize("racks", [2, 4, 8])
def test_gb300_racks_on_spectrum_x_give_every_gpu_a_link_in_each_plane(seeded_catalog, racks):
    result = validate_json(document=_doc(GB300, racks, "SN5600"))
    plan = result["fabric_plan"]
    assert (plan["nodes"], plan["rails"], plan["fabric_planes"]) == (racks * 18, 4, 2)
    assert plan["node_links"] == racks * 72 * 2 and plan["link_speed_gbps"] == 400
    assert plan["leaf_switches"] % 2 == 0 and plan["spine_switches"] % 2 == 0  # two identical planes
    assert "FABRIC_SPEED_MISMATCH" not in _codes(result)
    assert result["valid"]


def test_the_cabling_list_keeps_each_plane_a_fabric_of_its_own(seeded_catalog):
    config = configuration_create(document=_doc(GB300, 2, "SN5600"))
    rows = [
        r
        for r in csv.DictReader(configuration_output(configuration=config, name="cabling.csv").body)
        if r["network"] == "compute"
    ]
    node = [r for r in rows if r["link_class"] == "node-leaf"]
    assert len(node) == 2 * 72 * 2
    # Every NIC of every tray has one link to each plane: nic3.1 to a plane-1 leaf, nic3.2 to a plane-2 leaf.
    per_nic = Counter((r["a_end"], r["a_port"].split(".")[0]) for r in node)
    assert set(per_nic.values()) == {2} and len(per_nic) == 36 * 4
    for r in node:
        assert r["z_end"].startswith(f"pl{r['a_port'].split('.')[1]}-")
    # A plane's leaves reach only that plane's spines.
    for r in (r for r in rows if r["link_class"] == "leaf-spine"):
        assert r["a_end"][:3] == r["z_end"][:3]
    assert all(r["a_rack"] and r["z_rack"] for r in node)  # every end placed in the rack plan


# DGX SuperPOD GB200 RA-11338-001: an SU is "8 DGX GB200 rack systems"; RA-11339-001's SU is 72 HGX B300 nodes. Both
# are 576 GPUs. Eight GB300 racks on Q3400 are 144 trays x 4 ConnectX-8 = 576 XDR links: on 144-port leaves at 1:1
# the planner gives them the switches of RA-11339-001's one SU (8 leaves, 4 spines, 576 + 576 links). This is the
# planner's arithmetic on the trays' rails, not a table NVIDIA publishes for NVL72 racks.
def test_eight_gb300_racks_on_xdr_take_the_switches_of_one_576_gpu_su(seeded_catalog):
    racks = validate_json(document=_doc(GB300, 8, "Q3400-RA"))["fabric_plan"]
    hgx = validate_json(document=_hgx_b300(72, "Q3400-RA"))["fabric_plan"]
    assert (racks["nodes"], racks["rails"], racks["fabric_planes"]) == (144, 4, 1)
    for key in ("leaf_switches", "spine_switches", "node_links", "leaf_spine_links", "link_speed_gbps"):
        assert racks[key] == hgx[key]
    assert (racks["leaf_switches"], racks["spine_switches"], racks["node_links"]) == (8, 4, 576)


def test_gb200_racks_stay_one_infiniband_fabric_of_their_connectx7_trays(seeded_catalog):
    # NVIDIA DGX GB200 User Guide: "4x NVIDIA ConnectX-7 single port 400G OSFP NIC" per tray; RA-11338-001: compute
    # InfiniBand fabric. A ConnectX-7 is one link: no planes, 72 links a rack.
    plan = validate_json(document=_doc(GB200, 8, "MQM9700-NS2F"))["fabric_plan"]
    assert (plan["nodes"], plan["rails"], plan["fabric_planes"], plan["node_links"]) == (144, 4, 1, 576)


def test_the_diagram_counts_the_leaves_of_both_planes_in_each_su(seeded_catalog):
    from outputs.pictures import fabric_diagram_svg

    plan = validate_json(document=_doc(GB300, 2, "SN5600"))["fabric_plan"]
    svg = fabric_diagram_svg(plan)
    # 36 trays in one SU: 4 rail leaves in each of the two planes.
    assert plan["units"] == 1 and plan["leaf_switches"] == 8
    assert "8 leaves" in svg and "4 leaves" not in svg


def test_the_fabric_step_shows_the_two_planes(client, seeded_catalog):
    import re

    from django.conf import settings
    from django.test import Client

    from tests.web.pages import url

    config = configuration_create(document=_doc(GB300, 2, "SN5600"))
    text = re.sub(r"<[^>]+>", " ", client.get(url(config, "fabric")).content.decode())
    assert re.search(r"Planes\s+2 · every NIC has a link in each", text)
    dutch = Client()
    dutch.cookies[settings.LANGUAGE_COOKIE_NAME] = "nl"
    nl = re.sub(r"<[^>]+>", " ", dutch.get(url(config, "fabric")).content.decode())
    assert re.search(r"Vlakken\s+2 · elke NIC heeft in elk een link", nl)
    one = configuration_create(document=_doc(GB200, 2, "MQM9700-NS2F"))
    assert "Planes" not in client.get(url(one, "fabric")).content.decode()  # one fabric: no planes row
