"""Parts that fit: a flat-top plug in every ConnectX-8 cage, a PDU outlet and cord that carry each supply's current
(or an error naming what the catalogue lacks), and runs past 100 m where the optics reach them, through the one
validation service and the seeded catalogue (catalog/seed/FACTS.md, seed 2026.12.9)."""

from __future__ import annotations

import pytest

from tests.results import validate_json

pytestmark = pytest.mark.django_db

B300_NODE = "SYS-822GS-NB3RT"  # 8 integrated ConnectX-8, flat-top (RHS) cages: NVIDIA XDR LinkX page
FINNED_TWIN, FLAT_TWIN = "MMA4Z00-NS", "MMA4Z00-NS-FLT"
CX8_CARD = "900-9X81E-00EX-ST0"  # ConnectX-8 C8180, one flat-top (RHS) OSFP cage


def _b300(nodes: int, switch: str, rack: dict | None = None) -> dict:
    fabric: dict = {"switch": switch}
    if rack:
        fabric["rack"] = rack
    return {
        "schema": "design/v1",
        "name": "parts that fit",
        "node_groups": [
            {
                "name": "gpu",
                "count": nodes,
                "server": B300_NODE,
                "components": [{"part": "HGX-B300-8GPU", "quantity": 1}],
            }
        ],
        "fabric": fabric,
    }


def _codes(result: dict) -> dict[str, dict]:
    return {f["code"]: f for f in result["findings"]}


def _link(result: dict, link_class: str) -> dict:
    return next(link for link in result["fabric_plan"]["links"] if link["class"] == link_class)


# --- Flat-top plugs in ConnectX-8 cages ------------------------------------------------------------------------


def test_hgx_b300_on_spectrum_x_bills_flat_top_twin_plugs_in_the_nodes_cages(seeded_catalog):
    result = validate_json(document=_b300(32, "SN5600"))
    assert result["fabric_plan"]["fabric_planes"] == 2
    node_leaf = {p["role"]: (p["part"], p["quantity"]) for p in _link(result, "node-leaf")["parts"]}
    # 32 nodes x 8 NICs: one flat-top twin plug per ConnectX-8 cage, carrying a link of each plane.
    assert node_leaf["transceiver-b"] == (FLAT_TWIN, 256)
    assert node_leaf["transceiver-a"][0] == FINNED_TWIN  # the switch cages stay finned
    bill = {line["part"]: line["quantity"] for line in result["bom"]}
    # Finned twin plugs only where switch cages are: 256 at the leaves' node ports, 512 on leaf-spine links;
    # not the 1,024 (256 of them in flat-top node cages, EUR 294,400 at list) billed before.
    assert bill[FLAT_TWIN] == 256 and bill[FINNED_TWIN] == 256 + 512
    assert "FABRIC_PLUG_TOP_UNKNOWN" not in _codes(result)


def test_hgx_b300_on_quantum_x800_gets_the_flat_top_xdr_optic_without_an_assumed_fit(seeded_catalog):
    result = validate_json(document=_b300(72, "Q3400-RA"))
    node_leaf = {p["role"]: p["part"] for p in _link(result, "node-leaf")["parts"]}
    assert node_leaf["transceiver-b"] == "980-9IAT0-00XM00"  # MMS4A20, RHS (flat top)
    assert "FABRIC_PLUG_TOP_UNKNOWN" not in _codes(result)


def test_gb300_trays_on_spectrum_x_get_flat_top_twin_plugs(seeded_catalog):
    doc = {
        "schema": "design/v1",
        "name": "gb300",
        "node_groups": [{"name": "rack", "count": 2, "server": "SRS-GB300-NVL72", "components": []}],
        "fabric": {"switch": "SN5600"},
    }
    result = validate_json(document=doc)
    node_leaf = {p["role"]: p["part"] for p in _link(result, "node-leaf")["parts"]}
    assert node_leaf["transceiver-b"] == FLAT_TWIN
    assert "FABRIC_PLUG_TOP_UNKNOWN" not in _codes(result)


