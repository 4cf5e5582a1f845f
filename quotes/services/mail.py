"""E-mail about quotes: the customer's "your quote is ready" with download links, and the sales team's "a
request waits for you"."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.mail import EmailMessage, EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import NoReverseMatch, reverse
from django.utils import timezone, translation

from .. import diff, documents, policy
from ..models import Quote
from .links import absolute_url, accept_link_sign, download_link_sign, quote_open_link_sign

if TYPE_CHECKING:
    from configurator.models import Configuration

logger = logging.getLogger("quotes.services")


def quote_notify_ready(*, quote: Quote) -> bool:
    """E-mail the customer (in their language) that the quote is ready, with signed expiring download links and
    the signed link that accepts or declines it online (a revision says in a sentence what changed), and copy the
    sales engineer (who created it, or to whom the configuration is assigned). Sent once.

    The e-mail holds the expiring links only: not the quote's token, nor its status page (an e-mail is forwarded
    and archived; a token in it would open the quote for good)."""
    now = timezone.now()
    if not Quote.objects.filter(pk=quote.pk, emailed_at__isnull=True).update(emailed_at=now):
        return False
    engineers = {
        u.email for u in (quote.created_by, quote.configuration.assigned_to) if u is not None and u.email and u.is_staff
    }
    engineers.discard(quote.customer_email)
    context = {
        "quote": quote,
        "seller": settings.SELLER,
        "pdf_url": absolute_url(reverse("quotes:link", args=[download_link_sign(quote=quote, kind="pdf")])),
        "xlsx_url": absolute_url(reverse("quotes:link", args=[download_link_sign(quote=quote, kind="xlsx")])),
        "link_days": settings.QUOTE_LINK_MAX_AGE.days,
        "accept_url": absolute_url(reverse("quotes:accept", args=[accept_link_sign(quote=quote)])),
        "changes": revision_changes(quote),
    }
    with translation.override(quote.language):
        subject = render_to_string("emails/quote_ready_subject.txt", context).strip()
        body = render_to_string("emails/quote_ready.txt", context)
        html = render_to_string("emails/quote_ready.html", context)
    message = EmailMultiAlternatives(
        subject=subject, body=body, to=[quote.customer_email], cc=sorted(engineers), reply_to=[settings.SELLER["email"]]
    )
    message.attach_alternative(html, "text/html")
    try:
        message.send()
    except Exception:
        Quote.objects.filter(pk=quote.pk).update(emailed_at=None)  # let a rebuild or retry send it again
        raise
    return True


def revision_changes(quote: Quote) -> str:
    """For a revision (…-R2 and later): one sentence, in the quote's language, saying what changed from the revision
    before it (quotes.diff); '' for a first revision."""
    if quote.revision <= 1:
        return ""
    previous = Quote.objects.filter(base_number=quote.base_number, revision=quote.revision - 1).only("frozen").first()
    if previous is None:
        return ""
    with translation.override(quote.language):
        changes = diff.revision_diff(previous.frozen, quote.frozen)
        return diff.summary_sentence(changes, lambda amount: documents.money(amount, quote.language))


def notify_review_quietly(quote_id: int) -> None:
    """Tell the sales team and the customer that a request waits for review; a mail outage fails neither the
    request (recorded, on the dashboard) nor the other e-mail."""
    quote = Quote.objects.select_related("configuration").get(pk=quote_id)
    for notify, whom in ((quote_notify_review, "the sales team"), (quote_notify_received, "the customer")):
        try:
            notify(quote=quote)
        except Exception:
            logger.exception("Could not tell %s about quote %s", whom, quote_id)


def quote_notify_received(*, quote: Quote) -> bool:
    """E-mail the customer, in their language, that their online request was received and waits for a sales
    engineer: the number, why it waits in plain words (quotes.policy.review_note), and that the quote follows by
    e-mail. Holds no link to the quote (an e-mail is forwarded and archived)."""
    if quote.status != Quote.Status.AWAITING_REVIEW:
        return False
    with translation.override(quote.language):
        context = {"quote": quote, "note": quote.review_note, "seller": settings.SELLER}
        subject = render_to_string("emails/quote_received_subject.txt", context).strip()
        body = render_to_string("emails/quote_received.txt", context)
    EmailMessage(subject=subject, body=body, to=[quote.customer_email], reply_to=[settings.SELLER["email"]]).send()
    return True


def quote_notify_review(*, quote: Quote) -> bool:
    """E-mail the sales team (settings.QUOTE_SALES_EMAIL) that a customer's online request waits for a sales
    engineer, and why (design warnings, or above the instant-quote limit). In the site's default language."""
    if not settings.QUOTE_SALES_EMAIL:
        return False
    try:
        url = absolute_url(reverse("configurator:step", args=[quote.configuration.token, "quote"]))
    except NoReverseMatch:
        url = absolute_url("/")
    with translation.override(settings.LANGUAGE_CODE):
        context = {
            "quote": quote,
            "reason": quote.get_review_reason_display(),
            "limit": policy.limit_text(),
            "net": quote.net,
            "at_least": quote.snapshot.totals.at_least,
            "url": url,
        }
        subject = render_to_string("emails/quote_review_subject.txt", context).strip()
        body = render_to_string("emails/quote_review.txt", context)
    EmailMessage(subject=subject, body=body, to=[settings.QUOTE_SALES_EMAIL], reply_to=[quote.customer_email]).send()
    return True


