"""The offer's bill of materials as one table, and its totals."""

from __future__ import annotations

import functools
import re
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import (
    Flowable,
    Paragraph,
    Table,
    TableStyle,
)

from design.jsontext import JsonObject
from outputs.pdffonts import BOLD, ITALIC, MONO_BOLD, SANS
from quotes.offercontext import OfferContext, OfferSection

from .styles import (
    BASE_SIZE,
    BOM_DISCOUNT_WIDTHS,
    BOM_WIDTHS,
    CELL,
    HEAD_CELL,
    HEAD_NUM,
    HEAD_RULE,
    INK,
    LEAD_PAD,
    LEADING,
    NOTICE,
    NUM_SIZE,
    PAD_X,
    PAD_Y,
    ROW_RULE,
    TITLE_CELL,
    WIDTH,
    _fitted_size,
    _padding,
    _style,
    _text_style,
    heading,
    keep_with_next,
    text,
)

# --- bill of materials ------------------------------------------------------------------------------------------


def _bill(context: OfferContext) -> Table:
    """The bill as one table: a header row repeated on every page, per section a title row, its lines and a
    subtotal row."""
    discount = context["has_discount"]
    shares = BOM_DISCOUNT_WIDTHS if discount else BOM_WIDTHS
    widths = [WIDTH * share for share in shares]
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
    for section in context["sections"]:
        _bill_section(section, widths, amount_keys, rows, style)
    return Table(rows, colWidths=widths, style=TableStyle(style), repeatRows=1, hAlign="LEFT")


def _bill_section(
    section: OfferSection, widths: list[float], amount_keys: list[str], rows: list[list[Any]], style: list
) -> None:
    """A section of the bill added to its ``rows`` and ``style``: its title row, its lines and its subtotal row."""
    columns = len(widths)
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
        _bill_line(line, widths, amount_keys, rows, style)
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


def _bill_line(
    line: JsonObject, widths: list[float], amount_keys: list[str], rows: list[list[Any]], style: list
) -> None:
    """A line of the bill added to its ``rows`` and ``style``: an amount too wide for its column set smaller, a
    line priced on request in italic."""
    index = len(rows)
    font = ITALIC if line["on_request"] else SANS
    cells: list[Any] = [
        _line_cell(line, widths[0] - 2 * PAD_X),
        line["quantity_fmt"],
        _lead(line, widths[2]),
    ]
    for key, width in zip(amount_keys, widths[3:]):
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


def _lead(line: JsonObject, width: float) -> str | Paragraph:
    """A line's lead time on one line of the cell, or wrapped between its words when longer than the column
    ("on request"; Dutch "op aanvraag" set smaller where "aanvraag" alone is wider)."""
    lead, room = line["lead_time"], width - LEAD_PAD - PAD_X
    return lead if stringWidth(lead, SANS, BASE_SIZE) <= room else _whole_words(lead, CELL, room, 6.0)


def _line_cell(line: JsonObject, width: float) -> Paragraph:
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


def _totals(context: OfferContext) -> list[Flowable]:
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
