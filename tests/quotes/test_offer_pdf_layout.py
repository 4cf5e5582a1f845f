"""What a reader of the offer PDF notices of its layout: the bill's column headers on every page it runs over, no
line cut in two by a page break, a section's title on the page of its first line, "Page x / y" right on every page,
the discount columns only when there is a discount, a Dutch offer Dutch throughout, and whatever the customer typed
printed as text (markup and all), long unbroken words wrapped."""

from __future__ import annotations

import copy
import io
import re

import pytest
from django.utils import translation
from django.utils.translation import gettext
from pypdf import PdfReader

from quotes.documents import render_pdf
from quotes.services import quote_request
from tests.factories import design

pytestmark = pytest.mark.django_db

HEADERS = ("Part number and description", "Qty", "Lead time", "Unit price")
DISCOUNT_HEADERS = ("List value", "Line disc.", "Discount")


def pages_text(data: bytes) -> list[str]:
    return [" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(data)).pages]


@pytest.fixture
def quote16(make_configuration, customer, build):
    return build(quote_request, configuration=make_configuration(design(16)), customer=customer, channel="api")


def many_lines(frozen: dict, count: int) -> dict:
    """The quote with a bill of ``count`` lines in three sections, each line's description long enough to take
    several lines of its cell, each part number and description unique."""
    frozen = copy.deepcopy(frozen)
    template = frozen["lines"][0]
    lines = []
    for index in range(count):
        section = ("nodes", "compute_fabric", "services")[index * 3 // count]
        lines.append(
            {
                **template,
                "section": section,
                "group": "gpu" if section == "nodes" else None,
                "part_number": f"PN-{index:04d}",
                "description": f"Item {index:04d} "
                + "with a description that runs over several lines " * 2
                + f"end{index:04d}",
                "quantity": index + 1,
            }
        )
    frozen["lines"] = lines
    return frozen


def test_a_long_bill_repeats_its_column_headers_and_never_splits_a_line_or_orphans_a_section_title(quote16):
    frozen = many_lines(quote16.frozen, 150)
    pages = pages_text(render_pdf(frozen))
    bill_pages = [i for i, text in enumerate(pages) if re.search(r"PN-\d{4}", text)]
    assert len(bill_pages) >= 4
    header = " ".join(HEADERS)
    for i in bill_pages:
        first_line = pages[i].index(re.search(r"PN-\d{4}", pages[i]).group(0))
        # the column headers come before the page's first bill line; past the first page, they open the page
        assert header in pages[i][:first_line], (i, pages[i][:200])
        if i != bill_pages[0]:
            assert pages[i].startswith(header), (i, pages[i][:200])
    for index, line in enumerate(frozen["lines"]):
        [page] = [i for i in bill_pages if line["part_number"] in pages[i]]
        # the whole row on one page: part number, its description up to its last word, its quantity
        assert " ".join(line["description"].split()) in pages[page], (index, page)
        assert f"end{index:04d} {line['quantity']}" in pages[page]
    with translation.override("en"):
        from messages.bill import section_titles

        titles = section_titles()
    for key in ("compute_fabric", "services"):
        first = next(line for line in frozen["lines"] if line["section"] == key)
        [page] = [i for i in bill_pages if first["part_number"] in pages[i]]
        assert f"{titles[key]} {first['part_number']}" in pages[page]


def test_every_page_says_its_number_and_the_number_of_pages(quote16):
    data = render_pdf(many_lines(quote16.frozen, 60))
    pages = pages_text(data)
    seller, number = quote16.frozen["seller"]["name"], quote16.frozen["number"]
    assert len(pages) > 3
    for i, text in enumerate(pages, start=1):
        assert f"Page {i} / {len(pages)}" in text
        assert f"{seller} · {number}" in text
    assert PdfReader(io.BytesIO(data)).metadata.title == f"Quote {number}"
    assert PdfReader(io.BytesIO(data)).metadata.author == seller


def test_the_dutch_offer_holds_no_english_heading_label_or_term(make_configuration, customer, build):
    quote = build(
        quote_request,
        configuration=make_configuration(design(16)),
        customer={**customer, "address": {"street": "Keizersgracht 123", "postal_code": "1015 CJ", "city": "A"}},
        language="nl",
    )
    pages = pages_text(render_pdf(quote.frozen))
    text = " ".join(pages)
    english = [
        "Bill of materials",
        "Part number and description",
        "Unit price",
        "Subtotal",
        "Totals",
        "List value",
        "Net, excl. VAT",
        "Total, incl. VAT",
        "Compute fabric",
        "Terms",
        "Acceptance",
        "Valid until",
        "Your contact",
        "Billing address",
        "Appendix: validation receipt",
        "Design hash (SHA-256)",
        "Catalogue version",
        "Points to note about this design",
        "Page",
        "Signature",
        "Purchase order number",
    ]
    with translation.override("nl"):
        dutch = {msgid: gettext(msgid) for msgid in english}
    for msgid, translated in dutch.items():
        assert translated != msgid, msgid
        assert translated in text, translated
        assert msgid not in text, msgid
    for i, page in enumerate(pages, start=1):
        assert f"{dutch['Page']} {i} / {len(pages)}" in page
    for sentence in ("Prices are in euros", "Payment: within", "Delivery:", "general terms and conditions"):
        assert sentence not in text
    assert PdfReader(io.BytesIO(render_pdf(quote.frozen))).metadata.title == f"Offerte {quote.number}"


def test_what_the_customer_typed_is_printed_as_text_and_long_words_wrap(quote16):
    frozen = copy.deepcopy(quote16.frozen)
    long_word = "X" * 400
    frozen["customer"].update(
        name="<b>Ada</b> & Co",
        company="<script>alert(1)</script> Engines & Sons <i>",
        address={"street": "Street <br/> 1 &amp; 2", "postal_code": "1015", "city": "<font size=40>A</font>"},
        vat_number=long_word,
    )
    frozen["crm_reference"] = "CRM <para> &nbsp; 7"
    frozen["design"]["name"] = "<u>design</u> & more"
    frozen["lines"][0]["part_number"] = "PN-" + "9" * 120
    frozen["terms"]["general_terms_url"] = "https://example.nl/" + "terms/" * 40 + "?a=1&b=<2>"
    frozen["receipt"]["findings"][0]["message"] = "Message with <b>markup</b> & an ampersand"
    frozen["receipt"]["findings"][0]["severity"] = "warning"  # a point the customer's copy lists
    frozen["receipt"]["findings"][0]["code"] = "NIC_FEWER_THAN_GPUS"
    text = " ".join(pages_text(render_pdf(frozen)))
    for typed in (
        "<b>Ada</b> & Co",
        "<script>alert(1)</script> Engines & Sons <i>",
        "Street <br/> 1 &amp; 2",
        "<font size=40>A</font>",
        "CRM <para> &nbsp; 7",
        "<u>design</u> & more",
        "Message with <b>markup</b> & an ampersand",
    ):
        assert typed in text, typed
    joined = text.replace(" ", "")
    assert long_word in joined  # wrapped over several lines, whole
    assert "PN-" + "9" * 120 in joined
    assert "https://example.nl/" + "terms/" * 40 + "?a=1&b=<2>" in joined


def test_no_text_runs_past_the_right_margin(quote16):
    """A long unbroken word wraps within its column rather than running off the page."""
    frozen = copy.deepcopy(quote16.frozen)
    frozen["customer"]["vat_number"] = "Y" * 300
    frozen["lines"][0]["part_number"] = "PN-" + "8" * 120
    frozen["receipt"]["design_hash"] = "f" * 200
    data = render_pdf(frozen)
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from outputs import pdffonts

    pdffonts.register()
    page_width = float(PdfReader(io.BytesIO(data)).pages[0].mediabox.width)
    right_margin = page_width - 14 * 72 / 25.4
    widest = 0.0

    def visit(text, cm, tm, font_dict, font_size):
        nonlocal widest
        if text != text.lstrip() or not text.strip() or font_dict is None:  # a line's start is where it is drawn
            return
        size = font_size * tm[0] * cm[0]
        face = pdffonts.MONO_BOLD if "Mono" in str(font_dict.get("/BaseFont")) else pdffonts.SANS
        x = tm[4] * cm[0] + cm[4]
        widest = max(widest, x + stringWidth(text.strip(), face, size) * 0.98)

    for page in PdfReader(io.BytesIO(data)).pages:
        page.extract_text(visitor_text=visit)
    assert widest <= right_margin + 1


def test_a_picture_that_cannot_be_drawn_is_left_out_and_the_offer_still_builds(make_configuration, customer, build):
    """A picture never stops the quote: one that does not parse is left out (and logged), the rest is printed."""
    from quotes import offerpdf
    from quotes.documents import pdf_context

    quote = build(quote_request, configuration=make_configuration(design(16)), customer=customer, channel="api")
    context = pdf_context(quote.frozen)
    assert context["topology"] and context["elevations"]
    context["topology"] = "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 10"  # cut off mid-way
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(offerpdf.build(context))).pages)
    assert "Compute fabric" in text and "Rack elevation" in text and "Terms" in text