def _engineers(quote: Quote) -> set[str]:
    """The sales team's address and the sales engineers who made the quote or handle its design."""
    users = (quote.created_by, quote.configuration.assigned_to)
    found = {u.email for u in users if u is not None and u.email and u.is_staff}
    if settings.QUOTE_SALES_EMAIL:
        found.add(settings.QUOTE_SALES_EMAIL)
    return found


def quote_notify_accepted(*, quote: Quote) -> bool:
    """E-mail the order confirmation (attached, in the quote's language) to the customer and whoever accepted,
    with the sales team in copy. Sent once (the acceptance's ``emailed_at``)."""
    from django.core.files.storage import default_storage

    from ..models import QuoteDecision

    decision = quote.decision
    if not QuoteDecision.objects.filter(pk=decision.pk, emailed_at__isnull=True).update(emailed_at=timezone.now()):
        return False
    to = list(dict.fromkeys(e for e in (quote.customer_email, decision.email) if e))
    cc = sorted(_engineers(quote) - set(to))
    context = {"quote": quote, "decision": decision, "seller": settings.SELLER}
    with translation.override(quote.language):
        subject = render_to_string("emails/order_confirmed_subject.txt", context).strip()
        body = render_to_string("emails/order_confirmed.txt", context)
    message = EmailMessage(subject=subject, body=body, to=to, cc=cc, reply_to=[settings.SELLER["email"]])
    with default_storage.open(decision.confirmation_pdf.name or "", "rb") as handle:
        message.attach(f"{quote.number}-order-confirmation.pdf", handle.read(), "application/pdf")
    try:
        message.send()
    except Exception:
        QuoteDecision.objects.filter(pk=decision.pk).update(emailed_at=None)
        raise
    return True


def notify_declined_quietly(quote_id: int) -> None:
    try:
        quote_notify_declined(quote=Quote.objects.select_related("decision", "configuration").get(pk=quote_id))
    except Exception:  # the answer is recorded and on the dashboard; a mail outage must not undo it
        logger.exception("Could not tell the sales team that quote %s was declined", quote_id)


def quote_notify_declined(*, quote: Quote) -> bool:
    """E-mail the sales team that the customer declined a quote, and why (in the site's default language)."""
    to = sorted(_engineers(quote))
    if not to:
        return False
    with translation.override(settings.LANGUAGE_CODE):
        context = {"quote": quote, "decision": quote.decision}
        subject = render_to_string("emails/quote_declined_subject.txt", context).strip()
        body = render_to_string("emails/quote_declined.txt", context)
    reply_to = [quote.decision.email or quote.customer_email]
    EmailMessage(subject=subject, body=body, to=to, reply_to=reply_to).send()
    return True


def quote_send_open_link(*, configuration: Configuration, email: str) -> bool:
    """E-mail the customer who requested a quote for ``configuration`` with ``email`` a link that shows that quote
    (the newest not superseded) in the browser that opens it: a customer back on another device, or from the
    bookmarked design link, sees the quote that exists for the design. Nothing is sent for another address, and the
    caller tells both cases alike, so the design link never tells whose quote it has. In the quote's language."""
    quote = (
        Quote.objects.filter(configuration_id=configuration.pk, customer_email__iexact=(email or "").strip())
        .exclude(status=Quote.Status.SUPERSEDED)
        .order_by("-created_at", "-id")
        .first()
    )
    if quote is None or not email:
        return False
    path = reverse("configurator:open_quote", args=[configuration.token, quote_open_link_sign(quote=quote)])
    context = {
        "quote": quote,
        "url": absolute_url(path),
        "link_days": settings.QUOTE_LINK_MAX_AGE.days,
        "seller": settings.SELLER,
    }
    with translation.override(quote.language):
        subject = render_to_string("emails/quote_open_link_subject.txt", context).strip()
        body = render_to_string("emails/quote_open_link.txt", context)
    EmailMessage(subject=subject, body=body, to=[quote.customer_email], reply_to=[settings.SELLER["email"]]).send()
    return True
