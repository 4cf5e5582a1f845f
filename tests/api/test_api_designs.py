"""Stateless validation and planning: the same JSON as the CLI, 400 with field paths, never a 500."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

VALIDATE = "/api/v1/designs/validate/"
PLAN = "/api/v1/fabric-plans/"


def test_valid_design_gets_200_valid_true(api, design):
    response = api.post(VALIDATE, design, format="json")
    assert response.status_code == 200
    body = response.json()
    assert body["valid"] is True
    assert body["fabric_plan"]["leaf_switches"] >= 1
    assert not [f for f in body["findings"] if f["severity"] == "error"]


def test_well_formed_but_invalid_design_gets_200_valid_false(api, design):
    design["node_groups"][0]["components"][0]["part"] = "HGX-B200-8GPU"  # refused: SYS-821GE-TNHR takes H100/H200
    response = api.post(VALIDATE, design, format="json")
    assert response.status_code == 200
    body = response.json()
    assert body["valid"] is False
    assert any(f["severity"] == "error" for f in body["findings"])


def test_a_design_beyond_the_caps_is_refused_before_any_check_naming_the_limit(api, design, monkeypatch):
    """5,000 valid node groups (0.9 MB) used to take 3 s of checking; the cap refuses them before the catalogue is
    even read (bench/api.py times the refusal)."""
    from configurator import services
    from engines.intake.parse import MAX_NODE_GROUPS, MAX_NODES

    def no_check():
        raise AssertionError("the design was checked against the catalogue")

    monkeypatch.setattr(services, "catalog_snapshot", no_check)
    group = {**design["node_groups"][0], "count": 1}
    response = api.post(VALIDATE, {**design, "node_groups": [group] * 5000}, format="json")
    assert response.status_code == 400
    (field,) = response.json()["error"]["fields"]
    assert field["path"] == "node_groups"
    assert f"{MAX_NODE_GROUPS}" in field["message"]
    # The total node count is capped too, across groups.
    huge = {**design, "node_groups": [{**group, "count": MAX_NODES}, {**group, "count": 1}]}
    response = api.post(VALIDATE, huge, format="json")
    assert response.status_code == 400 and "100,000" in response.json()["error"]["fields"][0]["message"]


def test_the_schema_states_the_caps(api):
    from engines.intake.parse import MAX_COMPONENTS_PER_GROUP, MAX_NODE_GROUPS

    schema = api.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    design = schema["components"]["schemas"]["DesignRequest"]["properties"]
    assert design["node_groups"]["maxItems"] == MAX_NODE_GROUPS and design["node_groups"]["minItems"] == 1
    group = schema["components"]["schemas"]["NodeGroupRequest"]["properties"]
    assert group["components"]["maxItems"] == MAX_COMPONENTS_PER_GROUP


def test_malformed_design_gets_400_with_every_bad_field(api, design):
    design["node_groups"][0]["count"] = 0
    design["node_groups"][0]["components"][0]["quantity"] = "one"
    design["fabric"]["topology"] = "star"
    response = api.post(VALIDATE, design, format="json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "malformed_design"
    paths = {f["path"] for f in error["fields"]}
    assert {"node_groups[0].count", "node_groups[0].components[0].quantity", "fabric.topology"} <= paths


def test_unknown_part_is_400_naming_the_field(api, design):
    design["node_groups"][0]["server"] = "SYS-DOES-NOT-EXIST"
    response = api.post(VALIDATE, design, format="json")
    assert response.status_code == 400
    assert "node_groups[0].server" in {f["path"] for f in response.json()["error"]["fields"]}


def test_same_json_as_the_cli(api, design, tmp_path):
    path = tmp_path / "design.json"
    path.write_text(json.dumps(design))
    out = io.StringIO()
    with pytest.raises(SystemExit) as exit_info:
        call_command("validate_design", str(path), stdout=out)
    assert exit_info.value.code == 0
    assert json.loads(out.getvalue()) == api.post(VALIDATE, design, format="json").json()


@pytest.mark.parametrize("how", ["query", "header"])
def test_language_from_query_or_accept_language(api, design, how):
    english = api.post(VALIDATE, design, format="json").json()
    if how == "query":
        dutch = api.post(f"{VALIDATE}?lang=nl", design, format="json").json()
    else:
        dutch = api.post(VALIDATE, design, format="json", HTTP_ACCEPT_LANGUAGE="nl-NL,nl;q=0.9").json()
    assert dutch["language"] == "nl"
    assert [f["code"] for f in dutch["findings"]] == [f["code"] for f in english["findings"]]
    assert [f["message"] for f in dutch["findings"]] != [f["message"] for f in english["findings"]]


def test_fabric_plan(api):
    response = api.post(PLAN, {"nodes": 128, "rails": 8, "switch": "MQM9700-NS2F"}, format="json")
    assert response.status_code == 200
    plan = response.json()
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
        assert key in plan
    assert plan["node_links"] == 128 * 8
    assert all({"part", "quantity"} <= set(line) for line in plan["bom"])


def test_fabric_plan_same_json_as_the_cli(api):
    out = io.StringIO()
    call_command("plan_fabric", "--nodes", "64", "--rails", "8", "--switch", "MQM9700-NS2F", stdout=out)
    api_plan = api.post(PLAN, {"nodes": 64, "rails": 8, "switch": "MQM9700-NS2F"}, format="json").json()
    assert json.loads(out.getvalue()) == api_plan


def test_fabric_plan_bad_input_is_400_with_fields(api):
    response = api.post(PLAN, {"nodes": 0, "rails": "eight", "switch": "HGX-H200-8GPU"}, format="json")
    assert response.status_code == 400
    paths = {f["path"] for f in response.json()["error"]["fields"]}
    assert {"nodes", "rails"} <= paths


GARBAGE = [
    ("not json", "application/json"),
    ("{", "application/json"),
    ("", "application/json"),
    ("null", "application/json"),
    ("[]", "application/json"),
    ('"design"', "application/json"),
    ("12", "application/json"),
    ('{"schema": "design/v1", "node_groups": null, "fabric": null, "workload": null}', "application/json"),
    ('{"schema": "design/v1", "node_groups": [{"count": 1e999, "server": "x"}]}', "application/json"),
    ('{"schema": "design/v1", "node_groups": [{"count": 99999999999999999999999, "server": "x"}]}', "application/json"),
    ('{"schema": "design/v1", "node_groups": [{"count": 1' + "0" * 5000 + ', "server": "x"}]}', "application/json"),
    ('{"schema": "design/v1", "node_groups": [{"count": NaN, "server": "x"}]}', "application/json"),
    ('{"schema": "design/v1", "node_groups": [{"count": 2, "server": "\\u0000"}]}', "application/json"),
    ('{"schema": "design/v1", "node_groups": [{"count": 2, "server": "\\ud800"}]}', "application/json"),
    (
        '{"schema": "design/v1", "name": "集群 🚀", "node_groups": [{"count": 2, "server": "SŸS-821"}]}',
        "application/json",
    ),
    ("[" * 5000 + "]" * 5000, "application/json"),
    ("schema=design/v1", "application/x-www-form-urlencoded"),
    ("<design/>", "application/xml"),
    ("\xff\xfe", "application/json"),
]


@pytest.mark.parametrize(("body", "content_type"), GARBAGE)
@pytest.mark.parametrize("url", [VALIDATE, PLAN, "/api/v1/configurations/", "/api/v1/quotes/"])
def test_garbage_never_gets_a_server_error(api, url, body, content_type):
    data = body.encode("latin-1") if body == "\xff\xfe" else body.encode()
    response = api.generic("POST", url, data, content_type=content_type)
    assert response.status_code in {400, 415}, (response.status_code, response.content[:300])
    error = response.json()["error"]
    assert error["code"] and error["message"]


def test_a_body_over_the_upload_limit_is_413_not_500(api):
    huge = '{"schema": "design/v1", "name": "' + "x" * 3_000_000 + '"}'
    response = api.post("/api/v1/designs/validate/", huge, content_type="application/json")
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "too_large"


def test_api_and_cli_give_the_same_rack_plan_and_refuse_a_bad_facility_alike(api, design, tmp_path):
    design["facility"] = {"rack_units": 48, "cooling": "air", "pdu_feeds": "A"}
    response = api.post(VALIDATE, design, format="json")
    assert response.status_code == 200
    from_api = response.json()
    path = tmp_path / "design.json"
    path.write_text(json.dumps(design))
    out = io.StringIO()
    with pytest.raises(SystemExit):
        call_command("validate_design", str(path), stdout=out)
    from_cli = json.loads(out.getvalue())
    assert from_api["rack_plan"] == from_cli["rack_plan"] and from_api["rack_plan"]["rack_units"] == 48
    racks = sum(r["count"] for r in from_api["rack_plan"]["racks"])
    assert from_api["totals"]["racks"] == from_cli["totals"]["racks"] == racks
    design["facility"] = {"cooling": "water"}
    bad = api.post(VALIDATE, design, format="json")
    assert bad.status_code == 400 and "facility.cooling" in json.dumps(bad.json())


def test_nesting_beyond_the_limit_is_refused_naming_the_field_and_brackets_in_a_name_are_not_nesting(api, design):
    from api.parsers import MAX_DEPTH

    deep = {**design, "notes": [[]]}
    inner = deep["notes"][0]
    for _ in range(MAX_DEPTH):
        inner.append([])
        inner = inner[0]
    response = api.post(VALIDATE, deep, format="json")
    assert response.status_code == 400, response.content[:300]
    assert "nesting deeper" in response.json()["error"]["message"]
    assert response.json()["error"]["fields"][0]["path"].startswith("notes[0]")

    bracketed = {**design, "name": "[" * (2 * MAX_DEPTH) + "{" * MAX_DEPTH}
    response = api.post(VALIDATE, bracketed, format="json")
    assert response.status_code == 200 and response.json()["valid"] is True
