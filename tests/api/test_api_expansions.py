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
    code, _out, err = run("plan_expansion", str(installed), "--add", "4", "--output", str(tmp_path))
    assert code == 2 and err.startswith("--output: cannot write") and "Is a directory" in err


def test_the_cli_reads_a_frozen_quote_and_refuses_an_unknown_group(seeded_catalog, design, tmp_path):
    frozen = tmp_path / "quote.json"
    frozen.write_text(json.dumps({"schema": "quote/v1", "design": design}))
    code, out, _err = run("plan_expansion", "--from", str(frozen), "--add-nodes", "4", "--indent", "0")
    assert code == 0 and json.loads(out)["expansion"]["expanded_nodes"] == 8
    code, _out, err = run("plan_expansion", str(frozen), "--add", "4", "--node-group", "nope")
    assert code == 2
    assert err.startswith("--node-group:")


# --- the expansion quote: POST /api/v1/quotes/{id}/expansions/ ------------------------------------------------

QUOTES = "/api/v1/quotes/"


def _issued(http, design, customer) -> dict:
    response = http.post(QUOTES, {"design": design, "customer": customer, "crm_reference": "OPP-9"}, format="json")
    assert response.status_code == 202, response.content
    assert response.json()["status"] == "issued"
    return response.json()


def _lines(quote_id: int) -> list[tuple[str, str, int]]:
    from quotes.models import Quote

    frozen = Quote.objects.get(pk=quote_id).frozen
    return sorted((line["section"], line["part_number"], line["quantity"]) for line in frozen["lines"])


def test_an_expansion_quote_is_201_with_its_number_and_the_originals(api, design, customer, settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path)
    original = _issued(api, design, customer)
    growth = {"node_group": _group(design), "add": 4}
    response = api.post(f"{QUOTES}{original['id']}/expansions/", growth, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["expansion_of"] == original["number"] and body["number"] != original["number"]
    assert response["Location"] == body["url"]
    read = api.get(body["url"]).json()
    assert read["expansion_of"] == original["number"] and read["crm_reference"] == "OPP-9"
    assert read["customer"]["email"] == customer["email"]
    # its lines are the delta bill the configuration's expansion plan answers, the re-cabling line included
    grown = api.get(f"{CONFIGS}{read['configuration']}/")  # the grown design is this client's configuration
    assert grown.status_code == 200 and grown.json()["document"]["node_groups"][0]["count"] == 8
    installed = api.post(f"{CONFIGS}{_stored(api, design)}/expansions/", growth, format="json").json()
    delta = sorted((line["section"], line["part"], line["quantity"]) for line in installed["delta_bom"])
    assert _lines(body["id"]) == delta
    assert any(part == "SVC-RECABLE" for _section, part, _n in delta)


def test_another_clients_quote_is_404_and_a_read_client_is_403(make_client, design, customer):
    client, _token, http = make_client("crm-x")
    original = _issued(http, design, customer)
    other = make_client("crm-y")[2]
    url = f"{QUOTES}{original['id']}/expansions/"
    assert other.post(url, {"add": 2}, format="json").status_code == 404
    client.scope = "read"
    client.save(update_fields=["scope"])
    assert http.post(url, {"add": 2}, format="json").status_code == 403


def test_a_bad_expansion_body_is_400_naming_the_field_and_stores_nothing(api, design, customer):
    from configurator.models import Configuration
    from quotes.models import Quote

    original = _issued(api, design, customer)
    url = f"{QUOTES}{original['id']}/expansions/"
    before = (Quote.objects.count(), Configuration.objects.count())
    for body, field in (
        ({"add": "many"}, "add"),
        ({"node_group": _group(design), "add": 0}, "add"),
        ({"node_group": "no-such-group", "add": 3}, "node_group"),
    ):
        response = api.post(url, body, format="json")
        assert response.status_code == 400, (body, response.content)
        assert field in {f["path"] for f in response.json()["error"]["fields"]}, response.json()
    assert (Quote.objects.count(), Configuration.objects.count()) == before
