"""Spreadsheet cells that look like formulas are written as text in the bill of materials."""

from __future__ import annotations

import io

import pytest
from openpyxl import load_workbook

from quotes.documents import render_xlsx
from quotes.services import quote_request

pytestmark = pytest.mark.django_db


def test_customer_and_line_texts_are_never_formulas_in_the_bom(configuration, customer, media, build):
    company = '=HYPERLINK("http://x")'
    customer.update(company=company)
    quote = build(quote_request, configuration=configuration, customer=customer)
    frozen = dict(quote.frozen)
    frozen["lines"] = [dict(line) for line in frozen["lines"]]
    frozen["lines"][0]["description"] = "+cmd|' /C calc'!A0"
    frozen["lines"][1]["description"] = "@SUM(1+1)*cmd|' /C calc'!A0"
    frozen["lines"][2]["section"] = "-2+3"

    wb = load_workbook(io.BytesIO(render_xlsx(frozen)))
    summary = wb.worksheets[1]
    cell = next(c for row in summary.iter_rows() for c in row if c.value == company)
    assert cell.data_type == "s" and cell.quotePrefix  # text, shown as typed, not a formula
    assert not any(c.data_type == "f" for ws in wb.worksheets for row in ws.iter_rows() for c in row)
    bom = wb.worksheets[0]
    for text in ("+cmd|' /C calc'!A0", "@SUM(1+1)*cmd|' /C calc'!A0", "-2+3"):
        found = next(c for row in bom.iter_rows() for c in row if c.value == text)
        assert found.data_type == "s" and found.quotePrefix
    # ordinary texts and numbers are untouched
    part = [c.value for c in bom[1]].index("Part number") + 1  # the node group column only with several groups
    assert bom.cell(row=2, column=part).value == frozen["lines"][0]["part_number"]
    assert not bom.cell(row=2, column=part).quotePrefix


def test_a_customer_name_formula_is_text_when_there_is_no_company(configuration, customer, media, build):
    customer.update(company="", name="=1+1")
    quote = build(quote_request, configuration=configuration, customer=customer)
    summary = load_workbook(io.BytesIO(render_xlsx(quote.frozen))).worksheets[1]
    cell = next(c for row in summary.iter_rows() for c in row if c.value == "=1+1")
    assert cell.data_type == "s"
