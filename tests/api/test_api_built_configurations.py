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