def test_the_bills_narrow_columns_wrap_between_words_never_within_one(make_configuration, customer, staff, build):
    """With the discount columns the bill's columns are narrow: Dutch "Aantal" and "Regelk." are set smaller to
    fit, not broken into "Aant al"; "op aanvraag" wraps as "op" / "aanvraag"; a description's word wider than its
    cell breaks after a hyphen ("Kubernetes-control-plane-" / "node"), not at the cell's edge."""
    quote = build(
        quote_request,
        configuration=make_configuration(design(16)),
        customer=customer,
        channel="staff",
        user=staff,
        discount_percent="10",
        language="nl",
    )
    first = pages_text(render_pdf(quote.frozen))[0]
    with translation.override("nl"):
        labels = [gettext(label) for label in (*HEADERS, *DISCOUNT_HEADERS, "Net")]
    for word in {word for label in labels for word in label.split()}:
        assert re.search(rf"(^|\s){re.escape(word)}(\s|$)", first), f"{word!r} is not whole in the bill's header"
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(render_pdf(quote.frozen))).pages)
    assert re.search(r"(^|\s)aanvraag(\s|$)", text) and not re.search(r"aanv\s+raag", text)
    assert re.search(r"Kubernetes-\n?control-\n?plane-\n?node", text), "a description broken within a word"
