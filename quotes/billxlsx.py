"""The XLSX bill of materials of a quote (openpyxl): sheet 1 the frozen lines, sheet 2 the quote's identity, parties,
terms and totals. A pure rendering of ``Quote.frozen`` (quotes.frozen reads it), like the offer PDF."""

from __future__ import annotations

import io
from datetime import date
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from design.jsontext import JsonObject
from design.spreadsheets import neutralise_sheet
from messages.bill import section_titles

from .countries import country_name
from .expansionwords import expansion_facts, expansion_of, expansion_source, recabling_headers, recabling_rows
from .frozen import _date, _datetime, at_least, frozen_lines, left_out, local_datetime, on_request

if TYPE_CHECKING:
    from openpyxl.cell.cell import Cell
    from openpyxl.worksheet.worksheet import Worksheet


XLSX_COLUMNS = (
    "section",
    "group",
    "part_number",
    "description",
    "quantity",
    "unit_price",
    "list_total",
    "line_discount_percent",
    "line_discount",
    "quote_discount_percent",
    "quote_discount",
    "net",
    "lead_time_days",
)
DISCOUNT_COLUMNS = ("line_discount_percent", "line_discount", "quote_discount_percent", "quote_discount")
TEXT_COLUMNS = frozenset({"section", "group", "part_number", "description"})
MONEY_COLUMNS = frozenset({"unit_price", "list_total", "line_discount", "quote_discount", "net"})
PERCENT_COLUMNS = frozenset({"line_discount_percent", "quote_discount_percent"})
# A euro amount: the cell holds the number; the reader's locale chooses the separators (€ 1.234,56 or € 1,234.56).
CURRENCY_FORMAT = '"€" #,##0.00'
# A share: the cell holds 0.2, the reader sees 20.00 %.
PERCENT_FORMAT = "0.00%"
QUANTITY_FORMAT = "#,##0"
DATE_FORMAT = "yyyy-mm-dd"


def _has_discount(frozen: JsonObject) -> bool:
    return any(Decimal(str(line.get(key) or "0")) for line in frozen.get("lines", []) for key in DISCOUNT_COLUMNS)


def xlsx_columns(frozen: JsonObject) -> tuple[str, ...]:
    """The bill sheet's columns: the discount columns only when some line has a discount, the node group only when
    the design has several."""
    left_out = set() if _has_discount(frozen) else set(DISCOUNT_COLUMNS)
    if not any(line["group"] for line in frozen_lines(frozen)):
        left_out.add("group")
    return tuple(key for key in XLSX_COLUMNS if key not in left_out)


def _xlsx_headers() -> dict[str, str]:
    return {
        "section": _("Section"),
        "group": _("Node group"),
        "part_number": _("Part number"),
        "description": _("Description"),
        "quantity": _("Quantity"),
        "unit_price": _("Unit list price (EUR)"),
        "list_total": _("List value (EUR)"),
        "line_discount_percent": _("Line discount (%)"),
        "line_discount": _("Line discount (EUR)"),
        "quote_discount_percent": _("Quote discount (%)"),
        "quote_discount": _("Quote discount (EUR)"),
        "net": _("Net (EUR)"),
        "lead_time_days": _("Lead time (days)"),
    }


_WIDTHS = {"section": 24, "group": 12, "part_number": 24, "description": 48, "quantity": 9, "lead_time_days": 12}


