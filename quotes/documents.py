"""Quote documents: a PDF (ReportLab platypus) and an XLSX bill of materials (openpyxl, quotes.billxlsx).

Both are a pure rendering of ``Quote.frozen`` (schema quote/v1, read by quotes.frozen): no catalogue, configuration
or settings are read, so a document rebuilt years later prints what was issued. The PDF loads nothing from the
network: the pictures (topology diagram, rack elevation, slot maps) are drawn from the snapshot by
outputs.picture_set, as the wizard draws them, and its typefaces are shipped with the product (outputs.pdffonts).

pdf_context is the single source of what the offer says and how its amounts, dates and quantities are written;
quotes.offerpdf sets it on the pages, the pictures as SVG in fewer elements for the same drawing (outputs.svgslim)
drawn by outputs.svgpdf. A worker builds a small offer before its first quote (warm_up). bench/quotes.py measures a
build against WeasyPrint's one-page floor.
"""

from __future__ import annotations

import gc
import io
import logging
from collections import OrderedDict
from decimal import Decimal

from django.utils import translation
from django.utils.translation import gettext as _

from catalog.models import CATEGORY_CHOICES
from design.jsontext import JsonObject
from engines.cluster.rackbill import enclosure_count
from messages.bill import section_titles
from messages.racks import kw_number
from outputs.services import picture_set

from .billxlsx import (
    CURRENCY_FORMAT,
    DATE_FORMAT,
    PERCENT_FORMAT,
    QUANTITY_FORMAT,
    XLSX_COLUMNS,
    render_xlsx,
    xlsx_columns,
)
from .countries import country_name
from .expansionwords import expansion_facts, expansion_title
from .frozen import (
    Snapshot,
    _date,
    at_least,
    customer_points,
    frozen_lines,
    lead_time,
    left_out,
    local_datetime,
    money,
    on_request,
    percent,
    quantity,
)
from .offercontext import (
    AcceptanceRecord,
    AgreementWords,
    ExpansionWords,
    OfferContext,
    OfferPictures,
    OfferSection,
    OfferTotals,
    OrderAcceptance,
)
from .snapshot import FrozenAgreement, FrozenQuote

__all__ = [  # what the quote services, views and tests read from here (the bill's workbook and frozen readers)
    "AcceptanceRecord",
    "CURRENCY_FORMAT",
    "DATE_FORMAT",
    "PERCENT_FORMAT",
    "QUANTITY_FORMAT",
    "XLSX_COLUMNS",
    "at_least",
    "customer_points",
    "frozen_lines",
    "lead_time",
    "left_out",
    "local_datetime",
    "money",
    "on_request",
    "pdf_context",
    "percent",
    "quantity",
    "render_order_confirmation",
    "render_pdf",
    "render_xlsx",
    "warm_up",
    "xlsx_columns",
]

logger = logging.getLogger(__name__)


def _pictures(validation: JsonObject, language: str) -> OfferPictures:
    """The offer's pictures of the frozen plans (outputs.picture_set, printed: the same pictures the wizard's steps
    show, laid out for the page): the topology diagram (None without a fabric), a slot map per node group, the rack
    elevation a line of three distinct racks per picture, each as wide as the page, and the racks it stands for."""
    pictures = picture_set(
        fabric_plan=validation.get("fabric_plan"),
        rack_plan=validation.get("rack_plan"),
        placement=validation.get("placement"),
        language=language,
        printed=True,
    )
    return {
        "topology": pictures.diagram() or None,
        "slot_maps": [{"name": m.name, "svg": m.svg} for m in pictures.slot_maps()],
        "rack_count": pictures.rack_count(),
        "rack_heights": pictures.rack_heights(),
        "elevations": pictures.elevations(),
    }


def _pdus_needed(rack_plan: JsonObject | None, lines: list[JsonObject]) -> int:
    """PDUs a quote frozen before the bill carried every rack-plan line needs but does not list (no PDU in the
    catalogue): one per feed in every rack, at least. 0 when the bill has its racks-and-power lines."""
    if not rack_plan or not rack_plan.get("racks") or rack_plan.get("pdus"):
        return 0
    if any(line.get("section") == "racks_power" for line in lines):
        return 0
    return enclosure_count(rack_plan) * (2 if rack_plan.get("pdu_feeds") == "A+B" else 1)


def _rack_power(totals: JsonObject) -> tuple[str, str]:
    """The facility power of the frozen totals in kW (``rack_power``), or the known part of it when some power is
    unknown (``rack_power_known``)."""
    power, known = totals.get("facility_power_w"), totals.get("facility_power_known_w")
    return kw_number(power / 1000) if power else "", kw_number(known / 1000) if known and not power else ""


