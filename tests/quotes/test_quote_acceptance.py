"""Accepting and declining a quote through the customer's doors (the offer e-mail's signed link, the quote page)
and a sales engineer's (on the customer's behalf, on the quote step); the order confirmation's contents in both
languages; the refusals."""

from __future__ import annotations

import io
import re
from datetime import timedelta

import pytest
from django.core import mail
from django.core.files.storage import default_storage
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader

from quotes.models import Quote, QuoteDecision
from quotes.services import QuoteError, QuoteStateError, quote_accept, quote_request, quote_revise
from tests.factories import StaffFactory

pytestmark = pytest.mark.django_db

ANSWER = {
    "accept-name": "Grace Hopper",
    "accept-position": "CTO",
    "accept-email": "grace@example.nl",
    "accept-po_number": "PO-77",
    "accept-accept_terms": "on",
    "action": "accept",
}


def pdf_text(data: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def _accept_link(settings) -> str:
    (link,) = [w for m in mail.outbox for w in m.body.split() if "/quotes/accept/" in w]
    return link.removeprefix(settings.QUOTE_SITE_URL)


@pytest.fixture
def issued(configuration, customer, media, build):
    quote = build(quote_request, configuration=configuration, customer=customer, channel="staff")
    quote.refresh_from_db()
    assert quote.status == "issued"
    return quote


def test_the_offer_email_links_the_online_acceptance_and_it_places_the_order(
    issued, client, settings, django_capture_on_commit_callbacks
):
    link = _accept_link(settings)
    assert issued.token not in link
    page = client.get(link)
    assert page.status_code == 200
    assert 'id="accept-quote"' in page.content.decode()

    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(link, ANSWER, REMOTE_ADDR="203.0.113.9")
    assert response.status_code == 302
    issued.refresh_from_db()
    assert issued.status == "accepted"
    decision = issued.decision
    assert (decision.channel, decision.name, decision.po_number, decision.ip_address) == (
        "customer",
        "Grace Hopper",
        "PO-77",
        "203.0.113.9",
    )
    assert decision.confirmation_status == "ready"
    (confirmation,) = mail.outbox
    assert confirmation.attachments[0][2] == "application/pdf"
    assert "PO-77" in confirmation.body

    after = client.get(link).content.decode()
    assert 'id="quote-accepted"' in after and 'id="accept-quote"' not in after
    order_link = re.search(r'href="([^"]+)" id="order-confirmation"', after).group(1)
    assert client.get(order_link).status_code == 200


def test_the_terms_must_be_ticked_and_nothing_is_recorded_without_them(issued, client):
    response = client.post(
        reverse("quotes:answer", args=[issued.token]), {**ANSWER, "accept-accept_terms": ""}, REMOTE_ADDR="10.0.0.1"
    )
    assert response.status_code == 422
    assert "Accept the quote" in response.content.decode()
    issued.refresh_from_db()
    assert issued.status == "issued" and not QuoteDecision.objects.exists()


def test_an_expired_quote_or_link_cannot_be_accepted(issued, client, settings, time_machine):
    link = _accept_link(settings)
    Quote.objects.filter(pk=issued.pk).update(valid_until=timezone.localdate() - timedelta(days=1))
    page = client.get(link).content.decode()
    assert 'id="accept-quote"' not in page
    refused = client.post(link, ANSWER)
    assert refused.status_code == 409
    assert "expired" in refused.content.decode()

    time_machine.move_to(timezone.now() + settings.QUOTE_LINK_MAX_AGE + timedelta(minutes=1))
    assert client.get(link).status_code == 404


def test_the_customer_declines_with_a_reason_on_the_quote_page(issued, client, django_capture_on_commit_callbacks):
    url = reverse("quotes:answer", args=[issued.token])
    assert client.post(url, {"action": "decline", "decline-reason": ""}).status_code == 422
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"action": "decline", "decline-reason": "Too expensive for us"})
    assert response.status_code == 302
    issued.refresh_from_db()
    assert issued.status == "declined" and issued.decision.reason == "Too expensive for us"
    assert any("Too expensive for us" in m.body for m in mail.outbox)
    page = client.get(reverse("quotes:status", args=[issued.token])).content.decode()
    assert 'id="quote-declined"' in page


