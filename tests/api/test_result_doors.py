"""One result, written out by each door: the validation API, POST validate of a stored configuration, the
validate_design command and a quote's frozen snapshot carry the same JSON for the same design, key for key (in the
same order, but for the snapshot, whose order is the database's), and the API's fabric plan is the plan_fabric
command's."""

from __future__ import annotations

import io
import json
import sys

import pytest
from django.core.management import call_command

from quotes.models import Quote

VALIDATE = "/api/v1/designs/validate/"
PLAN = "/api/v1/fabric-plans/"
CONFIGS = "/api/v1/configurations/"
QUOTES = "/api/v1/quotes/"


def _command(name: str, *args: str, stdin: str = "") -> dict:
    out, old_stdin = io.StringIO(), sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        call_command(name, *args, stdout=out, stderr=io.StringIO())
    except SystemExit:
        pass
    finally:
        sys.stdin = old_stdin
    return json.loads(out.getvalue())


def _same(a: object, b: object) -> bool:
    """Equal values with the keys in the same order (json.dumps writes them in their order)."""
    return json.dumps(a, ensure_ascii=False) == json.dumps(b, ensure_ascii=False)


def _same_values(a: object, b: object) -> bool:
    """Equal values, keys in any order: PostgreSQL's jsonb stores an object's keys in an order of its own."""
    return json.dumps(a, ensure_ascii=False, sort_keys=True) == json.dumps(b, ensure_ascii=False, sort_keys=True)


def _without_catalogue_time(result: dict) -> dict:
    return {**result, "catalog_version": None}


@pytest.mark.parametrize("warning", [False, True], ids=["valid", "with-a-warning"])
def test_the_api_and_the_command_line_write_the_same_result(api, design, warning):
    if warning:
        design["node_groups"][0]["components"][1]["quantity"] = 4  # 4 NICs for 8 GPUs: NIC_FEWER_THAN_GPUS
    response = api.post(VALIDATE, design, format="json")
    assert response.status_code == 200
    sent = response.json()
    assert any(f["severity"] == "warning" for f in sent["findings"]) is warning
    assert sent["fabric_plan"]["bom"] and sent["rack_plan"]["racks"] and sent["bom"]
    assert _same(_command("validate_design", "-", stdin=json.dumps(design)), sent)
    stored = api.post(CONFIGS, {"document": design}, format="json").json()["id"]
    assert _same(api.post(f"{CONFIGS}{stored}/validate/", format="json").json(), sent)


def test_a_quote_freezes_the_result_the_api_sends(api, design, customer):
    sent = api.post(VALIDATE, design, format="json").json()
    response = api.post(QUOTES, {"design": design, "customer": customer}, format="json")
    assert response.status_code == 202, response.json()
    frozen = Quote.objects.get(pk=response.json()["id"]).frozen
    assert _same_values(_without_catalogue_time(frozen["validation"]), _without_catalogue_time(sent))
    assert frozen["receipt"]["findings"] == sent["findings"]
    assert frozen["receipt"]["design_hash"] == sent["design_hash"]


def test_the_api_and_the_command_line_write_the_same_fabric_plan(api):
    response = api.post(PLAN, {"nodes": 16, "rails": 8, "switch": "MQM9700-NS2F"}, format="json")
    assert response.status_code == 200
    sent = response.json()
    assert sent["tiers"] >= 1 and sent["bom"]
    printed = _command("plan_fabric", "--nodes", "16", "--rails", "8", "--switch", "MQM9700-NS2F")
    assert _same(printed, sent)
