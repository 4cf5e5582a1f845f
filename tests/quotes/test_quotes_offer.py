"""The offer a Dutch distributor sends: seller identifiers, the customer's billing address, terms, lead times,
an acceptance block, no engineering noise before the appendix, discounts shown apart, and the same dates and
numeric amounts in the PDF and the XLSX."""

from __future__ import annotations

import io
import re
from datetime import date
from decimal import Decimal as D

import pytest
from django.utils import formats, translation
from openpyxl import load_workbook
from pypdf import PdfReader

from catalog.models import Part
from configurator.services import warning_acknowledge
from quotes.documents import render_pdf, render_xlsx, xlsx_columns
from quotes.services import quote_issue, quote_request
from tests.factories import WARNING_DESIGN, design

pytestmark = pytest.mark.django_db

SELLER = {
    "name": "NCS International",
    "street": "Den Sliem 89",
    "postal_code": "7141 JG",
    "city": "Groenlo",
    "country": "NL",
    "phone": "+31 544 470 000",
    "email": "info@ncs.nl",
    "kvk": "87654321",
    "vat_id": "NL987654321B01",
    "iban": "NL91 ABNA 0417 1643 00",
    "bic": "ABNANL2A",
    "bank": "",
    "development": False,
}
ADDRESS = {"street": "Keizersgracht 123", "postal_code": "1015 CJ", "city": "Amsterdam"}
APPENDIX = {"en": "Appendix: validation receipt", "nl": "Bijlage: validatiebewijs"}


