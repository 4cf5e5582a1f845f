"""The quote policy for customers' online requests (quotes.policy): small ones issued at once as indicative quotes,
large ones and all with warnings wait for a sales engineer who is told, a repeat returns the open quote; staff and
CRM quotes keep their rules."""

from __future__ import annotations

import pytest
from django.core import mail
from django.urls import reverse

from quotes.models import Quote
from quotes.services import quote_issue, quote_request
from tests.factories import WARNING_DESIGN, design

pytestmark = pytest.mark.django_db

# The seed's list prices: one HGX H200 node is about € 271,000 net; four nodes with their fabric about € 1.13 M.
SMALL, LARGE = design(1), design(4)


def test_a_small_request_without_warnings_is_issued_at_once_as_an_indicative_quote(
    make_configuration, customer, media, build
):
    quote = build(quote_request, configuration=make_configuration(SMALL), customer=customer)
    quote.refresh_from_db()
    assert quote.status == "issued" and quote.review_reason == ""
    assert quote.frozen["indicative"] is True
    assert quote.doc_status == "ready"
    ready = [m for m in mail.outbox if quote.customer_email in m.to]
    assert "indicative quote" in ready[0].body


def test_a_large_request_waits_for_a_sales_engineer_who_is_emailed(
    make_configuration, customer, settings, media, build
):
    settings.QUOTE_SALES_EMAIL = "offers@ncs.example"
    quote = build(quote_request, configuration=make_configuration(LARGE), customer=customer)
    assert quote.status == "awaiting_review" and quote.review_reason == "amount"
    assert quote.issued_at is None
    [notice] = mail.outbox
    assert notice.to == ["offers@ncs.example"]
    assert quote.number in notice.subject
    assert "Above the instant-quote limit" in notice.body and "€ 500,000" in notice.body
    assert f"/d/{quote.configuration.token}/quote/" in notice.body


def test_a_request_with_warnings_waits_however_small(make_configuration, customer, settings, build):
    settings.QUOTE_INSTANT_LIMIT_EUR = 10**9
    quote = build(quote_request, configuration=make_configuration(WARNING_DESIGN), customer=customer)
    assert quote.status == "awaiting_review" and quote.review_reason == "warnings"
    assert len(mail.outbox) == 1


def test_the_limit_is_a_setting(make_configuration, customer, settings, media, build):
    settings.QUOTE_INSTANT_LIMIT_EUR = 2_000_000
    quote = build(quote_request, configuration=make_configuration(LARGE), customer=customer)
    assert quote.status == "issued" and quote.frozen["indicative"] is True
    settings.QUOTE_INSTANT_LIMIT_EUR = 100_000
    quote = build(quote_request, configuration=make_configuration(SMALL), customer=customer)
    assert quote.status == "awaiting_review" and quote.review_reason == "amount"


def test_a_sales_engineer_issues_the_waiting_request_as_a_reviewed_quote(
    make_configuration, customer, staff, media, build
):
    waiting = build(quote_request, configuration=make_configuration(LARGE), customer=customer)
    quote = build(quote_issue, quote=waiting, user=staff)
    quote.refresh_from_db()
    assert quote.status == "issued" and quote.frozen["indicative"] is False
    assert quote.frozen["sales_contact"]["name"] == "Sam Sales"


@pytest.mark.parametrize("design_doc", [SMALL, LARGE], ids=["issued", "waiting"])
def test_asking_again_for_the_same_design_returns_the_open_quote(
    make_configuration, customer, media, build, design_doc
):
    configuration = make_configuration(design_doc)
    first = build(quote_request, configuration=configuration, customer=customer)
    again = build(quote_request, configuration=configuration, customer={**customer, "email": "ADA@example.nl"})
    assert again.pk == first.pk and again.number == first.number
    assert again.repeated is True
    assert Quote.objects.count() == 1


def test_another_requester_of_the_same_design_never_gets_the_first_ones_quote(
    make_configuration, customer, media, build
):
    configuration = make_configuration(SMALL)
    first = build(quote_request, configuration=configuration, customer=customer)
    other = build(quote_request, configuration=configuration, customer={**customer, "email": "bob@example.nl"})
    assert other.pk != first.pk and other.customer_email == "bob@example.nl"


def test_an_expired_quote_is_not_returned_for_a_repeat(make_configuration, customer, media, build):
    configuration = make_configuration(SMALL)
    first = build(quote_request, configuration=configuration, customer=customer)
    Quote.objects.filter(pk=first.pk).update(valid_until="2000-01-01", created_at="2000-01-01T00:00:00Z")
    again = build(quote_request, configuration=configuration, customer=customer)
    assert again.pk != first.pk


@pytest.mark.parametrize("channel", ["staff", "api"])
def test_staff_and_crm_quotes_keep_their_rules(make_configuration, customer, staff, media, build, channel):
    quote = build(
        quote_request, configuration=make_configuration(LARGE), customer=customer, channel=channel, user=staff
    )
    assert quote.status == "issued" and quote.review_reason == ""
    assert quote.frozen["indicative"] is False
    assert not [m for m in mail.outbox if "waits for a sales engineer" in m.subject]


def test_the_site_says_the_policy_in_both_languages(client, settings):
    settings.QUOTE_INSTANT_LIMIT_EUR = 750_000
    english = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "A sales engineer confirms every quote" not in english
    assert "Requests up to € 750,000 without design warnings get an indicative quote at once" in english
    dutch = client.get("/", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "€ 750.000" in dutch and "indicatieve offerte" in dutch


def test_the_dashboard_shows_why_a_request_waits(make_configuration, customer, staff, client, build):
    quote = build(quote_request, configuration=make_configuration(LARGE), customer=customer)
    client.force_login(staff)
    page = client.get(reverse("configurator:dashboard")).content.decode()
    assert quote.number in page and "Above the instant-quote limit" in page