def test_a_superseded_or_waiting_quote_is_refused_and_an_accepted_one_never_revised(
    configuration, customer, media, build, staff
):
    first = build(quote_request, configuration=configuration, customer=customer, channel="staff", user=staff)
    second = build(quote_revise, quote=first, user=staff, discount_percent="3")
    first.refresh_from_db()
    answer = {"name": "G", "email": "g@example.nl", "accept_terms": True}
    with pytest.raises(QuoteStateError) as superseded:
        quote_accept(quote=first, channel="customer", **answer)
    assert superseded.value.code == "quote_superseded"

    build(quote_accept, quote=second, channel="customer", **answer)
    with pytest.raises(QuoteStateError) as revised:
        quote_revise(quote=second, user=staff, discount_percent="4")
    assert revised.value.code == "quote_already_accepted"
    with pytest.raises(QuoteStateError) as twice:
        quote_accept(quote=second, channel="customer", **answer)
    assert twice.value.code == "quote_already_accepted"

    waiting = build(
        quote_request, configuration=configuration, customer={**customer, "email": "x@example.nl"}, discount_percent=40
    )
    assert waiting.status == "awaiting_approval"
    with pytest.raises(QuoteStateError) as not_issued:
        quote_accept(quote=waiting, channel="customer", **answer)
    assert not_issued.value.code == "quote_not_issued"


def test_a_non_staff_user_cannot_record_on_the_customers_behalf(issued, django_user_model):
    from django.core.exceptions import PermissionDenied

    customer_user = django_user_model.objects.create_user("customer")
    with pytest.raises(PermissionDenied):
        quote_accept(
            quote=issued, channel="staff", user=customer_user, name="A", email="a@example.nl", accept_terms=True
        )


def test_staff_on_behalf_needs_the_purchase_order(issued, staff):
    with pytest.raises(QuoteError) as missing:
        quote_accept(quote=issued, channel="staff", user=staff, name="A", email="a@example.nl", accept_terms=True)
    assert "po_number" in missing.value.errors


def test_staff_record_the_acceptance_on_the_quote_step_and_see_it_on_the_dashboard(
    issued, client, django_capture_on_commit_callbacks
):
    engineer = StaffFactory(username="petra")
    client.force_login(engineer, backend="django.contrib.auth.backends.ModelBackend")
    step = reverse("configurator:step", args=[issued.configuration.token, "quote"])
    page = client.get(step).content.decode()
    assert 'id="accept-on-behalf"' in page

    base = {"quote": issued.token, "action": "accept", "accept-name": "Grace Hopper", "accept-email": "g@example.nl"}
    refused = client.post(step, {**base, "accept-accept_terms": "on"})
    assert refused.status_code == 422
    issued.refresh_from_db()
    assert issued.status == "issued"

    with django_capture_on_commit_callbacks(execute=True):
        done = client.post(
            step, {**base, "accept-accept_terms": "on", "accept-po_number": "PO-9", "accept-note": "Signed by phone"}
        )
    assert done.status_code == 302
    issued.refresh_from_db()
    assert issued.status == "accepted"
    assert (issued.decision.channel, issued.decision.recorded_by, issued.decision.note) == (
        "staff",
        engineer,
        "Signed by phone",
    )
    after = client.get(step).content.decode()
    assert 'id="staff-order-confirmation"' in after and 'id="revise-quote"' not in after
    staff_pdf = client.get(reverse("quotes:staff_order_confirmation", args=[issued.pk]))
    assert staff_pdf.status_code == 200

    dashboard = client.get(reverse("configurator:dashboard"), {"quote_status": "accepted"}).content.decode()
    assert issued.number in dashboard and "PO-9" in dashboard


def test_customers_cannot_post_the_staff_acceptance(issued, client):
    step = reverse("configurator:step", args=[issued.configuration.token, "quote"])
    response = client.post(step, {"quote": issued.token, "action": "accept", "accept-po_number": "X"})
    assert response.status_code == 403


