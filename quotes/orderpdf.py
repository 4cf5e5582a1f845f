"""The order confirmation (orderbevestiging) PDF of an accepted quote, laid out with the offer's ReportLab parts
(quotes.offerpdf): the header beside the seller block, the parties, the acceptance (who, when, purchase order),
the bill of materials and the totals exactly as the offer priced them, and the order's terms.

Built from the offer's context (quotes.documents.pdf_context of the frozen snapshot) and the acceptance record
alone; call it with the quote's language active. No cost or margin is in either: this is a customer document.
"""

from __future__ import annotations

import io
from typing import Any

from django.utils import formats
from django.utils.translation import gettext as _
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.platypus import BaseDocTemplate, Flowable, Frame, PageTemplate, Paragraph, Table, TableStyle

from outputs import pdffonts
from quotes.offercontext import OfferContext, OrderAcceptance

from . import offerpdf
from .offerpdf import BODY, CELL, H1, SELLER, TERM, WIDTH, heading, text


def _when(value: Any) -> str:
    return formats.date_format(value, "DATETIME_FORMAT") if value else ""


def build(context: OfferContext, acceptance: OrderAcceptance) -> bytes:
    """The order confirmation of ``context`` (pdf_context) and ``acceptance`` (the accepted_at as a local
    datetime, name, position, email, po_number, note), in the active language."""
    pdffonts.register()
    q, seller = context["q"], context["seller"]
    buffer = io.BytesIO()
    title = f"{_('Order confirmation')} {q.get('number', '')}"
    document = BaseDocTemplate(
        buffer,
        pagesize=A4,
        topMargin=offerpdf.TOP,
        rightMargin=offerpdf.RIGHT,
        bottomMargin=offerpdf.BOTTOM,
        leftMargin=offerpdf.LEFT,
        title=title,
        author=seller.get("name", ""),
        subject=title,
        creator="",
        lang=context["language"],
        initialFontName=pdffonts.SANS,
        initialFontSize=offerpdf.BASE_SIZE,
    )
    frame = Frame(
        offerpdf.LEFT,
        offerpdf.BOTTOM,
        WIDTH,
        offerpdf.FRAME_HEIGHT,
        leftPadding=0,
        rightPadding=0,
        topPadding=0,
        bottomPadding=0,
    )
    document.addPageTemplates([PageTemplate(id="order", frames=[frame])])
    story: list[Flowable] = []
    if seller.get("development"):
        story.append(offerpdf._dev_banner())
    story.append(_header(context, acceptance))
    story.append(offerpdf._parties(context))
    story += _acceptance(context, acceptance)
    story.append(heading(_("Bill of materials"), keep=False))
    story.append(offerpdf._bill(context))
    story += offerpdf._totals(context)
    story += _terms(context)
    document.build(
        story,
        canvasmaker=offerpdf._canvas_maker(f"{seller.get('name', '')} · {title}", _("Page")),
    )
    return buffer.getvalue()


def _header(context: OfferContext, acceptance: OrderAcceptance) -> Table:
    q = context["q"]
    rows = [
        (_("Quote"), q.get("number", "")),
        (_("Quote date"), offerpdf._date(context["issued_at"])),
        (_("Order date"), offerpdf._date(acceptance.get("accepted_at"))),
    ]
    if acceptance.get("po_number"):
        rows.append((_("Your purchase order"), acceptance["po_number"]))
    if q.get("crm_reference"):
        rows.append((_("Your reference"), q["crm_reference"]))
    left_width = WIDTH * 0.62
    meta = Table(
        [[Paragraph(text(key), CELL), Paragraph(text(value), CELL)] for key, value in rows],
        colWidths=[34 * mm, left_width - 34 * mm],
        style=TableStyle(offerpdf._padding([("VALIGN", (0, 0), (-1, -1), "TOP")], 0, 2 * mm, 0.4 * mm, 0.4 * mm)),
        hAlign="LEFT",
    )
    style = offerpdf._padding([("VALIGN", (0, 0), (-1, -1), "TOP")], 0, 0, 0, 0)
    heading_text = f"{text(_('Order confirmation'))} {text(q.get('number', ''))}"
    return Table(
        [[[Paragraph(heading_text, H1), meta], Paragraph(offerpdf._seller(context), SELLER)]],
        colWidths=[left_width, WIDTH - left_width],
        style=TableStyle(style),
        hAlign="LEFT",
    )


def _acceptance(context: OfferContext, acceptance: OrderAcceptance) -> list[Flowable]:
    number = context["q"].get("number", "")
    who = acceptance.get("name", "")
    if acceptance.get("position"):
        who = f"{who}, {acceptance['position']}"
    sentence = _(
        "%(who)s accepted quote %(number)s on behalf of the customer on %(when)s. We confirm the order on the"
        " terms of the quote, as listed below."
    ) % {"who": who, "number": number, "when": _when(acceptance.get("accepted_at"))}
    rows = [(_("Accepted by"), who), (_("E-mail"), acceptance.get("email", ""))]
    if acceptance.get("po_number"):
        rows.append((_("Purchase order number"), acceptance["po_number"]))
    if acceptance.get("note"):
        rows.append((_("Note"), acceptance["note"]))
    table = Table(
        [[Paragraph(text(key), CELL), Paragraph(text(value), CELL)] for key, value in rows],
        colWidths=[45 * mm, WIDTH - 45 * mm],
        style=TableStyle(offerpdf._padding([("VALIGN", (0, 0), (-1, -1), "TOP")], 0, 2 * mm, 0.4 * mm, 0.4 * mm)),
        hAlign="LEFT",
    )
    return [heading(_("Order")), Paragraph(text(sentence), BODY), table]


def _terms(context: OfferContext) -> list[Flowable]:
    q, terms, seller = context["q"], context["terms"], context["seller"]
    items = offerpdf.order_terms(q, terms, seller)
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