def render_xlsx(frozen: JsonObject) -> bytes:
    """The bill of materials as a workbook: sheet 1 holds exactly the frozen lines (one row each, in order,
    below a header row); sheet 2 the totals (an expansion quote's: what is installed, added and moved too); an
    expansion quote's sheet 3 the re-cabling list."""
    from openpyxl import Workbook

    language = frozen.get("language", "en")
    wb = Workbook()
    issued = _datetime(frozen.get("issued_at"))
    if issued is not None:
        wb.properties.created = issued.replace(tzinfo=None)
    wb.properties.creator = (frozen.get("seller") or {}).get("name", "")
    wb.properties.title = frozen.get("number", "")
    with translation.override(language):
        _xlsx_lines_sheet(wb.active, frozen)
        _xlsx_summary_sheet(wb.create_sheet(_("Summary")[:31]), frozen)
        if (expansion := expansion_of(frozen)) is not None:
            _xlsx_recabling_sheet(wb.create_sheet(_("Re-cabling")[:31]), recabling_rows(expansion))
    for sheet in wb.worksheets:
        neutralise_sheet(sheet)  # "=HYPERLINK(…)" as a company name stays text
    buffer = io.BytesIO()
    wb.save(buffer)
    return buffer.getvalue()


def _xlsx_cell(key: str, line: JsonObject, titles: dict[str, str]) -> Any:
    value = line.get(key)
    if key == "section":
        return titles.get(str(value), value)
    if key in TEXT_COLUMNS:
        return value or ""
    if key in ("quantity", "lead_time_days"):
        return None if value is None or value == "" else int(value)
    if value in (None, ""):  # an amount of a line priced on request
        return _("on request")
    number = Decimal(str(value))
    return number / 100 if key in PERCENT_COLUMNS else number


def _xlsx_lines_sheet(ws: Worksheet, frozen: JsonObject) -> None:
    """Sheet 1: a bold header row, one row per frozen line by section (a line priced on request says so in its
    amounts), then a bold total row: the sum of the lines' list values and net amounts, "at least" when a line is
    priced on request. Money in a currency format, percentages as shares in a percent format."""
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter

    columns = xlsx_columns(frozen)
    headers = _xlsx_headers()
    titles = section_titles()
    ws.title = _("Bill of materials")[:31]
    ws.append([headers[key] for key in columns])
    for cell in ws[1]:
        cell.font = Font(bold=True)
    lines = frozen_lines(frozen)
    for line in lines:
        ws.append([_xlsx_cell(key, line, titles) for key in columns])
        for cell, key in zip(ws[ws.max_row], columns):
            _format(cell, key)
    priced = [line for line in lines if not on_request(line)]
    label = _("Total, at least (lines on request not included)") if len(priced) < len(lines) else _("Total")
    sums = {
        key: sum((Decimal(line[key]) for line in priced), Decimal("0.00")) for key in MONEY_COLUMNS - {"unit_price"}
    }
    ws.append([label if key == "section" else sums.get(key) for key in columns])
    for cell, key in zip(ws[ws.max_row], columns):
        cell.font = Font(bold=True)
        _format(cell, key)
    for index, key in enumerate(columns, start=1):
        ws.column_dimensions[get_column_letter(index)].width = _WIDTHS.get(key, 16)
    ws.freeze_panes = "A2"


def _format(cell: Cell, key: str) -> None:
    if isinstance(cell.value, str) or cell.value is None:
        return
    if key in MONEY_COLUMNS:
        cell.number_format = CURRENCY_FORMAT
    elif key in PERCENT_COLUMNS:
        cell.number_format = PERCENT_FORMAT
    elif key == "quantity":
        cell.number_format = QUANTITY_FORMAT


def _address(party: JsonObject) -> str:
    """A party's postal address on one line (street, postal code and city, country), or '' when not given."""
    place: JsonObject = party["address"] if isinstance(party.get("address"), dict) else party
    street = place.get("street", "")
    city = " ".join(x for x in (place.get("postal_code", ""), place.get("city", "")) if x)
    country = country_name(party.get("country", "")) if party.get("country") else ""
    return ", ".join(x for x in (street, city, country) if x) if street else ""


def _expansion_rows(frozen: JsonObject) -> list[tuple[str, Any]]:
    expansion = expansion_of(frozen)
    if expansion is None:
        return []
    return [expansion_source(expansion), *expansion_facts(expansion)]