@pytest.mark.parametrize(
    ("language", "title", "accepted_by", "po_label"),
    [
        ("en", "Order confirmation", "Accepted by", "Purchase order number"),
        ("nl", "Orderbevestiging", "Geaccepteerd door", "Inkoopordernummer"),
    ],
)
def test_the_order_confirmation_prints_the_order_in_the_quotes_language(
    configuration, customer, media, build, language, title, accepted_by, po_label
):
    quote = build(quote_request, configuration=configuration, customer=customer, channel="staff", language=language)
    build(
        quote_accept,
        quote=quote,
        channel="customer",
        name="Grace Hopper",
        position="CTO",
        email="grace@example.nl",
        po_number="PO-2026-17",
        accept_terms=True,
    )
    quote.refresh_from_db()
    text = pdf_text(default_storage.open(quote.decision.confirmation_pdf.name).read())
    flat = " ".join(text.split())
    assert f"{title} {quote.number}" in flat
    assert accepted_by in flat and "Grace Hopper, CTO" in flat
    assert po_label in flat and "PO-2026-17" in flat
    assert customer["company"] in flat
    # the frozen totals, as the offer printed them
    net = f"{quote.net:,.2f}"
    if language == "nl":
        net = net.replace(",", " ").replace(".", ",").replace(" ", ".")
    assert net in flat
    for line in quote.frozen["lines"][:3]:
        assert line["part_number"] in text.replace("\n", "")


def test_a_failed_order_confirmation_is_marked_and_can_be_built_again(issued, build, monkeypatch):
    from quotes import documents
    from quotes.services import order_confirmation_rebuild

    real = documents.render_order_confirmation

    def broken(frozen, acceptance):
        raise ValueError("the printer is on fire")

    monkeypatch.setattr(documents, "render_order_confirmation", broken)
    build(quote_accept, quote=issued, channel="customer", name="G", email="g@example.nl", accept_terms=True)
    decision = QuoteDecision.objects.get(quote=issued)
    assert decision.confirmation_status == "failed" and "printer is on fire" in decision.confirmation_failure
    assert not mail.outbox or all("order" not in m.subject.lower() for m in mail.outbox)

    monkeypatch.setattr(documents, "render_order_confirmation", real)
    build(order_confirmation_rebuild, quote=issued)
    decision.refresh_from_db()
    assert decision.confirmation_status == "ready" and decision.confirmation_pdf.name
    assert any("order" in m.subject.lower() for m in mail.outbox)


def test_the_admin_shows_the_acceptance_read_only(issued, build, client):
    build(
        quote_accept,
        quote=issued,
        channel="customer",
        name="Grace Hopper",
        email="g@example.nl",
        po_number="PO-ADMIN-1",
        accept_terms=True,
    )
    client.force_login(
        StaffFactory(username="root", is_superuser=True), backend="django.contrib.auth.backends.ModelBackend"
    )
    page = client.get(reverse("admin:quotes_quote_change", args=[issued.pk]))
    html = page.content.decode()
    assert page.status_code == 200 and "PO-ADMIN-1" in html and "Grace Hopper" in html
    assert 'name="decision-0-po_number"' not in html  # shown, never editable


def test_a_dutch_customer_answers_in_dutch_and_gets_a_dutch_order_confirmation(
    configuration, customer, media, build, client, settings, django_capture_on_commit_callbacks
):
    quote = build(quote_request, configuration=configuration, customer=customer, channel="staff", language="nl")
    link = _accept_link(settings)
    assert "Accepteer of wijs de offerte online af" in mail.outbox[-1].body
    page = client.get(link, HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Deze offerte accepteren" in page and "Offerte accepteren en order plaatsen" in page
    refused = client.post(link, {**ANSWER, "accept-accept_terms": ""}, HTTP_ACCEPT_LANGUAGE="nl")
    assert "Accepteer de voorwaarden van de offerte om de order te plaatsen." in refused.content.decode()
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        client.post(link, ANSWER, HTTP_ACCEPT_LANGUAGE="nl")
    (message,) = mail.outbox
    assert message.subject == f"Orderbevestiging voor offerte {quote.number}"
    assert "Bedankt voor je order." in message.body
