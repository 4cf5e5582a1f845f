"""The quote step: staff discounts (request and revise), the countries offered, the dashboard's quote-status
filter, and the banner on a design changed after its quote was issued."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from tests.web.pages import CUSTOMER, H200_CLUSTER, PRICED, url

pytestmark = pytest.mark.django_db


def quotes_of(config):
    from quotes.models import Quote

    return list(Quote.objects.filter(configuration=config).order_by("revision", "pk"))


# --- staff discounts ---------------------------------------------------------------------------------------


def test_staff_see_the_discount_form_with_one_input_per_part_and_customers_do_not(client, staff_client, make_config):
    config = make_config()
    staff_page = staff_client.get(url(config, "quote")).content.decode()
    assert 'name="discount_percent"' in staff_page
    assert 'name="line_discounts.HGX-H200-8GPU"' in staff_page and 'name="line_discounts.SYS-821GE-TNHR"' in staff_page
    assert "Request quote with these discounts" in staff_page
    from django.test import Client

    customer_page = Client().get(url(config, "quote")).content.decode()
    assert "discount_percent" not in customer_page and "line_discounts" not in customer_page


def test_a_customer_post_carrying_discounts_is_quoted_without_them(client, make_config):
    config = make_config(PRICED)
    response = client.post(
        url(config, "quote"), {**CUSTOMER, "discount_percent": "50", "line_discounts.HGX-H200-8GPU": "90"}
    )
    assert response.status_code == 302
    (quote,) = quotes_of(config)
    assert quote.status == "issued"
    assert quote.discount_percent == 0 and quote.line_discounts == {} and quote.discount == 0


def test_a_customer_cannot_revise_a_quote_with_discounts(client, make_config):
    from quotes.services import quote_request

    config = make_config()
    quote = quote_request(configuration=config, customer={k: v for k, v in CUSTOMER.items() if k != "action"})
    response = client.post(
        url(config, "quote"), {"action": "revise", "quote": quote.token, "revise-discount_percent": "50"}
    )
    assert response.status_code == 403
    assert len(quotes_of(config)) == 1


def test_staff_discount_above_the_threshold_waits_for_approval_they_cannot_give(staff_client, make_config):
    assert Decimal("15") == settings.QUOTE_DISCOUNT_APPROVAL_THRESHOLD
    config = make_config()
    response = staff_client.post(url(config, "quote"), {**CUSTOMER, "discount_percent": "30"})
    assert response.status_code == 302
    (quote,) = quotes_of(config)
    assert quote.status == "awaiting_approval" and quote.discount_percent == Decimal("30.00")
    assert quote.channel == "staff"
    page = staff_client.get(url(config, "quote")).content.decode()
    assert "Approve discount and issue" not in page and 'id="approve-why"' in page  # no button they cannot use
    response = staff_client.post(url(config, "quote"), {"action": "approve", "quote": quote.token}, follow=True)
    assert "approve permission" in response.content.decode()
    quote.refresh_from_db()
    assert quote.status == "awaiting_approval"


def test_staff_discount_below_the_threshold_is_issued_at_once_with_discounted_totals(staff_client, make_config):
    from tests.web.pages import list_total

    config = make_config()
    staff_client.post(url(config, "quote"), {**CUSTOMER, "discount_percent": "10"})
    (quote,) = quotes_of(config)
    assert quote.status == "issued" and quote.issued_at is not None
    assert quote.subtotal == list_total(config)
    assert quote.discount == (quote.subtotal * Decimal("0.10")).quantize(Decimal("0.01"))
    assert quote.net == quote.subtotal - quote.discount
    assert quote.total == (quote.net * Decimal("1.21")).quantize(Decimal("0.01"))  # NL, 21%
    assert quote.frozen["discount_percent"] == "10.00"


@pytest.mark.parametrize(
    ("value", "message"),
    [("-5", "cannot be negative"), ("150", "cannot exceed 100%"), ("lots", "is not a number")],
)
def test_a_wrong_staff_discount_is_shown_at_its_field_and_creates_no_quote(staff_client, make_config, value, message):
    config = make_config()
    response = staff_client.post(url(config, "quote"), {**CUSTOMER, "discount_percent": value})
    assert response.status_code == 422
    body = response.content.decode()
    assert 'id="id_discount_percent_error"' in body and message in body
    assert quotes_of(config) == []


def test_a_wrong_line_discount_is_shown_at_its_line(staff_client, make_config):
    config = make_config()
    response = staff_client.post(url(config, "quote"), {**CUSTOMER, "line_discounts.HGX-H200-8GPU": "-1"})
    assert response.status_code == 422
    body = response.content.decode()
    assert 'id="id_line_discounts.HGX-H200-8GPU_error"' in body and "cannot be negative" in body
    assert quotes_of(config) == []


def test_staff_revise_a_quote_with_new_discounts(staff_client, make_config):
    from quotes.services import quote_request

    config = make_config(PRICED)
    first = quote_request(configuration=config, customer={k: v for k, v in CUSTOMER.items() if k != "action"})
    assert first.status == "issued"
    page = staff_client.get(url(config, "quote")).content.decode()
    assert 'name="revise-discount_percent"' in page and "New revision with these discounts" in page
    response = staff_client.post(
        url(config, "quote"),
        {
            "action": "revise",
            "quote": first.token,
            "revise-discount_percent": "5",
            "revise-line_discounts.HGX-H200-8GPU": "8",
        },
    )
    assert response.status_code == 302
    old, new = quotes_of(config)
    assert old.status == "superseded" and new.revision == 2 and new.status == "issued"
    assert new.discount_percent == Decimal("5.00") and new.line_discounts == {"HGX-H200-8GPU": "8.00"}
    assert new.discount > 0


def test_a_revision_above_the_threshold_waits_for_approval(staff_client, make_config):
    from quotes.services import quote_request

    config = make_config()
    first = quote_request(configuration=config, customer={k: v for k, v in CUSTOMER.items() if k != "action"})
    staff_client.post(url(config, "quote"), {"action": "revise", "quote": first.token, "revise-discount_percent": "30"})
    assert [q.status for q in quotes_of(config)] == ["superseded", "awaiting_approval"]


def test_a_wrong_revision_discount_is_shown_at_its_field_and_creates_no_revision(staff_client, make_config):
    from quotes.services import quote_request

    config = make_config(PRICED)
    first = quote_request(configuration=config, customer={k: v for k, v in CUSTOMER.items() if k != "action"})
    response = staff_client.post(
        url(config, "quote"), {"action": "revise", "quote": first.token, "revise-discount_percent": "101"}
    )
    assert response.status_code == 422
    body = response.content.decode()
    assert 'id="id_revise-discount_percent_error"' in body and "cannot exceed 100%" in body
    assert [q.status for q in quotes_of(config)] == ["issued"]


def test_a_revision_without_discount_fields_keeps_the_earlier_discounts(staff_client, make_config):
    from quotes.services import quote_request

    config = make_config()
    customer = {k: v for k, v in CUSTOMER.items() if k != "action"}
    first = quote_request(configuration=config, customer=customer, discount_percent="10")
    staff_client.post(url(config, "quote"), {"action": "revise", "quote": first.token})
    assert quotes_of(config)[-1].discount_percent == Decimal("10.00")


def test_discount_errors_are_in_dutch_for_a_dutch_sales_engineer(staff_client, make_config):
    staff_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "nl"
    config = make_config()
    body = staff_client.post(url(config, "quote"), {**CUSTOMER, "discount_percent": "-5"}).content.decode()
    assert "Een korting kan niet negatief zijn." in body
    assert "Offerte aanvragen met deze kortingen" in body and "Regelkortingen (%)" in body


# --- countries ---------------------------------------------------------------------------------------------


def test_the_country_list_has_every_eu_member_state_and_only_codes_the_quote_service_accepts():
    from quotes.countries import EU_MEMBER_STATES, ISO_3166_ALPHA2
    from web.forms import QuoteRequestForm, country_choices

    codes = [code for code, _name in country_choices()]
    assert set(codes) >= EU_MEMBER_STATES and set(codes) <= ISO_3166_ALPHA2
    assert {"GB", "CH", "NO", "US", "CA", "IL", "AE", "SG", "JP", "KR", "AU", "IN"} <= set(codes)
    assert codes[0] == "NL" and len(codes) == len(set(codes))
    with translation.override("nl"):
        names = [str(name) for _code, name in QuoteRequestForm().fields["country"].choices]
        assert names[0] == "Nederland" and "Griekenland" in names and "Hongarije" in names
        assert names[1:] == sorted(names[1:], key=str.casefold)
    with translation.override("en"):
        names = [str(name) for _code, name in QuoteRequestForm().fields["country"].choices]
        assert names[0] == "Netherlands" and "Greece" in names


def test_a_greek_business_customer_gets_a_reverse_charged_quote_through_the_wizard(client, make_config):
    config = make_config()
    response = client.post(
        url(config, "quote"),
        {**CUSTOMER, "company": "Athens Compute S.A.", "country": "GR", "vat_number": "EL 094259216"},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    (quote,) = quotes_of(config)
    assert quote.customer_country == "GR" and quote.customer_vat_number == "EL094259216"
    assert quote.vat_category == "reverse_charge" and quote.vat_rate == 0 and quote.total == quote.net


# --- dashboard ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["\x00", "bogus"])
def test_a_bad_quote_status_on_the_dashboard_is_a_form_error_not_a_crash(staff_client, make_config, value):
    from quotes.services import quote_request

    config = make_config()
    quote_request(configuration=config, customer={k: v for k, v in CUSTOMER.items() if k != "action"})
    response = staff_client.get(reverse("configurator:dashboard"), {"quote_status": value})
    assert response.status_code == 200
    body = response.content.decode()
    error = body.split('id="id_quote_status_error"', 1)[1].split("</ul>", 1)[0]
    assert "Select a valid choice" in error  # the field names what is wrong with it
    assert config.token in body  # the filter is ignored: the quote is listed


def test_the_dashboard_filters_quotes_by_a_valid_status(staff_client, make_config):
    from quotes.services import quote_request

    config = make_config(PRICED)
    quote = quote_request(configuration=config, customer={k: v for k, v in CUSTOMER.items() if k != "action"})
    issued = staff_client.get(reverse("configurator:dashboard"), {"quote_status": "issued"}).content.decode()
    assert quote.number in issued and 'value="issued" selected' in issued
    waiting = staff_client.get(reverse("configurator:dashboard"), {"quote_status": "awaiting_approval"})
    assert quote.number not in waiting.content.decode()


# --- a quoted design changed in place ------------------------------------------------------------------------


def test_a_design_changed_after_its_quote_was_issued_says_so_on_the_steps(client, staff_client, make_config):
    from django.test import Client

    config = make_config(PRICED)
    customer = Client()  # the customer who requested the quote: the banner names it to them
    assert customer.post(url(config, "quote"), CUSTOMER).status_code == 302
    (quote,) = quotes_of(config)
    assert quote.status == "issued"
    assert "has changed since quote" not in staff_client.get(url(config, "review")).content.decode()

    platform = {"nodes": 2, "server": "SYS-821GE-TNHR", "gpu": "HGX-H200-8GPU", "gpu_quantity": 1}
    assert staff_client.post(url(config, "platform"), platform).status_code == 302
    config.refresh_from_db()
    assert config.document != H200_CLUSTER
    banner = f"This design has changed since quote {quote.number} was issued"
    for step in ("platform", "review", "quote"):
        assert banner in staff_client.get(url(config, step)).content.decode()
    customer_page = customer.get(url(config, "review")).content.decode()
    assert banner in customer_page and "a sales engineer sends a new revision" in customer_page
    assert quote.number not in Client().get(url(config, "review")).content.decode()  # not another browser's quote

    # An htmx update of a step swaps the banner in out of band.
    hx = staff_client.post(url(config, "platform"), {**platform, "nodes": 3}, HTTP_HX_REQUEST="true")
    assert 'id="design-changed" hx-swap-oob="true"' in hx.content.decode() and banner in hx.content.decode()

    # A new revision from the changed design quotes it: the banner goes.
    staff_client.post(url(config, "quote"), {"action": "revise", "quote": quote.token})
    assert "has changed since quote" not in staff_client.get(url(config, "review")).content.decode()


def test_the_language_button_has_its_own_dutch_translation():
    """The no-JS language button ("Switch", translated with context "language switch button") is "Wisselen";
    the catalogue category "Switch" (a network switch) stays "Switch"."""
    with translation.override("nl"):
        assert translation.pgettext("language switch button", "Switch") == "Wisselen"
        assert translation.gettext("Switch") == "Switch"


def test_a_customer_request_above_the_instant_limit_waits_and_the_page_says_why(
    client, make_config, settings, django_capture_on_commit_callbacks
):
    from django.core import mail

    from quotes.models import Quote

    settings.QUOTE_INSTANT_LIMIT_EUR = 100_000
    config = make_config(PRICED)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url(config, "quote"), CUSTOMER, follow=True)
    page = response.content.decode()
    quote = Quote.objects.get(configuration=config)
    assert quote.status == "awaiting_review" and quote.review_reason == "amount"
    assert "Requests above € 100,000 are reviewed by a sales engineer" in page
    # the sales team is told, and the customer that the request is received and waits
    assert [m.to for m in mail.outbox] == [[settings.QUOTE_SALES_EMAIL], [CUSTOMER["email"]]]
    assert "We have e-mailed you that your request is received." in page

    again = client.post(url(config, "quote"), CUSTOMER, follow=True).content.decode()
    assert Quote.objects.filter(configuration=config).count() == 1
    assert f"You already have quote {quote.number} for this design." in again


def test_the_quote_form_asks_for_the_billing_address(client, make_config):
    from quotes.models import Quote

    config = make_config()
    response = client.post(url(config, "quote"), {**CUSTOMER, "street": "", "city": ""})
    assert response.status_code == 422 and not Quote.objects.exists()
    page = response.content.decode()
    assert 'id="id_street_error"' in page and 'id="id_city_error"' in page

    client.post(url(config, "quote"), CUSTOMER)
    quote = Quote.objects.get()
    assert (quote.customer_street, quote.customer_postal_code, quote.customer_city) == (
        "Stationsplein 1",
        "3511 ED",
        "Utrecht",
    )
    assert quote.frozen["customer"]["address"]["city"] == "Utrecht"


def test_an_instant_quote_says_it_is_indicative_in_the_customers_language(client, make_config):
    config = make_config(PRICED)
    page = client.post(url(config, "quote"), CUSTOMER, follow=True).content.decode()
    assert 'id="indicative-note"' in page and "This is an indicative quote" in page

    dutch = client.get(url(config, "quote"), HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Dit is een indicatieve offerte" in dutch
