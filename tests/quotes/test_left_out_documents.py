"""The offer says what it leaves out because the site has it: the quote's page, its PDF and its workbook, in the
customer's language; a quote that leaves nothing out says so in the workbook and nothing in the PDF."""

from __future__ import annotations

import io

import pytest
from openpyxl import load_workbook
from pypdf import PdfReader

from quotes.documents import render_pdf, render_xlsx
from quotes.services import quote_request
from tests.factories import design

pytestmark = pytest.mark.django_db


def _pdf(frozen: dict) -> str:
    return " ".join("\n".join(p.extract_text() for p in PdfReader(io.BytesIO(render_pdf(frozen))).pages).split())


def _summary(frozen: dict) -> dict:
    sheet = load_workbook(io.BytesIO(render_xlsx(frozen))).worksheets[1]
    return {row[0].value: row[1].value for row in sheet.iter_rows()}


def test_one_server_offer_says_rack_power_and_network_are_left_out(make_configuration, customer, client):
    quote = quote_request(configuration=make_configuration(design(1)), customer=customer, channel="api")
    frozen = quote.frozen
    assert frozen["validation"]["left_out"] == {"items": ["racks", "power", "oob"], "basis": "size"}
    assert not {x["section"] for x in frozen["lines"]} & {"racks_power", "oob"}
    said = "racks, PDUs and power cords, the out-of-band management network (its switches and cables)"
    assert f"Not in this offer: {said}." in _pdf(frozen)
    assert _summary(frozen)["Not in this offer"] == said
    page = client.get(f"/quotes/{quote.token}/").content.decode()
    assert f"Not in this offer: {said}." in page


def test_the_dutch_offer_says_it_in_dutch(make_configuration, customer):
    quote = quote_request(configuration=make_configuration(design(1)), customer=customer, channel="api", language="nl")
    assert "Niet in deze offerte: racks, PDU's en stroomkabels" in _pdf(quote.frozen)
    assert _summary(quote.frozen)["Niet in deze offerte"].startswith("racks, PDU's en stroomkabels")


def test_an_offer_that_leaves_nothing_out_says_so(make_configuration, customer):
    document = {**design(1), "facility": {"supplied": []}}
    quote = quote_request(configuration=make_configuration(document), customer=customer, channel="api")
    assert "Not in this offer" not in _pdf(quote.frozen)
    assert _summary(quote.frozen)["Not in this offer"] == "nothing: the offer carries every part"
