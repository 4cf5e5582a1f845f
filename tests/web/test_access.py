"""Customers and sales engineers: who sees what, CSRF, rate limits and the login lockout."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from tests.web.pages import CUSTOMER, PRICED, WITH_WARNING, grant, url

pytestmark = pytest.mark.django_db


def test_drafts_are_reached_only_through_their_unguessable_token(client, make_config):
    config = make_config()
    assert len(config.token) >= 32
    assert client.get(reverse("configurator:dashboard")).status_code == 302  # no listing for customers
    assert client.get(url(config, "review")).status_code == 200


def test_home_lists_only_the_drafts_this_browser_started(client, make_config, seeded_catalog):
    other = make_config()  # someone else's
    client.post(reverse("configurator:start"), {"blank": "1"})
    body = client.get("/").content.decode()
    assert "Continue where you left off" in body
    assert other.token not in body


def test_a_customer_cannot_open_another_customers_quote_by_guessing(client, make_config):
    from quotes.services import quote_request

    config = make_config()
    quote = quote_request(configuration=config, customer={k: v for k, v in CUSTOMER.items() if k != "action"})
    assert client.get(f"/quotes/{quote.pk}/").status_code == 404
    assert client.get(f"/quotes/{quote.number}/").status_code == 404


def test_quote_request_is_protected_against_csrf(make_config):
    config = make_config()
    response = Client(enforce_csrf_checks=True).post(url(config, "quote"), CUSTOMER)
    assert response.status_code == 403


def test_customer_requests_a_quote_and_the_page_then_shows_its_progress(client, make_config):
    config = make_config(PRICED)
    response = client.post(url(config, "quote"), CUSTOMER)
    assert response.status_code == 302
    body = client.get(url(config, "quote")).content.decode()
    assert "Q-" in body and 'id="quote-progress"' in body and "/progress/" in body
    config.refresh_from_db()
    assert config.status == "quoted" and config.customer_company == "Rekenkracht B.V."


def test_quote_request_errors_are_shown_next_to_the_fields(client, make_config):
    config = make_config()
    response = client.post(url(config, "quote"), {**CUSTOMER, "email": "not-an-email"})
    assert response.status_code == 422
    assert 'id="id_email_error"' in response.content.decode()


@override_settings(QUOTE_REQUEST_LIMIT=2, QUOTE_REQUEST_LIMIT_PER_IP=100)
def test_quote_requests_are_rate_limited_per_client(client, make_config):
    from django.core.cache import cache

    cache.clear()
    configs = [make_config() for _ in range(3)]
    assert client.post(url(configs[0], "quote"), CUSTOMER).status_code == 302
    assert client.post(url(configs[1], "quote"), CUSTOMER).status_code == 302
    third = client.post(url(configs[2], "quote"), CUSTOMER)
    assert third.status_code == 429
    assert "Too many quote requests" in third.content.decode()
    assert Client().post(url(configs[2], "quote"), CUSTOMER).status_code == 302  # another client is not blocked


def test_a_requested_design_is_locked_for_the_customer_but_can_be_copied(client, make_config):
    config = make_config()
    client.post(url(config, "quote"), CUSTOMER)
    response = client.post(url(config, "platform"), {"nodes": "1", "server": "SYS-821GE-TNHR", "gpu": ""})
    assert response.status_code == 302 and response["Location"].endswith("/review/")
    config.refresh_from_db()
    assert config.document["node_groups"][0]["count"] == 4
    copy = client.post(reverse("configurator:copy", kwargs={"token": config.token}))
    assert copy.status_code == 302 and config.token not in copy["Location"]


def test_staff_only_actions_redirect_anonymous_users_to_login(client, make_config):
    config = make_config()
    for name in ("clone", "take_over", "acknowledge"):
        response = client.post(reverse(f"configurator:{name}", kwargs={"token": config.token}))
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_dashboard_filters_drafts_and_quote_requests(staff_client, make_config):
    from configurator.models import Configuration
    from quotes.services import quote_request

    a = make_config()
    b = make_config(WITH_WARNING)
    quote_request(
        configuration=b,
        customer={
            "name": "Piet",
            "company": "Datahal B.V.",
            "email": "p@example.nl",
            "country": "NL",
            "vat_number": "",
        },
    )
    Configuration.objects.filter(pk=b.pk).update(customer_company="Datahal B.V.")
    page = staff_client.get(reverse("configurator:dashboard")).content.decode()
    assert a.token in page and b.token in page
    filtered = staff_client.get(reverse("configurator:dashboard"), {"customer": "datahal"}).content.decode()
    assert b.token in filtered and a.token not in filtered
    by_status = staff_client.get(reverse("configurator:dashboard"), {"status": "quote_requested"}).content.decode()
    assert b.token in by_status and f'href="/d/{a.token}/"' not in by_status
    future = staff_client.get(reverse("configurator:dashboard"), {"date_from": "2999-01-01"}).content.decode()
    assert "No designs match." in future and "No quote requests match." in future


def test_sales_engineer_clones_takes_over_and_acknowledges_a_warning(staff_client, staff, make_config):
    grant(staff, "take_over_configuration")
    config = make_config(WITH_WARNING)
    clone = staff_client.post(reverse("configurator:clone", kwargs={"token": config.token}))
    assert clone.status_code == 302 and config.token not in clone["Location"]
    staff_client.post(reverse("configurator:take_over", kwargs={"token": config.token}))
    config.refresh_from_db()
    assert config.assigned_to == staff
    review = staff_client.get(url(config, "review")).content.decode()
    assert "FABRIC_SM_REQUIRED" in review and "Accept warning" in review
    finding = next(
        f
        for f in __import__("tests.results", fromlist=["x"]).validate_json(document=config.document)["findings"]
        if f["code"] == "FABRIC_SM_REQUIRED"
    )
    staff_client.post(
        reverse("configurator:acknowledge", kwargs={"token": config.token}),
        {"code": finding["code"], "subject": finding["subject"], "reason": "Customer runs UFM", "next_step": "review"},
    )
    assert config.acknowledgements.get().reason == "Customer runs UFM"
    assert "Customer runs UFM" in staff_client.get(url(config, "review")).content.decode()


def test_sales_engineer_issues_a_quote_waiting_for_review(staff_client, staff, make_config):
    from quotes.services import quote_request

    grant(staff, "issue_quote")
    config = make_config(WITH_WARNING)
    quote = quote_request(configuration=config, customer={k: v for k, v in CUSTOMER.items() if k != "action"})
    assert quote.status == "awaiting_review"
    staff_client.post(
        url(config, "fabric"), {"switch": "MQM9700-NS2F", "oversubscription": "1:1", "topology": "rail-optimized"}
    )
    staff_client.post(url(config, "quote"), {"action": "issue", "quote": quote.token})
    quote.refresh_from_db()
    assert quote.status == "issued"


def test_a_sales_engineer_without_the_issue_permission_is_told_so(staff_client, make_config):
    from django.contrib.messages import get_messages

    from quotes.services import quote_request

    config = make_config(WITH_WARNING)
    quote = quote_request(configuration=config, customer={k: v for k, v in CUSTOMER.items() if k != "action"})
    response = staff_client.post(url(config, "quote"), {"action": "issue", "quote": quote.token})
    assert response.status_code == 302
    (message,) = [str(m) for m in get_messages(response.wsgi_request)]
    assert "issue" in message and "approve" not in message
    quote.refresh_from_db()
    assert quote.status == "awaiting_review"


def test_customers_cannot_issue_quotes(client, make_config):
    from quotes.services import quote_request

    config = make_config(WITH_WARNING)
    quote = quote_request(configuration=config, customer={k: v for k, v in CUSTOMER.items() if k != "action"})
    assert client.post(url(config, "quote"), {"action": "issue", "quote": quote.token}).status_code == 403


def test_login_locks_out_after_repeated_failures(client, staff, settings):
    assert settings.AXES_FAILURE_LIMIT == 5
    for _ in range(4):
        assert client.post(reverse("login"), {"username": "sven", "password": "wrong"}).status_code == 200
    assert client.post(reverse("login"), {"username": "sven", "password": "wrong"}).status_code == 429  # the 5th
    assert client.post(reverse("login"), {"username": "sven", "password": "correct-horse-battery"}).status_code == 429
    assert "_auth_user_id" not in client.session


def test_login_works_with_the_right_password(client, staff):
    response = client.post(reverse("login"), {"username": "sven", "password": "correct-horse-battery"})
    assert response.status_code == 302 and response["Location"] == reverse("configurator:dashboard")


def test_a_sales_engineer_without_the_approve_permission_cannot_approve_a_big_discount(staff_client, make_config):
    from quotes.models import Quote
    from quotes.services import quote_request

    config = make_config(PRICED)
    customer = {k: v for k, v in CUSTOMER.items() if k != "action"}
    quote = quote_request(configuration=config, customer=customer, discount_percent=30)
    assert quote.status == Quote.Status.AWAITING_APPROVAL
    response = staff_client.post(url(config, "quote"), {"action": "approve", "quote": quote.token}, follow=True)
    assert response.status_code == 200
    assert "approve permission" in response.content.decode()
    quote.refresh_from_db()
    assert quote.status == Quote.Status.AWAITING_APPROVAL


def test_the_customers_cached_panel_follows_accepted_warnings_and_their_reasons(client, staff, make_config):
    # The customer's side panel is cached per design state; an acceptance, or a new reason, must show at once.
    from configurator.services import warning_acknowledge
    from tests.results import validate_json

    config = make_config(WITH_WARNING)
    assert "Customer runs UFM" not in client.get(url(config, "platform")).content.decode()
    finding = next(f for f in validate_json(document=config.document)["findings"] if f["code"] == "FABRIC_SM_REQUIRED")
    warning_acknowledge(
        configuration=config, code=finding["code"], subject=finding["subject"], reason="Customer runs UFM", user=staff
    )
    assert "Customer runs UFM" in client.get(url(config, "platform")).content.decode()
    warning_acknowledge(
        configuration=config, code=finding["code"], subject=finding["subject"], reason="UFM on two hosts", user=staff
    )
    body = client.get(url(config, "platform")).content.decode()
    assert "UFM on two hosts" in body and "Customer runs UFM" not in body


@override_settings(WIZARD_START_RATE="2/h")
def test_anonymous_draft_creation_is_rate_limited_per_address(staff_client, seeded_catalog):
    from django.core.cache import cache

    from configurator.models import Configuration

    cache.clear()
    client = Client()
    start = reverse("configurator:start")
    assert [client.post(start, {"blank": "1"}).status_code for _ in range(2)] == [302, 302]
    refused = client.post(start, {"blank": "1"})
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "Too many new designs" in refused.content.decode()
    assert Configuration.objects.count() == 2
    assert Client(REMOTE_ADDR="198.51.100.7").post(start, {"blank": "1"}).status_code == 302  # another address
    assert staff_client.post(start, {"blank": "1"}).status_code == 302  # sales engineers are not limited


@override_settings(CABLING_CSV_LARGE_NODES=3, CABLING_CSV_LARGE_RATE="1/h")
def test_the_cabling_plan_of_a_large_draft_is_rate_limited(staff_client, make_config):
    from django.core.cache import cache

    cache.clear()
    client = Client()
    large = make_config()  # four nodes: above the (lowered) size for "large"
    csv_url = reverse("configurator:cabling_csv", args=[large.token])
    assert client.get(csv_url).status_code == 200
    refused = client.get(csv_url)
    assert refused.status_code == 429 and "Too many cabling plans" in refused.content.decode()
    assert staff_client.get(csv_url).status_code == 200
    with override_settings(CABLING_CSV_LARGE_NODES=4):  # a draft not above the size is not limited
        assert client.get(csv_url).status_code == 200
