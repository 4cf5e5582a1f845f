"""Cost and margin for staff: the purchase prices of the price list price each line's and the quote's margin, beside
the live price preview, on the quote step, the dashboard and the staff workbook; a margin below the floor waits for
a second person as a discount above the threshold does; and no customer ever sees a cost or a margin (each door)."""

from __future__ import annotations

import io
import re
from decimal import Decimal as D

import pytest
from django.core import mail
from django.core.files.storage import default_storage
from django.db.models import F
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from catalog.models import Part
from quotes import pricing
from quotes.models import Quote
from quotes.services import quote_accept, quote_approve, quote_request
from tests.factories import StaffFactory

pytestmark = pytest.mark.django_db

# Words and figures that betray a cost or a margin, in both languages.
SECRET_WORDS = re.compile(r"margin|marge|purchase price|inkoopprijs|cost_price", re.IGNORECASE)


@pytest.fixture
def costs(seeded_catalog):
    """Every priced part bought at 80% of its list price: a 20% margin on the list value."""
    Part.objects.filter(list_price_eur__isnull=False).update(cost_price_eur=F("list_price_eur") * D("0.8"))


def _figures(quote: Quote) -> list[str]:
    """The quote's margin and total purchase price as English and Dutch documents would print them."""
    out = []
    for amount in (quote.margin_eur, quote.net - quote.margin_eur):
        english = f"{amount:,.2f}"
        out += [english, english.replace(",", " ").replace(".", ",").replace(" ", ".")]
    return out


def test_the_margin_is_net_less_the_purchase_prices_over_the_lines_that_have_one(
    costs, configuration, customer, media, build
):
    quote = build(quote_request, configuration=configuration, customer=customer, channel="staff")
    priced = [line for line in quote.frozen["lines"] if line["net"] is not None]
    cost = sum(
        pricing.cents(D(quote.costs[line["part_number"]]) * line["quantity"])
        for line in priced
        if line["part_number"] in quote.costs
    )
    net = sum(D(line["net"]) for line in priced if line["part_number"] in quote.costs)
    assert quote.margin_eur == net - cost
    assert quote.margin_percent == pricing.cents((net - cost) * 100 / net)
    assert D("19.9") <= quote.margin_percent <= D("20.1")
    assert "costs" not in quote.frozen and "cost" not in str(quote.frozen).lower()


def test_without_purchase_prices_the_margin_is_unknown(configuration, customer, media, build):
    quote = build(quote_request, configuration=configuration, customer=customer, channel="staff")
    assert quote.margin_eur is None and quote.margin_percent is None and quote.status == "issued"


def test_line_margins_are_unknown_for_lines_on_request_or_without_a_cost():
    line = pricing.price_line(
        pricing.RawLine("nodes", "A", "a", 2, D("100.00")),
        line_discount_percent=D("0"),
        quote_discount_percent=D("10"),
    )
    on_request = pricing.price_line(
        pricing.RawLine("nodes", "B", "b", 1, None), line_discount_percent=D("0"), quote_discount_percent=D("0")
    )
    unknown = pricing.price_line(
        pricing.RawLine("nodes", "C", "c", 1, D("50.00")), line_discount_percent=D("0"), quote_discount_percent=D("0")
    )
    margins = pricing.line_margins([line, on_request, unknown], {"A": D("60.00"), "B": D("1.00")})
    assert (margins[0].cost, margins[0].margin, margins[0].percent) == (D("120.00"), D("60.00"), D("33.33"))
    assert margins[1].margin is None and margins[2].margin is None
    quote = pricing.quote_margin([line, on_request, unknown], {"A": D("60.00")})
    assert (quote.amount, quote.percent, quote.complete) == (D("60.00"), D("33.33"), False)


@pytest.mark.parametrize(
    ("floor", "discount", "reasons"),
    [
        (25, None, ["margin"]),  # 20% margin below a 25% floor
        (10, None, []),  # above a 10% floor: issued at once
        (10, 20, ["discount"]),  # 20% discount above the 15% threshold (and 0% margin is below 10%: both)
        (None, 20, ["discount"]),  # no floor: only the discount counts
    ],
)
def test_a_margin_below_the_floor_waits_for_approval_as_a_discount_does(
    costs, configuration, customer, media, build, settings, staff, floor, discount, reasons
):
    settings.QUOTE_MARGIN_APPROVAL_FLOOR_PERCENT = floor
    quote = build(
        quote_request,
        configuration=configuration,
        customer=customer,
        channel="staff",
        user=staff,
        discount_percent=discount,
    )
    if floor == 10 and discount == 20:
        reasons = ["discount", "margin"]  # a 20% discount on a 20% margin leaves 0%
    assert quote.approval_reasons == reasons
    assert quote.status == ("awaiting_approval" if reasons else "issued")


