"""A centred or right-aligned label of the offer's pictures (text-anchor middle or end, as the topology diagram and the
rack elevation use) sits where SVG puts it: centred on its point, or ending there. It is drawn in the page's content,
not into a PDF form of its own per label (a form each was most of a 2,048-node quote's PDF size)."""

from __future__ import annotations

import base64
import io

from pypdf import PdfReader

from quotes import svgtext

SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="120" viewBox="0 0 400 120">'
    "<style>text{font-family:sans-serif;font-size:12px;fill:#123}</style>"
    '<rect x="0" y="0" width="400" height="120" fill="#fff" stroke="#334"/>'
    '<text x="200" y="30">SU 01 leaf</text>'
    '<text x="200" y="60" text-anchor="middle">SU 01 leaf</text>'
    '<text x="200" y="90" text-anchor="end" font-weight="bold">SU 01 leaf</text>'
    "</svg>"
)


def _starts(pdf: bytes) -> dict[float, float]:
    """Where each label's text begins on the page, by its height on the page."""
    starts: dict[float, float] = {}

    def visit(text, cm, tm, *_):
        if "SU 01 leaf" in text:
            x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
            y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            starts[round(y, 1)] = x

    PdfReader(io.BytesIO(pdf)).pages[0].extract_text(visitor_text=visit)
    return starts


def test_centred_and_right_aligned_labels_sit_on_their_point_in_the_page_itself():
    from weasyprint import HTML

    svgtext.install()
    uri = "data:image/svg+xml;base64," + base64.b64encode(SVG.encode()).decode()
    pdf = HTML(string=f'<img src="{uri}" style="width:400px">').write_pdf()
    starts = _starts(pdf)
    assert len(starts) == 3, starts
    start, middle, end = (starts[y] for y in sorted(starts, reverse=True))  # top to bottom
    half = start - middle
    assert half > 5  # centred: it begins half its width left of the point
    # right-aligned: it ends at the point; its bold letters are a little wider than the regular ones
    assert 2 * half <= start - end <= 2 * half * 1.2
    forms = PdfReader(io.BytesIO(pdf)).pages[0]["/Resources"].get("/XObject") or {}
    assert not forms  # the picture and its labels drawn in the page's own content: no form per label
