"""Quote documents: a PDF (ReportLab platypus) and an XLSX bill of materials (openpyxl).

Both are a pure rendering of ``Quote.frozen`` (schema quote/v1): no catalogue, configuration or settings are
read, so a document rebuilt years later prints what was issued. The PDF loads nothing from the network: the
pictures (topology diagram, rack elevation, slot maps) are drawn from the snapshot, and its typefaces are shipped
with the product (quotes.pdffonts).

pdf_context is the single source of what the offer says and how its amounts, dates and quantities are written;
quotes.offerpdf sets it on the pages, the pictures as SVG in fewer elements for the same drawing (quotes.svgslim)
drawn by quotes.svgpdf. A worker builds a small offer before its first quote (warm_up). bench/quotes.py measures a
build against WeasyPrint's one-page floor.
"""

from __future__ import annotations

import gc
import io
import logging
from collections import OrderedDict
from datetime import date, datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Any, TypedDict

from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from catalog.models import CATEGORY_CHOICES
from configurator.pictures import fabric_diagram_svg, rack_elevation_pages, slot_map_svg
from configurator.rackplan import enclosure_count, rack_count
from design.contract import BILL_SECTIONS
from design.spreadsheets import neutralise_sheet
from messages.bill import section_titles
from messages.cluster import left_out_items
from messages.diagram import words as diagram_words
from messages.racks import elevation_labels, kw_number
from messages.slotmap import slot_map_labels

from . import svgslim
from .audience import is_catalogue_gap
from .countries import country_name
from .snapshot import FrozenAgreement, FrozenLine, FrozenQuote

# A quote's snapshot, typed or as the JSON the database keeps (read with FrozenQuote.from_json).
Snapshot = FrozenQuote | dict[str, Any]


class AcceptanceRecord(TypedDict):
    """What the order confirmation prints about the customer's acceptance (quotes.services.orders)."""

    name: str
    position: str
    email: str
    po_number: str
    note: str
    channel: str
    accepted_at: str  # ISO 8601


if TYPE_CHECKING:
    from openpyxl.cell.cell import Cell
    from openpyxl.worksheet.worksheet import Worksheet

logger = logging.getLogger(__name__)


def money(value: Any, language: str) -> str:
    """€ 1,234.56 (en) or € 1.234,56 (nl)."""
    if value in (None, ""):
        return ""
    with translation.override(language):
        return "€ " + formats.number_format(Decimal(str(value)), 2, use_l10n=True, force_grouping=True)


def percent(value: Any, language: str) -> str:
    number = Decimal(str(value or "0"))
    if not number:
        return ""
    with translation.override(language):
        text = formats.number_format(
            number.normalize() if number == number.to_integral() else number, None, use_l10n=True
        )
    return f"{text}%"


def _date(value: str | None) -> date | None:
    return date.fromisoformat(value) if value else None


