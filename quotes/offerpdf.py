"""The offer PDF laid out with ReportLab platypus from the offer's context (quotes.documents.pdf_context).

The context is the single source of what the offer says and how its amounts, dates and quantities are written; this
module only sets it on A4 pages: the header beside the seller block, the parties, the bill of materials as one table
(its column headers repeated on every page it runs over, a section's title kept with its first line and its subtotal
with its last, no line split across pages), the totals, the pictures (quotes.svgpdf), the terms, the acceptance block
and the appendix on a page of its own, with the seller, the quote number and "Page x / y" in every page's footer.

Every value of the quote is escaped before it reaches Paragraph markup: a customer's "<b>" or "&" stays text. Long
unbroken words (part numbers, hashes, URLs) are split where the line ends.

Call with the customer's language active (translation.override): the texts are Django's translations, with the same
messages as the web pages' (gettext, ngettext).
"""

from __future__ import annotations

import functools
import io
import logging
import re
from typing import Any
from xml.sax.saxutils import escape

from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from reportlab import rl_config
from reportlab.lib import colors
from reportlab.lib.enums import TA_RIGHT
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    PageBreak,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from . import pdffonts
from .pdffonts import BOLD, ITALIC, MONO, MONO_BOLD, SANS
from .svgpdf import Picture

logger = logging.getLogger(__name__)

# Compressed streams written as binary, as PDF allows, rather than also encoded in ASCII85: a fifth smaller, and the
# encoding was a tenth of a build.
rl_config.useA85 = 0

PAGE_WIDTH, PAGE_HEIGHT = A4
TOP, RIGHT, BOTTOM, LEFT = 16 * mm, 14 * mm, 18 * mm, 14 * mm
WIDTH = PAGE_WIDTH - LEFT - RIGHT  # the text column, 182 mm
FRAME_HEIGHT = PAGE_HEIGHT - TOP - BOTTOM

INK = colors.HexColor("#111111")
GREY = colors.HexColor("#555555")
SMALL_GREY = colors.HexColor("#444444")
FOOTER_GREY = colors.HexColor("#666666")
RULE = colors.HexColor("#999999")
HEAD_RULE = colors.HexColor("#555555")
ROW_RULE = colors.HexColor("#dddddd")
SIGN_RULE = colors.HexColor("#333333")
TBC = "#8a5a00"
SEVERITY = {"warning": "#8a5a00", "error": "#aa0000"}
DEV_RED = colors.HexColor("#aa0000")

BASE_SIZE, NUM_SIZE, SMALL_SIZE, FOOTER_SIZE = 8.5, 7.5, 7.0, 7.0
LEADING = 1.35
PAD_X, PAD_Y = 1.2 * mm, 1 * mm
LEAD_PAD = 2.5 * mm

# The bill's columns in shares of the text column, without and with the discount columns.
BOM_WIDTHS = (0.47, 0.07, 0.11, 0.16, 0.19)
BOM_DISCOUNT_WIDTHS = (0.25, 0.06, 0.09, 0.11, 0.14, 0.07, 0.13, 0.15)


def _style(name: str, size: float = BASE_SIZE, font: str = SANS, **kwargs: Any) -> ParagraphStyle:
    return ParagraphStyle(name, **{"textColor": INK, **kwargs}, fontName=font, fontSize=size, leading=size * LEADING)


BODY = _style("body")
H1 = _style("h1", 15, BOLD, spaceAfter=2 * mm)
H2 = _style("h2", 10.5, BOLD)
H3 = _style("h3", 9, BOLD, spaceBefore=4 * mm, spaceAfter=1.5 * mm, keepWithNext=1)
SMALL = _style("small", SMALL_SIZE, textColor=SMALL_GREY)
TERM = _style(
    "term",
    SMALL_SIZE,
    textColor=SMALL_GREY,
    leftIndent=5 * mm,
    bulletIndent=1 * mm,
    bulletFontName=SANS,
    bulletFontSize=SMALL_SIZE,
    spaceAfter=0.5,
)
NOTICE = _style("notice", font=BOLD, spaceBefore=2 * mm)
SELLER = _style("seller", 8, alignment=TA_RIGHT)
CELL = _style("cell")
HEAD_CELL = _style("head", NUM_SIZE, BOLD, splitLongWords=0)
HEAD_NUM = _style("head-num", NUM_SIZE, BOLD, alignment=TA_RIGHT, splitLongWords=0)
TITLE_CELL = _style("section", 9, BOLD)
HASH = _style("hash", 6.5, MONO)
DEV = _style("dev", font=BOLD, textColor=DEV_RED)


def text(value: Any) -> str:
    """A value of the quote as Paragraph text: escaped, so markup in it stays text."""
    return escape("" if value is None else str(value))


def keep_with_next(flowable: Flowable) -> Flowable:
    flowable.keepWithNext = 1
    return flowable