def test_a_second_person_approves_a_quote_below_the_margin_floor(
    costs, configuration, customer, media, build, settings, staff
):
    settings.QUOTE_MARGIN_APPROVAL_FLOOR_PERCENT = 25
    quote = build(quote_request, configuration=configuration, customer=customer, channel="staff", user=staff)
    assert quote.status == "awaiting_approval"
    approver = StaffFactory(username="anna", permissions=("approve_quote",))
    approved = build(quote_approve, quote=quote, user=approver)
    assert approved.status == "issued" and approved.approval_reasons == ["margin"]


def test_staff_see_the_margin_beside_the_live_preview_and_why_it_waits(costs, make_configuration, client, settings):
    settings.QUOTE_MARGIN_APPROVAL_FLOOR_PERCENT = 25
    config = make_configuration()
    engineer = StaffFactory(username="petra")
    client.force_login(engineer, backend="django.contrib.auth.backends.ModelBackend")
    panel = client.post(reverse("configurator:price_preview", args=[config.token]), {"discount_percent": "0"})
    html = panel.content.decode()
    assert 'id="price-preview-margin-eur"' in html
    percent = re.search(r'id="price-preview-margin-percent">([\d.,]+)%', html).group(1)
    assert D(percent) == D("20")
    assert 'id="price-preview-margin-approval"' in html and "25%" in html
    assert "Margin per line" in html
    # below the floor only with the discount: no margin reason without it
    settings.QUOTE_MARGIN_APPROVAL_FLOOR_PERCENT = 10
    html = client.post(reverse("configurator:price_preview", args=[config.token]), {}).content.decode()
    assert 'id="price-preview-margin-approval"' not in html


def test_staff_see_the_margin_on_the_quote_step_the_dashboard_and_in_their_workbook(
    costs, make_configuration, client, settings, media, django_capture_on_commit_callbacks
):
    settings.QUOTE_MARGIN_APPROVAL_FLOOR_PERCENT = 25
    config = make_configuration()
    engineer = StaffFactory(username="petra")
    client.force_login(engineer, backend="django.contrib.auth.backends.ModelBackend")
    customer = {
        "name": "Ada",
        "company": "ACME",
        "email": "ada@example.nl",
        "country": "NL",
        "street": "Dam 1",
        "postal_code": "1012 JS",
        "city": "Amsterdam",
    }
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("configurator:step", args=[config.token, "quote"]), customer)
    quote = Quote.objects.get()
    assert quote.status == "awaiting_approval"
    step = client.get(reverse("configurator:step", args=[config.token, "quote"])).content.decode()
    assert 'id="latest-margin"' in step
    assert "margin below the floor of 25%" in re.search(r'<p id="approval-reasons">(.*?)</p>', step).group(1)

    dashboard = client.get(reverse("configurator:dashboard")).content.decode()
    assert f"{quote.margin_eur:,.2f}" in dashboard

    approver = StaffFactory(username="anna", permissions=("approve_quote",))
    with django_capture_on_commit_callbacks(execute=True):
        quote_approve(quote=quote, user=approver)
    response = client.get(reverse("quotes:staff_xlsx", args=[quote.pk]))
    book = load_workbook(io.BytesIO(response.content))
    header = [cell.value for cell in book.worksheets[0][1]]
    assert header[-2:] == ["Margin (EUR)", "Margin (%)"]
    summary = {row[0]: row[1] for row in book.worksheets[1].iter_rows(values_only=True)}
    assert D(str(summary["Margin (EUR)"])) == quote.margin_eur


def test_no_customer_door_shows_a_cost_or_a_margin(
    costs, configuration, customer, media, build, client, django_capture_on_commit_callbacks
):
    quote = build(quote_request, configuration=configuration, customer=customer, channel="staff", language="nl")
    quote.refresh_from_db()
    assert quote.margin_eur is not None
    secrets = _figures(quote)

    def clean(text: str, where: str) -> None:
        assert not SECRET_WORDS.search(text), where
        for figure in secrets:
            assert figure not in text, (where, figure)

    pdf = default_storage.open(quote.pdf.name).read()
    clean("\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages), "offer PDF")
    book = load_workbook(io.BytesIO(default_storage.open(quote.xlsx.name).read()))
    cells = " ".join(str(v) for sheet in book.worksheets for row in sheet.iter_rows(values_only=True) for v in row)
    clean(cells, "customer workbook")
    for message in mail.outbox:
        clean(message.subject + message.body + "".join(a[0] for a in message.alternatives), "ready e-mail")
    page = client.get(reverse("quotes:status", args=[quote.token])).content.decode()
    clean(page, "quote page")
    step = client.get(reverse("configurator:step", args=[quote.configuration.token, "quote"])).content.decode()
    clean(step, "customer's quote step")
    assert client.post(reverse("configurator:price_preview", args=[quote.configuration.token])).status_code == 403

    mail.outbox.clear()
    build(quote_accept, quote=quote, channel="customer", name="Grace", email="grace@example.nl", accept_terms=True)
    quote.refresh_from_db()
    confirmation = default_storage.open(quote.decision.confirmation_pdf.name).read()
    clean("\n".join(page.extract_text() for page in PdfReader(io.BytesIO(confirmation)).pages), "order confirmation")
    for message in mail.outbox:
        clean(message.subject + message.body, "order e-mail")
