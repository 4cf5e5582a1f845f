"""The pictures of the offer PDF (topology diagram, rack elevation, slot map) keep every label as real text, each
label written whole: a reader who searches or copies "SU 01" or a link label finds it as written, and the PDF does
not carry one positioned text run per letter (laid out letter by letter, the labels were most of the PDF's build)."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET

import pytest
from pypdf import PdfReader

from quotes.documents import pdf_context, render_pdf
from quotes.services import quote_request
from tests.factories import design

pytestmark = pytest.mark.django_db


def picture_labels(frozen: dict) -> dict[str, list[str]]:
    """Every text label each picture of the PDF carries, by picture."""
    context = pdf_context(frozen)
    sources = {"topology": context["topology"]}
    sources.update({f"elevation {i + 1}": svg for i, svg in enumerate(context["elevations"])})
    sources.update({f"slot map {m['name']}": m["svg"] for m in context["slot_maps"]})
    labels = {}
    for name, svg in sources.items():
        assert svg, f"the {name} is missing from the PDF"
        root = ET.fromstring(svg)
        labels[name] = [
            " ".join(node.text.split()) for node in root.iter("{http://www.w3.org/2000/svg}text") if node.text
        ]
    return labels


def text_pieces_and_runs(data: bytes) -> tuple[list[str], int]:
    """The PDF's text as its reader gets it piece by piece (a line, a cell, a label), and how many text-showing
    operations (Tj, TJ) write it, in the pages and in the pictures they draw."""
    pieces: list[str] = []
    runs = [0]

    def count(operator, *_):
        runs[0] += operator in (b"Tj", b"TJ", b"'", b'"')

    for page in PdfReader(io.BytesIO(data)).pages:
        page.extract_text(
            visitor_text=lambda text, *_: pieces.append(" ".join(text.split())), visitor_operand_before=count
        )
    return [piece for piece in pieces if piece], runs[0]


def test_every_picture_label_is_in_the_pdf_written_whole(make_configuration, customer, build):
    quote = build(quote_request, configuration=make_configuration(design(16)), customer=customer, channel="api")
    labels = picture_labels(quote.frozen)
    assert "topology" in labels and "elevation 1" in labels and any(n.startswith("slot map") for n in labels)
    assert all(labels.values())

    pieces, runs = text_pieces_and_runs(render_pdf(quote.frozen))
    text = re.sub(r"\s+", " ", " ".join(pieces))
    for name, texts in labels.items():
        for label in texts:
            assert label in text, f"{name}: {label!r} is not in the PDF's text"
    # Written whole: at most one run per picture label on top of one per piece of the page's own text. A label
    # spelt out letter by letter takes a run per letter (thousands for these pictures).
    letters = sum(len(label) for texts in labels.values() for label in texts)
    count = sum(len(texts) for texts in labels.values())
    assert runs <= len(pieces) + count, f"{runs} text runs for {len(pieces)} pieces, {count} labels, {letters} letters"


def test_a_large_plans_rack_elevation_prints_three_distinct_racks_a_picture_large_enough_to_read(
    make_configuration, customer, build
):
    """2,048 nodes: six distinct racks in one picture limited to 120 mm shrank their 13 px labels to 1.4 pt; three
    racks a picture, as wide as the page, print them at about 7 pt."""
    from engines.racks import RackPlan
    from engines.racks.elevation import distinct_racks

    quote = build(quote_request, configuration=make_configuration(design(2048)), customer=customer, channel="api")
    context = pdf_context(quote.frozen)
    plan = RackPlan.from_dict(quote.frozen["validation"]["rack_plan"])
    total = distinct_racks(plan)
    assert total > 3
    assert len(context["elevations"]) == -(-total // 3)
    drawn = []
    for svg in context["elevations"]:
        root = ET.fromstring(svg)
        width, height = (float(v) for v in root.get("viewBox").split()[2:])
        # printed as wide as the page's 180 mm text column within 225 mm: the scale its 13 px labels get
        scale_mm = min(180 / width, 225 / height)
        assert 13 * scale_mm / 0.3528 >= 6.5  # points
        drawn += [t.text for t in root.iter("{http://www.w3.org/2000/svg}text") if t.text and t.text.startswith("R")]
    # every distinct rack is drawn once, under the names of the racks it stands for
    assert len([name for name in drawn if re.match(r"R\d+-\d+(\.\.R\d+-\d+)?( |$)", name)]) == total
