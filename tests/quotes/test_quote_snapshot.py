"""The quote's snapshot is a typed, versioned model (quotes.snapshot): a snapshot the freezing service writes reads
and writes back key for key, and a snapshot as the first version of the product stored it (no stable section keys,
no ``at_least``, no terms, sales contact, agreement or customer address, a null design hash) still loads and
renders both documents."""

from __future__ import annotations

import io
from decimal import Decimal as D

import pytest
from openpyxl import load_workbook
from pydantic import ValidationError

from design.contract import BILL_SECTIONS
from quotes.documents import frozen_lines, pdf_context, render_pdf, render_xlsx
from quotes.services import quote_request
from quotes.snapshot import SCHEMA, FrozenQuote
from tests.factories import design


def _line(section: str, part: str, quantity: int, unit: str | None) -> dict:
    total = None if unit is None else str(D(unit) * quantity)
    return {
        "section": section,
        "part_number": part,
        "description": f"{part} description",
        "quantity": quantity,
        "unit_price": unit,
        "list_total": total,
        "line_discount_percent": "0",
        "line_discount": "0.00",
        "quote_discount_percent": "0",
        "quote_discount": "0.00",
        "net": total,
    }


# A snapshot as the first version of quotes/services stored it (quote/v1 before the bill's stable section keys).
FIRST_VERSION = {
    "schema": "quote/v1",
    "number": "Q-2026-0001",
    "revision": 1,
    "language": "en",
    "currency": "EUR",
    "issued_at": "2026-01-05T10:00:00+00:00",
    "valid_until": "2026-02-04",
    "seller": {"name": "NCS International", "country": "NL", "phone": "+31 544 470 000"},
    "customer": {"name": "Ada", "company": "Lab BV", "email": "ada@example.com", "country": "NL", "vat_number": ""},
    "crm_reference": "",
    "design": {"name": "old design"},
    "validation": {"findings": []},
    "lines": [
        _line("gpu", "SYS-821GE-TNHR", 2, "250000.00"),
        _line("fabric", "MQM9790-NS2F", 1, "30000.00"),
        _line("management", "SN2201", 1, None),
        _line("racks", "RACK-42U", 1, "2000.00"),
    ],
    "discount_percent": "0",
    "line_discounts": {},
    "totals": {
        "currency": "EUR",
        "subtotal": "532000.00",
        "discount": "0.00",
        "net": "532000.00",
        "vat_rate": "21",
        "vat_amount": "111720.00",
        "total": "643720.00",
    },
    "vat": {"category": "standard", "rate": "21", "notice": ""},
    "acknowledgements": [],
    "approval": None,
    "receipt": {"design_hash": None, "catalog_version": None, "findings": []},
}


def test_a_first_version_snapshot_loads_with_its_lines_read_as_the_sections_they_are_now():
    snapshot = FrozenQuote.from_json(FIRST_VERSION)
    assert snapshot.to_json() == FIRST_VERSION  # read and written back, key for key, nothing added
    assert snapshot.terms is None and snapshot.sales_contact is None and snapshot.customer.address is None
    assert snapshot.lines[0].unit_price == D("250000.00") and snapshot.lines[2].on_request
    assert snapshot.at_least  # a line on request, though its totals predate ``at_least``
    assert [(line.section, line.group) for line in snapshot.stable_lines(BILL_SECTIONS)] == [
        ("nodes", "gpu"),
        ("compute_fabric", None),
        ("oob", None),
        ("racks_power", None),
    ]
    sections = [line["section"] for line in frozen_lines(FIRST_VERSION)]
    assert sections == ["nodes", "compute_fabric", "oob", "racks_power"]


@pytest.mark.django_db
def test_a_first_version_snapshot_renders_both_documents():
    context = pdf_context(FIRST_VERSION)
    assert context["at_least"] and context["on_request_count"] == 1
    assert context["totals"]["net"] == "€ 532,000.00"
    assert render_pdf(FIRST_VERSION).startswith(b"%PDF")
    sheet = load_workbook(io.BytesIO(render_xlsx(FIRST_VERSION))).worksheets[1]
    summary = {row[0]: row[1] for row in sheet.iter_rows(values_only=True)}
    assert summary["Quote"] == "Q-2026-0001" and summary["Payment terms"] == "30 days from the invoice date"


def test_an_unknown_schema_is_refused_and_a_misspelled_amount_fails_on_read():
    with pytest.raises(ValueError, match="quote/v9"):
        FrozenQuote.from_json({**FIRST_VERSION, "schema": "quote/v9"})
    with pytest.raises(ValidationError):
        FrozenQuote.from_json({**FIRST_VERSION, "totals": {**FIRST_VERSION["totals"], "net": "a lot"}})


@pytest.mark.django_db
def test_a_snapshot_the_freezing_service_writes_reads_and_writes_back_key_for_key(
    make_configuration, customer, media, build
):
    quote = build(quote_request, configuration=make_configuration(design(4)), customer=customer, channel="api")
    written = dict(quote.frozen)  # as the freezing service wrote it, in its key order
    quote.refresh_from_db()
    frozen = quote.frozen  # as stored (PostgreSQL's jsonb keeps no key order)
    assert frozen["schema"] == SCHEMA
    snapshot = quote.snapshot
    assert snapshot.to_json() == frozen
    assert list(type(snapshot).from_json(written).to_json()) == list(written)  # the freezing service's key order
    assert snapshot.number == quote.number and snapshot.totals.net == quote.net
    assert [line.part_number for line in snapshot.lines] == [line["part_number"] for line in frozen["lines"]]
