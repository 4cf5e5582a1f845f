"""The offer PDF laid out with ReportLab platypus from the offer's context (quotes.documents.pdf_context).

The context is the single source of what the offer says and how its amounts, dates and quantities are written; this
module only sets it on A4 pages: the header beside the seller block, the parties, an expansion quote's section (what
is installed, added and moved), the bill of materials as one table
(its column headers repeated on every page it runs over, a section's title kept with its first line and its subtotal
with its last, no line split across pages), the totals, the pictures (outputs.svgpdf), the terms, the acceptance block
and the appendix on a page of its own, with the seller, the quote number and "Page x / y" in every page's footer.

Every value of the quote is escaped before it reaches Paragraph markup: a customer's "<b>" or "&" stays text. Long
unbroken words (part numbers, hashes, URLs) are split where the line ends.

Call with the customer's language active (translation.override): the texts are Django's translations, with the same
messages as the web pages' (gettext, ngettext).
"""

from __future__ import annotations

import io

from django.utils.translation import gettext as _
from reportlab.lib.pagesizes import A4
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    PageBreak,
    PageTemplate,
)

from outputs import pdffonts
from outputs.pdffonts import SANS
from quotes.offercontext import OfferContext

from .bill import _bill, _totals
from .expansion import _expansion
from .head import _dev_banner, _header, _parties, _seller
from .pictures import _fabric, _racks, _slot_maps
from .styles import (
    BASE_SIZE,
    BODY,
    BOTTOM,
    CELL,
    FRAME_HEIGHT,
    H1,
    LEFT,
    RIGHT,
    SELLER,
    TERM,
    TOP,
    WIDTH,
    _canvas_maker,
    _date,
    _padding,
    heading,
    text,
)
from .terms import _acceptance, _appendix, _internal_appendix, _terms, order_terms

__all__ = [  # the order confirmation (quotes.orderpdf) is set with the offer's page, styles and parts
    "BASE_SIZE",
    "BODY",
    "BOTTOM",
    "CELL",
    "FRAME_HEIGHT",
    "H1",
    "LEFT",
    "RIGHT",
    "SELLER",
    "TERM",
    "TOP",
    "WIDTH",
    "_bill",
    "_canvas_maker",
    "_date",
    "_dev_banner",
    "_padding",
    "_parties",
    "_seller",
    "_totals",
    "build",
    "heading",
    "order_terms",
    "story_of",
    "text",
]


def build(context: OfferContext) -> bytes:
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


def story_of(context: OfferContext) -> list[Flowable]:
    """The offer from top to bottom, the appendix on a page of its own."""
    story: list[Flowable] = []
    if context["seller"].get("development"):
        story.append(_dev_banner())
    story.append(_header(context))
    story.append(_parties(context))
    story += _expansion(context)
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
