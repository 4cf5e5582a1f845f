"""The offer's page: its sizes, colours, paragraph styles, the small helpers every part of it uses and the
canvas that numbers its pages."""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

from django.utils import formats
from reportlab import rl_config
from reportlab.lib import colors
from reportlab.lib.enums import TA_RIGHT
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    Flowable,
    Paragraph,
    Table,
    TableStyle,
)

from outputs.pdffonts import BOLD, MONO, SANS

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


def _canvas_maker(footer_left: str, page_word: str):
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


def _padding(commands: list, left: float, right: float, top: float, bottom: float, cells=((0, 0), (-1, -1))):
    commands += [
        ("LEFTPADDING", *cells, left),
        ("RIGHTPADDING", *cells, right),
        ("TOPPADDING", *cells, top),
        ("BOTTOMPADDING", *cells, bottom),
    ]
    return commands


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
