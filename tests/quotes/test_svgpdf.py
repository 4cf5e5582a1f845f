"""The offer's pictures drawn into the PDF by outputs.svgpdf: labels sit where SVG puts them and are written whole, a
hatched blank unit and a coloured one print in their colours, a picture fits the room it is given, and a picture
the drawing does not understand never stops a quote."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET

import pytest
from pypdf import PdfReader
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from outputs import pdffonts
from outputs.svgpdf import Picture

LABEL = "SU 01 leaf"
SVG_NS = "{http://www.w3.org/2000/svg}"


def pdf_of(*pictures: Picture) -> bytes:
    """A PDF of one page per picture, each page the picture's own size."""
    out = io.BytesIO()
    canvas = Canvas(out)
    for picture in pictures:
        width, height = picture.wrap(0, 0)
        canvas.setPageSize((width, height))
        picture.drawOn(canvas, 0, 0)
        canvas.showPage()
    canvas.save()
    return out.getvalue()


def text_starts(pdf: bytes) -> list[tuple[str, float, float, tuple[float, ...]]]:
    """Every text piece of the first page with where it begins on the page and its matrix there."""
    found = []

    def visit(text, cm, tm, *_):
        if text.strip():
            a, b, c, d, e, f = tm
            x = e * cm[0] + f * cm[2] + cm[4]
            y = e * cm[1] + f * cm[3] + cm[5]
            matrix = (a * cm[0] + b * cm[2], a * cm[1] + b * cm[3], c * cm[0] + d * cm[2], c * cm[1] + d * cm[3])
            found.append((text.strip(), x, y, matrix))

    PdfReader(io.BytesIO(pdf)).pages[0].extract_text(visitor_text=visit)
    return found


def test_centred_right_aligned_and_turned_labels_sit_on_their_point_in_the_page_itself():
    pdffonts.register()
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300" viewBox="0 0 400 300">'
        "<style>text{font-family:sans-serif;font-size:12px;fill:#123}</style>"
        '<rect x="0" y="0" width="400" height="300" fill="#fff" stroke="#334"/>'
        f'<text x="200" y="30">{LABEL}</text>'
        f'<text x="200" y="60" text-anchor="middle">{LABEL}</text>'
        f'<text x="200" y="90" text-anchor="end" font-weight="bold">{LABEL}</text>'
        f'<text x="200" y="120" text-anchor="middle" dominant-baseline="middle">{LABEL}</text>'
        f'<text x="60" y="220" text-anchor="middle" dominant-baseline="middle" transform="rotate(-90 60 220)">'
        f"{LABEL}</text>"
        "</svg>"
    )
    pdf = pdf_of(Picture(svg, 400, 300))  # drawn at its own size: one SVG unit a point
    starts = [s for s in text_starts(pdf) if s[0] == LABEL]
    assert len(starts) == 5, starts
    width = pdfmetrics.stringWidth(LABEL, pdffonts.SANS, 12)
    bold = pdfmetrics.stringWidth(LABEL, pdffonts.BOLD, 12)
    (_, x0, y0, _), (_, x1, y1, _), (_, x2, y2, _), (_, x3, y3, _), (_, x4, y4, turned) = starts
    # the page's y runs up: SVG's y=30 is 270 pt from the page's foot
    assert (round(x0, 1), round(y0, 1)) == (200, 270)
    assert (round(x1, 1), round(y1, 1)) == (round(200 - width / 2, 1), 240)  # centred on x
    assert (round(x2, 1), round(y2, 1)) == (round(200 - bold, 1), 210)  # ends at x, in bold's wider letters
    # dominant-baseline middle: the baseline half the x-height (DejaVu: 1120/2048 em) below the point
    assert x3 == pytest.approx(200 - width / 2, abs=0.05)
    assert y3 == pytest.approx(300 - 120 - 12 * 1120 / 2048 / 2, abs=0.05)
    # turned a quarter anticlockwise about its point, it reads upwards, centred on the point
    assert turned == pytest.approx((0, 1, -1, 0), abs=1e-6)
    assert x4 == pytest.approx(60 + 12 * 1120 / 2048 / 2, abs=0.05)
    assert y4 == pytest.approx(300 - 220 - width / 2, abs=0.05)
    page = PdfReader(io.BytesIO(pdf)).pages[0]
    assert not (page["/Resources"].get("/XObject") or {})  # in the page's own content: no form per label


