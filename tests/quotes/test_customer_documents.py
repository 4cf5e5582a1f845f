"""Two audiences: what the customer reads of a quote (its page, PDF, workbook and e-mails) carries the design's
findings in plain words, without a rule code, a design path, a note written for sales or a catalogue gap phrased as
our ignorance, and never asks the customer to confirm our warnings; the sales engineer's copy keeps an internal
appendix with all of it."""

from __future__ import annotations

import io
import re

import pytest
from django.core import mail
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from configurator.services import warning_acknowledge
from engines.findings.registry import REGISTRY
from quotes.documents import render_pdf
from quotes.services import quote_issue, quote_request
from tests.factories import design, set_price

pytestmark = pytest.mark.django_db

# Two liquid-cooled HGX H100 nodes on an InfiniBand fabric, with four compute adapters for eight GPUs: warnings the
# product explains (fewer adapters than GPUs) and warnings about what the catalogue does not hold (the server's slot
# list and power supplies); notes for sales (RoCE as an alternative) and about unknown switch power.
DOC = design(
    2,
    server="SYS-421GE-TNHR2-LCC",
    components=[
        {"part": "HGX-H100-8GPU", "quantity": 1},
        {"part": "MCX75310AAS-NEAT", "quantity": 4, "role": "compute"},
    ],
)
CODE = re.compile(r"\b(" + "|".join(sorted(map(re.escape, REGISTRY), key=len, reverse=True)) + r")\b")
PATH = re.compile(r"\b(node_groups|fabric|facility|networks|services|design)(\[\d+\]|\.[a-z_]+)")
INTERNAL = (
    "not known from the sources",  # a catalogue gap as our ignorance
    "If the customer",  # a note for sales
    "data sheet",  # an instruction to whoever keeps the catalogue
    "confirms it by ordering",
    "confirms them by ordering",
    "the reason",  # the reason a sales engineer accepted a warning
)
REASON = "Four rails agreed with the customer; the reason stays internal"


def leaks(text: str) -> list[str]:
    """Rule codes, design paths and internal wording found in ``text``."""
    found = [m.group(0) for m in CODE.finditer(text)] + [m.group(0) for m in PATH.finditer(text)]
    return found + [phrase for phrase in INTERNAL if phrase in text] + ([REASON] if REASON in text else [])


def pdf_text(data: bytes) -> str:
    return " ".join("\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages).split())


def workbook_text(data: bytes) -> str:
    book = load_workbook(io.BytesIO(data))
    return " ".join(str(cell.value) for sheet in book.worksheets for row in sheet.iter_rows() for cell in row)


@pytest.fixture
def issued(make_configuration, customer, staff, media, build):
    """The design quoted for a customer in ``language``: requested, its warnings accepted with a reason by a sales
    engineer, then issued (documents built, the customer e-mailed)."""

    def make(language: str = "en", **customer_fields):
        configuration = make_configuration(DOC)
        waiting = build(
            quote_request,
            configuration=configuration,
            customer={**customer, **customer_fields},
            channel="staff",
            user=staff,
            language=language,
        )
        warnings = [f for f in waiting.frozen["receipt"]["findings"] if f["severity"] == "warning"]
        assert {f["code"] for f in warnings} >= {"NIC_FEWER_THAN_GPUS", "PCIE_SLOTS_UNKNOWN"}
        for finding in warnings:
            warning_acknowledge(
                configuration=configuration,
                code=finding["code"],
                subject=finding["subject"],
                reason=REASON,
                user=staff,
            )
        quote = build(quote_issue, quote=waiting, user=staff)
        quote.refresh_from_db()
        return quote

    return make


@pytest.mark.parametrize("language", ["en", "nl"])
def test_no_customer_output_carries_a_rule_code_a_design_path_or_an_internal_note(issued, client, language):
    quote = issued(language)
    assert quote.status == "issued" and quote.doc_status == "ready"
    outputs = {
        "pdf": pdf_text(quote.pdf.read()),
        "xlsx": workbook_text(quote.xlsx.read()),
        "page": client.get(reverse("quotes:status", args=[quote.token])).content.decode(),
    }
    for message in mail.outbox:
        if quote.customer_email in message.to:
            outputs[f"mail: {message.subject}"] = message.subject + message.body
    assert any(key.startswith("mail") for key in outputs)
    assert {kind: leaks(text) for kind, text in outputs.items()} == {kind: [] for kind in outputs}


def test_the_customer_reads_the_points_in_plain_words_and_is_not_asked_to_confirm_them(issued):
    quote = issued()
    nic = next(f for f in quote.frozen["receipt"]["findings"] if f["code"] == "NIC_FEWER_THAN_GPUS")
    text = pdf_text(quote.pdf.read())
    appendix = text[text.index("Points to note about this design") :]
    assert " ".join(nic["message"].split()) in appendix  # the warning in the product's own plain words
    # what the catalogue does not hold, once and as a figure to confirm, not as "we do not know"
    assert "confirmed with the manufacturers before the order is placed" in appendix
    assert "The appendix explains 1 point to note about this design." in text
    assert "confirm" not in text[text.index("Terms") : text.index("Acceptance")]
    dutch = pdf_text(issued("nl").pdf.read())
    assert "Aandachtspunten van dit ontwerp" in dutch and "bevestigen we bij de fabrikanten" in dutch


def test_the_sales_engineers_copy_keeps_the_internal_appendix(issued, client, staff):
    quote = issued()
    internal = pdf_text(render_pdf(quote.frozen, audience="staff"))
    tail = internal[internal.index("Internal appendix: for the sales engineer, not for the customer") :]
    assert "NIC_FEWER_THAN_GPUS" in tail and "node_groups[0]" in tail and REASON in tail
    assert "FABRIC_ROCE_ALTERNATIVE" in tail and "If the customer prefers Ethernet" in tail
    url = reverse("quotes:staff_internal_pdf", args=[quote.pk])
    assert client.get(url).status_code == 302  # to the login: never the customer's
    client.force_login(staff)
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert "NIC_FEWER_THAN_GPUS" in pdf_text(response.content)


def test_reverse_charge_says_no_vat_without_at_least(make_configuration, customer, media, build):
    set_price("AP8886")  # a line on request: amounts "at least"
    quote = build(
        quote_request,
        # the offer carries the rack and its PDUs (the PDU on request) even for one server
        configuration=make_configuration({**design(1), "facility": {"supplied": []}}),
        customer={**customer, "company": "Athens Compute S.A.", "country": "GR", "vat_number": "EL 094259216"},
        channel="api",
    )
    quote.refresh_from_db()
    assert quote.vat_category == "reverse_charge" and quote.frozen["totals"]["at_least"] is True
    text = pdf_text(quote.pdf.read())
    assert re.search(r"VAT 0% € 0\.00", text) and "at least € 0.00" not in text
    assert re.search(r"Total, incl\. VAT at least € [\d,]+\.\d\d", text)
