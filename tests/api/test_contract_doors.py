"""One rack object, one answer: the design validation API, the fabric-plan API, the validate_design command and
the wizard's fabric form accept and refuse the same rack-model overrides (limits in design.contract)."""

from __future__ import annotations

import io
import json
import sys

import pytest
from django.core.management import call_command

from configurator.snapshot import catalog_snapshot
from design.contract import MAX_DISTANCE_M, MAX_NODES_PER_RACK, RACK_DISTANCE_FIELDS, ROLES, TOPOLOGIES
from web.forms import FabricForm

VALIDATE = "/api/v1/designs/validate/"
PLAN = "/api/v1/fabric-plans/"

# (rack object, accepted); the wizard's fields are in_rack_m, node_to_leaf_m, leaf_to_spine_m and nodes_per_rack
RACKS = [
    ({"leaf_to_spine_m": 12.5}, True),
    ({"leaf_to_spine_m": MAX_DISTANCE_M}, True),  # the cap itself
    ({"in_rack_m": 0.3}, True),  # shorter than any cable is still a run: the plan picks the shortest cable
    ({"node_to_leaf_m": MAX_DISTANCE_M + 0.5}, False),
    ({"leaf_to_spine_m": 50_000}, False),  # the fabric-plan request once took up to 100 km
    ({"in_rack_m": 0}, False),
    ({"node_to_leaf_m": -3}, False),
    ({"leaf_to_spine_m": "far"}, False),
    ({"nodes_per_rack": MAX_NODES_PER_RACK}, True),
    ({"nodes_per_rack": MAX_NODES_PER_RACK + 1}, False),
    ({"nodes_per_rack": 0}, False),
    ({"nodes_per_rack": 2.5}, False),
    ({"nodes_per_rack": "four"}, False),
]
IDS = [f"{json.dumps(rack)}-{'ok' if ok else 'refused'}" for rack, ok in RACKS]


def _field(rack: dict) -> str:
    (key,) = rack
    return key


@pytest.mark.parametrize(("rack", "accepted"), RACKS, ids=IDS)
def test_the_design_api_and_the_command_line_agree(api, design, rack, accepted):
    design["fabric"]["rack"] = rack
    response = api.post(VALIDATE, design, format="json")
    assert (response.status_code == 200) is accepted, response.json()
    if not accepted:
        (error,) = response.json()["error"]["fields"]
        assert error["path"] == f"fabric.rack.{_field(rack)}"

    out, err, old_stdin = io.StringIO(), io.StringIO(), sys.stdin
    sys.stdin = io.StringIO(json.dumps(design))
    try:
        call_command("validate_design", "-", stdout=out, stderr=err)
        code = 0
    except SystemExit as exc:
        code = exc.code
    finally:
        sys.stdin = old_stdin
    assert (code != 2) is accepted
    if not accepted:
        assert f"fabric.rack.{_field(rack)}" in err.getvalue()
        assert err.getvalue().strip().endswith(error["message"])  # the same words at both doors


@pytest.mark.parametrize(("rack", "accepted"), RACKS, ids=IDS)
def test_the_fabric_plan_api_agrees(api, rack, accepted):
    response = api.post(PLAN, {"nodes": 16, "rails": 8, "switch": "MQM9700-NS2F", "rack": rack}, format="json")
    assert (response.status_code == 200) is accepted, response.json()
    if not accepted:
        assert [e["path"] for e in response.json()["error"]["fields"]] == [f"rack.{_field(rack)}"]


@pytest.mark.parametrize(("rack", "accepted"), RACKS, ids=IDS)
def test_the_wizard_fabric_form_agrees(seeded_catalog, rack, accepted):
    key = _field(rack)
    if key not in FabricForm.base_fields:
        pytest.skip(f"the wizard does not ask for {key}")
    value = rack[key]
    data = {"switch": "MQM9700-NS2F", "oversubscription": "1:1", "topology": "rail-optimized", key: str(value)}
    form = FabricForm(data, catalog=catalog_snapshot())
    assert form.is_valid() is accepted, form.errors
    if not accepted:
        assert list(form.errors) == [key]


def test_the_schema_states_the_contracts_vocabulary_and_limits(api):
    schemas = api.get("/api/schema/", HTTP_ACCEPT="application/json").json()["components"]["schemas"]
    plan_rack = schemas["FabricPlanRequestRequest"]["properties"]["rack"]
    assert plan_rack["allOf"][0]["$ref"].endswith("/RackRequest")  # one rack object for both requests
    rack = schemas["RackRequest"]["properties"]
    assert set(rack) == {"nodes_per_rack", *RACK_DISTANCE_FIELDS}
    assert rack["nodes_per_rack"]["maximum"] == MAX_NODES_PER_RACK
    assert {rack[key]["maximum"] for key in RACK_DISTANCE_FIELDS} == {MAX_DISTANCE_M}
    assert set(_enum(schemas, schemas["FabricRequest"]["properties"]["topology"])) == set(TOPOLOGIES)
    assert set(_enum(schemas, schemas["ComponentRequest"]["properties"]["role"])) == set(ROLES)


def _enum(schemas: dict, prop: dict) -> list:
    """The enum of a property, following drf-spectacular's $ref to a named enum component."""
    if "enum" in prop:
        return [value for value in prop["enum"] if value not in ("", None)]
    if "$ref" in prop:
        return _enum(schemas, schemas[prop["$ref"].rsplit("/", 1)[1]])
    return [value for sub in [*prop.get("oneOf", []), *prop.get("allOf", [])] for value in _enum(schemas, sub)]