def test_a_picture_drawn_smaller_keeps_its_labels_on_their_points():
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 800 200" width="100%">'
        f'<text x="400" y="100" font-size="20" text-anchor="end">{LABEL}</text></svg>'
    )
    picture = Picture(svg, 200, 500)  # a quarter of its size
    ((text, x, y, matrix),) = text_starts(pdf_of(picture))
    pdffonts.register()
    assert text == LABEL
    assert x == pytest.approx(100 - pdfmetrics.stringWidth(LABEL, pdffonts.SANS, 20) / 4, abs=0.05)
    assert y == pytest.approx(50 - 25, abs=0.05)
    assert matrix[0] == pytest.approx(0.25)  # 20 px letters printed at 5 pt


def offer_pictures(frozen: dict) -> dict[str, str]:
    """The quote's pictures as the offer draws them, from its snapshot."""
    from django.utils import translation

    from messages.diagram import words
    from messages.racks import elevation_labels, kw_number
    from messages.slotmap import slot_map_labels
    from outputs.pictures import fabric_diagram_svg, rack_elevation_pages, slot_map_svg
    from outputs.svgslim import slim

    validation = frozen["validation"]
    with translation.override("en"):
        pictures = {"topology": slim(fabric_diagram_svg(validation["fabric_plan"], words(), "en"))}
        for i, svg in enumerate(rack_elevation_pages(validation["rack_plan"], elevation_labels(), kw_number)):
            pictures[f"elevation {i + 1}"] = slim(svg)
        placement = validation["placement"]
        for i, group in enumerate(placement if isinstance(placement, list) else placement.values()):
            pictures[f"slot map {i + 1}"] = slim(slot_map_svg(group, slot_map_labels()))
    return pictures


@pytest.mark.django_db
def test_every_label_of_a_16_node_quotes_pictures_is_in_the_pdf_written_whole(make_configuration, customer, build):
    from quotes.services import quote_request
    from tests.factories import design

    quote = build(quote_request, configuration=make_configuration(design(16)), customer=customer, channel="api")
    pictures = offer_pictures(quote.frozen)
    assert {"topology", "elevation 1", "slot map 1"} <= pictures.keys()
    labels = {
        name: [" ".join(t.text.split()) for t in ET.fromstring(svg).iter(f"{SVG_NS}text") if t.text]
        for name, svg in pictures.items()
    }
    assert all(labels.values())
    pdf = pdf_of(*(Picture(svg, 510, 640) for svg in pictures.values()))

    pieces: list[str] = []
    runs = [0]

    def count(operator, *_):
        runs[0] += operator in (b"Tj", b"TJ", b"'", b'"')

    for page in PdfReader(io.BytesIO(pdf)).pages:
        page.extract_text(visitor_text=lambda t, *_: pieces.append(t), visitor_operand_before=count)
    text = re.sub(r"\s+", " ", " ".join(pieces))
    for name, texts in labels.items():
        for label in texts:
            assert label in text, f"{name}: {label!r} is not in the PDF's text"
    # one text-showing operation per label: a label spelt out letter by letter would take one per letter
    assert runs[0] == sum(len(texts) for texts in labels.values())


