"""Price agreements per customer company: found by VAT or KvK number, applied to a quote as the agreement's
discounts and payment term (not as manual discounts), counted toward the approval rule; kept in the admin and by a
CRM."""

from __future__ import annotations

import io
from decimal import Decimal as D

import pytest
from django.core.files.storage import default_storage
from django.urls import reverse
from pypdf import PdfReader

from quotes.models import PriceAgreement
from quotes.services import QuoteError, price_agreement_save, quote_request
from tests.factories import StaffFactory

pytestmark = pytest.mark.django_db

VAT = "NL000099998B57"


def _agreement(**changes):
    data = {
        "company": "Analytical Engines B.V.",
        "vat_number": "nl 0000.99998.b57",
        "payment_days": 45,
        "reference": "RA-2026-3",
        "discounts": {"server": "5", "adapter": "10"},
    }
    return price_agreement_save(data={**data, **changes})


def _lines(quote, part):
    return [line for line in quote.frozen["lines"] if line["part_number"] == part]


def test_a_quote_for_the_companys_vat_number_applies_the_agreement(configuration, customer, media, build):
    agreement = _agreement()
    assert agreement.vat_number == VAT  # stored compact, with its country prefix
    quote = build(quote_request, configuration=configuration, customer={**customer, "vat_number": VAT}, channel="staff")
    quote.refresh_from_db()
    (server,) = _lines(quote, "SYS-821GE-TNHR")
    (nics,) = _lines(quote, "MCX75310AAS-NEAT")
    assert D(server["line_discount_percent"]) == D(server["agreement_discount_percent"]) == 5
    assert D(nics["line_discount"]) == (D(nics["list_total"]) * D("0.10")).quantize(D("0.01"))
    assert quote.line_discounts == {}  # the agreement's, not a manual discount
    assert quote.frozen["agreement"]["company"] == "Analytical Engines B.V."
    assert D(quote.frozen["agreement"]["applied"]["SYS-821GE-TNHR"]) == 5
    assert quote.frozen["terms"]["payment_days"] == 45
    assert quote.status == "issued"

    text = " ".join(
        page.extract_text() for page in PdfReader(io.BytesIO(default_storage.open(quote.pdf.name).read())).pages
    )
    flat = " ".join(text.split())
    assert "Agreed discounts (price agreement)" in flat
    assert "price agreement with Analytical Engines B.V. (RA-2026-3)" in flat
    assert "within 45 days" in flat


def test_the_kvk_number_finds_a_dutch_companys_agreement(configuration, customer, media, build):
    _agreement(vat_number="", kvk_number="1234 5678")
    quote = build(
        quote_request, configuration=configuration, customer={**customer, "kvk_number": "12345678"}, channel="staff"
    )
    assert quote.customer_kvk == "12345678"
    assert D(_lines(quote, "SYS-821GE-TNHR")[0]["agreement_discount_percent"]) == 5


def test_no_agreement_without_a_matching_number_or_when_inactive(configuration, customer, media, build):
    _agreement(is_active=False)
    quote = build(quote_request, configuration=configuration, customer={**customer, "vat_number": VAT}, channel="staff")
    assert quote.frozen["agreement"] is None
    assert all(line["agreement_discount_percent"] is None for line in quote.frozen["lines"])


def test_a_manual_line_discount_replaces_the_agreed_one_on_its_part(configuration, customer, media, build):
    _agreement()
    quote = build(
        quote_request,
        configuration=configuration,
        customer={**customer, "vat_number": VAT},
        channel="staff",
        line_discounts={"SYS-821GE-TNHR": D("2")},
    )
    (server,) = _lines(quote, "SYS-821GE-TNHR")
    assert (D(server["line_discount_percent"]), server["agreement_discount_percent"]) == (2, None)
    assert D(_lines(quote, "MCX75310AAS-NEAT")[0]["agreement_discount_percent"]) == 10


def test_agreed_discounts_count_toward_the_approval_threshold(configuration, customer, media, build, staff):
    _agreement(discounts={"server": "20"})
    quote = build(
        quote_request,
        configuration=configuration,
        customer={**customer, "vat_number": VAT},
        channel="staff",
        user=staff,
    )
    assert quote.status == "awaiting_approval" and quote.approval_reasons == ["discount"]


def test_bad_agreements_are_refused_naming_the_field(db):
    with pytest.raises(QuoteError) as neither:
        price_agreement_save(data={"company": "X", "discounts": {}})
    assert "vat_number" in neither.value.errors
    with pytest.raises(QuoteError) as bad:
        price_agreement_save(
            data={"company": "X", "kvk_number": "123", "discounts": {"spaceship": "5", "server": "150"}}
        )
    assert {"kvk_number", "discounts.spaceship", "discounts.server"} <= set(bad.value.errors)
    _agreement()
    with pytest.raises(QuoteError) as twice:
        _agreement(company="Someone else")
    assert twice.value.errors
    assert PriceAgreement.objects.count() == 1


def test_staff_keep_agreements_in_the_admin(client, seeded_catalog):
    admin_user = StaffFactory(username="root", is_superuser=True)
    client.force_login(admin_user, backend="django.contrib.auth.backends.ModelBackend")
    url = reverse("admin:quotes_priceagreement_add")
    form = {
        "company": "ACME B.V.",
        "vat_number": "",
        "kvk_number": "87654321",
        "payment_days": "60",
        "reference": "",
        "is_active": "on",
        "discounts-TOTAL_FORMS": "1",
        "discounts-INITIAL_FORMS": "0",
        "discounts-MIN_NUM_FORMS": "0",
        "discounts-MAX_NUM_FORMS": "1000",
        "discounts-0-category": "switch",
        "discounts-0-discount_percent": "7.5",
    }
    bad = client.post(url, {**form, "kvk_number": "8765"})
    assert bad.status_code == 200 and "8 digits" in bad.content.decode()
    assert client.post(url, form).status_code == 302
    agreement = PriceAgreement.objects.get()
    assert (agreement.kvk_number, agreement.payment_days) == ("87654321", 60)
    assert [(d.category, d.discount_percent) for d in agreement.discounts.all()] == [("switch", D("7.50"))]


def test_staff_see_the_agreement_in_the_live_preview(configuration, client):
    _agreement()
    client.force_login(StaffFactory(username="petra"), backend="django.contrib.auth.backends.ModelBackend")
    html = client.post(
        reverse("configurator:price_preview", args=[configuration.token]),
        {"country": "NL", "vat_number": VAT},
    ).content.decode()
    assert 'id="price-preview-agreement"' in html and "Analytical Engines B.V." in html
    plain = client.post(reverse("configurator:price_preview", args=[configuration.token]), {"country": "NL"})
    assert 'id="price-preview-agreement"' not in plain.content.decode()
