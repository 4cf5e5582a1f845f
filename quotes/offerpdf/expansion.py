"""The offer's expansion section: an expansion quote says what is installed, what is added and what moves, under
the parties and above the bill (the bill then holds what the expansion adds)."""

from __future__ import annotations

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Paragraph, Table, TableStyle

from quotes.offercontext import OfferContext

from .styles import CELL, WIDTH, _padding, heading, text


def _expansion(context: OfferContext) -> list[Flowable]:
    """The section of ``context["expansion"]`` (title and labelled facts); nothing for any other quote."""
    expansion = context.get("expansion")
    if not expansion:
        return []
    style: list = [("VALIGN", (0, 0), (-1, -1), "TOP")]
    _padding(style, 0, 2 * mm, 0.4 * mm, 0.4 * mm)
    facts = Table(
        [
            [Paragraph(f"<b>{text(label)}</b>", CELL), Paragraph(text(value), CELL)]
            for label, value in expansion["facts"]
        ],
        colWidths=[30 * mm, WIDTH - 30 * mm],
        style=TableStyle(style),
        hAlign="LEFT",
    )
    return [heading(expansion["title"]), facts]