def _datetime(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


def _svg(svg: str | bytes) -> str:
    """A picture's SVG, in fewer elements for the same drawing (quotes.svgslim)."""
    return svgslim.slim(svg if isinstance(svg, str) else svg.decode())


def _topology_picture(plan: dict[str, Any] | None, language: str) -> str | None:
    """The fabric diagram (engines.fabric.diagram.render_svg) of the frozen plan, or None if there is no
    plan. The plan is a dict in the snapshot; configurator.pictures draws it as the fabric step does."""
    if not plan or not plan.get("tiers"):
        return None
    try:
        with translation.override(language):
            svg = fabric_diagram_svg(plan, diagram_words(), language, printed=True)
    except Exception:  # a picture must never stop the quote
        logger.warning("Topology diagram could not be drawn", exc_info=True)
        return None
    return _svg(svg) if svg else None


def _rack_pictures(rack_plan: dict[str, Any] | None) -> list[str]:
    """The rack elevation of the frozen rack plan (configurator.pictures, as the fabric step draws it), a line of
    three distinct racks per picture, each as wide as the page."""
    return [_svg(svg) for svg in rack_elevation_pages(rack_plan, elevation_labels(), kw_number)]


def _pdus_needed(rack_plan: dict[str, Any] | None, lines: list[FrozenLine]) -> int:
    """PDUs a quote frozen before the bill carried every rack-plan line needs but does not list (no PDU in the
    catalogue): one per feed in every rack, at least. 0 when the bill has its racks-and-power lines."""
    if not rack_plan or not rack_plan.get("racks") or rack_plan.get("pdus"):
        return 0
    if any(line.section == "racks_power" for line in lines):
        return 0
    return enclosure_count(rack_plan) * (2 if rack_plan.get("pdu_feeds") == "A+B" else 1)


def left_out(frozen: Snapshot) -> str:
    """What the offer leaves out because the site has it (the frozen result's ``left_out``), in the active
    language; "" when it leaves nothing out."""
    items = FrozenQuote.from_json(frozen).left_out_items
    return left_out_items(items) if items else ""


def _rack_power(totals: dict[str, Any]) -> dict[str, str]:
    """The facility power of the frozen totals in kW, or the known part of it when some power is unknown."""
    power, known = totals.get("facility_power_w"), totals.get("facility_power_known_w")
    return {
        "rack_power": kw_number(power / 1000) if power else "",
        "rack_power_known": kw_number(known / 1000) if known and not power else "",
    }


def _slot_pictures(placement: Any, language: str) -> list[dict[str, str]]:
    """One slot map per node group (configurator.pictures, as the adapters step draws it)."""
    if not placement:
        return []
    groups = (
        placement if isinstance(placement, list) else list(placement.values()) if isinstance(placement, dict) else []
    )
    with translation.override(language):
        labels = slot_map_labels()
    pictures = []
    for index, group in enumerate(groups):
        try:
            svg = slot_map_svg(group, labels)
        except Exception:
            logger.warning("Slot map of node group %s could not be drawn", index, exc_info=True)
            continue
        if svg:
            name = group.get("name") or group.get("group") if isinstance(group, dict) else None
            pictures.append({"name": name or f"#{index + 1}", "svg": _svg(svg)})
    return pictures


def lead_time(days: Any) -> str:
    """A line's lead time as the offer prints it: "35 days" (from the catalogue), or "on request" when unknown."""
    if days in (None, ""):
        return _("on request")
    return ngettext("%(days)s day", "%(days)s days", int(days)) % {"days": int(days)}


def frozen_lines(frozen: Snapshot) -> list[FrozenLine]:
    """The frozen lines with their stable section key (``section``) and node group (``group``), in the bill's
    section order; a line of a quote frozen before those keys existed gets them from its old section name
    (FrozenLine.stable). A design of one node group names none: "gpu:" before every node line tells the reader
    nothing."""
    order = {key: i for i, key in enumerate(BILL_SECTIONS)}
    out = FrozenQuote.from_json(frozen).stable_lines(order)
    if len({line.group for line in out if line.group}) < 2:
        out = [line.model_copy(update={"group": None}) for line in out]
    return sorted(out, key=lambda line: order.get(line.section, len(order)))


def customer_points(frozen: Snapshot) -> tuple[list[str], bool]:
    """What the customer's copy says about the design's findings: each warning of the validation receipt in plain
    words (its message alone: no rule code, design path or the reason a sales engineer gave for accepting it), and
    whether some warning concerns a figure to confirm with the manufacturer (said once, not listed). Notes (info
    findings) are the sales engineer's: they stay in the internal appendix."""
    warnings = FrozenQuote.from_json(frozen).receipt.warnings()
    points: list[str] = []
    for finding in warnings:
        message = str(finding.get("message") or "")
        if not is_catalogue_gap(str(finding.get("code") or "")) and message and message not in points:
            points.append(message)
    return points, any(is_catalogue_gap(str(f.get("code") or "")) for f in warnings)


def on_request(line: FrozenLine) -> bool:
    return line.on_request


def at_least(frozen: Snapshot) -> bool:
    """Whether the quote's totals leave out a line priced on request (they are then at least the amounts)."""
    return FrozenQuote.from_json(frozen).at_least


def _sections(frozen: FrozenQuote, language: str) -> list[dict[str, Any]]:
    sections: OrderedDict[str, list[FrozenLine]] = OrderedDict()
    for line in frozen_lines(frozen):
        sections.setdefault(line.section, []).append(line)
    titles = section_titles()
    asked = _("on request")
    out = []
    for key, lines in sections.items():
        rows = []
        for line in lines:
            priced = not line.on_request
            discount = line.line_discount + line.quote_discount
            rows.append(
                {
                    **line.to_json(),
                    "on_request": not priced,
                    "quantity_fmt": quantity(line.quantity, language),
                    "unit_price_fmt": money(line.unit_price, language) if priced else asked,
                    "list_total_fmt": money(line.list_total, language) if priced else asked,
                    "discount_fmt": money(discount, language) if discount else "",
                    "line_discount_percent_fmt": percent(line.line_discount_percent, language),
                    "net_fmt": money(line.net, language) if priced else asked,
                    "lead_time": lead_time(line.lead_time_days),
                }
            )
        net = sum((line.net for line in lines if line.net is not None), Decimal("0.00"))
        out.append(
            {
                "key": key,
                "title": titles.get(key, key),
                "lines": rows,
                # a section with no priced line is on request as a whole, not "at least € 0.00"
                "net_fmt": money(net, language) if not all(on_request(line) for line in lines) else asked,
                "at_least": any(on_request(line) for line in lines),
                "all_on_request": all(on_request(line) for line in lines),
            }
        )
    return out


def quantity(value: Any, language: str) -> str:
    """A quantity with the language's thousands separator: 1,024 (en) or 1.024 (nl)."""
    with translation.override(language):
        return formats.number_format(int(value), 0, use_l10n=True, force_grouping=True)


def local_datetime(value: str | None) -> datetime | None:
    """A frozen ISO timestamp in the site's time zone (settings.TIME_ZONE): what both documents print."""
    moment = _datetime(value)
    if moment is None:
        return None
    return timezone.localtime(moment) if timezone.is_aware(moment) else moment


def _discounts(frozen: FrozenQuote, language: str) -> dict[str, str]:
    """The agreed discounts (the customer's price agreement), the other line discounts and the quote discount as
    separate totals: the quote discount's line never silently holds the line discounts, nor a manual discount the
    agreement's."""
    lines = frozen.lines
    agreed = [line for line in lines if line.agreement_discount_percent]
    agreed_total = sum((line.line_discount for line in agreed), Decimal("0.00"))
    line_total = sum((line.line_discount for line in lines), Decimal("0.00")) - agreed_total
    quote_total = sum((line.quote_discount for line in lines), Decimal("0.00"))
    return {
        "agreed": money(agreed_total, language) if agreed_total else "",
        "line": money(line_total, language) if line_total else "",
        "quote": money(quote_total, language) if quote_total else "",
    }


def _agreement(agreement: FrozenAgreement | None, language: str) -> dict[str, str] | None:
    """The price agreement the quote was priced with, as the offer names it: the company, its reference, and its
    discounts per catalogue category ("Server 5%, Network adapter 3%")."""
    if not agreement:
        return None
    titles = {code: str(label) for code, label in CATEGORY_CHOICES}  # the catalogue's own category names
    discounts = ", ".join(
        f"{titles.get(category, category)} {percent(value, language)}"
        for category, value in sorted(agreement.discounts.items())
    )
    return {
        "company": agreement.company,
        "reference": agreement.reference,
        "discounts": discounts,
    }


def _party(party: dict[str, Any]) -> dict[str, Any]:
    return {**party, "country_name": country_name(party.get("country", ""))}


AUDIENCES = ("customer", "staff")


def pdf_context(snapshot: Snapshot, audience: str = "customer") -> dict[str, Any]:
    """What the offer says, for ``audience``: the customer's copy (the one e-mailed and downloaded) speaks plain
    words only; the sales engineer's ("staff") adds an internal appendix with the rule codes, design paths, every
    finding and the reasons warnings were accepted."""
    if audience not in AUDIENCES:
        raise ValueError(audience)
    frozen = FrozenQuote.from_json(snapshot)
    language = frozen.language
    totals = frozen.totals
    validation = frozen.validation
    discounts = _discounts(frozen, language)
    omitted = frozen.left_out_items
    points, confirm = customer_points(frozen)
    return {
        "q": snapshot if isinstance(snapshot, dict) else snapshot.to_json(),
        "audience": audience,
        "points": points,
        "confirm_figures": confirm,
        "language": language,
        "seller": _party(frozen.seller),
        "customer": _party(frozen.customer.to_json()),
        "terms": frozen.terms.to_json() if frozen.terms else {},
        "contact": frozen.sales_contact.to_json() if frozen.sales_contact else {},
        "issued_at": local_datetime(frozen.issued_at),
        "valid_until": _date(frozen.valid_until),
        "sections": _sections(frozen, language),
        "at_least": frozen.at_least,
        "on_request_count": sum(1 for line in frozen.lines if line.on_request),
        "totals": {
            key: money(totals.to_json().get(key), language)
            for key in ("subtotal", "discount", "net", "vat_amount", "total")
        },
        "has_discount": totals.discount > 0,
        "agreed_discounts": discounts["agreed"],
        "agreement": _agreement(frozen.agreement, language),
        "line_discounts": discounts["line"],
        "quote_discount": discounts["quote"],
        "discount_percent": percent(frozen.discount_percent, language),
        "vat_rate": percent(totals.vat_rate, language) or "0%",
        "vat_free": not totals.vat_rate,
        "topology": _topology_picture(validation.get("fabric_plan"), language),
        "fabric_plan": validation.get("fabric_plan"),
        "fabric_switches": {
            role: quantity((validation.get("fabric_plan") or {}).get(f"{role}_switches") or 0, language)
            for role in ("leaf", "spine", "core")
        },
        "slot_maps": _slot_pictures(validation.get("placement"), language),
        "rack_plan": validation.get("rack_plan"),
        "rack_count": rack_count(validation.get("rack_plan")),
        **_rack_power(validation.get("totals") or {}),
        "pdus_needed": 0 if "power" in omitted else _pdus_needed(validation.get("rack_plan"), frozen.lines),
        "left_out": left_out(frozen),
        "elevations": _rack_pictures(validation.get("rack_plan")),
    }


def _warm_up_quote() -> dict[str, Any]:
    """A one-line offer in every face the offer uses (a part number, an amount, a line on request, a hash)."""
    line = {
        "section": "nodes",
        "group": "gpu",
        "part_number": "SYS-0",
        "description": "Warm-up",
        "quantity": 1,
        "unit_price": None,
        "list_total": None,
        "line_discount_percent": "0",
        "line_discount": "0.00",
        "quote_discount": "0.00",
        "net": None,
        "lead_time_days": None,
    }
    return {
        "number": "Q-0",
        "language": "en",
        "seller": {"name": "Seller", "development": True},
        "customer": {"name": "Customer"},
        "lines": [line],
        "totals": {"subtotal": "0.00", "discount": "0.00", "net": "0.00", "vat_amount": "0.00", "total": "0.00"},
        "receipt": {"design_hash": "0" * 64, "findings": [{"code": "W", "severity": "warning", "message": "m"}]},
    }


WARM_UP_PICTURE = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="90" height="40" viewBox="0 0 90 40" font-family="sans-serif">'
    '<rect x="1" y="1" width="88" height="38" fill="#eef" stroke="#333"/><text x="2" y="10" font-weight="bold">R0'
    '</text><text x="40" y="30" font-family="ui-monospace,monospace">MCX-0</text></svg>'
)