def _with_card(doc: dict, role: str, switch: str) -> dict:
    """The design with one ConnectX-8 C8180 card of ``role`` per node, its network on ``switch``."""
    doc["node_groups"][0]["components"].append({"part": CX8_CARD, "quantity": 1, "role": role})
    doc["networks"] = {{"storage": "storage", "management": "inband"}[role]: {"switch": switch}}
    return doc


def _gb300(switch: str, rack: str = "SRS-GB300-NVL72") -> dict:
    return {
        "schema": "design/v1",
        "name": "gb300",
        "node_groups": [{"name": "rack", "count": 2, "server": rack, "components": []}],
        "fabric": {"switch": switch},
    }


# Every fabric a ConnectX-8 cage meets: InfiniBand XDR and NDR, Spectrum-X in two planes (integrated NICs, GB300
# trays), and the storage and in-band networks on a C8180 card, on Ethernet and on InfiniBand.
FLAT_CAGE_FABRICS = {
    "hgx-b300-spectrum-x": lambda: _b300(32, "SN5600"),
    "hgx-b300-xdr": lambda: _b300(72, "Q3400-RA"),
    "hgx-b300-ndr": lambda: _b300(32, "MQM9700-NS2F"),
    "gb300-spectrum-x": lambda: _gb300("SN5600"),
    "gb300-xdr": lambda: _gb300("Q3400-RA"),
    "storage-spectrum-x": lambda: _with_card(_b300(8, "SN5600"), "storage", "SN5600"),
    "storage-xdr": lambda: _with_card(_b300(8, "SN5600"), "storage", "Q3400-RA"),
    "inband-spectrum-x": lambda: _with_card(_b300(8, "SN5600"), "management", "SN5600"),
    # and the ConnectX-7 single-port OSFP cages of GB200 trays ("Single-port OSFP RHS 400G ... ConnectX-7/OSFP
    # adapters and mezzanine cards", NVIDIA LinkX 100G-PAM4 overview)
    "gb200-ndr": lambda: _gb300("MQM9700-NS2F", "SRS-GB200-NVL72"),
    "gb200-spectrum-x": lambda: _gb300("SN5600", "SRS-GB200-NVL72"),
}


@pytest.mark.parametrize("fabric", list(FLAT_CAGE_FABRICS))
def test_every_plug_in_a_flat_top_nic_cage_is_flat_top_on_every_fabric(seeded_catalog, fabric):
    from configurator.snapshot import catalog_snapshot

    result = validate_json(document=FLAT_CAGE_FABRICS[fabric]())
    view = catalog_snapshot()
    plans = [result["fabric_plan"], *(p for p in (result.get("network_plans") or {}).values() if p)]
    node_plugs = [
        part["part"]
        for plan in plans
        for link in plan.get("links", ())
        if link["class"] == "node-leaf"
        for part in link["parts"]
        if part["role"] == "transceiver-b"
    ]
    assert node_plugs, "no node link planned"
    for pn in node_plugs:
        # the end in the NIC's cage: ConnectX-8's OSFP, or the tray DPU's QSFP112 on the north-south network
        ends = (view.get(pn).end_a, view.get(pn).end_b)
        electrical = next(end for end in ends if end.connector in ("OSFP", "QSFP112"))
        assert electrical.top == "flat", (fabric, pn)
    gaps = {"FABRIC_PLUG_TOP_UNKNOWN", "FABRIC_NO_CABLE", "NETWORK_MEDIA_NOT_CATALOGUED"}
    # (the out-of-band network's RJ45 and QSFP28 uplinks are no ConnectX-8 cage's business)
    assert not [f for f in result["findings"] if f["code"] in gaps and f["subject"] != "networks.oob"]


# --- A PDU outlet and cord that carry the supply ---------------------------------------------------------------


