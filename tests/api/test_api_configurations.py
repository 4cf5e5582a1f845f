"""Stored designs: CRUD, ownership by the API client, crm_reference filter, isolation between clients."""

from __future__ import annotations

import pytest

CONFIGS = "/api/v1/configurations/"


def _create(http, document, **extra):
    response = http.post(CONFIGS, {"document": document, **extra}, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def test_create_read_update_delete(api, design):
    created = _create(api, design, crm_reference="OPP-1001")
    assert created["name"] == design["name"]
    assert created["valid"] is True
    assert created["crm_reference"] == "OPP-1001"
    url = f"{CONFIGS}{created['id']}/"
    assert created["url"].endswith(url)

    assert api.get(url).json()["document"] == design

    design["node_groups"][0]["count"] = 2
    updated = api.put(url, {"document": design, "name": "Two nodes"}, format="json")
    assert updated.status_code == 200
    assert updated.json()["name"] == "Two nodes"
    assert updated.json()["document"]["node_groups"][0]["count"] == 2

    patched = api.patch(url, {"crm_reference": "OPP-2002"}, format="json")
    assert patched.status_code == 200
    assert patched.json()["crm_reference"] == "OPP-2002"
    assert patched.json()["document"]["node_groups"][0]["count"] == 2

    assert api.delete(url).status_code == 204
    assert api.get(url).status_code == 404


def test_create_answers_location(api, design):
    response = api.post(CONFIGS, {"document": design}, format="json")
    assert response["Location"].endswith(f"{CONFIGS}{response.json()['id']}/")


def test_an_invalid_design_may_be_stored_and_says_so(api, design):
    design["node_groups"][0]["components"][0]["part"] = "HGX-B200-8GPU"  # refused: SYS-821GE-TNHR takes H100/H200
    created = _create(api, design)
    assert created["valid"] is False
    assert created["error_count"] >= 1
    result = api.post(f"{CONFIGS}{created['id']}/validate/", format="json")
    assert result.status_code == 200
    assert result.json()["valid"] is False


def test_malformed_design_is_400_with_document_paths(api, design):
    design["node_groups"][0]["count"] = -1
    response = api.post(CONFIGS, {"document": design}, format="json")
    assert response.status_code == 400
    assert "document.node_groups[0].count" in {f["path"] for f in response.json()["error"]["fields"]}


def test_document_must_be_an_object(api):
    response = api.post(CONFIGS, {"document": [1, 2]}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["fields"][0]["path"] == "document"


def test_filter_by_crm_reference(api, design):
    _create(api, design, crm_reference="OPP-1")
    _create(api, design, crm_reference="OPP-2")
    listed = api.get(CONFIGS, {"crm_reference": "OPP-2"}).json()
    assert listed["count"] == 1
    assert listed["results"][0]["crm_reference"] == "OPP-2"


def test_clients_see_only_their_own_configurations(api, other_api, design):
    mine = _create(api, design)
    theirs = _create(other_api, design)
    assert [c["id"] for c in api.get(CONFIGS).json()["results"]] == [mine["id"]]
    url = f"{CONFIGS}{theirs['id']}/"
    assert api.get(url).status_code == 404
    assert api.patch(url, {"name": "mine now"}, format="json").status_code == 404
    assert api.delete(url).status_code == 404
    assert api.post(f"{url}validate/").status_code == 404
    assert other_api.get(url).status_code == 200


def test_owner_is_recorded(make_client, design):
    client, _token, http = make_client("crm-owner")
    created = _create(http, design)
    from configurator.models import Configuration

    configuration = Configuration.objects.get(pk=created["id"])
    assert configuration.api_owner.client == client
    assert configuration.channel == "api"


@pytest.mark.parametrize("bad_id", ["0", "99999999", "99999999999999999999999", "abc"])
def test_unknown_ids_are_404(api, bad_id):
    assert api.get(f"{CONFIGS}{bad_id}/").status_code == 404


def test_read_scope_may_list_but_not_change(make_client, design):
    _client, _token, writer = make_client("crm-w")
    created = _create(writer, design)
    _reader, _t, reader = make_client("crm-r", scope="read")
    assert reader.get(CONFIGS).json()["count"] == 0  # a read client still sees only its own
    assert reader.post(CONFIGS, {"document": design}, format="json").status_code == 403
    assert reader.patch(f"{CONFIGS}{created['id']}/", {"name": "x"}, format="json").status_code == 403


def test_cabling_plan_streams_one_row_per_link_and_only_to_the_owner(api, other_api, design):
    design["fabric"] = {"switch": "MQM9700-NS2F"}
    design["node_groups"][0]["count"] = 4
    created = _create(api, design)
    url = f"{CONFIGS}{created['id']}/cabling.csv"
    response = api.get(url)
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    lines = b"".join(response.streaming_content).decode().splitlines()
    # The existing columns first, unchanged; the rack and unit of both ends appended (rack plan), then the network.
    assert lines[0] == "a_end,a_port,z_end,z_port,link_class,cable_part,length_m,a_rack,a_u,z_rack,z_u,network"
    plan = api.post(f"{CONFIGS}{created['id']}/validate/").json()["fabric_plan"]
    compute = [line for line in lines[1:] if line.endswith(",compute")]
    assert len(compute) == plan["node_links"] + plan["leaf_spine_links"] + plan["spine_core_links"]
    assert other_api.get(url).status_code == 404


def test_cabling_plan_without_a_fabric_is_409(api, design):
    design["fabric"] = None
    created = _create(api, design)
    response = api.get(f"{CONFIGS}{created['id']}/cabling.csv")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "no_fabric_plan"


def test_location_is_a_plain_string_header(api, design):
    # wsgiref (runserver) refuses header values that are not str; a lazy URL object would be a 500 there.
    response = api.post(CONFIGS, {"document": design}, format="json")
    assert type(response.headers["Location"]) is str


def test_storing_a_design_validates_it_once(api, design, validations):
    _create(api, design)
    assert validations.call_count == 1


def test_storing_a_design_with_unknown_parts_is_400_without_validating(api, design, validations):
    design["node_groups"][0]["server"] = "NO-SUCH-SERVER"
    response = api.post(CONFIGS, {"document": design}, format="json")
    assert response.status_code == 400
    assert "document.node_groups[0].server" in {f["path"] for f in response.json()["error"]["fields"]}
    validations.assert_not_called()


def _make_stale(configuration_id):
    from configurator.models import Configuration

    Configuration.objects.filter(pk=configuration_id).update(valid=False, error_count=42, warning_count=7)


def _verdict(configuration_id):
    from configurator.models import Configuration

    return Configuration.objects.values_list("valid", "error_count", "warning_count").get(pk=configuration_id)


def test_validate_action_answers_like_designs_validate_and_stores_nothing(make_client, design):
    client, _token, writer = make_client("crm-w")
    created = _create(writer, design)
    _make_stale(created["id"])
    client.scope = "read"  # the same client, later given read access only
    client.save(update_fields=["scope"])
    response = writer.post(f"{CONFIGS}{created['id']}/validate/", format="json")
    assert response.status_code == 200
    assert response.json() == writer.post("/api/v1/designs/validate/", design, format="json").json()
    assert _verdict(created["id"]) == (False, 42, 7)  # a read-scope call wrote nothing


def test_validate_action_of_a_malformed_stored_design_is_400_with_document_paths(api, design):
    from configurator.models import Configuration

    created = _create(api, design)
    broken = dict(design, node_groups=[dict(design["node_groups"][0], count=-1)])
    Configuration.objects.filter(pk=created["id"]).update(document=broken)
    response = api.post(f"{CONFIGS}{created['id']}/validate/", format="json")
    assert response.status_code == 400
    assert "document.node_groups[0].count" in {f["path"] for f in response.json()["error"]["fields"]}


def test_cabling_plan_stores_nothing(api, design):
    design["fabric"] = {"switch": "MQM9700-NS2F"}
    design["node_groups"][0]["count"] = 4
    created = _create(api, design)
    _make_stale(created["id"])
    response = api.get(f"{CONFIGS}{created['id']}/cabling.csv")
    assert response.status_code == 200
    b"".join(response.streaming_content)
    assert _verdict(created["id"]) == (False, 42, 7)


@pytest.mark.parametrize("status", ["awaiting_review", "awaiting_approval"])
def test_design_of_a_configuration_with_an_open_quote_cannot_be_replaced(api, design, customer, status):
    from quotes.models import Quote

    created = _create(api, design)
    url = f"{CONFIGS}{created['id']}/"
    quote = api.post("/api/v1/quotes/", {"configuration": created["id"], "customer": customer}, format="json")
    assert quote.status_code == 202, quote.content
    Quote.objects.filter(pk=quote.json()["id"]).update(status=status)

    changed = dict(design, node_groups=[dict(design["node_groups"][0], count=2)])
    for response in (
        api.put(url, {"document": changed}, format="json"),
        api.patch(url, {"document": changed, "name": "Two nodes"}, format="json"),
    ):
        assert response.status_code == 409, response.content
        error = response.json()["error"]
        assert error["code"] == "quote_open"
        assert quote.json()["number"] in error["message"] and "cannot be replaced" in error["message"]
    stored = api.get(url).json()
    assert stored["document"] == design and stored["name"] == created["name"]

    renamed = api.patch(url, {"name": "Renamed", "crm_reference": "OPP-9"}, format="json")
    assert renamed.status_code == 200  # only the design is frozen while the request is open

    Quote.objects.filter(pk=quote.json()["id"]).update(status="issued")
    assert api.put(url, {"document": changed}, format="json").status_code == 200