def heading(title: str, width: float = WIDTH, space_before: float = 6 * mm, keep: bool = True) -> Table:
    """An h2: bold 10.5 pt with a rule beneath, kept with what follows it unless ``keep`` is false."""
    table = Table(
        [[Paragraph(text(title), H2)]],
        colWidths=[width],
        style=TableStyle(
            [
                ("LINEBELOW", (0, 0), (-1, -1), 0.6, RULE),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                ("TOPPADDING", (0, 0), (-1, -1), 0),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 1 * mm),
            ]
        ),
        hAlign="LEFT",
        spaceBefore=space_before,
        spaceAfter=2 * mm,
    )
    if keep:
        keep_with_next(table)
    return table


def _fitted_size(value: str, font: str, width: float, size: float = NUM_SIZE) -> float:
    """The font size at which a number fits its column: the column's own size unless the amount is wider."""
    needed = stringWidth(value, font, size)
    return size if needed <= width else max(5.5, size * width / needed)


def _date(value: Any) -> str:
    return formats.date_format(value, "DATE_FORMAT") if value else ""


# --- the page -----------------------------------------------------------------------------------------------


def _canvas_maker(footer_left: str, page_word: str) -> type[Canvas]:
    """A canvas that holds its pages until the document is complete, then writes each page's footer, "Page x / y"
    with y the number of pages (known only then)."""

    class NumberedCanvas(Canvas):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._pages: list[dict[str, Any]] = []

        def showPage(self) -> None:  # noqa: N802 (ReportLab's name)
            self._pages.append(dict(self.__dict__))
            self._startPage()

        def save(self) -> None:
            total = len(self._pages)
            for number, state in enumerate(self._pages, start=1):
                self.__dict__.update(state)
                self._footer(number, total)
                super().showPage()
            super().save()

        def _footer(self, number: int, total: int) -> None:
            self.saveState()
            self.setFont(SANS, FOOTER_SIZE)
            self.setFillColor(FOOTER_GREY)
            y = BOTTOM / 2 - FOOTER_SIZE / 3
            self.drawString(LEFT, y, footer_left)
            self.drawRightString(PAGE_WIDTH - RIGHT, y, f"{page_word} {number} / {total}")
            self.restoreState()

    return NumberedCanvas