def _hot_supplies(nodes: int = 4) -> dict:
    doc = _b300(nodes, "SN5600")
    doc["node_groups"][0]["server"] = "SYS-822GS-NBRT"  # HGX B200, 6 x 6.6 kW supplies: 28.7 A at 230 V
    doc["node_groups"][0]["components"] = [{"part": "HGX-B200-8GPU", "quantity": 1}]
    doc.pop("fabric")
    return doc


def test_a_supply_no_catalogued_outlet_carries_is_a_warning_and_gets_no_16_a_cord(seeded_catalog):
    result = validate_json(document=_hot_supplies())
    said = _codes(result)["RACK_CORD_OVER_RATING"]
    # a warning to accept: the design stays quotable, on the cord it needs (on request), never on a C19 cord
    assert said["severity"] == "warning" and result["valid"]
    assert "28.7 A" in said["message"] and "C19" in said["message"] and "16 A" in said["message"]
    # The plan names no outlet for these cords, and the bill no C19 cord: it says what is missing instead.
    assert {c["pdu_outlet"] for c in result["rack_plan"]["cords"]} == {None}
    cords = [line for line in result["bom"] if line["section"] == "racks_power" and "cord" in line["description"]]
    assert cords and all(line["part"] != "CORD-C19-C20-2M" for line in cords)
    assert all("C19" not in line["description"] and "28.7 A" in line["description"] for line in cords)


def test_a_supply_the_c19_outlet_carries_keeps_its_c19_cord(seeded_catalog):
    doc = _hot_supplies()
    doc["node_groups"][0]["server"] = "SYS-821GE-TNHR"
    doc["node_groups"][0]["components"] = [{"part": "HGX-H100-8GPU", "quantity": 1}]
    result = validate_json(document=doc)
    assert "RACK_CORD_OVER_RATING" not in _codes(result)
    assert {c["pdu_outlet"] for c in result["rack_plan"]["cords"]} == {"C19"}


# --- Runs past 100 m where the optics reach --------------------------------------------------------------------


def test_a_300_m_xdr_leaf_spine_run_within_the_optics_reach_gets_a_single_mode_fibre(seeded_catalog):
    result = validate_json(document=_b300(144, "Q3400-RA", {"leaf_to_spine_m": 300}))
    codes = _codes(result)
    assert not codes.keys() & {"FABRIC_BEYOND_REACH", "FABRIC_NO_CABLE", "FABRIC_REACH_NOT_CATALOGUED"}
    assert not [f for f in result["findings"] if f["code"].startswith("FABRIC_") and f["severity"] == "error"]
    # 300 m + 0.5 m slack: the 350 m single-mode MPO-12/APC patch cable (NVIDIA's limit for a single-mode MPO
    # straight link is 500 m, the XDR optics' reach 500 m), two per leaf-spine link's twin-port optic pair.
    spine = {p["role"]: (p["part"], p["quantity"]) for p in _link(result, "leaf-spine")["parts"]}
    assert spine["fibre"][0] == "SMF-MPO12APC-350M" and spine["transceiver-a"][0] == "980-9IAH1-00XM00"
    assert result["fabric_plan"]["bom_complete"] is True
    line = next(line for line in result["bom"] if line["part"] == "SMF-MPO12APC-350M")
    assert line["quantity"] == spine["fibre"][1] and line["unit_price_eur"] is None  # on request


def test_a_run_beyond_the_optics_reach_is_still_refused(seeded_catalog):
    result = validate_json(document=_b300(144, "Q3400-RA", {"leaf_to_spine_m": 600}))
    refused = _codes(result)["FABRIC_BEYOND_REACH"]
    assert refused["severity"] == "error" and "600.5 m" in refused["message"] and "500 m" in refused["message"]
    assert not result["valid"]
    assert "FABRIC_REACH_NOT_CATALOGUED" not in _codes(result)
