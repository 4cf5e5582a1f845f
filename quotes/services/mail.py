"""E-mail about quotes: the customer's "your quote is ready" with download links, and the sales team's "a
request waits for you"."""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.mail import EmailMessage, EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import NoReverseMatch, reverse
from django.utils import timezone, translation

from .. import policy
from ..models import Quote
from .links import absolute_url, download_link_sign, quote_open_link_sign

logger = logging.getLogger("quotes.services")


def quote_notify_ready(*, quote: Quote) -> bool:
    """E-mail the customer (in their language) that the quote is ready, with signed expiring download links,
    and copy the sales engineer (who created it, or to whom the configuration is assigned). Sent once.

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
            "at_least": bool(((quote.frozen or {}).get("totals") or {}).get("at_least")),
            "url": url,
        }
        subject = render_to_string("emails/quote_review_subject.txt", context).strip()
        body = render_to_string("emails/quote_review.txt", context)
    EmailMessage(subject=subject, body=body, to=[settings.QUOTE_SALES_EMAIL], reply_to=[quote.customer_email]).send()
    return True


def quote_send_open_link(*, configuration, email: str) -> bool:
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
