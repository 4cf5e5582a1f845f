"""Quotes through the API: request (202), status and totals, documents (409 until ready), revise, approve."""

from __future__ import annotations

import json

import pytest

from quotes.models import Quote

QUOTES = "/api/v1/quotes/"
CONFIGS = "/api/v1/configurations/"


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path / "media")
    return tmp_path / "media"


@pytest.fixture
def configuration_id(api, design):
    return api.post(CONFIGS, {"document": design}, format="json").json()["id"]


def _request(http, body, **headers):
    return http.post(QUOTES, body, format="json", **headers)


def test_request_for_a_stored_configuration_answers_202(api, configuration_id, customer):
    response = _request(api, {"configuration": configuration_id, "customer": customer, "crm_reference": "OPP-7"})
    assert response.status_code == 202, response.content
    body = response.json()
    assert set(body) == {"id", "number", "revision", "status", "doc_status", "url"}
    assert body["number"].startswith("Q-")
    assert body["status"] == "issued"
    assert response["Location"] == body["url"]

    quote = api.get(body["url"]).json()
    assert quote["crm_reference"] == "OPP-7"
    assert quote["doc_status"] in {"pending", "building", "ready"}
    assert 0 <= quote["progress"] <= 100
    assert set(quote["totals"]) >= {"subtotal", "discount", "vat_rate", "vat_amount", "total", "vat_notice"}
    assert quote["totals"]["vat_rate"] == "21.00"  # a Dutch customer pays Dutch VAT


def test_request_with_an_inline_design(api, design, customer):
    response = _request(api, {"design": design, "customer": customer, "crm_reference": "OPP-8"})
    assert response.status_code == 202
    quote = Quote.objects.get(pk=response.json()["id"])
    assert quote.configuration.api_owner.client.name == "crm-a"
    assert api.get(CONFIGS, {"crm_reference": "OPP-8"}).json()["count"] == 1


def test_configuration_or_design_but_not_both(api, configuration_id, design, customer):
    both = _request(api, {"configuration": configuration_id, "design": design, "customer": customer})
    neither = _request(api, {"customer": customer})
    assert both.status_code == neither.status_code == 400
    assert neither.json()["error"]["fields"][0]["path"] == "configuration"


def test_malformed_inline_design_names_design_fields(api, design, customer):
    design["node_groups"][0]["count"] = 0
    response = _request(api, {"design": design, "customer": customer})
    assert response.status_code == 400
    assert "design.node_groups[0].count" in {f["path"] for f in response.json()["error"]["fields"]}


def test_design_with_errors_is_refused_with_422_and_nothing_stored(api, design, customer):
    design["node_groups"][0]["components"][0]["part"] = "HGX-B200-8GPU"  # refused: SYS-821GE-TNHR takes H100/H200
    response = _request(api, {"design": design, "customer": customer})
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "quote_rejected"
    assert not Quote.objects.exists()
    assert api.get(CONFIGS).json()["count"] == 0  # the inline configuration was rolled back too


def test_bad_customer_is_400_with_field_paths(api, configuration_id, customer):
    customer["email"] = "not-an-address"
    del customer["country"]
    response = _request(api, {"configuration": configuration_id, "customer": customer})
    assert response.status_code == 400
    paths = {f["path"] for f in response.json()["error"]["fields"]}
    assert {"customer.email", "customer.country"} <= paths


def test_unknown_country_is_refused_by_the_quote_rules(api, configuration_id, customer):
    customer["country"] = "XX"
    response = _request(api, {"configuration": configuration_id, "customer": customer})
    assert response.status_code == 422
    assert "customer.country" in {f["path"] for f in response.json()["error"]["fields"]}


def test_another_clients_configuration_cannot_be_quoted(api, other_api, design, customer):
    theirs = other_api.post(CONFIGS, {"document": design}, format="json").json()["id"]
    response = _request(api, {"configuration": theirs, "customer": customer})
    assert response.status_code == 400
    assert response.json()["error"]["fields"][0]["path"] == "configuration"


def test_clients_see_only_their_own_quotes(api, other_api, configuration_id, customer):
    quote = _request(api, {"configuration": configuration_id, "customer": customer}).json()
    assert other_api.get(f"{QUOTES}{quote['id']}/").status_code == 404
    assert other_api.get(f"{QUOTES}{quote['id']}/document.pdf").status_code == 404
    assert other_api.get(f"{QUOTES}{quote['id']}/bom.xlsx").status_code == 404
    assert other_api.post(f"{QUOTES}{quote['id']}/revise/", {}, format="json").status_code == 404
    assert other_api.get(QUOTES).json()["count"] == 0
    assert api.get(QUOTES).json()["count"] == 1