def warm_up() -> None:
    """What a worker's first quote would otherwise pay on top of its build: the offer's fonts registered and their
    glyphs read, ReportLab's layout and the pictures' drawer loaded (a one-line offer and one picture built once),
    openpyxl loaded."""
    from openpyxl import Workbook
    from reportlab.pdfgen.canvas import Canvas

    from .svgpdf import Picture

    render_pdf(_warm_up_quote())
    picture = Picture(WARM_UP_PICTURE, 100, 100)
    canvas = Canvas(io.BytesIO())
    picture.wrapOn(canvas, 100, 100)
    picture.drawOn(canvas, 0, 0)
    Workbook().save(io.BytesIO())


def render_pdf(frozen: Snapshot, audience: str = "customer") -> bytes:
    """The quote PDF, in the customer's language (ReportLab platypus: quotes.offerpdf): the customer's copy, or with
    ``audience="staff"`` the sales engineer's, with its internal appendix."""
    from . import offerpdf

    # A build makes many short-lived objects and no reference cycle worth collecting mid-build: the collector runs
    # once after it, not every 700 allocations during it.
    collecting = gc.isenabled()
    gc.disable()
    try:
        with translation.override(FrozenQuote.from_json(frozen).language):
            return offerpdf.build(pdf_context(frozen, audience))
    finally:
        if collecting:
            gc.enable()


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


