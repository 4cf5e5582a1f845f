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
from .links import absolute_url, download_link_sign

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
    try:
        quote_notify_review(quote=Quote.objects.select_related("configuration").get(pk=quote_id))
    except Exception:  # the request is recorded and on the dashboard; a mail outage must not fail it
        logger.exception("Could not tell the sales team about quote %s", quote_id)


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
            "url": url,
        }
        subject = render_to_string("emails/quote_review_subject.txt", context).strip()
        body = render_to_string("emails/quote_review.txt", context)
    EmailMessage(subject=subject, body=body, to=[settings.QUOTE_SALES_EMAIL], reply_to=[quote.customer_email]).send()
    return True
