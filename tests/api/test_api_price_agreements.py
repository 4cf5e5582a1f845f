"""A CRM keeps price agreements (/api/v1/price-agreements/) and a quote for the company applies them."""

from __future__ import annotations

from decimal import Decimal as D

AGREEMENTS = "/api/v1/price-agreements/"
AGREEMENT = {
    "company": "Analytical Engines BV",
    "kvk_number": "12345678",
    "payment_days": 14,
    "discounts": {"server": "4", "switch": "6.5"},
}


def test_a_crm_makes_an_agreement_and_a_quote_for_the_company_applies_it(
    api, design, customer, settings, tmp_path, django_capture_on_commit_callbacks
):
    settings.MEDIA_ROOT = str(tmp_path)
    created = api.post(AGREEMENTS, AGREEMENT, format="json", HTTP_IDEMPOTENCY_KEY="agreement-1")
    assert created.status_code == 201, created.content
    body = created.json()
    assert body["discounts"] == {"server": "4.00", "switch": "6.50"} and body["payment_days"] == 14
    with django_capture_on_commit_callbacks(execute=True):
        quote = api.post(
            "/api/v1/quotes/",
            {"design": design, "customer": {**customer, "kvk_number": "12345678"}},
            format="json",
        ).json()
    detail = api.get(quote["url"]).json()
    assert detail["customer"]["kvk_number"] == "12345678"
    assert detail["agreement"]["company"] == "Analytical Engines BV"
    assert D(detail["agreement"]["applied"]["SYS-821GE-TNHR"]) == 4
    assert detail["line_discounts"] == {}  # the agreement's discounts are not manual ones

    changed = api.patch(f"{AGREEMENTS}{body['id']}/", {"discounts": {"server": "3"}}, format="json")
    assert changed.status_code == 200 and changed.json()["discounts"] == {"server": "3.00"}
    assert api.get(AGREEMENTS).json()["count"] == 1


def test_bad_agreements_name_their_fields(api):
    response = api.post(
        AGREEMENTS, {"company": "X", "kvk_number": "12", "discounts": {"spaceship": "5"}}, format="json"
    )
    assert response.status_code == 422
    paths = {f["path"] for f in response.json()["error"]["fields"]}
    assert {"kvk_number", "discounts.spaceship"} <= paths
    over = api.post(AGREEMENTS, {**AGREEMENT, "discounts": {"server": "101"}}, format="json")
    assert over.status_code == 400
    api.post(AGREEMENTS, AGREEMENT, format="json")
    twice = api.post(AGREEMENTS, {**AGREEMENT, "company": "Other"}, format="json")
    assert twice.status_code == 422


def test_read_scope_reads_but_cannot_set_agreements(read_api, api):
    assert api.post(AGREEMENTS, AGREEMENT, format="json").status_code == 201
    assert read_api.get(AGREEMENTS).json()["count"] == 1
    assert read_api.post(AGREEMENTS, {**AGREEMENT, "kvk_number": "87654321"}, format="json").status_code == 403