def pdf_text(data: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


@pytest.fixture
def seller(settings):
    settings.SELLER = dict(SELLER)
    return settings.SELLER


@pytest.fixture
def reviewed_quote(make_configuration, customer, staff, seller, build):
    """A 1-node quote whose warning a sales engineer accepted, with the customer's billing address."""
    configuration = make_configuration(WARNING_DESIGN)
    waiting = build(quote_request, configuration=configuration, customer={**customer, "address": ADDRESS})
    warning_acknowledge(
        configuration=configuration,
        code="POWER_CAPACITY_UNKNOWN",
        subject="node_groups[0].server",
        reason="PSU rating confirmed by phone",
        user=staff,
    )
    return quote_issue(quote=waiting, user=staff)


def test_the_offer_names_seller_customer_terms_lead_times_and_acceptance(reviewed_quote):
    frozen = reviewed_quote.frozen
    text = flat(pdf_text(render_pdf(frozen)))
    for expected in (
        "Chamber of Commerce (KvK): 87654321",
        "VAT ID (BTW-id): NL987654321B01",
        "IBAN: NL91 ABNA 0417 1643 00",
        "BIC: ABNANL2A",
        "Den Sliem 89",
        "7141 JG Groenlo",
        "Billing address",
        "Keizersgracht 123",
        "1015 CJ Amsterdam",
        "Payment: within 30 days of the invoice date",
        "DAP (Incoterms® 2020)",
        "general terms and conditions of NCS International",
        "Your contact",
        "Sam Sales",
        "Acceptance",
        "Signature",
        "Purchase order number",
    ):
        assert expected in text, expected
    assert "Development seller details" not in text
    leads = dict(Part.objects.values_list("part_number", "lead_time_days"))
    for line in frozen["lines"]:
        days = leads.get(line["part_number"])  # a service line is no catalogue part: no lead time
        assert line["lead_time_days"] == days
        expected = f"{line['part_number']} " if days is None else f"{days} days"
        assert expected in text


def test_no_rule_code_hash_or_catalogue_version_before_the_appendix(reviewed_quote):
    frozen = reviewed_quote.frozen
    text = flat(pdf_text(render_pdf(frozen)))
    body, appendix = text.split(APPENDIX["en"])
    codes = {f["code"] for f in frozen["receipt"]["findings"]}
    assert "POWER_CAPACITY_UNKNOWN" in codes
    for code in codes:  # the customer's copy names no rule code at all
        assert code not in body and code not in appendix
    assert frozen["receipt"]["design_hash"][:16] not in body
    assert frozen["receipt"]["design_hash"][:16] in appendix.replace(" ", "")
    assert str(frozen["receipt"]["catalog_version"]) not in body.split("Bill of materials")[0]
    assert "node_groups[" not in text
    assert "PSU rating confirmed by phone" not in text  # why a sales engineer accepted it stays internal
    internal = flat(pdf_text(render_pdf(frozen, audience="staff")))
    assert all(code in internal for code in codes) and "PSU rating confirmed by phone" in internal


def test_without_an_address_the_billing_address_is_to_be_confirmed(configuration, customer, seller, build):
    quote = build(quote_request, configuration=configuration, customer=customer, channel="api")
    assert "Billing address to be confirmed" in flat(pdf_text(render_pdf(quote.frozen)))


def test_development_seller_details_are_marked_on_the_page(configuration, customer, build):
    quote = build(quote_request, configuration=configuration, customer=customer)
    assert "Development seller details — not valid for orders" in flat(pdf_text(render_pdf(quote.frozen)))


def test_the_dutch_offer_is_dutch_and_says_nederland(make_configuration, customer, seller, build):
    quote = build(
        quote_request,
        configuration=make_configuration(design(1)),
        customer={**customer, "address": ADDRESS},
        language="nl",
    )
    text = flat(pdf_text(render_pdf(quote.frozen)))
    for expected in ("Factuuradres", "Nederland", "Betaling", "Handtekening", "Inkoopordernummer", "Bijlage"):
        assert expected in text, expected
    leads = dict(Part.objects.values_list("part_number", "lead_time_days"))
    for line in quote.frozen["lines"]:
        days = leads.get(line["part_number"])
        assert (f"{days} dagen" if days else "op aanvraag") in text
    for english in ("Netherlands", "Billing address", "Signature", "Payment", " days", "Lead time", "Appendix"):
        assert english not in text, english


def test_discount_columns_only_with_a_discount_and_quote_discount_apart_from_line_discounts(
    configuration, customer, staff, seller, build
):
    plain = build(quote_request, configuration=configuration, customer=customer, channel="staff", user=staff)
    text = flat(pdf_text(render_pdf(plain.frozen)))
    assert "Line disc." not in text and "Discount" not in text
    assert "Part number and description Qty Lead time Unit price Net" in text  # the bill's headers, in order

    discounted = build(
        quote_request,
        configuration=configuration,
        customer={**customer, "email": "other@example.nl"},
        channel="staff",
        user=staff,
        discount_percent="10",
        line_discounts={"HGX-H200-8GPU": "5"},
    )
    lines = discounted.frozen["lines"]
    line_total = sum(D(line["line_discount"]) for line in lines)
    quote_total = sum(D(line["quote_discount"]) for line in lines)
    assert line_total and quote_total
    text = flat(pdf_text(render_pdf(discounted.frozen)))
    assert "Part number and description Qty Lead time Unit price List value Line disc. Discount Net" in text
    assert f"Line discounts − € {line_total:,.2f}" in text
    assert f"Discount (10% on the quote) − € {quote_total:,.2f}" in text


def test_xlsx_amounts_are_numbers_in_a_currency_format(configuration, customer, seller, build):
    quote = build(quote_request, configuration=configuration, customer=customer)
    book = load_workbook(io.BytesIO(render_xlsx(quote.frozen)))
    sheet = book.worksheets[0]
    for row in sheet.iter_rows(min_row=2, max_row=sheet.max_row - 1):  # the lines, above the total row
        for cell, key in zip(row, xlsx_columns(quote.frozen)):
            if (
                key in ("unit_price", "list_total", "net", "line_discount", "quote_discount")
                and cell.value != "on request"
            ):
                assert cell.data_type == "n" and isinstance(cell.value, (int, float)), (key, cell.value)
                assert "€" in cell.number_format
            if key == "lead_time_days":
                assert cell.value is None or isinstance(cell.value, int)
    summary = {row[0].value: row[1] for row in book.worksheets[1].iter_rows()}
    total = summary["Total, incl. VAT"]
    assert total.data_type == "n" and "€" in total.number_format
    assert D(str(total.value)) == D(quote.frozen["totals"]["total"])


@pytest.mark.parametrize(
    "issued_at, local_day",
    [
        ("2026-11-30T23:30:00+00:00", date(2026, 12, 1)),  # 00:30 in Amsterdam
        ("2026-06-30T22:15:00+00:00", date(2026, 7, 1)),  # summer time: 00:15 in Amsterdam
        ("2026-11-30T22:30:00+00:00", date(2026, 11, 30)),  # 23:30 in Amsterdam
    ],
)
def test_pdf_and_xlsx_give_the_same_date_near_midnight_utc(configuration, customer, build, issued_at, local_day):
    quote = build(quote_request, configuration=configuration, customer=customer)
    frozen = {**quote.frozen, "issued_at": issued_at}
    summary = {row[0].value: row[1].value for row in load_workbook(io.BytesIO(render_xlsx(frozen))).worksheets[1]}
    assert summary["Issued"].date() == local_day
    text = flat(pdf_text(render_pdf(frozen)))
    with translation.override("en"):
        shown = formats.date_format(local_day, "DATE_FORMAT")
    assert f"Date {shown}" in text, text[:400]


def _content_streams(data: bytes) -> bytes:
    """Every content stream of the PDF, with the pictures' (form XObjects, nested) ones."""
    out, seen = [], set()

    def walk(resources) -> None:
        for ref in (resources or {}).get("/XObject", {}).values():
            obj = ref.get_object()
            if id(obj) in seen or obj.get("/Subtype") != "/Form":
                continue
            seen.add(id(obj))
            out.append(obj.get_data())
            walk(obj.get("/Resources"))

    for page in PdfReader(io.BytesIO(data)).pages:
        out.append(page.get_contents().get_data())
        walk(page.get("/Resources"))
    return b"\n".join(out)


def test_the_topology_link_labels_are_painted_not_covered_by_a_white_stroke(make_configuration, customer, build):
    """A label drawn with a white halo stroke (SVG paint-order) must not come out as white-stroked text (text render
    mode 1 or 2) over its own fill: the link labels would be invisible in the PDF."""
    quote = build(quote_request, configuration=make_configuration(design(2)), customer=customer, channel="api")
    data = render_pdf(quote.frozen)
    assert "node–leaf links" in pdf_text(data)  # the text of the picture is there
    assert not re.search(rb"\b[12] Tr\b", _content_streams(data))  # and none of it is stroked