def build(context: dict[str, Any]) -> bytes:
    """The offer PDF of ``context`` (pdf_context), in the active language."""
    pdffonts.register()
    q = context["q"]
    seller = context["seller"]
    buffer = io.BytesIO()
    title = f"{_('Quote')} {q.get('number', '')}"
    document = BaseDocTemplate(
        buffer,
        pagesize=A4,
        topMargin=TOP,
        rightMargin=RIGHT,
        bottomMargin=BOTTOM,
        leftMargin=LEFT,
        title=title,
        author=seller.get("name", ""),
        subject=(q.get("design") or {}).get("name") or title,
        creator="",
        lang=context["language"],
        initialFontName=SANS,
        initialFontSize=BASE_SIZE,
    )
    # no frame padding: the text column is the page between its margins
    frame = Frame(LEFT, BOTTOM, WIDTH, FRAME_HEIGHT, leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
    document.addPageTemplates([PageTemplate(id="offer", frames=[frame])])
    document.build(
        story_of(context),
        canvasmaker=_canvas_maker(f"{seller.get('name', '')} · {q.get('number', '')}", _("Page")),
    )
    return buffer.getvalue()


def story_of(context: dict[str, Any]) -> list[Flowable]:
    """The offer from top to bottom, the appendix on a page of its own."""
    story: list[Flowable] = []
    if context["seller"].get("development"):
        story.append(_dev_banner())
    story.append(_header(context))
    story.append(_parties(context))
    story.append(heading(_("Bill of materials"), keep=False))
    story.append(_bill(context))
    story += _totals(context)
    story += _fabric(context)
    story += _racks(context)
    story += _slot_maps(context)
    story += _terms(context)
    story += _acceptance(context)
    story.append(PageBreak())
    story += _appendix(context)
    if context["audience"] == "staff":
        story.append(PageBreak())
        story += _internal_appendix(context)
    return story


def _padding(
    commands: list[Any],
    left: float,
    right: float,
    top: float,
    bottom: float,
    cells: tuple[tuple[int, int], tuple[int, int]] = ((0, 0), (-1, -1)),
) -> list[Any]:
    commands += [
        ("LEFTPADDING", *cells, left),
        ("RIGHTPADDING", *cells, right),
        ("TOPPADDING", *cells, top),
        ("BOTTOMPADDING", *cells, bottom),
    ]
    return commands


def _dev_banner() -> Table:
    style = [("BOX", (0, 0), (-1, -1), 1, DEV_RED)]
    _padding(style, 2 * mm, 2 * mm, 1.5 * mm, 1.5 * mm)
    return Table(
        [[Paragraph(text(_("Development seller details — not valid for orders")), DEV)]],
        colWidths=[WIDTH],
        style=TableStyle(style),
        hAlign="LEFT",
        spaceAfter=3 * mm,
    )


# --- header and parties -----------------------------------------------------------------------------------------


def _header(context: dict[str, Any]) -> Table:
    q, contact = context["q"], context["contact"]
    title = _("Indicative quote") if q.get("indicative") else _("Quote")
    rows = [(_("Date"), _date(context["issued_at"])), (_("Valid until"), _date(context["valid_until"]))]
    if (q.get("revision") or 1) > 1:
        rows.append((_("Revision"), str(q["revision"])))
    if q.get("crm_reference"):
        rows.append((_("Your reference"), q["crm_reference"]))
    reach = ", ".join(str(x) for x in (contact.get("name"), contact.get("email"), contact.get("phone")) if x)
    rows.append((_("Your contact"), reach))
    left_width = WIDTH * 0.62
    meta_style: list = []
    _padding(meta_style, 0, 2 * mm, 0.4 * mm, 0.4 * mm)
    meta = Table(
        [[Paragraph(text(key), CELL), Paragraph(text(value), CELL)] for key, value in rows],
        colWidths=[30 * mm, left_width - 30 * mm],
        style=TableStyle([*meta_style, ("VALIGN", (0, 0), (-1, -1), "TOP")]),
        hAlign="LEFT",
    )
    style: list = [("VALIGN", (0, 0), (-1, -1), "TOP")]
    _padding(style, 0, 0, 0, 0)
    return Table(
        [[[Paragraph(f"{text(title)} {text(q.get('number', ''))}", H1), meta], Paragraph(_seller(context), SELLER)]],
        colWidths=[left_width, WIDTH - left_width],
        style=TableStyle(style),
        hAlign="LEFT",
    )


def _seller(context: dict[str, Any]) -> str:
    seller = context["seller"]
    lines = [f"<b>{text(seller.get('name', ''))}</b>"]
    if seller.get("street"):
        lines += [
            text(seller["street"]),
            text(" ".join(x for x in (seller.get("postal_code"), seller.get("city")) if x)),
            text(seller.get("country_name", "")),
        ]
    else:
        address = seller.get("address") or []
        lines += [text(line) for line in (address if isinstance(address, list) else [address])]
    lines += [text(seller.get("phone", "")), text(seller.get("email", ""))]
    if seller.get("kvk"):
        lines.append(text(f"{_('Chamber of Commerce (KvK)')}: {seller['kvk']}"))
    if seller.get("vat_id"):
        lines.append(text(f"{_('VAT ID (BTW-id)')}: {seller['vat_id']}"))
    if seller.get("iban"):
        lines.append(text(f"IBAN: {seller['iban']}"))
        if seller.get("bic"):
            lines.append(text(f"BIC: {seller['bic']}"))
        if seller.get("bank"):
            lines.append(text(seller["bank"]))
    return "<br/>".join(line for line in lines if line)


def _parties(context: dict[str, Any]) -> Table:
    q, customer = context["q"], context["customer"]
    column = WIDTH / 2
    inner = column - 8 * mm
    billing: list[str] = []
    if customer.get("company"):
        billing.append(f"<b>{text(customer['company'])}</b>")
    billing.append(text(f"{_('Attn.')} {customer.get('name', '')}"))
    address = customer.get("address")
    if address:
        billing += [
            text(address.get("street", "")),
            text(" ".join(x for x in (address.get("postal_code"), address.get("city")) if x)),
        ]
    else:
        billing.append(f'<i><font color="{TBC}">{text(_("Billing address to be confirmed"))}</font></i>')
    billing.append(text(customer.get("country_name", "")))
    if customer.get("vat_number"):
        billing.append(text(f"{_('VAT number')}: {customer['vat_number']}"))
    billing.append(text(customer.get("email", "")))
    left = [heading(_("Billing address"), inner, space_before=0, keep=False), Paragraph("<br/>".join(billing), BODY)]
    right: list[Flowable] = []
    name = (q.get("design") or {}).get("name")
    if name:
        right += [
            heading(_("Design"), inner, space_before=0, keep=False),
            Paragraph(f"<b>{text(name)}</b>", BODY),
        ]
    if q.get("indicative"):
        notice = _(
            "This is an indicative quote, issued at once from our list prices. A sales engineer confirms it before"
            " we accept an order."
        )
        right.append(Paragraph(text(notice), _style("indicative", SMALL_SIZE, textColor=SMALL_GREY, spaceBefore=mm)))
    style: list = [("VALIGN", (0, 0), (-1, -1), "TOP")]
    _padding(style, 0, 8 * mm, 0, 0)
    return Table(
        [[left, right or ""]],
        colWidths=[column, column],
        style=TableStyle(style),
        hAlign="LEFT",
        spaceBefore=6 * mm,
    )


# --- bill of materials ------------------------------------------------------------------------------------------


def _bill(context: dict[str, Any]) -> Table:
    """The bill as one table: a header row repeated on every page, per section a title row, its lines and a
    subtotal row."""
    discount = context["has_discount"]
    shares = BOM_DISCOUNT_WIDTHS if discount else BOM_WIDTHS
    widths = [WIDTH * share for share in shares]
    columns = len(widths)
    labels = [_("Part number and description"), _("Qty"), _("Lead time"), _("Unit price")]
    if discount:
        labels += [_("List value"), _("Line disc."), _("Discount")]
    labels.append(_("Net"))
    headers = [
        _header_cell(label, width - 2 * PAD_X - (LEAD_PAD - PAD_X if column == 2 else 0), column not in (0, 2))
        for column, (label, width) in enumerate(zip(labels, widths, strict=True))
    ]
    rows: list[list[Any]] = [headers]
    style: list = [
        *_text_style(NUM_SIZE),
        ("ALIGN", (0, 0), (-1, -1), "RIGHT"),
        ("ALIGN", (2, 0), (2, -1), "LEFT"),
        ("FONTSIZE", (2, 1), (2, -1), BASE_SIZE),
        ("LEADING", (2, 1), (2, -1), BASE_SIZE * LEADING),
        ("LINEBELOW", (0, 0), (-1, 0), 0.6, HEAD_RULE),
    ]
    _padding(style, PAD_X, PAD_X, PAD_Y, PAD_Y)
    style.append(("LEFTPADDING", (2, 0), (2, -1), LEAD_PAD))
    amount_keys = ["unit_price_fmt"]
    if discount:
        amount_keys += ["list_total_fmt", "line_discount_percent_fmt", "discount_fmt"]
    amount_keys.append("net_fmt")
    amount_widths = widths[3:]
    for section in context["sections"]:
        title = len(rows)
        rows.append([Paragraph(text(section["title"]), TITLE_CELL)] + [""] * (columns - 1))
        style += [
            ("SPAN", (0, title), (-1, title)),
            ("LINEBELOW", (0, title), (-1, title), 0.6, HEAD_RULE),
            ("LEFTPADDING", (0, title), (-1, title), 0),
            ("TOPPADDING", (0, title), (-1, title), 4 * mm),
            ("BOTTOMPADDING", (0, title), (-1, title), 1.5 * mm),
        ]
        for line in section["lines"]:
            index = len(rows)
            font = ITALIC if line["on_request"] else SANS
            cells: list[Any] = [
                _line_cell(line, widths[0] - 2 * PAD_X),
                line["quantity_fmt"],
                _lead(line, widths[2]),
            ]
            for key, width in zip(amount_keys, amount_widths):
                value = line[key]
                cells.append(value)
                size = _fitted_size(value, font, width - 2 * PAD_X)
                if size != NUM_SIZE:
                    style.append(("FONTSIZE", (len(cells) - 1, index), (len(cells) - 1, index), size))
            rows.append(cells)
            style.append(("LINEBELOW", (0, index), (-1, index), 0.3, ROW_RULE))
            if isinstance(cells[2], str):  # its baseline on the row's first, as a paragraph's first line sits
                style.append(("TOPPADDING", (2, index), (2, index), PAD_Y - (BASE_SIZE - NUM_SIZE)))
            if line["on_request"]:  # its numbers in italic, not its lead time
                style += [("FONTNAME", (1, index), (1, index), ITALIC), ("FONTNAME", (3, index), (-1, index), ITALIC)]
        if section["all_on_request"] or not section["at_least"]:
            label = _("Subtotal")
        else:
            label = _("Subtotal, at least (lines on request not included)")
        subtotal = len(rows)
        rows.append([Paragraph(text(label), _style("sub", font=BOLD))] + [""] * (columns - 2) + [section["net_fmt"]])
        size = _fitted_size(section["net_fmt"], BOLD, widths[-1] - 2 * PAD_X)
        style += [
            ("SPAN", (0, subtotal), (-2, subtotal)),
            ("FONTNAME", (-1, subtotal), (-1, subtotal), BOLD),
            ("FONTSIZE", (-1, subtotal), (-1, subtotal), size),
            # a section's title stays with its first line, its subtotal with its last
            ("NOSPLIT", (0, title), (-1, title + 1)),
            ("NOSPLIT", (0, subtotal - 1), (-1, subtotal)),
        ]
    return Table(rows, colWidths=widths, style=TableStyle(style), repeatRows=1, hAlign="LEFT")


def _header_cell(label: str, width: float, right: bool) -> Paragraph:
    """A column header that wraps between words, never within one: where its longest word is wider than the
    column (Dutch "Aantal" over a narrow quantity column), the header is set smaller until that word fits."""
    return _whole_words(label, HEAD_NUM if right else HEAD_CELL, width, 5.0)


def _whole_words(value: str, style: ParagraphStyle, width: float, smallest: float) -> Paragraph:
    """``value`` wrapped between its words only: set smaller than ``style`` (down to ``smallest`` points) where
    its longest word is wider than ``width``."""
    room = width * 0.97  # clear of rounding in the paragraph's own measure
    size = style.fontSize
    longest = max((stringWidth(word, style.fontName, size) for word in value.split()), default=0.0)
    if longest > room:
        size = max(smallest, size * room / longest)
    return Paragraph(text(value), _unsplit(style, round(size, 2)))


@functools.cache
def _unsplit(style: ParagraphStyle, size: float) -> ParagraphStyle:
    """``style`` at ``size`` points, its words never split; made once per style and size, not once per cell."""
    return ParagraphStyle(f"{style.name}-{size}", parent=style, fontSize=size, leading=size * LEADING, splitLongWords=0)


def _lead(line: dict[str, Any], width: float) -> str | Paragraph:
    """A line's lead time on one line of the cell, or wrapped between its words when longer than the column
    ("on request"; Dutch "op aanvraag" set smaller where "aanvraag" alone is wider)."""
    lead, room = line["lead_time"], width - LEAD_PAD - PAD_X
    return lead if stringWidth(lead, SANS, BASE_SIZE) <= room else _whole_words(lead, CELL, room, 6.0)


def _line_cell(line: dict[str, Any], width: float) -> Paragraph:
    """Part number in bold mono, then "group: description". A part number wider than the cell breaks after a
    hyphen, as it is read, rather than at the cell's edge."""
    pieces = _hyphen_lines(line.get("part_number") or "–", MONO_BOLD, NUM_SIZE, width)
    part = "<br/>".join(text(piece) for piece in pieces)
    group = f'<font color="#555555">{text(line["group"])}:</font> ' if line.get("group") else ""
    # a word of the description wider than the cell breaks after its hyphens too ("Kubernetes-control-plane-"
    # / "node"), not at the cell's edge
    description = " ".join(
        "<br/>".join(text(piece) for piece in _hyphen_lines(word, SANS, BASE_SIZE, width))
        for word in str(line.get("description") or "").split(" ")
    )
    return Paragraph(f'<font name="{MONO_BOLD}" size="{NUM_SIZE}">{part}</font><br/>{group}{description}', CELL)


def _hyphen_lines(value: str, font: str, size: float, width: float) -> list[str]:
    """``value`` in lines no wider than ``width``, broken after hyphens (a piece wider than a line on its own is
    left whole, for the paragraph to split)."""
    if stringWidth(value, font, size) <= width or "-" not in value:
        return [value]
    lines: list[str] = []
    current = ""
    for piece in re.findall(r"[^-]*-|[^-]+$", value):
        if current and stringWidth(current + piece, font, size) > width:
            lines.append(current)
            current = piece
        else:
            current += piece
    return [*lines, current] if current else lines


# --- totals -----------------------------------------------------------------------------------------------------


def _totals(context: dict[str, Any]) -> list[Flowable]:
    totals, low = context["totals"], context["at_least"]
    prefix = f"{_('at least')} " if low else ""
    rows = [(_("List value"), prefix + totals["subtotal"])]
    if context.get("agreed_discounts"):
        rows.append((_("Agreed discounts (price agreement)"), f"− {context['agreed_discounts']}"))
    if context["line_discounts"]:
        rows.append((_("Line discounts"), f"− {context['line_discounts']}"))
    if context["quote_discount"]:
        label = _("Discount")
        if context["discount_percent"]:
            on_quote = _("%(discount_percent)s on the quote") % {"discount_percent": context["discount_percent"]}
            label = f"{label} ({on_quote})"
        rows.append((label, f"− {context['quote_discount']}"))
    rows += [
        (_("Net, excl. VAT"), prefix + totals["net"]),
        # no VAT (reverse charge, export) is € 0.00 whatever a line on request comes to: never "at least € 0.00"
        (
            _("VAT %(vat_rate)s") % {"vat_rate": context["vat_rate"]},
            ("" if context["vat_free"] else prefix) + totals["vat_amount"],
        ),
        (_("Total, incl. VAT"), prefix + totals["total"]),
    ]
    width = WIDTH * 0.6
    widths = [width * 0.55, width * 0.45]
    grand = len(rows) - 1
    style: list = [
        *_text_style(BASE_SIZE),
        ("ALIGN", (1, 0), (1, -1), "RIGHT"),
        ("FONTNAME", (0, grand), (-1, grand), BOLD),
        ("LINEABOVE", (0, grand), (-1, grand), 0.8, INK),
    ]
    _padding(style, PAD_X, PAD_X, PAD_Y, PAD_Y)
    cells = []
    for index, (label, amount) in enumerate(rows):
        font = BOLD if index == grand else SANS
        size = _fitted_size(amount, font, widths[1] - 2 * PAD_X, BASE_SIZE)
        if size != BASE_SIZE:
            style.append(("FONTSIZE", (1, index), (1, index), size))
        cells.append([Paragraph(text(label), _style("total", font=font)), amount])
    out: list[Flowable] = [heading(_("Totals"))]
    if low:
        n = context["on_request_count"]
        notice = ngettext(
            "%(n)s line is priced on request: every amount below is at least the amount shown, and we quote that"
            " line separately.",
            "%(n)s lines are priced on request: every amount below is at least the amount shown, and we quote those"
            " lines separately.",
            n,
        ) % {"n": n}
        out.append(keep_with_next(Paragraph(text(notice), _style("notice-first", font=BOLD, spaceAfter=1 * mm))))
    out.append(Table(cells, colWidths=widths, style=TableStyle(style), hAlign="RIGHT"))
    vat_notice = (context["q"].get("vat") or {}).get("notice")
    if vat_notice:
        out.append(Paragraph(text(vat_notice), NOTICE))
    if context.get("left_out"):
        out.append(Paragraph(text(_("Not in this offer: %(items)s.") % {"items": context["left_out"]}), NOTICE))
    return out


# --- pictures ---------------------------------------------------------------------------------------------------


def _picture(svg: str, max_height: float) -> Flowable:
    """The picture as wide as the text column at most, or nothing if it cannot be drawn: a picture never stops
    the offer."""
    try:
        picture = Picture(svg, WIDTH, max_height)
    except Exception:
        logger.warning("A picture of the offer could not be drawn and is left out", exc_info=True)
        return Spacer(0, 0)
    picture.spaceBefore = picture.spaceAfter = 2 * mm
    return picture


def _fabric(context: dict[str, Any]) -> list[Flowable]:
    plan, topology = context["fabric_plan"], context["topology"]
    if not (topology or plan):
        return []
    out: list[Flowable] = [heading(_("Compute fabric"))]
    if plan:
        switches = context["fabric_switches"]
        values = {"tiers": plan.get("tiers"), "leaves": switches["leaf"], "spines": switches["spine"]}
        if plan.get("core_switches"):
            sentence = _("Fabric tiers: %(tiers)s; %(leaves)s leaf, %(spines)s spine and %(cores)s core switches.")
            values["cores"] = switches["core"]
        else:
            sentence = _("Fabric tiers: %(tiers)s; %(leaves)s leaf and %(spines)s spine switches.")
        out.append(keep_with_next(Paragraph(text(sentence % values), BODY)))
    if topology:
        out.append(_picture(topology, 150 * mm))
    else:
        out[-1].keepWithNext = 0
    return out


def _racks(context: dict[str, Any]) -> list[Flowable]:
    plan = context["rack_plan"]
    if not (plan and plan.get("racks")):
        return []
    racks = context["rack_count"]
    sentence = ngettext("%(racks)s rack of %(units)sU.", "%(racks)s racks of %(units)sU.", racks) % {
        "racks": racks,
        "units": plan.get("rack_units"),
    }
    if context["rack_power"]:
        sentence += " " + _(
            "Facility power: %(power)s kW for nodes, switches and transceivers; PDU losses and cooling are not"
            " included."
        ) % {"power": context["rack_power"]}
    elif context["rack_power_known"]:
        sentence += " " + _(
            "Facility power: at least %(power)s kW (the power of some parts is unknown); PDU losses and cooling are"
            " not included."
        ) % {"power": context["rack_power_known"]}
    out: list[Flowable] = [heading(_("Racks")), keep_with_next(Paragraph(text(sentence), BODY))]
    if context["pdus_needed"]:
        n = context["pdus_needed"]
        notice = ngettext(
            "%(n)s PDU is needed (one per feed in every rack) and not included in this quote: the catalogue holds"
            " no PDU.",
            "%(n)s PDUs are needed (one per feed in every rack) and not included in this quote: the catalogue"
            " holds no PDU.",
            n,
        ) % {"n": n}
        out.append(keep_with_next(Paragraph(text(notice), NOTICE)))
    # a line of three racks as wide as the page: 42U at about 200 mm, its labels about 7 pt; each picture is whole
    out += [_picture(svg, 225 * mm) for svg in context["elevations"]]
    if not context["elevations"]:
        out[-1].keepWithNext = 0
    return out


def _slot_maps(context: dict[str, Any]) -> list[Flowable]:
    out: list[Flowable] = []
    for slot_map in context["slot_maps"]:
        out.append(Paragraph(text(f"{_('Slot map')}: {slot_map['name']}"), H3))
        out.append(_picture(slot_map["svg"], 120 * mm))
    return out


# --- terms, acceptance, appendix ------------------------------------------------------------------------------


def order_terms(q: dict[str, Any], terms: dict[str, Any], seller: dict[str, Any]) -> list[str]:
    """The payment, delivery and lead-time terms, as the offer and the order confirmation both state them."""
    days = terms.get("payment_days") or 30
    return [
        ngettext(
            "Payment: within %(days)s day of the invoice date, by bank transfer to IBAN %(iban)s, stating %(number)s.",
            "Payment: within %(days)s days of the invoice date, by bank transfer to IBAN %(iban)s, stating %(number)s.",
            days,
        )
        % {"days": days, "iban": seller.get("iban", ""), "number": q.get("number", "")},
        _(
            "Delivery: %(incoterm)s (Incoterms® 2020) at the billing address unless another delivery address is"
            " agreed in the order."
        )
        % {"incoterm": terms.get("incoterm") or "DAP"},
        _(
            "Lead times are per line, counted from the order date; they are indicative and subject to the"
            " manufacturers' allocation. Prices may change if the configuration changes."
        ),
    ]


def _terms(context: dict[str, Any]) -> list[Flowable]:
    q, terms, seller = context["q"], context["terms"], context["seller"]
    items = [
        _(
            "This quote is valid until %(date)s. Prices are in euros, excluding VAT unless stated as a total"
            " including VAT."
        )
        % {"date": _date(context["valid_until"])},
        *order_terms(q, terms, seller),
        _("Amounts are rounded half up to whole cents per line; VAT is calculated once on the net total."),
    ]
    agreement = context.get("agreement")
    if agreement:
        items.append(
            _("The discounts of the price agreement with %(company)s%(reference)s apply: %(discounts)s.")
            % {
                "company": agreement["company"],
                "reference": f" ({agreement['reference']})" if agreement["reference"] else "",
                "discounts": agreement["discounts"],
            }
        )
    if context["points"]:
        n = len(context["points"])
        items.append(
            ngettext(
                "The appendix explains %(n)s point to note about this design.",
                "The appendix explains %(n)s points to note about this design.",
                n,
            )
            % {"n": n}
        )
    if terms.get("general_terms_url"):
        items.append(
            _("The general terms and conditions of %(seller)s apply (%(url)s).")
            % {"seller": seller.get("name", ""), "url": terms["general_terms_url"]}
        )
    else:
        items.append(
            _("The general terms and conditions of %(seller)s apply; we send them on request.")
            % {"seller": seller.get("name", "")}
        )
    return [
        heading(_("Terms")),
        *(Paragraph(text(item), TERM, bulletText=f"{number}.") for number, item in enumerate(items, start=1)),
    ]


def _acceptance(context: dict[str, Any]) -> list[Flowable]:
    number = context["q"].get("number", "")
    gap = 4 * mm
    column = (WIDTH - gap) / 2
    rows = [
        [_("Name"), "", _("Signature")],
        ["", "", ""],
        [_("Date"), "", _("Purchase order number")],
        ["", "", ""],
    ]
    style: list = [
        ("FONTNAME", (0, 0), (-1, -1), SANS),
        ("FONTSIZE", (0, 0), (-1, -1), BASE_SIZE),
        ("TEXTCOLOR", (0, 0), (-1, -1), INK),
        ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
        ("TOPPADDING", (0, 0), (-1, 0), 5 * mm),
        ("TOPPADDING", (0, 2), (-1, 2), 5 * mm),
        ("LINEBELOW", (0, 1), (0, 1), 0.5, SIGN_RULE),
        ("LINEBELOW", (2, 1), (2, 1), 0.5, SIGN_RULE),
        ("LINEBELOW", (0, 3), (0, 3), 0.5, SIGN_RULE),
        ("LINEBELOW", (2, 3), (2, 3), 0.5, SIGN_RULE),
    ]
    _padding(style, 0, 0, 0, 0.5 * mm, cells=((0, 0), (-1, -1)))
    style += [("TOPPADDING", (0, 0), (-1, 0), 5 * mm), ("TOPPADDING", (0, 2), (-1, 2), 5 * mm)]
    table = Table(
        rows,
        colWidths=[column, gap, column],
        rowHeights=[None, 9 * mm, None, 9 * mm],
        style=TableStyle(style),
        hAlign="LEFT",
    )
    accepts = _("The customer accepts quote %(number)s on the terms above.") % {"number": number}
    return [heading(_("Acceptance")), keep_with_next(Paragraph(text(accepts), SMALL)), table]


def _appendix(context: dict[str, Any]) -> list[Flowable]:
    """The customer's appendix: the design receipt and the points to note in plain words (no rule code, design
    path, sales note or the reasons a sales engineer accepted a warning: those are in the internal appendix)."""
    q = context["q"]
    receipt = q.get("receipt") or {}
    out: list[Flowable] = [
        heading(_("Appendix: validation receipt"), space_before=0),
        Paragraph(
            text(
                _(
                    "This quote was issued for the design below, checked against the catalogue version shown. It is"
                    " valid only for this design."
                )
            ),
            SMALL,
        ),
    ]
    rows = [
        [Paragraph(text(_("Design hash (SHA-256)")), CELL), Paragraph(text(receipt.get("design_hash", "")), HASH)],
        [Paragraph(text(_("Catalogue version")), CELL), Paragraph(text(receipt.get("catalog_version", "")), CELL)],
    ]
    style: list = [("VALIGN", (0, 0), (-1, -1), "TOP")]
    _padding(style, 0, 2 * mm, 0.4 * mm, 0.4 * mm)
    receipt_table = Table(rows, colWidths=[45 * mm, WIDTH - 45 * mm], style=TableStyle(style), hAlign="LEFT")
    receipt_table.spaceBefore = 2 * mm
    out.append(receipt_table)
    out.append(Paragraph(text(_("Points to note about this design")), H3))
    out += [Paragraph(text(point), TERM, bulletText="•") for point in context["points"]]
    if context["confirm_figures"]:
        confirm = _(
            "Some technical figures of the parts (such as power draw, height or connectors) are confirmed with the"
            " manufacturers before the order is placed."
        )
        out.append(Paragraph(text(confirm), TERM, bulletText="•"))
    if not context["points"] and not context["confirm_figures"]:
        out.append(Paragraph(text(_("No points to note.")), _style("none", SMALL_SIZE, textColor=SMALL_GREY)))
    return out


def _internal_appendix(context: dict[str, Any]) -> list[Flowable]:
    """The sales engineer's internal appendix: every finding with its rule code and design path, the accepted
    warnings with who accepted them and why, and who approved the discount. Never in the customer's copy."""
    q = context["q"]
    receipt = q.get("receipt") or {}
    out: list[Flowable] = [
        heading(_("Internal appendix: for the sales engineer, not for the customer"), space_before=0),
    ]
    if q.get("approval"):
        out.append(Paragraph(text(f"{_('Discount approved by')}: {q['approval'].get('by', '')}"), BODY))
    acknowledgements = q.get("acknowledgements") or []
    if acknowledgements:
        out.append(Paragraph(text(_("Accepted warnings")), H3))
        head = [
            Paragraph(text(_("Warning")), HEAD_CELL),
            Paragraph(text(_("Reason for accepting")), HEAD_CELL),
            Paragraph(text(_("By")), HEAD_CELL),
        ]
        body = [
            [
                Paragraph(
                    f"<b>{text(ack.get('code', ''))}</b> · {text(ack.get('subject', ''))}<br/>"
                    f"{text(ack.get('message', ''))}",
                    CELL,
                ),
                Paragraph(text(ack.get("reason", "")), CELL),
                Paragraph(text(ack.get("by", "")), CELL),
            ]
            for ack in acknowledgements
        ]
        out.append(_list_table([head, *body], [0.45, 0.40, 0.15]))
    findings = receipt.get("findings") or []
    if findings:
        out.append(Paragraph(text(_("Findings")), H3))
        head = [
            Paragraph(text(f"{_('Finding')} · {_('Subject')}"), HEAD_CELL),
            Paragraph(text(_("Message")), HEAD_CELL),
        ]
        body = []
        for finding in findings:
            colour = SEVERITY.get(str(finding.get("severity", "")), "#111111")
            code = f'<font size="{NUM_SIZE}" color="{colour}">{text(finding.get("code", ""))}</font>'
            subject = f'<font size="{NUM_SIZE}" color="#555555">{text(finding.get("subject", ""))}</font>'
            body.append([Paragraph(f"{code}<br/>{subject}", CELL), Paragraph(text(finding.get("message", "")), CELL)])
        out.append(_list_table([head, *body], [0.34, 0.66]))
    else:
        out.append(
            Paragraph(text(_("No findings.")), _style("none", SMALL_SIZE, textColor=SMALL_GREY, spaceBefore=2 * mm))
        )
    return out


def _text_style(size: float) -> list:
    """A table's cells set top-aligned in the body face at ``size``, in ink."""
    return [
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("FONTNAME", (0, 0), (-1, -1), SANS),
        ("FONTSIZE", (0, 0), (-1, -1), size),
        ("LEADING", (0, 0), (-1, -1), size * LEADING),
        ("TEXTCOLOR", (0, 0), (-1, -1), INK),
    ]


def _list_table(rows: list[list[Any]], shares: list[float]) -> Table:
    """A table of the appendix: a header row (repeated on every page it runs over), a thin rule under every row."""
    style: list = [
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LINEBELOW", (0, 0), (-1, 0), 0.6, HEAD_RULE),
        ("LINEBELOW", (0, 1), (-1, -1), 0.3, ROW_RULE),
    ]
    _padding(style, PAD_X, PAD_X, PAD_Y, PAD_Y)
    return Table(
        rows, colWidths=[WIDTH * share for share in shares], style=TableStyle(style), repeatRows=1, hAlign="LEFT"
    )
