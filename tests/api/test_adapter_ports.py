"""Every port of a compute adapter is a link unless the design marks it unused (``components[].ports_used``):
rails, links, optics and bandwidth per GPU follow; more ports than the card has is a 400 naming the field."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from configurator.examples import h200_training_cluster


def run(command: str, *args: str) -> tuple[int, str, str]:
    """A management command in-process: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command(command, *args, stdout=out, stderr=err)
        code = 0
    except SystemExit as exc:
        code = exc.code
    return code, out.getvalue(), err.getvalue()


VALIDATE = "/api/v1/designs/validate/"


def dual_port(design: dict, **extra) -> dict:
    """The example cluster (4 nodes, 8 GPUs each) with four dual-port ConnectX-7 cards as compute NICs."""
    design["node_groups"][0]["components"][1] = {
        "part": "MCX755106AS-HEAT",
        "quantity": 4,
        "role": "compute",
        **extra,
    }
    return design


def codes(body: dict) -> set[str]:
    return {f["code"] for f in body["findings"]}


def test_both_ports_of_a_dual_port_card_are_rails(api, design):
    body = api.post(VALIDATE, dual_port(design), format="json").json()
    plan = body["fabric_plan"]
    # 4 cards x 2 ports = 8 rails per node, one per GPU: 4 nodes x 8 = 32 node links, 8 rail leaves' worth.
    assert plan["rails"] == 8 and plan["node_links"] == 32
    assert body["totals"]["compute_nics"] == 32
    # One NIC port per GPU: no warning that GPUs share a NIC.
    assert not codes(body) & {"NIC_FEWER_THAN_GPUS", "FABRIC_FEWER_RAILS_THAN_GPUS"}
    # Every node port gets its far-end transceiver or cable leg: the node-leaf class carries 32 links.
    node_leaf = next(lk for lk in plan["links"] if lk["class"] == "node-leaf")
    assert node_leaf["links"] == 32


def test_ports_marked_unused_halve_the_rails_and_the_bandwidth_per_gpu(api, design):
    body = api.post(VALIDATE, dual_port(design, ports_used=1), format="json").json()
    plan = body["fabric_plan"]
    assert plan["rails"] == 4 and plan["node_links"] == 16
    assert body["totals"]["compute_nics"] == 16
    fewer = next(f for f in body["findings"] if f["code"] == "NIC_FEWER_THAN_GPUS")
    # 4 ports of 200 Gb/s for 8 GPUs: each GPU gets about 100 Gb/s to other nodes.
    assert "about 100 Gb/s" in fewer["message"]


@pytest.mark.parametrize(
    ("component", "words"),
    [
        ({"part": "MCX755106AS-HEAT", "quantity": 4, "role": "compute", "ports_used": 3}, "has 2 ports"),
        ({"part": "HGX-H200-8GPU", "quantity": 1, "ports_used": 1}, "only adapters"),
    ],
)
def test_ports_used_beyond_the_card_is_a_400_naming_the_field(api, design, component, words):
    index = 1 if component["part"] != "HGX-H200-8GPU" else 0
    design["node_groups"][0]["components"][index] = component
    response = api.post(VALIDATE, design, format="json")
    assert response.status_code == 400
    fields = {f["path"]: f["message"] for f in response.json()["error"]["fields"]}
    path = f"node_groups[0].components[{index}].ports_used"
    assert path in fields and words in fields[path]


@pytest.mark.parametrize("value", [0, -1, "2", 1.5, True])
def test_ports_used_must_be_a_positive_whole_number(api, design, value):
    response = api.post(VALIDATE, dual_port(design, ports_used=value), format="json")
    assert response.status_code == 400
    paths = [f["path"] for f in response.json()["error"]["fields"]]
    assert "node_groups[0].components[1].ports_used" in paths


def test_the_schema_documents_ports_used(api):
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    field = schema["components"]["schemas"]["ComponentRequest"]["properties"]["ports_used"]
    assert field["minimum"] == 1 and "Default: every port" in field["description"]


def test_the_cli_names_the_field_too(seeded_catalog, design, tmp_path):
    path = tmp_path / "design.json"
    path.write_text(json.dumps(dual_port(design, ports_used=5)))
    code, out, err = run("validate_design", str(path))
    assert code == 2 and out == ""
    assert "node_groups[0].components[1].ports_used" in err


def test_plan_fabric_exits_1_when_the_plan_has_errors(seeded_catalog):
    # 16,384 nodes x 8 rails: beyond three tiers of QM9700 (an error); the plan is printed all the same.
    code, out, _err = run("plan_fabric", "--nodes", "16384", "--rails", "8", "--switch", "MQM9700-NS2F")
    assert code == 1
    plan = json.loads(out)
    assert plan["tiers"] == 0
    assert any(f["severity"] == "error" and f["code"] == "FABRIC_PORTS_EXCEEDED" for f in plan["findings"])
    ok, _out, _err = run("plan_fabric", "--nodes", "16", "--rails", "8", "--switch", "MQM9700-NS2F")
    assert ok == 0


def test_plan_fabric_on_a_management_switch_says_it_is_no_fabric_switch(seeded_catalog):
    # SN2201 is the out-of-band management switch: the answer is that, not a rail count its four uplinks cannot wire.
    code, out, err = run("plan_fabric", "--nodes", "64", "--rails", "8", "--switch", "SN2201")
    assert code == 1 and err == ""
    codes = {f["code"] for f in json.loads(out)["findings"] if f["severity"] == "error"}
    assert "FABRIC_SWITCH_IS_MANAGEMENT" in codes


def test_the_cabling_plan_has_a_row_for_every_port_of_every_card(api, design):
    created = api.post("/api/v1/configurations/", {"document": dual_port(design)}, format="json").json()
    response = api.get(f"/api/v1/configurations/{created['id']}/cabling.csv")
    rows = [line.split(",") for line in b"".join(response.streaming_content).decode().splitlines()[1:]]
    node_rows = [r for r in rows if r[4] == "node-leaf"]
    # 4 nodes x 4 cards x 2 ports: 32 node rows, NICs 1..8 of every node, each on the leaf of its rail.
    assert len(node_rows) == 32
    assert {r[1] for r in node_rows} == {f"nic{i}" for i in range(1, 9)}
    assert len({(r[0], r[1]) for r in node_rows}) == 32
    one_port = api.post(
        "/api/v1/configurations/", {"document": dual_port(h200_training_cluster(), ports_used=1)}, format="json"
    ).json()
    lines = b"".join(api.get(f"/api/v1/configurations/{one_port['id']}/cabling.csv").streaming_content)
    assert sum(1 for line in lines.decode().splitlines() if ",node-leaf," in line) == 16


def test_node_optics_power_counts_the_cabled_ports_only(api, design):
    both = api.post(VALIDATE, dual_port(design), format="json").json()["totals"]["groups"][0]
    one = api.post(VALIDATE, dual_port(h200_training_cluster(), ports_used=1), format="json").json()["totals"]
    # Four dual-port cards: 8 cabled ports per node against 4 with one port each unused.
    assert both["optics_w_per_node"] == 2 * one["groups"][0]["optics_w_per_node"] > 0
