"""Fabric sizing through the service, against the seed catalogue: the quoted fabric is sized to the nodes, and
default distances never make a whole class of fabrics invalid."""

from __future__ import annotations

import pytest

from configurator.examples import h200_training_cluster
from tests.results import fabric_plan_json, validate_json

pytestmark = pytest.mark.django_db


def _errors(result: dict) -> list[str]:
    return [f["code"] for f in result["findings"] if f["severity"] == "error"]


def test_sixteen_h200_nodes_quote_ten_fabric_switches(seeded_catalog):
    doc = h200_training_cluster()
    doc["node_groups"][0]["count"] = 16
    result = validate_json(document=doc)
    plan = result["fabric_plan"]
    assert (plan["leaf_switches"], plan["spine_switches"]) == (8, 2)
    bom = {row["part"]: row["quantity"] for row in plan["bom"]}
    assert bom["MQM9700-NS2F"] == 10
    assert "FABRIC_GROWTH_RESERVE" not in {f["code"] for f in result["findings"]}


@pytest.mark.parametrize(("nodes", "switch"), [(16, "MQM8700-HS2F"), (64, "MQM8700-HS2F"), (4, "MQM9700-NS2F")])
def test_a_default_connectx6_hdr_fabric_is_not_refused_for_its_default_distances(seeded_catalog, nodes, switch):
    plan = fabric_plan_json(request={"nodes": nodes, "rails": 8, "switch": switch, "hca": "MCX653105A-HDAT"})
    assert not [f for f in plan["findings"] if f["severity"] == "error"], plan["findings"]
    assert all(link["media"] for link in plan["links"])


def test_a_given_distance_beyond_every_catalogued_hdr_cable_is_a_catalogue_gap(seeded_catalog):
    # The catalogue holds HDR AOCs up to 30 m and no HDR optics: a 400 m run needs a medium it lacks (issue #20).
    request = {"nodes": 64, "rails": 8, "switch": "MQM8700-HS2F", "hca": "MCX653105A-HDAT"}
    plan = fabric_plan_json(request={**request, "rack": {"leaf_to_spine_m": 400}})
    assert "FABRIC_REACH_NOT_CATALOGUED" in [f["code"] for f in plan["findings"] if f["severity"] == "warning"]
    assert not [f for f in plan["findings"] if f["severity"] == "error"]
    assert plan["bom_complete"] is False and plan["uncabled_links"] == ["leaf-spine"]


def test_the_design_reports_a_reserve_with_its_cost(seeded_catalog):
    doc = h200_training_cluster()
    doc["node_groups"][0]["count"] = 95
    result = validate_json(document=doc, language="nl")
    reserve = next(f for f in result["findings"] if f["code"] == "FABRIC_GROWTH_RESERVE")
    assert reserve["severity"] == "info"
    assert "reserve" in reserve["message"] and "EUR" in reserve["fix"]


def test_a_60_m_node_to_leaf_distance_is_used_for_a_one_switch_fabric(seeded_catalog):
    # 4 nodes x 8 rails = 32 ports: one QM9700. The design says the switch is 60 m from the node racks.
    doc = h200_training_cluster()
    doc["fabric"]["rack"] = {"node_to_leaf_m": 60}
    result = validate_json(document=doc)
    plan = result["fabric_plan"]
    assert plan["tiers"] == 1
    node_leaf = next(link for link in plan["links"] if link["class"] == "node-leaf")
    assert node_leaf["distance_m"] == 60 and node_leaf["length_m"] >= 60.5
    assert "FABRIC_DISTANCE_UNUSED" not in {f["code"] for f in result["findings"]}


def test_a_design_with_a_kilometre_between_rows_gets_a_warning(seeded_catalog):
    doc = h200_training_cluster()
    doc["node_groups"][0]["count"] = 16
    doc["fabric"]["rack"] = {"node_to_leaf_m": 5000}
    result = validate_json(document=doc, language="nl")
    f = next(f for f in result["findings"] if f["code"] == "FABRIC_DISTANCE_IMPLAUSIBLE")
    assert f["severity"] == "warning" and "5.000 m" in f["message"]