def test_documents_are_409_until_ready_then_downloadable(
    api, configuration_id, customer, media, django_capture_on_commit_callbacks
):
    quote = _request(api, {"configuration": configuration_id, "customer": customer}).json()
    pending = api.get(f"{QUOTES}{quote['id']}/document.pdf")
    assert pending.status_code == 409
    assert pending.json()["error"]["code"] == "document_not_ready"
    assert pending["Retry-After"]
    assert api.get(f"{QUOTES}{quote['id']}/bom.xlsx").status_code == 409

    with django_capture_on_commit_callbacks(execute=True):  # a second, different request: another CRM reference
        built = _request(api, {"configuration": configuration_id, "customer": customer, "crm_reference": "OPP-2"})
        assert built.status_code == 202, built.content
        built = built.json()
    detail = api.get(f"{QUOTES}{built['id']}/").json()
    assert detail["doc_status"] == "ready", detail
    assert detail["progress"] == 100
    pdf = api.get(detail["document_url"])
    assert pdf.status_code == 200
    assert pdf["Content-Type"] == "application/pdf"
    assert b"".join(pdf.streaming_content).startswith(b"%PDF")
    xlsx = api.get(detail["bom_url"])
    assert xlsx.status_code == 200
    assert b"".join(xlsx.streaming_content)[:2] == b"PK"


def test_failed_documents_are_409_with_the_reason(api, configuration_id, customer):
    quote = _request(api, {"configuration": configuration_id, "customer": customer}).json()
    Quote.objects.filter(pk=quote["id"]).update(doc_status="failed", failure_message="Font missing")
    response = api.get(f"{QUOTES}{quote['id']}/document.pdf")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "document_failed"
    assert "Font missing" in response.json()["error"]["message"]


def test_quote_request_is_idempotent(api, configuration_id, customer):
    body = {"configuration": configuration_id, "customer": customer, "crm_reference": "OPP-9"}
    first = _request(api, body, HTTP_IDEMPOTENCY_KEY="quote-OPP-9")
    again = _request(api, body, HTTP_IDEMPOTENCY_KEY="quote-OPP-9")
    assert first.status_code == again.status_code == 202
    assert again.json() == first.json()
    assert Quote.objects.count() == 1
    changed = _request(api, {**body, "crm_reference": "OPP-10"}, HTTP_IDEMPOTENCY_KEY="quote-OPP-9")
    assert changed.status_code == 422


def test_revise_makes_a_new_revision_and_supersedes(api, configuration_id, customer):
    quote = _request(api, {"configuration": configuration_id, "customer": customer}).json()
    response = api.post(
        f"{QUOTES}{quote['id']}/revise/", {"discount_percent": "5"}, format="json", HTTP_IDEMPOTENCY_KEY="rev-1"
    )
    assert response.status_code == 202
    revised = response.json()
    assert revised["revision"] == 2
    assert revised["number"].endswith("-R2")
    assert api.get(f"{QUOTES}{quote['id']}/").json()["status"] == "superseded"
    assert api.get(revised["url"]).json()["totals"]["discount"] != "0.00"
    replay = api.post(
        f"{QUOTES}{quote['id']}/revise/", {"discount_percent": "5"}, format="json", HTTP_IDEMPOTENCY_KEY="rev-1"
    )
    assert replay.status_code == 202 and replay.json() == revised
    older = api.post(f"{QUOTES}{quote['id']}/revise/", {"discount_percent": "6"}, format="json")
    assert older.status_code == 422  # only the newest revision can be revised


def test_big_discount_waits_for_approval_by_a_permitted_user(make_client, approver, design, customer):
    _c, _t, crm = make_client("crm-sales")
    _c2, _t2, manager = make_client("crm-manager", user=approver)
    configuration = crm.post(CONFIGS, {"document": design}, format="json").json()["id"]
    quote = _request(crm, {"configuration": configuration, "customer": customer, "discount_percent": "30"}).json()
    assert quote["status"] == "awaiting_approval"

    denied = crm.post(f"{QUOTES}{quote['id']}/approve/")
    assert denied.status_code == 403
    assert "approve" in denied.json()["error"]["message"].lower()
    # The manager's client acts as a staff user with quotes.approve_quote, but may only see its own quotes.
    assert manager.post(f"{QUOTES}{quote['id']}/approve/").status_code == 404


def test_a_client_cannot_approve_the_discount_its_own_user_set(make_client, approver, design, customer):
    """Four eyes on the API too: the client acts as the approver, who set 60 % through this same token."""
    _c, _t, manager = make_client("crm-manager", user=approver)
    configuration = manager.post(CONFIGS, {"document": design}, format="json").json()["id"]
    quote = _request(manager, {"configuration": configuration, "customer": customer, "discount_percent": "60"}).json()
    assert quote["status"] == "awaiting_approval"
    response = manager.post(f"{QUOTES}{quote['id']}/approve/")
    assert response.status_code == 403, response.content
    assert "yourself" in response.json()["error"]["message"]
    assert Quote.objects.get(pk=quote["id"]).status == "awaiting_approval"


