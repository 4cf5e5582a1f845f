"""The expansion doors: POST /api/v1/configurations/{id}/expansions/ and manage.py plan_expansion answer the same
JSON (the grown design's result plus delta_bom, unused, recabling, moved_devices and findings)."""

from __future__ import annotations

import json

from .test_cli import run

CONFIGS = "/api/v1/configurations/"
KEYS = {"valid", "bom", "delta_bom", "unused", "recabling", "moved_devices", "findings"}


def _stored(http, design) -> int:
    response = http.post(CONFIGS, {"document": design}, format="json")
    assert response.status_code == 201, response.content
    return response.json()["id"]


def _group(design) -> str:
    return design["node_groups"][0]["name"]


def test_expansion_answers_the_delta_bill_and_the_recabling(api, design):
    pk = _stored(api, design)
    response = api.post(f"{CONFIGS}{pk}/expansions/", {"node_group": _group(design), "add": 4}, format="json")
    assert response.status_code == 200, response.content
    answer = response.json()
    assert answer.keys() >= KEYS
    assert sum(line["quantity"] for line in answer["delta_bom"] if line["part"] == "SYS-821GE-TNHR") == 4
    assert all(line["quantity"] > 0 for line in answer["delta_bom"])
    actions = {row["action"] for row in answer["recabling"]}
    assert {"keep", "add"} <= actions
    assert answer["expansion"]["installed_nodes"] == 4 and answer["expansion"]["expanded_nodes"] == 8


def test_a_read_client_may_plan_an_expansion_of_its_own_configuration_only(make_client, other_api, design):
    client, _token, http = make_client("crm-x")
    pk = _stored(http, design)
    client.scope = "read"
    client.save(update_fields=["scope"])
    assert http.post(f"{CONFIGS}{pk}/expansions/", {"add": 2}, format="json").status_code == 200
    assert other_api.post(f"{CONFIGS}{pk}/expansions/", {"add": 2}, format="json").status_code == 404


def test_a_bad_body_is_400_naming_the_field(api, design):
    pk = _stored(api, design)
    url = f"{CONFIGS}{pk}/expansions/"
    for body, field in (
        ({"node_group": _group(design)}, "add"),
        ({"node_group": _group(design), "add": -3}, "add"),
        ({"node_group": "no-such-group", "add": 3}, "node_group"),
        ({"node_groups": "gpu"}, "node_groups"),
    ):
        response = api.post(url, body, format="json")
        assert response.status_code == 400, (body, response.content)
        assert field in {f["path"] for f in response.json()["error"]["fields"]}, response.json()


def test_the_cli_writes_the_same_json(seeded_catalog, design, tmp_path):
    installed = tmp_path / "built.json"
    installed.write_text(json.dumps(design))
    output = tmp_path / "expansion.json"
    code, _out, _err = run("plan_expansion", str(installed), "--add", "4", "--output", str(output))
    assert code == 0
    answer = json.loads(output.read_text())
    assert answer.keys() >= KEYS
    assert sum(line["quantity"] for line in answer["delta_bom"] if line["part"] == "SYS-821GE-TNHR") == 4


def test_the_cli_reads_a_frozen_quote_and_refuses_an_unknown_group(seeded_catalog, design, tmp_path):
    frozen = tmp_path / "quote.json"
    frozen.write_text(json.dumps({"schema": "quote/v1", "design": design}))
    code, out, _err = run("plan_expansion", "--from", str(frozen), "--add-nodes", "4", "--indent", "0")
    assert code == 0 and json.loads(out)["expansion"]["expanded_nodes"] == 8
    code, _out, err = run("plan_expansion", str(frozen), "--add", "4", "--node-group", "nope")
    assert code == 2
    assert err.startswith("--node-group:")
