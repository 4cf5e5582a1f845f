"""Quote documents, the build task's idempotency and failure handling, customer pages, e-mail, and the admin."""

from __future__ import annotations

import io
import re
from datetime import timedelta
from decimal import Decimal as D
from pathlib import Path

import pytest
from django.core import mail
from django.core.files.storage import default_storage
from django.utils import timezone, translation
from openpyxl import load_workbook
from pypdf import PdfReader

from messages.bill import section_titles
from quotes import services, tasks
from quotes.documents import frozen_lines, render_pdf, render_xlsx, xlsx_columns
from quotes.models import Quote
from quotes.services import quote_request
from quotes.signals import quote_event
from tests.factories import design

pytestmark = pytest.mark.django_db


def pdf_text(data: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def xlsx_rows(data: bytes) -> list[list]:
    """The bill sheet's line rows: below the header, above the total row."""
    sheet = load_workbook(io.BytesIO(data)).worksheets[0]
    return [list(row) for row in sheet.iter_rows(min_row=2, values_only=True)][:-1]


def assert_rows_equal_lines(rows: list[list], frozen: dict) -> None:
    lines = frozen_lines(frozen)
    assert len(rows) == len(lines)
    with translation.override(frozen.get("language", "en")):
        titles = section_titles()
    for row, line in zip(rows, lines):
        for value, key in zip(row, xlsx_columns(frozen), strict=True):
            if key == "section":
                assert value == titles[line[key]]
            elif key in ("group", "part_number", "description"):
                assert value == (line[key] or None)
            elif line[key] is None:
                assert value == ("on request" if key != "lead_time_days" else None), (key, value)
            elif key.endswith("_percent"):
                assert D(str(value)) * 100 == D(str(line[key])), (key, value, line[key])
            else:
                assert D(str(value)) == D(str(line[key])), (key, value, line[key])


def test_pdf_and_xlsx_hold_every_frozen_line(make_configuration, customer, media, build):
    quote = build(quote_request, configuration=make_configuration(design(4)), customer=customer, channel="api")
    quote.refresh_from_db()
    assert quote.doc_status == "ready" and quote.progress == 100

    text = pdf_text(default_storage.open(quote.pdf.name).read())
    for line in quote.frozen["lines"]:
        assert line["part_number"] in text
    for expected in (
        quote.number,
        "NCS International",
        "Den Sliem 89",
        "7141 JG Groenlo",
        "+31 544 470 000",
        "info@ncs.nl",
        quote.frozen["receipt"]["design_hash"][:16],
        "Analytical Engines B.V.",
        "Appendix: validation receipt",
        "Terms",
    ):
        assert expected in text.replace("\n", " ") or expected in text
    assert_rows_equal_lines(xlsx_rows(default_storage.open(quote.xlsx.name).read()), quote.frozen)


def test_dutch_customer_gets_dutch_terms_and_reverse_charge_notice(configuration, customer, media, build):
    customer.update(country="BE", vat_number="BE0403019261")
    quote = build(quote_request, configuration=configuration, customer=customer, language="nl")
    text = pdf_text(render_pdf(quote.frozen))
    assert "BTW verlegd" in text and "Voorwaarden" in text and "Geldig tot" in text
    assert "Terms" not in text


def test_documents_render_from_the_snapshot_alone(configuration, customer, media, build):
    """The frozen snapshot is enough: no catalogue, configuration or quote row is read."""
    quote = build(quote_request, configuration=configuration, customer=customer)
    frozen = quote.frozen
    Quote.objects.all().delete()
    from catalog.models import Part

    Part.objects.all().delete()
    assert quote.number in pdf_text(render_pdf(frozen))
    assert_rows_equal_lines(xlsx_rows(render_xlsx(frozen)), frozen)


def test_rerunning_the_task_yields_one_document_set(configuration, customer, media, build):
    quote = build(quote_request, configuration=configuration, customer=customer)
    quote.refresh_from_db()
    assert tasks.quote_build_documents.apply(args=[quote.pk]).get() == "skipped"  # already ready

    build(services.quote_documents_rebuild, quote=quote)
    build(services.quote_documents_rebuild, quote=quote)
    quote.refresh_from_db()
    folder = Path(media) / "quotes" / quote.token
    assert sorted(p.name for p in folder.iterdir()) == [f"{quote.number}-bom.xlsx", f"{quote.number}.pdf"]
    assert quote.pdf.name == f"quotes/{quote.token}/{quote.number}.pdf"
    assert quote.build_attempts == 3
    assert len(mail.outbox) == 1  # the ready e-mail goes once


def test_a_fresh_claim_cannot_be_taken_but_an_expired_lease_can(configuration, customer, settings, build):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    quote = quote_request(configuration=configuration, customer=customer)  # on_commit not run: still pending
    claim = services.quote_documents_claim(quote_id=quote.pk)
    assert claim is not None
    assert services.quote_documents_claim(quote_id=quote.pk) is None  # another worker holds it

    Quote.objects.filter(pk=quote.pk).update(lease_until=timezone.now() - timedelta(seconds=1))  # its worker died
    assert services.quote_documents_claim(quote_id=quote.pk) is not None
    # the first worker lost its lease: its result is not written
    assert services.quote_documents_build(quote_id=quote.pk, claim=claim) is False
    quote.refresh_from_db()
    assert quote.doc_status == "building"


def test_requeue_sends_quotes_stuck_in_pending_or_building(configuration, customer, media, monkeypatch, build):
    quote = quote_request(configuration=configuration, customer=customer)  # never enqueued (no commit)
    sent = []
    monkeypatch.setattr(tasks.quote_build_documents, "delay", lambda pk: sent.append(pk))
    assert services.quotes_requeue_stuck() == []  # enqueued just now: not stuck yet
    assert services.quotes_requeue_stuck(older_than=timedelta(0)) == [quote.pk]
    Quote.objects.filter(pk=quote.pk).update(doc_status="building", claimed_at=timezone.now())
    assert services.quotes_requeue_stuck(older_than=timedelta(minutes=5)) == []
    assert sent == [quote.pk]


def test_transient_storage_error_is_retried(configuration, customer, media, monkeypatch, build):
    real_store, calls = services.builds._store, []

    def flaky(name, content):
        calls.append(name)
        if len(calls) == 1:
            raise OSError("disk briefly unavailable")
        return real_store(name, content)

    monkeypatch.setattr(services.builds, "_store", flaky)
    quote = build(quote_request, configuration=configuration, customer=customer)
    quote.refresh_from_db()
    assert quote.doc_status == "ready" and quote.build_attempts == 2


def test_terminal_failure_is_marked_with_a_message_and_an_event(
    configuration, customer, media, monkeypatch, build, client
):
    events = []
    quote_event.connect(
        lambda **kw: events.append((kw["quote"].number, kw["event"])), weak=False, dispatch_uid="test-failure"
    )

    def broken(frozen):
        raise ValueError("template exploded")

    monkeypatch.setattr("quotes.documents.render_pdf", broken)
    try:
        quote = build(quote_request, configuration=configuration, customer=customer)
    finally:
        quote_event.disconnect(dispatch_uid="test-failure")
    quote.refresh_from_db()
    assert quote.doc_status == "failed" and "template exploded" in quote.failure_message
    assert events == [(quote.number, "quote.failed")]
    assert b"could not be built" in client.get(f"/quotes/{quote.token}/progress/").content


def test_ready_email_in_the_customers_language_with_an_expiring_link(
    configuration, customer, staff, media, build, client, settings
):
    configuration.assigned_to = staff
    configuration.save()
    customer["country"] = "NL"
    quote = build(quote_request, configuration=configuration, customer=customer, language="nl")

    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == [customer["email"]] and message.cc == [staff.email]
    assert quote.number in message.subject and message.subject.startswith("Je offerte")
    link = next(word for word in message.body.split() if "/quotes/link/" in word)
    path = link.removeprefix(settings.QUOTE_SITE_URL)
    response = client.get(path)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert b"".join(response.streaming_content).startswith(b"%PDF")

    settings.QUOTE_LINK_MAX_AGE = timedelta(seconds=-1)
    assert client.get(path).status_code == 404  # expired
    assert client.get(path[:-3] + "xyz/").status_code == 404  # tampered


def test_customer_pages_by_token_and_staff_downloads_by_login(
    configuration, customer, staff, media, build, client, settings
):
    quote = build(quote_request, configuration=configuration, customer=customer)
    page = client.get(f"/quotes/{quote.token}/")
    assert page.status_code == 200 and quote.number.encode() in page.content
    pdf_link, xlsx_link = re.findall(r'href="(/quotes/link/[^"]+)"', page.content.decode())
    assert client.get(pdf_link).status_code == 200
    xlsx = client.get(xlsx_link)
    assert xlsx.status_code == 200 and "attachment" in xlsx["Content-Disposition"]
    # The page's links expire like the e-mailed ones; the token itself opens no document.
    assert client.get(f"/quotes/{quote.token}/document.pdf").status_code == 404
    settings.QUOTE_LINK_MAX_AGE = timedelta(seconds=-1)
    assert client.get(pdf_link).status_code == 404
    assert client.get("/quotes/not-a-token/").status_code == 404

    staff_url = f"/quotes/staff/{quote.pk}/document.pdf"
    assert client.get(staff_url).status_code == 302  # to the login
    client.force_login(staff)
    assert client.get(staff_url).status_code == 200


def test_progress_partial_polls_while_building_and_works_without_js(configuration, customer, client):
    quote = quote_request(configuration=configuration, customer=customer)  # pending: on_commit not run
    partial = client.get(f"/quotes/{quote.token}/progress/", HTTP_HX_REQUEST="true")
    assert b'hx-trigger="every 1s"' in partial.content and b"<progress" in partial.content
    assert b"<html" not in partial.content
    Quote.objects.filter(pk=quote.pk).update(doc_status="ready", pdf="x.pdf", xlsx="x.xlsx", progress=100)
    ready = client.get(f"/quotes/{quote.token}/progress/")
    assert b"hx-trigger" not in ready.content and b"/quotes/link/" in ready.content


def test_admin_change_form_cannot_bypass_approval(configuration, customer, staff, approver, client, build, media):
    from django.contrib.auth.models import Permission

    staff.user_permissions.add(
        *Permission.objects.filter(content_type__app_label="quotes", codename__in=["change_quote", "view_quote"])
    )
    quote = build(quote_request, configuration=configuration, customer=customer, discount_percent="40")
    assert quote.status == "awaiting_approval"
    client.force_login(staff)
    url = f"/admin/quotes/quote/{quote.pk}/change/"
    assert client.get(url).status_code == 200

    client.post(url, {"status": "issued", "discount_percent": "0", "total": "1", "doc_status": "ready"})
    quote.refresh_from_db()
    assert (quote.status, quote.discount_percent) == ("awaiting_approval", D("40.00"))

    # the approve action is offered only to approvers, and the service checks again
    changelist = "/admin/quotes/quote/"
    response = client.post(changelist, {"action": "approve_selected", "_selected_action": [quote.pk]})
    quote.refresh_from_db()
    assert quote.status == "awaiting_approval"
    assert response.status_code in (200, 302)

    approver.user_permissions.add(
        *Permission.objects.filter(content_type__app_label="quotes", codename__in=["change_quote", "view_quote"])
    )
    client.force_login(approver)
    client.post(changelist, {"action": "approve_selected", "_selected_action": [quote.pk]})
    quote.refresh_from_db()
    assert quote.status == "issued" and quote.approved_by == approver
