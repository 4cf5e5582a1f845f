"""The quote carries the one bill (the validation result's ``bom``) and both documents print it by section: lines
on request as such, totals that leave them out say "at least", readable part numbers and quantities, and a workbook
with a total row, true percentages and the offer's parties and terms."""

from __future__ import annotations

import copy
import io
import re
from collections import Counter
from decimal import Decimal as D

import pytest
from openpyxl import load_workbook
from pypdf import PdfReader

from quotes.documents import render_pdf, render_xlsx
from quotes.services import quote_request
from tests.factories import design, set_price

pytestmark = pytest.mark.django_db


def hgx_h100(nodes: int) -> dict:
    doc = design(nodes, name=f"{nodes} x HGX H100")
    doc["node_groups"][0]["components"] = [
        {"part": "HGX-H100-8GPU", "quantity": 1},
        {"part": "MCX75310AAS-NEAT", "quantity": 8, "role": "compute"},
    ]
    return doc


def pdf_text(data: bytes) -> str:
    return " ".join("\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages).split())


def sheets(frozen: dict):
    book = load_workbook(io.BytesIO(render_xlsx(frozen)))
    return book.worksheets[0], {row[0].value: row[1] for row in book.worksheets[1].iter_rows()}


@pytest.fixture
def quote_128(make_configuration, customer, media, build, settings):
    """A CRM's quote for 128 HGX H100 nodes on an MQM9700 fabric (issued at once, any size), from a price list that
    does not price the PDU, without a price for the control plane's servers (both quoted on request)."""
    settings.QUOTE_SERVICE_CONTROL_NODE_EUR = ""
    set_price("AP8886", lead_time_days=None)
    return build(quote_request, configuration=make_configuration(hgx_h100(128)), customer=customer, channel="api")


def test_the_128_node_quote_is_the_bill_and_its_total_is_the_sum_of_its_lines(quote_128):
    frozen = quote_128.frozen
    validation = frozen["validation"]
    bill = [(x["section"], x["part"], x["quantity"], x["unit_price_eur"]) for x in validation["bom"]]
    lines = [(x["section"], x["part_number"], x["quantity"], x["unit_price"]) for x in frozen["lines"]]
    assert lines == bill
    priced = [x for x in frozen["lines"] if x["unit_price"] is not None]
    assert quote_128.subtotal == sum(D(x["list_total"]) for x in priced) == D(validation["totals"]["list_price_eur"])
    assert quote_128.net == sum(D(x["net"]) for x in priced)
    assert quote_128.total == quote_128.net + quote_128.vat_amount and frozen["totals"]["at_least"] is True
    # Every device of the rack plan is a line: racks, PDUs, cords and the out-of-band switches (central, in the
    # management racks, at this density; one in each rack where the design asks for it).
    plan = validation["rack_plan"]
    quoted = Counter()
    for x in frozen["lines"]:
        quoted[(x["section"], x["part_number"])] += x["quantity"]
    oob = ("management", "oob")
    management = sum(r["count"] * d["count"] for r in plan["racks"] for d in r["devices"] if d["role"] in oob)
    assert quoted[("oob", "SN2201")] == management > 0
    assert quoted[("racks_power", "RACK-42U")] == validation["totals"]["racks"]
    assert quoted[("racks_power", "AP8886")] == sum(p["quantity"] for p in plan["pdus"])
    assert quoted[("racks_power", "CORD-C19-C20-2M")] == sum(c["quantity"] for c in plan["cords"])


def test_the_pdf_lists_lines_on_request_and_says_at_least(quote_128):
    frozen = quote_128.frozen
    text = pdf_text(render_pdf(frozen))
    for title in ("Nodes", "Compute fabric", "Out-of-band management network", "Racks and power"):
        assert title in text
    pdus = sum(p["quantity"] for p in frozen["validation"]["rack_plan"]["pdus"])
    # Part number and description apart (the number above its description), quantities with a thousands separator.
    assert f"AP8886 APC Rack PDU 2G, Metered, ZeroU, 22 kW, 230 V, 30x C13 + 12x C19 {pdus} on request" in text
    # one node group: no "gpu:" before every node line
    assert "MCX75310AAS-NEAT ConnectX-7 NDR 400G single-port OSFP adapter 1,024 " in text and " gpu: " not in text
    assert "HDS-M2N4-960G0-E1-TXD-NON-080 Micron 7450 PRO" in text  # the longest part number, whole
    asked = sum(1 for x in frozen["lines"] if x["unit_price"] is None)  # PDUs and the control plane
    assert f"{asked} lines are priced on request: every amount below is at least the amount shown" in text
    assert re.search(r"Total, incl\. VAT at least € [\d,]+\.\d\d", text)
    dutch = pdf_text(render_pdf({**frozen, "language": "nl"}))
    assert " 1.024 " in dutch and re.search(r"Totaal, incl\. btw minstens € [\d.]+,\d\d", dutch)


def test_the_pdf_says_no_at_least_when_every_line_is_priced(quote_128):
    frozen = copy.deepcopy(quote_128.frozen)
    frozen["lines"] = [x for x in frozen["lines"] if x["unit_price"] is not None]
    frozen["totals"]["at_least"] = False
    text = pdf_text(render_pdf(frozen))
    assert re.search(r"List value € [\d,]+\.\d\d", text) and re.search(r"Total, incl\. VAT € [\d,]+\.\d\d", text)
    assert "priced on request" not in text and "Subtotal, at least" not in text


def test_the_fabric_sentence_counts_core_switches(quote_128):
    frozen = copy.deepcopy(quote_128.frozen)
    frozen["validation"]["fabric_plan"].update(tiers=3, core_switches=1200)
    assert "3; 32 leaf, 16 spine and 1,200 core switches." in pdf_text(render_pdf(frozen))


def test_the_workbook_has_a_total_row_parties_and_terms_and_no_empty_discount_columns(quote_128):
    frozen = quote_128.frozen
    bom, summary = sheets(frozen)
    header = [c.value for c in bom[1]]
    assert not any("discount" in h.lower() for h in header)  # an undiscounted quote
    rows = list(bom.iter_rows(min_row=2, values_only=True))
    *lines, total = rows
    assert len(lines) == len(frozen["lines"])
    net = header.index("Net (EUR)")
    assert total[0].startswith("Total, at least")
    assert D(str(total[net])) == sum(D(str(r[net])) for r in lines if r[net] != "on request") == quote_128.net
    assert "Node group" not in header  # one node group: the column would hold one name on every line
    asked = [r for r in lines if r[header.index("Part number")] == "AP8886"]
    assert asked[0][header.index("Unit list price (EUR)")] == "on request"
    assert {r[0] for r in lines} >= {"Nodes", "Compute fabric", "Out-of-band management network", "Racks and power"}
    assert summary["Seller"].value == "NCS International" and "Groenlo" in summary["Seller address"].value
    assert summary["Billing address"].value  # the customer's, or "to be confirmed"
    assert "30 days" in summary["Payment terms"].value and "Incoterms" in summary["Incoterm"].value
    assert summary["VAT rate"].value == pytest.approx(0.21) and "%" in summary["VAT rate"].number_format
    assert "At least" in summary["Amounts"].value


def test_a_discount_is_a_share_in_a_percent_format(make_configuration, customer, staff, media, build):
    quote = build(
        quote_request,
        configuration=make_configuration(hgx_h100(2)),
        customer=customer,
        user=staff,
        channel="staff",
        discount_percent="10",
    )
    bom, _summary = sheets(quote.frozen)
    header = [c.value for c in bom[1]]
    column = header.index("Quote discount (%)") + 1
    cell = bom.cell(row=2, column=column)
    assert cell.value == pytest.approx(0.1) and cell.number_format.endswith("%")


def test_the_quote_page_and_the_api_say_at_least(quote_128, client):
    from django.urls import reverse

    page = " ".join(client.get(reverse("quotes:status", args=[quote_128.token])).content.decode().split())
    assert "<strong>at least €" in page and "priced on request" in page
    from api.serializers.quotes import QuoteSerializer

    assert QuoteSerializer(quote_128).data["totals"]["at_least"] is True
