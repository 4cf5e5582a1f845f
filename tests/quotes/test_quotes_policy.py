"""The quote policy for customers' online requests (quotes.policy): small, fully priced ones issued at once as
indicative quotes; large ones, all with warnings and all with a line on request or nothing to pay wait for a sales
engineer who is told (and the customer is told, in their language); a repeat returns the open quote; staff and CRM
quotes keep their rules."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.core import mail
from django.urls import reverse

from quotes.models import Quote
from quotes.services import quote_issue, quote_request
from tests.factories import WARNING_DESIGN, design, set_price

pytestmark = pytest.mark.django_db

# The seed's list prices (indicative placeholders, every line the product adds priced): one HGX H200 node with its
# rack, power, management network and services is about € 437,000 net, under the € 500,000 limit. Four nodes add a
# control plane whose servers are priced on request.
SMALL, LARGE = design(1), design(4)
# one server whose offer carries its rack and PDUs (a single server leaves them out by default)
RACKED = {**SMALL, "facility": {"supplied": []}}
NVL72 = {
    "schema": "design/v1",
    "name": "GB300 NVL72",
    "node_groups": [{"name": "rack", "count": 1, "server": "SRS-GB300-NVL72", "components": []}],
}


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
    settings.QUOTE_INSTANT_LIMIT_EUR = 100_000
    quote = build(quote_request, configuration=make_configuration(SMALL), customer=customer)
    assert quote.status == "awaiting_review" and quote.review_reason == "amount"
    assert quote.issued_at is None
    [notice] = [m for m in mail.outbox if m.to == ["offers@ncs.example"]]
    assert quote.number in notice.subject
    assert "Above the instant-quote limit" in notice.body and "€ 100,000" in notice.body
    assert f"/d/{quote.configuration.token}/quote/" in notice.body


def test_a_request_with_warnings_waits_however_small(make_configuration, customer, settings, build):
    settings.QUOTE_INSTANT_LIMIT_EUR = 10**9
    quote = build(quote_request, configuration=make_configuration(WARNING_DESIGN), customer=customer)
    assert quote.status == "awaiting_review" and quote.review_reason == "warnings"
    assert len([m for m in mail.outbox if m.to == [settings.QUOTE_SALES_EMAIL]]) == 1


def test_the_limit_is_a_setting(make_configuration, customer, settings, media, build):
    settings.QUOTE_INSTANT_LIMIT_EUR = 100_000
    quote = build(quote_request, configuration=make_configuration(SMALL), customer=customer)
    assert quote.status == "awaiting_review" and quote.review_reason == "amount"
    settings.QUOTE_INSTANT_LIMIT_EUR = 2_000_000
    quote = build(quote_request, configuration=make_configuration(SMALL), customer={**customer, "email": "b@x.nl"})
    assert quote.status == "issued" and quote.frozen["indicative"] is True


def _unprice(*part_numbers: str) -> None:
    """The loaded price list has no price for these parts (they are quoted on request)."""
    set_price(*part_numbers)


def _all_on_request(settings) -> dict:
    """An NVL72 rack whose rack and services have no price: every line of its bill is on request (net € 0)."""
    _unprice("SRS-GB300-NVL72")
    for name in ("SUPPORT_EUR_PER_NODE_YEAR", "INSTALL_EUR_PER_RACK", "AIE_EUR_PER_GPU_YEAR"):
        setattr(settings, f"QUOTE_SERVICE_{name}", "")
    return NVL72


def _zero_net(settings) -> dict:
    """A price list that prices every part of the design, and its services, at € 0.00: nothing is on request and
    the bill comes to nothing."""
    set_price(price=Decimal("0.00"))
    for name in ("SUPPORT_EUR_PER_NODE_YEAR", "INSTALL_EUR_PER_RACK", "AIE_EUR_PER_GPU_YEAR"):
        setattr(settings, f"QUOTE_SERVICE_{name}", "0")
    return SMALL


def _one_on_request(settings) -> dict:
    """The small design with the one PDU model of its rack not priced by the price list."""
    _unprice("AP8886")
    return RACKED


@pytest.mark.parametrize(
    ("make_design", "reason", "label"),
    [
        (_all_on_request, "on_request", "Lines priced on request"),
        (_zero_net, "zero_net", "No priced line"),
        (_one_on_request, "on_request", "Lines priced on request"),
    ],
    ids=["all-on-request", "zero-net", "one-line-on-request"],
)
def test_no_quote_leaves_without_a_price(
    make_configuration, customer, settings, staff, client, build, make_design, reason, label
):
    settings.QUOTE_INSTANT_LIMIT_EUR = 10**9  # however small the request
    quote = build(quote_request, configuration=make_configuration(make_design(settings)), customer=customer)
    quote.refresh_from_db()
    assert quote.status == "awaiting_review" and quote.review_reason == reason
    assert quote.issued_at is None and not quote.pdf
    sales = [m for m in mail.outbox if m.to == [settings.QUOTE_SALES_EMAIL]]
    assert len(sales) == 1 and label in sales[0].body
    client.force_login(staff)
    page = client.get(reverse("configurator:dashboard")).content.decode()
    row = page[page.index(quote.number) :]
    assert label in row[: row.index("</tr>")]


def test_the_customer_is_told_in_their_language_that_the_request_waits(make_configuration, customer, settings, build):
    _unprice("AP8886")
    quote = build(quote_request, configuration=make_configuration(RACKED), customer=customer, language="nl")
    [received] = [m for m in mail.outbox if m.to == [customer["email"]]]
    assert quote.number in received.subject and "We hebben je offerteaanvraag" in received.subject
    assert "op aanvraag geprijsd" in received.body and "binnen één werkdag" in received.body
    assert "AP8886" not in received.body and quote.token not in received.body


def test_a_staff_quote_waiting_for_its_warnings_says_why_on_the_dashboard(
    make_configuration, customer, staff, client, build
):
    quote = build(
        quote_request,
        configuration=make_configuration(WARNING_DESIGN),
        customer=customer,
        channel="staff",
        user=staff,
    )
    assert quote.status == "awaiting_review" and quote.review_reason == "warnings"
    assert not [m for m in mail.outbox if m.to == [customer["email"]]]  # no "received" mail for a staff quote
    client.force_login(staff)
    page = client.get(reverse("configurator:dashboard")).content.decode()
    row = page[page.index(quote.number) :]
    assert "The design has warnings" in row[: row.index("</tr>")]


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
    assert "Requests up to € 750,000, with every line priced and without design warnings, get an indicative" in english
    dutch = client.get("/", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "€ 750.000" in dutch and "indicatieve offerte" in dutch


def test_the_dashboard_shows_why_a_request_waits(make_configuration, customer, staff, client, settings, build):
    settings.QUOTE_INSTANT_LIMIT_EUR = 100_000
    quote = build(quote_request, configuration=make_configuration(SMALL), customer=customer)
    client.force_login(staff)
    page = client.get(reverse("configurator:dashboard")).content.decode()
    assert quote.number in page and "Above the instant-quote limit" in page
