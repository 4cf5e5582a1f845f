"""Text the product writes into CSV and XLSX files stays text: a spreadsheet never runs it as a formula.

A cell whose text begins with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is taken for a formula by
Excel, LibreOffice and Google Sheets (CSV injection, OWASP). Every export of user-controlled text (the price
list, the quote's bill of materials, the cabling list) goes through this module:

- XLSX: such a cell is stored as a string cell (never a formula) with the quote prefix Excel itself sets for text
  that looks like a formula, so it shows the exact text and editing it keeps it text.
- CSV: such a field gets a leading apostrophe (``'=HYPERLINK(...)``), the form spreadsheets read as text. The
  price-list import takes the apostrophe off again (``csv_text_value``), so an export imports unchanged.

Pure Python: no Django, no openpyxl import (the XLSX helper works on the sheet it is given).
"""

from __future__ import annotations

from typing import Any

__all__ = ["FORMULA_PREFIXES", "csv_text", "csv_text_value", "looks_like_formula", "neutralise_sheet"]

FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")
CSV_GUARD = "'"


def looks_like_formula(value: Any) -> bool:
    """True for text a spreadsheet would evaluate (or run as DDE) rather than show."""
    return isinstance(value, str) and value.startswith(FORMULA_PREFIXES)


def csv_text(value: Any) -> str:
    """The CSV field for ``value``: its text, with an apostrophe before text that looks like a formula."""
    text = "" if value is None else str(value)
    return CSV_GUARD + text if looks_like_formula(text) else text


def csv_text_value(text: str) -> str:
    """The text ``csv_text`` was given: an apostrophe it added before formula-like text is taken off."""
    if text.startswith(CSV_GUARD) and looks_like_formula(text[1:]):
        return text[1:]
    return text


def neutralise_sheet(sheet: Any) -> None:
    """Store every formula-like text cell of an openpyxl worksheet as plain text (a string cell with the quote
    prefix), keeping its exact text; numbers, dates and other cells are left as they are."""
    for row in sheet.iter_rows():
        for cell in row:
            if looks_like_formula(cell.value):
                cell.data_type = "s"
                cell.quotePrefix = True
