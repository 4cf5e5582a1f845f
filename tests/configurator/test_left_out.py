"""What the offer leaves out because the site has it (``facility.supplied``), and the defaults for a design's size:
one server comes without a rack, PDUs, cords and a management switch; fewer than four nodes without a control
plane (the DGX BasePOD RA's smallest tabulated bill is 4 nodes); what was left out is said in the result's
``left_out`` and an OFFER_LEFT_OUT finding, in English and Dutch."""

from __future__ import annotations

import pytest

from configurator.examples import h200_training_cluster
from tests.results import validate_json

pytestmark = pytest.mark.django_db


def _doc(nodes: int, supplied: list[str] | None = None) -> dict:
    doc = h200_training_cluster()
    doc["node_groups"][0]["count"] = nodes
    if nodes == 1:
        doc["fabric"] = None
    if supplied is not None:
        doc["facility"] = {"supplied": supplied}
    return doc


def _sections(result: dict) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for line in result["bom"]:
        out.setdefault(line["section"], []).append(line)
    return out


def _finding(result: dict, code: str) -> dict | None:
    return next((f for f in result["findings"] if f["code"] == code), None)


def test_one_server_comes_without_rack_pdus_cords_and_management_switch(seeded_catalog):
    result = validate_json(document=_doc(1))
    sections = _sections(result)
    assert set(sections) <= {"nodes", "services"}, sections.keys()  # no racks_power, oob, control_plane
    assert result["left_out"] == {"items": ["racks", "power", "oob"], "basis": "size"}
    assert result["network_plans"]["oob"] is None
    said = _finding(result, "OFFER_LEFT_OUT")
    assert said is not None and said["severity"] == "info"
    assert "racks" in said["message"] and "PDUs and power cords" in said["message"]
    assert "review step" in said["fix"]
    # said once: not also as a network the design itself gives to the customer
    assert _finding(result, "NETWORK_CUSTOMER_SUPPLIED") is None
    # the server still has its place in a rack (the site's), so the elevation and the cabling keep working
    assert result["rack_plan"]["racks"]


def test_one_server_gets_rack_power_and_management_network_when_asked(seeded_catalog):
    result = validate_json(document=_doc(1, supplied=[]))
    sections = _sections(result)
    lines = {line["part"] or line["description"]: line["quantity"] for line in sections["racks_power"]}
    assert lines["RACK-42U"] == 1 and len(lines) == 3, lines  # a rack, its PDUs and the node's power cords
    assert sections["oob"]  # the management switch and its cables
    assert result["left_out"] == {"items": [], "basis": "design"}
    assert _finding(result, "OFFER_LEFT_OUT") is None


def test_three_nodes_get_no_control_plane_unless_asked(seeded_catalog):
    result = validate_json(document=_doc(3))
    assert result["control_plane"]["bom"] == []
    assert "control_plane" not in _sections(result)
    assert "racks_power" in _sections(result) and "oob" in _sections(result)  # a cluster still gets its racks
    assert result["left_out"] == {"items": ["control_plane"], "basis": "size"}
    assert "3 nodes" in _finding(result, "OFFER_LEFT_OUT")["message"]

    asked = validate_json(document=_doc(3, supplied=[]))
    control = {line["part"]: line["quantity"] for line in asked["control_plane"]["bom"]}
    assert control == {"HEAD-NODE-BCM": 2, "MGMT-NODE-K8S": 3}


def test_four_nodes_get_the_basepod_control_plane_by_default(seeded_catalog):
    result = validate_json(document=_doc(4))
    control = {line["part"]: line["quantity"] for line in result["control_plane"]["bom"]}
    assert control == {"HEAD-NODE-BCM": 2, "MGMT-NODE-K8S": 3}
    assert result["left_out"] == {"items": [], "basis": "size"}
    assert _finding(result, "OFFER_LEFT_OUT") is None


def test_a_site_with_racks_and_power_gets_neither_on_the_bill(seeded_catalog):
    full = validate_json(document=_doc(4))
    result = validate_json(document=_doc(4, supplied=["power", "racks"]))
    assert "racks_power" in _sections(full)
    assert "racks_power" not in _sections(result)
    assert _sections(result)["control_plane"] and _sections(result)["oob"]  # the rest stays
    assert result["left_out"] == {"items": ["racks", "power"], "basis": "design"}  # the contract's order
    assert _finding(result, "OFFER_LEFT_OUT")["message"].startswith("Not in this offer, as the site already has them")
    # the racks are still planned (the site's own), with the same nodes in them
    assert result["rack_plan"]["racks"] == full["rack_plan"]["racks"]
    assert result["totals"]["list_price_eur"] != full["totals"]["list_price_eur"]


def test_a_site_with_its_own_management_network_gets_no_management_switch_in_any_rack(seeded_catalog):
    result = validate_json(document=_doc(4, supplied=["oob"]))
    assert "oob" not in _sections(result)
    roles = {d.get("role") for r in result["rack_plan"]["racks"] for d in r["devices"]}
    assert "management" not in roles


def test_a_site_with_its_own_control_plane_keeps_no_control_plane_servers(seeded_catalog):
    result = validate_json(document=_doc(40, supplied=["control_plane"]))
    parts = {line["part"] for line in result["control_plane"]["bom"]}
    assert not parts & {"HEAD-NODE-BCM", "MGMT-NODE-K8S-ADMIN", "MGMT-NODE-K8S-USER", "MGMT-NODE-SLURM-LOGIN"}
    assert _finding(result, "CONTROL_PLANE_ADDED") is None


def test_what_was_left_out_is_said_in_dutch(seeded_catalog):
    result = validate_json(document=_doc(1), language="nl")
    said = _finding(result, "OFFER_LEFT_OUT")
    assert "PDU's en stroomkabels" in said["message"] and "controlestap" in said["fix"]