def test_approve_with_the_permission_a_discount_another_user_set(
    make_client, approver, design, customer, django_user_model
):
    from quotes.services import quote_revise

    sales = django_user_model.objects.create_user("sales", "sales@example.nl", "x", is_staff=True)
    _c, _t, manager = make_client("crm-manager", user=approver)
    configuration = manager.post(CONFIGS, {"document": design}, format="json").json()["id"]
    quote = _request(manager, {"configuration": configuration, "customer": customer}).json()
    # A sales engineer revises the CRM's quote in the wizard and sets the discount: the manager may approve it.
    revised = quote_revise(quote=Quote.objects.get(pk=quote["id"]), user=sales, discount_percent="30")
    assert revised.status == "awaiting_approval" and revised.discount_set_by == sales
    response = manager.post(f"{QUOTES}{revised.pk}/approve/")
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "issued"
    again = manager.post(f"{QUOTES}{revised.pk}/approve/")
    assert again.status_code == 422  # no longer awaiting approval


def test_read_scope_cannot_request_quotes(read_api, design, customer):
    response = _request(read_api, {"design": design, "customer": customer})
    assert response.status_code == 403


def test_filter_quotes_by_crm_reference_and_status(api, configuration_id, customer):
    _request(api, {"configuration": configuration_id, "customer": customer, "crm_reference": "A"})
    _request(api, {"configuration": configuration_id, "customer": customer, "crm_reference": "B"})
    assert api.get(QUOTES, {"crm_reference": "B"}).json()["count"] == 1
    assert api.get(QUOTES, {"status": "issued"}).json()["count"] == 2
    assert api.get(QUOTES, {"status": "nonsense"}).status_code == 400


def test_configuration_with_quotes_cannot_be_deleted(api, configuration_id, customer):
    _request(api, {"configuration": configuration_id, "customer": customer})
    response = api.delete(f"{CONFIGS}{configuration_id}/")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "has_quotes"


def test_quote_with_an_inline_design_validates_no_more_than_needed(api, design, customer, validations):
    response = _request(api, {"design": design, "customer": customer})
    assert response.status_code == 202
    # Once to store the configuration's verdict, once by the quote rules; the API's well-formedness check
    # only parses the design and checks its part numbers.
    assert validations.call_count <= 2


def test_the_billing_address_is_optional_and_shown_when_given(api, design, customer, media):
    without = _request(api, {"design": design, "customer": customer, "crm_reference": "OPP-20"})
    assert without.status_code == 202, without.content
    assert api.get(without.json()["url"]).json()["customer"]["address"] is None

    address = {"street": "Keizersgracht 123", "postal_code": "1015 CJ", "city": "Amsterdam"}
    given = _request(api, {"design": design, "customer": {**customer, "address": address}, "crm_reference": "OPP-21"})
    assert given.status_code == 202, given.content
    assert api.get(given.json()["url"]).json()["customer"]["address"] == address
    assert Quote.objects.get(pk=given.json()["id"]).frozen["customer"]["address"] == address


def test_an_incomplete_billing_address_names_the_missing_field(api, design, customer):
    body = {"design": design, "customer": {**customer, "address": {"street": "Keizersgracht 123", "city": ""}}}
    response = _request(api, body)
    assert response.status_code == 400
    paths = {field["path"] for field in response.json()["error"]["fields"]}
    assert {"customer.address.postal_code", "customer.address.city"} <= paths
    assert not Quote.objects.exists()


@pytest.mark.parametrize("bad", ["Keizers\x00gracht 123", "Keizersgracht \ud800"], ids=["NUL", "lone surrogate"])
def test_an_unstorable_billing_address_names_the_field(api, design, customer, bad):
    address = {"street": bad, "postal_code": "1015 CJ", "city": "Amsterdam"}
    body = {"design": design, "customer": {**customer, "address": address}}
    # json.dumps writes the NUL and the surrogate as \u escapes, as a client sends them
    response = api.generic("POST", QUOTES, json.dumps(body).encode(), content_type="application/json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert [field["path"] for field in error["fields"]] == ["customer.address.street"]
    assert error["code"] == "parse_error" and "customer.address.street" in error["message"]
    assert not Quote.objects.exists()


def test_a_quote_waiting_for_its_warnings_says_why(api, customer):
    from tests.factories import WARNING_DESIGN

    response = _request(api, {"design": WARNING_DESIGN, "customer": customer})
    assert response.status_code == 202 and response.json()["status"] == "awaiting_review"
    assert api.get(response.json()["url"]).json()["review_reason"] == "warnings"