def _has_discount(frozen: Snapshot) -> bool:
    return any(
        line.line_discount_percent or line.line_discount or line.quote_discount_percent or line.quote_discount
        for line in FrozenQuote.from_json(frozen).lines
    )


def xlsx_columns(frozen: Snapshot) -> tuple[str, ...]:
    """The bill sheet's columns: the discount columns only when some line has a discount, the node group only when
    the design has several."""
    left_out = set() if _has_discount(frozen) else set(DISCOUNT_COLUMNS)
    if not any(line.group for line in frozen_lines(frozen)):
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


def render_xlsx(snapshot: Snapshot) -> bytes:
    """The bill of materials as a workbook: sheet 1 holds exactly the frozen lines (one row each, in order,
    below a header row); sheet 2 the totals."""
    from openpyxl import Workbook

    frozen = FrozenQuote.from_json(snapshot)
    language = frozen.language
    wb = Workbook()
    issued = _datetime(frozen.issued_at)
    if issued is not None:
        wb.properties.created = issued.replace(tzinfo=None)
    wb.properties.creator = frozen.seller.get("name", "")
    wb.properties.title = frozen.number
    with translation.override(language):
        _xlsx_lines_sheet(wb.active, frozen)
        _xlsx_summary_sheet(wb.create_sheet(_("Summary")[:31]), frozen)
    for sheet in wb.worksheets:
        neutralise_sheet(sheet)  # "=HYPERLINK(…)" as a company name stays text
    buffer = io.BytesIO()
    wb.save(buffer)
    return buffer.getvalue()


