"""Complete nodes: the service adds each server's default node set (CPUs, memory, boot drive) where a design names
none, lists it in ``defaults_added`` and an info finding, and prices it on the bill of materials; every door
returns the same JSON."""

from __future__ import annotations

import io
import json
from copy import deepcopy

import pytest
from django.core.management import call_command

from catalog.models import DefaultPart
from configurator.bom import design_bill
from configurator.examples import h200_training_cluster
from design.model import DesignInputError
from tests.results import validate_json

pytestmark = pytest.mark.django_db

# The example of contract design/v1 (docs/design-v1.md), written before node contents existed.
CONTRACT_EXAMPLE = h200_training_cluster()


def _defaults(server: str) -> list[dict]:
    """The server's default node set as the catalogue holds it (cpu, memory, boot)."""
    rows = {d.role: d for d in DefaultPart.objects.filter(server__part__part_number=server).select_related("part")}
    return [
        {"part": rows[r].part.part_number, "quantity": rows[r].quantity, "role": r} for r in ("cpu", "memory", "boot")
    ]


def test_an_old_design_gets_the_servers_default_node_set_and_stays_valid(seeded_catalog):
    result = validate_json(document=CONTRACT_EXAMPLE)
    assert result["valid"] is True
    expected = [{"node_group": "gpu", **d} for d in _defaults("SYS-821GE-TNHR")]
    assert result["defaults_added"] == expected
    assert {d["part"] for d in expected} >= {"XEON-8468", "MTC40F2046S1RC48BA1"}  # the MLPerf unit [MLC-821]
    (info,) = [f for f in result["findings"] if f["code"] == "NODE_DEFAULTS_ADDED"]
    assert info["severity"] == "info" and info["subject"] == "node_groups[0]"
    assert "2 × XEON-8468 (CPUs)" in info["message"]
    dutch = validate_json(document=CONTRACT_EXAMPLE, language="nl")
    (info_nl,) = [f for f in dutch["findings"] if f["code"] == "NODE_DEFAULTS_ADDED"]
    assert "standaardset" in info_nl["message"] and "opstartschijf" in info_nl["message"]


def test_a_complete_design_gets_an_empty_list_and_named_roles_are_kept(seeded_catalog):
    doc = deepcopy(CONTRACT_EXAMPLE)
    components = doc["node_groups"][0]["components"]
    components += [
        {"part": "XEON-8480+", "quantity": 2},  # role inferred from the category
        {"part": "MTC40F2046S1RC48BA1", "quantity": 16, "role": "memory"},
        {"part": "HDS-M2N4-960G0-E1-TXD-NON-080", "quantity": 1},
    ]
    result = validate_json(document=doc)
    assert result["defaults_added"] == []
    assert not [f for f in result["findings"] if f["code"] == "NODE_DEFAULTS_ADDED"]
    assert result["valid"] is True
    # Only the CPUs named: memory and boot drive come from the defaults, the CPU stays the design's own.
    partial = deepcopy(CONTRACT_EXAMPLE)
    partial["node_groups"][0]["components"].append({"part": "XEON-8480+", "quantity": 2, "role": "cpu"})
    added = validate_json(document=partial)["defaults_added"]
    assert [a["role"] for a in added] == ["memory", "boot"]


def test_an_explicit_choice_that_breaks_a_rule_is_an_error_naming_the_fix(seeded_catalog):
    doc = deepcopy(CONTRACT_EXAMPLE)
    doc["node_groups"][0]["components"].append({"part": "EPYC-9474F", "quantity": 1})
    result = validate_json(document=doc)
    assert result["valid"] is False
    codes = {f["code"]: f for f in result["findings"] if f["severity"] == "error"}
    # the SP5 socket is a physical mismatch: an error; so is the empty second socket of an HGX 8-GPU host
    assert "NODE_CPU_NOT_ACCEPTED" in codes
    empty = codes["NODE_CPU_SOCKET_EMPTY_HGX"]
    assert empty["fix"] == "Set the quantity of EPYC-9474F to 2."


def test_a_server_without_a_default_set_says_the_node_is_incomplete(seeded_catalog):
    """SYS-420GP-TNAR is a DDR4 platform with no node set in the catalogue (seed README): an info, not an error."""
    doc = {
        "schema": "design/v1",
        "node_groups": [
            {
                "name": "a100",
                "count": 1,
                "server": "SYS-420GP-TNAR",
                "components": [{"part": "HGX-A100-8GPU", "quantity": 1}],
            }
        ],
    }
    result = validate_json(document=doc)
    assert result["defaults_added"] == []
    (f,) = [f for f in result["findings"] if f["code"] == "NODE_INCOMPLETE"]
    assert f["severity"] == "info" and "CPUs, memory, boot drive" in f["message"]


def test_a_role_that_does_not_fit_the_part_is_bad_input_naming_the_field(seeded_catalog):
    doc = deepcopy(CONTRACT_EXAMPLE)
    doc["node_groups"][0]["components"].append({"part": "MTC40F2046S1RC48BA1", "quantity": 16, "role": "cpu"})
    with pytest.raises(DesignInputError) as exc:
        validate_json(document=doc)
    assert "memory" in exc.value.errors["node_groups[0].components[2].role"]


def test_the_defaults_are_priced_on_the_bill_of_materials_per_node(seeded_catalog):
    from configurator.snapshot import catalog_snapshot

    result = validate_json(document=CONTRACT_EXAMPLE)
    bill = design_bill(document=CONTRACT_EXAMPLE, result=result)
    lines = {line.part_number: line for line in bill.lines if line.section == "nodes" and line.group == "gpu"}
    view = catalog_snapshot()
    for d in result["defaults_added"]:
        line = lines[d["part"]]
        assert line.quantity == d["quantity"] * 4  # count 4
        assert line.unit_price_eur == view.get(d["part"]).price_eur is not None
    assert bill.total == sum(line.total_eur for line in bill.lines if line.total_eur is not None)


def test_api_and_cli_return_the_same_defaults_added(seeded_catalog, tmp_path):
    from rest_framework.test import APIClient

    from api.models import ApiClient

    client = ApiClient(name="crm", scope="quote")
    token = client.set_new_token()
    client.save()
    http = APIClient()
    http.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    body = http.post("/api/v1/designs/validate/", CONTRACT_EXAMPLE, format="json").json()
    path = tmp_path / "design.json"
    path.write_text(json.dumps(CONTRACT_EXAMPLE))
    out = io.StringIO()
    with pytest.raises(SystemExit) as done:
        call_command("validate_design", str(path), stdout=out)
    assert done.value.code == 0
    cli = json.loads(out.getvalue())
    assert (
        body["defaults_added"]
        == cli["defaults_added"]
        == [{"node_group": "gpu", **d} for d in _defaults("SYS-821GE-TNHR")]
    )
    assert [f["code"] for f in body["findings"]] == [f["code"] for f in cli["findings"]]
    schema = http.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    result = schema["components"]["schemas"]["ValidationResult"]["properties"]
    added = schema["components"]["schemas"]["DefaultAdded"]["properties"]
    assert "defaults_added" in result and set(added) == {"node_group", "part", "quantity", "role"}
