"""The sales engineer's live price preview on the quote step: priced as issuing prices the quote, with VAT or
reverse charge and the approval need; bad input named by field, never a 500; without JavaScript too."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.conf import settings
from django.template.defaultfilters import floatformat
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.web.pages import CUSTOMER, pdu_on_request, url

pytestmark = pytest.mark.django_db

DE_VAT = "DE136695976"  # valid format and check digits (python-stdnum)


def preview_url(config):
    return reverse("configurator:price_preview", kwargs={"token": config.token})


def euro(amount) -> str:
    with translation.override("en"):
        return f"€ {floatformat(amount, '2g')}"


def figure(html: str, name: str, dom_id: str = "price-preview") -> str:
    match = re.search(rf'id="{dom_id}-{name}">(.*?)</dd>', html, re.S)
    assert match, f"no {name} in the preview"
    # The seed's PDU and the cords of unknown type are priced on request: the amounts are "at least" these.
    return re.sub(r"<[^>]+>", "", match.group(1)).strip().removeprefix("at least ")


def customer(**changes):
    return {**{k: v for k, v in CUSTOMER.items() if k != "action"}, **changes}


def test_the_preview_shows_what_the_issued_quote_then_says(staff_client, make_config):
    from quotes.models import Quote

    config = pdu_on_request(make_config)
    discounts = {"discount_percent": "7,5", "line_discounts.HGX-H200-8GPU": "4"}  # a comma, as a Dutch user types
    html = staff_client.post(preview_url(config), {**customer(), **discounts}).content.decode()

    staff_client.post(url(config, "quote"), {**CUSTOMER, **discounts})
    quote = Quote.objects.get(configuration=config)
    assert quote.status == "issued" and quote.discount_percent == Decimal("7.5")
    assert figure(html, "net") == euro(quote.net)
    assert figure(html, "vat") == euro(quote.vat_amount)
    assert figure(html, "total") == euro(quote.total)
    assert figure(html, "discount") == f"− {euro(quote.discount)}"
    assert "VAT 21%" in html and "Within the approval limit of 15%" in html
    assert f'id="price-preview-total">at least {euro(quote.total)}' in html and "Priced on request" in html


def test_the_preview_changes_with_the_discount(staff_client, make_config):
    config = make_config()
    nets = [
        figure(staff_client.post(preview_url(config), customer(discount_percent=p)).content.decode(), "net")
        for p in ("", "10", "20")
    ]
    assert len(set(nets)) == 3
    list_value = Decimal(re.sub(r"[^\d.]", "", nets[0]))
    assert nets[1] == euro((list_value * Decimal("0.9")).quantize(Decimal("0.01")))


@pytest.mark.parametrize(
    ("discounts", "needs"),
    [
        ({"discount_percent": "15"}, False),  # at the limit: no approval
        ({"discount_percent": "15.01"}, True),
        ({"line_discounts.SYS-821GE-TNHR": "20"}, True),
        ({"discount_percent": "10", "line_discounts.HGX-H200-8GPU": "10"}, True),  # 19% off that line
    ],
)
def test_the_preview_says_when_the_discount_needs_a_second_person(staff_client, make_config, discounts, needs):
    config = make_config()
    html = staff_client.post(preview_url(config), {**customer(), **discounts}).content.decode()
    above = "Above the approval limit of 15%: a second sales engineer with the approve permission must approve"
    assert (above in html) is needs
    assert ("Within the approval limit of 15%" in html) is not needs


def test_the_preview_shows_reverse_charge_for_an_eu_business_and_export_outside_the_eu(staff_client, make_config):
    config = make_config()
    eu = staff_client.post(preview_url(config), customer(country="DE", vat_number=DE_VAT)).content.decode()
    assert "VAT reverse charged" in eu and figure(eu, "vat") == "€ 0.00"
    assert figure(eu, "total") == figure(eu, "net")
    export = staff_client.post(preview_url(config), customer(country="US")).content.decode()
    assert "VAT (export outside the EU)" in export and figure(export, "total") == figure(export, "net")


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("discount_percent", "120", "Quote discount (%): A discount cannot exceed 100%."),
        ("discount_percent", "veel", "Quote discount (%): “veel” is not a number"),
        ("discount_percent", "-3", "Quote discount (%): A discount cannot be negative."),
        ("discount_percent", "1.234", "Quote discount (%): Give the discount with at most two decimals."),
        ("line_discounts.HGX-H200-8GPU", "abc", "Line discount HGX-H200-8GPU (%): “abc” is not a number"),
    ],
)
def test_bad_input_names_its_field_and_shows_no_price(staff_client, make_config, field, value, message):
    config = make_config()
    response = staff_client.post(preview_url(config), customer(**{field: value}))
    assert response.status_code == 200
    html = response.content.decode().replace("&#x27;", "'")
    assert message in re.sub(r"<[^>]+>", "", html)
    assert 'id="price-preview-net"' not in html and "Correct the discount to see the price." in html


def test_a_bad_vat_number_is_named_and_the_net_price_still_shows(staff_client, make_config):
    config = make_config()
    html = staff_client.post(preview_url(config), customer(country="DE", vat_number="DE123")).content.decode()
    assert "VAT number:" in html and "is not a valid EU VAT number" in html
    assert figure(html, "net").startswith("€ ")
    assert 'id="price-preview-total"' not in html


def test_customers_get_no_preview(client, make_config):
    config = make_config()
    assert client.post(preview_url(config), customer(discount_percent="10")).status_code == 403
    assert Client().get(preview_url(config)).status_code == 405  # only a POST: no details in a URL


def test_the_quote_step_shows_the_preview_and_its_live_update_to_staff_only(staff_client, make_config):
    config = make_config()
    page = staff_client.get(url(config, "quote")).content.decode()
    assert 'id="price-preview"' in page and "Within the approval limit of 15%" in page
    assert f'hx-post="{preview_url(config)}"' in page and 'hx-trigger="input delay:300ms"' in page
    assert "<script>" not in page  # the page's scripts are static files only (CSP)
    customer_page = Client().get(url(config, "quote")).content.decode()
    assert "price-preview" not in customer_page


def test_without_javascript_update_price_shows_the_preview_and_keeps_what_was_typed(staff_client, make_config):
    from quotes.models import Quote

    config = make_config()
    response = staff_client.post(url(config, "quote"), {**CUSTOMER, "action": "preview", "discount_percent": "30"})
    assert response.status_code == 200
    html = response.content.decode()
    assert "Above the approval limit of 15%" in html
    assert 'value="30"' in html and 'value="Anna de Vries"' in html and 'value="Stationsplein 1"' in html
    assert 'id="id_name_error"' not in html  # nothing was requested, so nothing is missing
    assert not Quote.objects.filter(configuration=config).exists()


def test_the_revision_preview_prices_for_the_quotes_customer(staff_client, make_config):
    from quotes.models import Quote
    from quotes.services import quote_request

    config = make_config()
    quote = quote_request(configuration=config, customer=customer(country="DE", vat_number=DE_VAT))
    page = staff_client.get(url(config, "quote")).content.decode()
    assert 'id="revise-price-preview"' in page
    revision = {"quote": quote.token, "revise-discount_percent": "16"}
    html = staff_client.post(preview_url(config), {"preview_form": "revise", **revision}).content.decode()
    assert 'id="revise-price-preview"' in html and "VAT reverse charged" in html
    assert "Above the approval limit of 15%" in html

    staff_client.post(url(config, "quote"), {"action": "revise", **revision})
    new = Quote.objects.get(base_number=quote.base_number, revision=2)
    assert new.status == "awaiting_approval" and new.vat_amount == 0
    assert figure(html, "net", "revise-price-preview") == euro(new.net)
    missing = staff_client.post(preview_url(config), {"preview_form": "revise", "quote": "nope"})
    assert missing.status_code == 404


def test_the_preview_speaks_dutch(staff_client, make_config):
    config = make_config()
    staff_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "nl"
    html = staff_client.post(preview_url(config), customer(discount_percent="20")).content.decode()
    assert "Boven de goedkeuringsgrens van 15%" in html and "Netto, excl. btw" in html
