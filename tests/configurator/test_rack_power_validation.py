"""Rack power through validation: the seeded 6.6 kW supplies get no 16 A cord without a word."""

from __future__ import annotations

from configurator.examples import h200_training_cluster
from tests.results import validate_json


def _doc(server: str, nodes: int, facility: dict | None = None) -> dict:
    doc = h200_training_cluster()
    doc["node_groups"][0]["count"] = nodes
    doc["node_groups"][0]["server"] = server
    doc.pop("fabric")
    if facility is not None:
        doc["facility"] = facility
    return doc


def test_6_6_kw_supplies_are_named_as_drawing_more_than_a_c19_outlet_carries(seeded_catalog):
    result = validate_json(document=_doc("SYS-822GS-NBRT", 2))
    cords = [f for f in result["findings"] if f["code"] == "RACK_CORD_OVER_RATING"]
    assert cords, [f["code"] for f in result["findings"]]
    assert "SYS-822GS-NBRT" in cords[0]["message"] and "C19" in cords[0]["message"]
    assert "28.7 A" in cords[0]["message"] and "16 A" in cords[0]["message"]
    assert all(c["current_a"] == 28.7 for c in result["rack_plan"]["cords"])


def test_3_kw_supplies_on_c19_outlets_pass(seeded_catalog):
    result = validate_json(document=_doc("SYS-821GE-TNHR", 2))
    assert "RACK_CORD_OVER_RATING" not in {f["code"] for f in result["findings"]}