def _xlsx_cell(key: str, line: dict[str, Any], titles: dict[str, str]) -> Any:
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


def _xlsx_lines_sheet(ws: Worksheet, frozen: FrozenQuote) -> None:
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
        row = line.to_json()
        ws.append([_xlsx_cell(key, row, titles) for key in columns])
        for cell, key in zip(ws[ws.max_row], columns):
            _format(cell, key)
    priced = [line for line in lines if not line.on_request]
    label = _("Total, at least (lines on request not included)") if len(priced) < len(lines) else _("Total")
    sums = {
        "list_total": sum((line.list_total or Decimal("0.00") for line in priced), Decimal("0.00")),
        "line_discount": sum((line.line_discount for line in priced), Decimal("0.00")),
        "quote_discount": sum((line.quote_discount for line in priced), Decimal("0.00")),
        "net": sum((line.net or Decimal("0.00") for line in priced), Decimal("0.00")),
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


def _address(party: dict[str, Any]) -> str:
    """A party's postal address on one line (street, postal code and city, country), or '' when not given."""
    place: dict[str, Any] = party["address"] if isinstance(party.get("address"), dict) else party
    street = place.get("street", "")
    city = " ".join(x for x in (place.get("postal_code", ""), place.get("city", "")) if x)
    country = country_name(party.get("country", "")) if party.get("country") else ""
    return ", ".join(x for x in (street, city, country) if x) if street else ""


def _xlsx_summary_sheet(summary: Worksheet, frozen: FrozenQuote) -> None:
    """Sheet 2: the quote's identity, seller, customer and billing address, terms and totals, one labelled row
    each. Amounts say "at least" when a line is priced on request."""
    totals = frozen.totals
    customer = frozen.customer.to_json()
    seller = frozen.seller
    terms = frozen.terms.to_json() if frozen.terms else {}
    receipt = frozen.receipt.to_json()  # a hash written as null prints as an empty cell, as it always did
    issued_local = local_datetime(frozen.issued_at)
    low = frozen.at_least
    days = terms.get("payment_days") or 30
    rows = [
        (_("Quote"), frozen.number),
        (_("Revision"), frozen.revision),
        (_("Issued"), issued_local.date() if issued_local else ""),
        (_("Valid until"), _date(frozen.valid_until) or ""),
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
        (_("List value"), totals.subtotal),
        (_("Discount"), totals.discount),
        (_("Net, excl. VAT"), totals.net),
        (_("VAT rate"), totals.vat_rate / 100),
        (_("VAT"), totals.vat_amount),
        (_("Total, incl. VAT"), totals.total),
        (_("VAT notice"), frozen.vat.notice if frozen.vat else ""),
        (_("Not in this offer"), left_out(frozen) or _("nothing: the offer carries every part")),
        (_("Design hash"), receipt.get("design_hash", "")),
        (_("Catalogue version"), receipt.get("catalog_version", "")),
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


def render_order_confirmation(frozen: Snapshot, acceptance: AcceptanceRecord) -> bytes:
    """The order confirmation (orderbevestiging) of an accepted quote, in the quote's language: the frozen
    snapshot's parties, bill and totals with the acceptance (quotes.orderpdf). ``acceptance``: name, position,
    email, po_number, note and accepted_at (ISO)."""
    from . import orderpdf

    with translation.override(FrozenQuote.from_json(frozen).language):
        record = {**acceptance, "accepted_at": local_datetime(acceptance.get("accepted_at"))}
        return orderpdf.build(pdf_context(frozen), record)