def _xlsx_recabling_sheet(ws: Worksheet, rows: list[list[str]]) -> None:
    """Sheet 3 of an expansion quote: a bold header row, one row per moved, added or removed cable."""
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter

    ws.append(recabling_headers())
    for cell in ws[1]:
        cell.font = Font(bold=True)
    for row in rows:
        ws.append(row)
    for index, width in enumerate((10, 10, 14, 30, 30, 30, 30, 40, 10), start=1):
        ws.column_dimensions[get_column_letter(index)].width = width
    ws.freeze_panes = "A2"


def _xlsx_summary_sheet(summary: Worksheet, frozen: JsonObject) -> None:
    """Sheet 2: the quote's identity, seller, customer and billing address, terms and totals, one labelled row
    each. Amounts say "at least" when a line is priced on request."""
    totals = frozen.get("totals", {})
    customer = frozen.get("customer", {})
    seller = frozen.get("seller") or {}
    terms = frozen.get("terms") or {}
    issued_local = local_datetime(frozen.get("issued_at"))
    low = at_least(frozen)
    days = terms.get("payment_days") or 30
    rows = [
        (_("Quote"), frozen.get("number", "")),
        (_("Revision"), frozen.get("revision", 1)),
        *_expansion_rows(frozen),
        (_("Issued"), issued_local.date() if issued_local else ""),
        (_("Valid until"), _date(frozen.get("valid_until")) or ""),
        (_("Seller"), seller.get("name", "")),
        (_("Seller address"), _address(seller) or ", ".join(seller.get("address") or [])),
        (_("Chamber of Commerce (KvK)"), seller.get("kvk", "")),
        (_("VAT ID (BTW-id)"), seller.get("vat_id", "")),
        (_("IBAN"), seller.get("iban", "")),
        (_("Customer"), customer.get("company") or customer.get("name", "")),
        (_("Billing address"), _address(customer) or _("Billing address to be confirmed")),
        (_("Customer VAT number"), customer.get("vat_number", "")),
        (
            _("Payment terms"),
            ngettext("%(days)s day from the invoice date", "%(days)s days from the invoice date", days)
            % {"days": days},
        ),
        (_("Incoterm"), f"{terms.get('incoterm') or 'DAP'} (Incoterms® 2020)"),
        (_("General terms"), terms.get("general_terms_url") or _("Sent on request")),
        (_("Currency"), "EUR"),
        (_("Amounts"), _("At least: lines priced on request are not included") if low else _("Every line priced")),
        (_("List value"), Decimal(totals.get("subtotal", "0"))),
        (_("Discount"), Decimal(totals.get("discount", "0"))),
        (_("Net, excl. VAT"), Decimal(totals.get("net", "0"))),
        (_("VAT rate"), Decimal(totals.get("vat_rate", "0")) / 100),
        (_("VAT"), Decimal(totals.get("vat_amount", "0"))),
        (_("Total, incl. VAT"), Decimal(totals.get("total", "0"))),
        (_("VAT notice"), (frozen.get("vat") or {}).get("notice", "")),
        (_("Not in this offer"), left_out(frozen) or _("nothing: the offer carries every part")),
        (_("Design hash"), (frozen.get("receipt") or {}).get("design_hash", "")),
        (_("Catalogue version"), (frozen.get("receipt") or {}).get("catalog_version", "")),
    ]
    money_rows = {_("List value"), _("Discount"), _("Net, excl. VAT"), _("VAT"), _("Total, incl. VAT")}
    for label, value in rows:
        summary.append([label, value])
        cell = summary.cell(row=summary.max_row, column=2)
        if label in money_rows:
            cell.number_format = CURRENCY_FORMAT
        elif label == _("VAT rate"):
            cell.number_format = PERCENT_FORMAT
        elif isinstance(value, date):
            cell.number_format = DATE_FORMAT
    summary.column_dimensions["A"].width = 26
    summary.column_dimensions["B"].width = 70
