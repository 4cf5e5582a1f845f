"""A stored configuration marked as built (POST /api/v1/configurations/{id}/built/): its design is the installed
cluster's record, kept from then on, and what expansions start from."""

from __future__ import annotations

CONFIGS = "/api/v1/configurations/"


def _create(http, document):
    response = http.post(CONFIGS, {"document": document}, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def test_a_valid_design_is_marked_built_once_and_then_keeps_its_design(api, design):
    created = _create(api, design)
    assert created["built_at"] is None
    url = f"{CONFIGS}{created['id']}/"
    marked = api.post(f"{url}built/", format="json")
    assert marked.status_code == 200, marked.content
    built_at = marked.json()["built_at"]
    assert built_at is not None
    assert api.post(f"{url}built/", format="json").json()["built_at"] == built_at  # again: unchanged
    assert api.get(url).json()["built_at"] == built_at
    assert [row["built_at"] for row in api.get(CONFIGS).json()["results"]] == [built_at]

    design["node_groups"][0]["count"] += 1
    refused = api.put(url, {"document": design}, format="json")
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "built"
    renamed = api.patch(url, {"name": "Installed in hall 2"}, format="json")
    assert renamed.status_code == 200 and renamed.json()["name"] == "Installed in hall 2"
    grown = api.post(f"{url}expansions/", {"add": 1}, format="json")  # the built design is the installed cluster
    assert grown.status_code == 200
    assert grown.json()["moved_devices"] == []


def test_an_invalid_design_cannot_be_marked_built(api, design):
    design["node_groups"][0]["components"][0]["part"] = "HGX-B200-8GPU"  # refused: SYS-821GE-TNHR takes H100/H200
    created = _create(api, design)
    refused = api.post(f"{CONFIGS}{created['id']}/built/", format="json")
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "not_valid"
    assert api.get(f"{CONFIGS}{created['id']}/").json()["built_at"] is None


def test_only_the_owner_with_scope_write_marks_a_configuration_built(make_client, other_api, design):
    _client, _token, writer = make_client("crm-w")
    created = _create(writer, design)
    url = f"{CONFIGS}{created['id']}/built/"
    assert other_api.post(url, format="json").status_code == 404
    _reader, _t, reader = make_client("crm-r", scope="read")
    assert reader.post(url, format="json").status_code in (403, 404)
    assert writer.get(f"{CONFIGS}{created['id']}/").json()["built_at"] is None


# --- the expansion quote of a built configuration: POST /api/v1/configurations/{id}/expansion-quotes/ -------------


def _frozen(quote_id: int) -> dict:
    from quotes.models import Quote

    return Quote.objects.get(pk=quote_id).frozen


def test_a_built_configuration_is_quoted_for_its_expansion_with_the_delta_bill(
    api, design, customer, settings, tmp_path
):
    settings.MEDIA_ROOT = str(tmp_path)
    built = _create(api, design)
    url = f"{CONFIGS}{built['id']}/"
    assert api.post(f"{url}built/", format="json").status_code == 200
    group = design["node_groups"][0]["name"]
    growth = {"node_group": group, "add": 4}
    response = api.post(f"{url}expansion-quotes/", {**growth, "customer": customer}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["expansion_of_built"] == built["id"]
    assert response["Location"] == body["url"]
    read = api.get(body["url"]).json()
    assert read["customer"]["email"] == customer["email"]
    grown = api.get(f"{CONFIGS}{read['configuration']}/").json()  # the grown design: this client's configuration
    count = design["node_groups"][0]["count"]
    assert grown["document"]["node_groups"][0]["count"] == count + 4 and grown["built_at"] is None
    # its lines are the delta bill the built configuration's expansion plan answers, the re-cabling line included
    plan = api.post(f"{url}expansions/", growth, format="json").json()
    delta = sorted((line["section"], line["part"], line["quantity"]) for line in plan["delta_bom"])
    frozen = _frozen(body["id"])
    assert sorted((line["section"], line["part_number"], line["quantity"]) for line in frozen["lines"]) == delta
    assert frozen["expansion"]["built"] == built["name"] and not frozen["expansion"].get("of")
    assert frozen["expansion"]["installed_nodes"] == count


def test_the_offer_of_a_built_configurations_expansion_names_the_installed_cluster():
    from django.utils import translation

    from quotes.expansionwords import expansion_facts, expansion_source, expansion_title
    from quotes.snapshot import FrozenExpansion

    expansion = FrozenExpansion(built="Hall 2 cluster", installed_nodes=4, expanded_nodes=8)
    with translation.override("en"):
        assert expansion_title(expansion) == "Expansion of the installed cluster Hall 2 cluster"
        assert expansion_source(expansion) == ("Expansion of the installed cluster", "Hall 2 cluster")
        assert dict(expansion_facts(expansion))["Installed"] == "4 nodes, built as Hall 2 cluster"
    with translation.override("nl"):
        assert expansion_title(expansion) == "Uitbreiding van het geïnstalleerde cluster Hall 2 cluster"
    quoted = FrozenExpansion(of="Q-2026-0001", installed_nodes=4, expanded_nodes=8)
    with translation.override("en"):
        assert expansion_title(quoted) == "Expansion of quote Q-2026-0001"


def test_a_configuration_not_marked_built_is_not_quoted_for_an_expansion(api, design, customer):
    from quotes.models import Quote

    created = _create(api, design)
    before = Quote.objects.count()
    refused = api.post(f"{CONFIGS}{created['id']}/expansion-quotes/", {"add": 2, "customer": customer}, format="json")
    assert refused.status_code == 422
    assert "configuration" in {f["path"] for f in refused.json()["error"]["fields"]}
    assert Quote.objects.count() == before


def test_a_bad_body_is_400_naming_the_field(api, design, customer):
    created = _create(api, design)
    url = f"{CONFIGS}{created['id']}/"
    api.post(f"{url}built/", format="json")
    for body, field in (({"add": "many", "customer": customer}, "add"), ({"add": 2}, "customer")):
        response = api.post(f"{url}expansion-quotes/", body, format="json")
        assert response.status_code == 400, body
        assert any(f["path"].startswith(field) for f in response.json()["error"]["fields"]), response.json()


def test_every_read_of_a_quote_says_which_built_configuration_it_expands(api, design, customer, settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path)
    built = _create(api, design)
    api.post(f"{CONFIGS}{built['id']}/built/", format="json")
    quote = api.post(
        f"{CONFIGS}{built['id']}/expansion-quotes/", {"add": 2, "customer": customer}, format="json"
    ).json()
    assert api.get(quote["url"]).json()["expansion_of_built"] == built["id"]
    listed = {q["id"]: q for q in api.get("/api/v1/quotes/").json()["results"]}
    assert listed[quote["id"]]["expansion_of_built"] == built["id"]
    plain = api.post("/api/v1/quotes/", {"design": design, "customer": customer}, format="json").json()
    assert api.get(f"/api/v1/quotes/{plain['id']}/").json()["expansion_of_built"] is None