HATCHED = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 100" width="100%" fill="#000">'
    '<defs><pattern id="blank" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
    '<rect width="8" height="8" fill="#fff"/><line x1="0" y1="0" x2="0" y2="8" stroke="#bbb" stroke-width="2"/>'
    "</pattern></defs>"
    '<rect x="0" y="0" width="200" height="100" fill="#f00"/>'
    '<path d="M10 10h80v80h-80z" fill="url(#blank)" stroke="#000" stroke-width="2"/>'
    '<rect x="110" y="10" width="80" height="80" rx="6" fill="#dce9f7" stroke="#000" stroke-width="2"/>'
    "</svg>"
)


@pytest.mark.skipif(not shutil.which("pdftoppm"), reason="poppler's pdftoppm rasterises the page")
def test_a_hatched_blank_unit_and_a_coloured_unit_print_in_their_colours(tmp_path):
    path = tmp_path / "units.pdf"
    path.write_bytes(pdf_of(Picture(HATCHED, 200, 100)))
    subprocess.run(["pdftoppm", "-r", "72", "-png", "-singlefile", str(path), str(tmp_path / "units")], check=True)
    from PIL import Image

    image = Image.open(tmp_path / "units.png").convert("RGB")
    assert image.size == (200, 100)
    # the coloured unit: its fill inside, and the red background left of the hatched one never shows through
    assert image.getpixel((150, 50)) == (0xDC, 0xE9, 0xF7)
    assert image.getpixel((5, 50)) == (255, 0, 0)
    # the rounded corner leaves the background showing at the coloured unit's very corner
    assert image.getpixel((110, 10)) == (255, 0, 0)
    # the hatched unit: white with grey stripes across it, and nothing of the background inside
    row = [image.getpixel((x, 50)) for x in range(14, 86)]
    assert (255, 0, 0) not in row
    assert (255, 255, 255) in row
    greys = [p for p in row if p[0] == p[1] == p[2] and p[0] < 215]
    assert greys and all(p[0] >= 0xBB - 8 for p in greys)  # #bbb stripes (anti-aliased a little at their edges)
    # the stripes run at 45 degrees: one row's stripes move right one pixel a row down
    below = [image.getpixel((x, 51)) for x in range(14, 86)]
    assert below != row
    assert below[1:] == row[:-1] or below[:-1] == row[1:]
    # the outline of both units in black
    assert image.getpixel((10, 50)) == (0, 0, 0)
    assert image.getpixel((190, 50)) == (0, 0, 0)


def test_a_slot_maps_unusable_slot_takes_its_hatching_from_the_style_sheet():
    """``.unusable{fill:url(#hatch)}``: a class rule gives the fill, over the presentation attribute."""
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 40" width="100%">'
        "<style>.unusable{fill:url(#hatch);stroke:#9ca3af}.slot{fill:#ffffff}</style>"
        '<defs><pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
        '<rect width="6" height="6" fill="#f3f4f6"/><line x1="0" y1="0" x2="0" y2="6" stroke="#d1d5db" '
        'stroke-width="3"/></pattern></defs>'
        '<rect class="unusable" x="5" y="5" width="90" height="30" rx="3" fill="#f00"/></svg>'
    )
    content = PdfReader(io.BytesIO(pdf_of(Picture(svg, 100, 40)))).pages[0].get_contents().get_data().decode()
    assert "0.952941 0.956863 0.964706 rg" in content  # #f3f4f6, the hatching's ground
    assert "0.819608 0.835294 0.858824 RG" in content  # #d1d5db, its stripes
    assert "0.611765 0.639216 0.686275 RG" in content  # #9ca3af, the slot's outline
    assert "1 0 0 rg" not in content  # the attribute's red loses to the class rule


@pytest.mark.parametrize(
    "room, size",
    [((100, 100), (100, 50)), ((300, 60), (120, 60)), ((400, 400), (400, 200))],
)
def test_a_picture_fits_its_room_keeping_its_aspect_ratio(room, size):
    svg = '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="200" viewBox="0 0 400 200"></svg>'
    assert Picture(svg, *room).wrap(1000, 1000) == pytest.approx(size)
    # a picture as wide as its container (width="100%", the elevation and slot maps) has its viewBox's shape
    wide = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 912 1042" width="100%"></svg>'
    width, height = Picture(wide, 510, 640).wrap(1000, 1000)
    assert width / height == pytest.approx(912 / 1042)
    assert width <= 510 and height <= 640 and (width == pytest.approx(510) or height == pytest.approx(640))