def _sections(frozen: JsonObject, language: str) -> list[OfferSection]:
    sections: OrderedDict[str, list[JsonObject]] = OrderedDict()
    for line in frozen_lines(frozen):
        sections.setdefault(line["section"], []).append(line)
    titles = section_titles()
    asked = _("on request")
    out: list[OfferSection] = []
    for key, lines in sections.items():
        rows = []
        for line in lines:
            priced = not on_request(line)
            discount = Decimal(line["line_discount"]) + Decimal(line["quote_discount"])
            rows.append(
                {
                    **line,
                    "on_request": not priced,
                    "quantity_fmt": quantity(line["quantity"], language),
                    "unit_price_fmt": money(line["unit_price"], language) if priced else asked,
                    "list_total_fmt": money(line["list_total"], language) if priced else asked,
                    "discount_fmt": money(discount, language) if discount else "",
                    "line_discount_percent_fmt": percent(line["line_discount_percent"], language),
                    "net_fmt": money(line["net"], language) if priced else asked,
                    "lead_time": lead_time(line.get("lead_time_days")),
                }
            )
        net = sum((Decimal(line["net"]) for line in lines if not on_request(line)), Decimal("0.00"))
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


def _agreement(agreement: FrozenAgreement | None, language: str) -> AgreementWords | None:
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


def _party(party: JsonObject) -> JsonObject:
    return {**party, "country_name": country_name(party.get("country", ""))}


AUDIENCES = ("customer", "staff")


def pdf_context(quote: Snapshot, audience: str = "customer") -> OfferContext:
    """What the offer says, for ``audience``: the customer's copy (the one e-mailed and downloaded) speaks plain
    words only; the sales engineer's ("staff") adds an internal appendix with the rule codes, design paths, every
    finding and the reasons warnings were accepted."""
    if audience not in AUDIENCES:
        raise ValueError(audience)
    snapshot = FrozenQuote.from_json(quote)
    frozen = quote if isinstance(quote, dict) else snapshot.to_json()  # what the line readers and the pages read
    language = snapshot.language
    totals = snapshot.totals
    validation = snapshot.validation
    discounts = _discounts(snapshot, language)
    omitted = snapshot.left_out_items
    points, confirm = customer_points(frozen)
    pictures = _pictures(validation, language)
    rack_power, rack_power_known = _rack_power(validation.get("totals") or {})
    return {
        "q": frozen,
        "audience": audience,
        "points": points,
        "confirm_figures": confirm,
        "language": language,
        "seller": _party(snapshot.seller),
        "customer": _party(snapshot.customer.to_json()),
        "terms": snapshot.terms.to_json() if snapshot.terms else {},
        "contact": snapshot.sales_contact.to_json() if snapshot.sales_contact else {},
        "issued_at": local_datetime(snapshot.issued_at),
        "valid_until": _date(snapshot.valid_until),
        "sections": _sections(frozen, language),
        "at_least": snapshot.at_least,
        "on_request_count": sum(1 for line in snapshot.lines if line.on_request),
        "totals": _totals(totals.to_json(), language),
        "has_discount": totals.discount > 0,
        "agreed_discounts": discounts["agreed"],
        "agreement": _agreement(snapshot.agreement, language),
        "line_discounts": discounts["line"],
        "quote_discount": discounts["quote"],
        "discount_percent": percent(snapshot.discount_percent, language),
        "vat_rate": percent(totals.vat_rate, language) or "0%",
        "vat_free": not totals.vat_rate,
        "topology": pictures["topology"],
        "slot_maps": pictures["slot_maps"],
        "rack_count": pictures["rack_count"],
        "rack_heights": pictures["rack_heights"],
        "elevations": pictures["elevations"],
        "fabric_plan": validation.get("fabric_plan"),
        "fabric_switches": {
            role: quantity((validation.get("fabric_plan") or {}).get(f"{role}_switches") or 0, language)
            for role in ("leaf", "spine", "core")
        },
        "rack_plan": validation.get("rack_plan"),
        "rack_power": rack_power,
        "rack_power_known": rack_power_known,
        "pdus_needed": 0 if "power" in omitted else _pdus_needed(validation.get("rack_plan"), frozen.get("lines", [])),
        "left_out": left_out(frozen),
        "expansion": _expansion(snapshot),
    }


def _totals(totals: JsonObject, language: str) -> OfferTotals:
    """The quote's totals written as amounts in ``language``."""
    return {
        "subtotal": money(totals.get("subtotal"), language),
        "discount": money(totals.get("discount"), language),
        "net": money(totals.get("net"), language),
        "vat_amount": money(totals.get("vat_amount"), language),
        "total": money(totals.get("total"), language),
    }


def _expansion(snapshot: FrozenQuote) -> ExpansionWords | None:
    """An expansion quote's section: its title (the original's number) and what is installed, added and moved."""
    if snapshot.expansion is None:
        return None
    return {"title": expansion_title(snapshot.expansion), "facts": expansion_facts(snapshot.expansion)}


def _warm_up_quote() -> JsonObject:
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

    from outputs.svgpdf import Picture

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


def render_order_confirmation(frozen: Snapshot, acceptance: AcceptanceRecord) -> bytes:
    """The order confirmation (orderbevestiging) of an accepted quote, in the quote's language: the frozen
    snapshot's parties, bill and totals with the acceptance (quotes.orderpdf). ``acceptance``: name, position,
    email, po_number, note and accepted_at (ISO)."""
    from . import orderpdf

    with translation.override(FrozenQuote.from_json(frozen).language):
        record: OrderAcceptance = {**acceptance, "accepted_at": local_datetime(acceptance.get("accepted_at"))}
        return orderpdf.build(pdf_context(frozen), record)
