"""The fabric diagram of the offer PDF is drawn for the page: at the text column's width its labels are about
10 pt (drawn for the screen, 1,280 units wide, they printed at 5 pt), every box label fits its box, and the
diagram keeps its boxes and links."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from reportlab.lib.units import mm

from quotes.documents import pdf_context
from quotes.offerpdf import WIDTH
from quotes.services import quote_request
from tests.quotes.test_bill_documents import hgx_h100

pytestmark = pytest.mark.django_db

SVG = "{http://www.w3.org/2000/svg}"
LABEL_PX = 12  # the diagram's text size (engines.fabric.diagram's style)
CHAR_PX = 0.6 * LABEL_PX  # a sans-serif character's width, on average, at most


@pytest.mark.parametrize(("nodes", "language"), [(4, "en"), (128, "en"), (1024, "en"), (1024, "nl")])
def test_the_printed_fabric_diagram_has_labels_of_nine_points_or_more(make_configuration, customer, nodes, language):
    configuration = make_configuration(hgx_h100(nodes))
    quote = quote_request(configuration=configuration, customer=customer, channel="api", language=language)
    svg = pdf_context(quote.frozen)["topology"]
    root = ET.fromstring(svg)
    width, height = (float(v) for v in root.get("viewBox").split()[2:])
    scale = min(WIDTH / width, 150 * mm / height)  # as outputs.svgpdf.Picture fits it: the column, 150 mm high
    assert LABEL_PX * scale >= 9, f"labels print at {LABEL_PX * scale:.1f} pt"
    boxes = [tuple(float(r.get(k)) for k in ("x", "y", "width")) for r in root.iter(f"{SVG}rect") if r.get("rx")]
    assert len(boxes) >= 2  # the leaves and the nodes at least
    labels = 0
    for text in root.iter(f"{SVG}text"):
        x, y = float(text.get("x")), float(text.get("y"))
        box = next((b for b in boxes if b[0] <= x <= b[0] + b[2] and b[1] <= y <= b[1] + 54), None)
        if box is not None:  # a box's label: within its box and the gap beside it
            labels += 1
            assert len(text.text) * CHAR_PX <= box[2] + 12, (text.text, box[2])
    assert labels >= 2 * len(boxes)  # two lines in every box
    assert re.search(r"\d+ Gb/s", " ".join(t.text or "" for t in root.iter(f"{SVG}text")))
