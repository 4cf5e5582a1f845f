"""The networks through the one validation service and the cabling list, on the seeded catalogue."""

from __future__ import annotations

import pytest

from configurator.examples import h200_training_cluster
from configurator.rackplan import rack_count
from configurator.services import cabling_plan, configuration_create
from tests.results import validate_json

pytestmark = pytest.mark.django_db


def _cluster(nodes: int = 8) -> dict:
    doc = h200_training_cluster()
    doc["node_groups"][0]["count"] = nodes
    doc["node_groups"][0]["components"] += [
        {"part": "900-9D3B6-00CN-AB0", "quantity": 1, "role": "storage"},
        {"part": "MCX755106AS-HEAT", "quantity": 1, "role": "management"},
    ]
    return doc


def test_the_result_plans_all_three_networks_from_the_adapters_roles(seeded_catalog):
    result = validate_json(document=_cluster())
    plans = result["network_plans"]
    for key in ("storage", "inband", "oob"):
        plan = plans[key]
        assert {"leaf_switches", "spine_switches", "core_switches", "node_links", "switch", "ports_used", "bom"} <= set(
            plan
        )
        assert plan["sources"]
    assert plans["storage"]["node_links"] == 8 * 2  # one dual-port BlueField-3 per node
    assert (plans["inband"]["leaf_switches"], plans["inband"]["node_links"]) == (2, 16)
    oob = plans["oob"]
    compute = result["fabric_plan"]
    pdus = sum(p["quantity"] for p in result["rack_plan"]["pdus"])
    network_switches = sum(plans[k]["leaf_switches"] + plans[k]["spine_switches"] for k in ("storage", "inband"))
    assert oob["devices"] == {
        "bmcs": 8,
        "switches": compute["leaf_switches"] + compute["spine_switches"] + network_switches + oob["spine_switches"],
        "pdus": pdus,
    }
    # The out-of-band leaves are the rack plan's management switches, one per rack.
    assert oob["rack_switches"] == rack_count(result["rack_plan"])


def test_network_findings_reach_the_result_under_their_network(seeded_catalog):
    doc = _cluster()
    doc["networks"] = {"inband": None}
    result = validate_json(document=doc)
    assert result["network_plans"]["inband"] is None
    subjects = {(f["code"], f["subject"]) for f in result["findings"]}
    assert ("NETWORK_CUSTOMER_SUPPLIED", "networks.inband") in subjects
    assert ("NETWORK_MEDIA_NOT_CATALOGUED", "networks.oob") in subjects
    assert result["valid"] is True


def test_the_cabling_list_carries_every_network_after_the_compute_fabric(seeded_catalog):
    config = configuration_create(document=_cluster())
    rows = "".join(cabling_plan(configuration=config)).splitlines()
    header = rows[0].split(",")
    assert header[:7] == ["a_end", "a_port", "z_end", "z_port", "link_class", "cable_part", "length_m"]
    assert header[-1] == "network"
    by_network: dict[str, list[list[str]]] = {}
    for row in rows[1:]:
        fields = row.split(",")
        assert len(fields) == len(header)
        by_network.setdefault(fields[-1], []).append(fields)
    result = validate_json(document=_cluster())
    assert len(by_network["compute"]) >= result["fabric_plan"]["node_links"]
    inband = [r for r in by_network["inband"] if r[4] == "node-leaf"]
    # Port 1 of every node on switch 1, port 2 on switch 2: the redundant pair.
    assert {(r[1], r[2]) for r in inband} == {("mgmt1", "inband-switch-01"), ("mgmt2", "inband-switch-02")}
    peer = [r for r in by_network["inband"] if r[4] == "peer"]
    assert [(r[0], r[2]) for r in peer] == [("inband-switch-01", "inband-switch-02")] * 2
    oob = [r for r in by_network["oob"] if r[4] == "device-leaf"]
    assert len(oob) == result["network_plans"]["oob"]["node_links"]