@pytest.mark.parametrize(
    "garbage",
    [
        "",
        "not a picture",
        "<svg xmlns='http://www.w3.org/2000/svg'><rect",
        "<html><body/></html>",
        "<svg xmlns='http://www.w3.org/2000/svg'><rect width='5' height='5'/></svg>",  # no size
        '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">'
        '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]>'
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9"><text>&d;&d;&d;&d;&d;&d;&d;</text></svg>',
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9">' + "<g>" * 5000 + "</g>" * 5000 + "</svg>",
    ],
)
def test_a_picture_that_is_not_one_is_refused_with_a_clear_error(garbage):
    # an entity declaration is refused before anything is expanded; nesting too deep to draw before it is drawn
    with pytest.raises(ValueError, match="SVG"):
        Picture(garbage, 100, 100)


def test_what_the_drawing_does_not_understand_is_left_out_and_the_rest_drawn(caplog):
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:x="urn:other" viewBox="0 0 300 100" width="100%">'
        '<defs><linearGradient id="g"><stop offset="0" stop-color="#000"/></linearGradient></defs>'
        '<image href="data:image/png;base64,AAAA" width="10" height="10"/>'
        '<foreignObject width="10" height="10"><p xmlns="http://www.w3.org/1999/xhtml">html</p></foreignObject>'
        '<use href="#g"/><x:thing/>'
        '<rect x="1" y="1" width="10" height="10" fill="url(#g)" style="filter:blur(2px)"/>'
        '<rect x="1" y="1" width="10" height="10" fill="url(#missing) #00f"/>'
        '<path d="M10 10 L 20 foo 30 Q"/><path d="A 5 5 0 0 1 30 30"/><path d="M0 0 A 5 5 0 0 1 30 30"/>'
        '<rect width="-5" height="nan"/><circle r="x"/>'
        '<text x="1 2 3" y="50" font-size="1em" fill="chartreuse-ish">Still here</text>'
        '<text x="10" y="80"><tspan>in a tspan</tspan></text>'
        "</svg>"
    )
    with caplog.at_level("DEBUG", logger="outputs.svgpdf"):
        picture = Picture(svg, 300, 100)
        pdf = pdf_of(picture)
    text = " ".join(t for t, *_ in text_starts(pdf))
    assert "Still here" in text and "in a tspan" in text
    content = PdfReader(io.BytesIO(pdf)).pages[0].get_contents().get_data().decode()
    assert "0 0 1 rg" in content  # the fill's fallback colour where its pattern is missing
    # each left-out thing said once at debug level, not raised
    assert all(record.levelname == "DEBUG" for record in caplog.records)


def test_see_through_links_and_a_see_through_group_print_see_through():
    """The topology's links (stroke-opacity 0.6) and a group's opacity, given to what it holds."""
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="100%">'
        '<path d="M0 0L100 100" stroke="#789" stroke-opacity="0.6" fill="none"/>'
        '<g opacity="0.5"><rect width="50" height="50" fill="#00f" fill-opacity="0.5"/></g>'
        '<rect x="50" y="50" width="50" height="50" fill="#0f0"/></svg>'
    )
    page = PdfReader(io.BytesIO(pdf_of(Picture(svg, 100, 100)))).pages[0]
    states = page["/Resources"]["/ExtGState"]
    alphas = {(key, float(state[key])) for state in states.values() for key in ("/CA", "/ca") if key in state}
    assert ("/CA", 0.6) in alphas  # the links
    assert ("/ca", 0.25) in alphas  # half of half
    assert ("/ca", 1.0) in alphas  # and the next rectangle opaque again
