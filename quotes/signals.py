"""Signals of the quote lifecycle.

``quote_event`` is sent after the change is committed, with ``quote`` (the Quote) and ``event``, one of
``quote.ready`` (documents built), ``quote.failed`` (the build failed for good; ``quote.failure_message`` says
why) and ``quote.approved`` (a discount above the threshold was approved), ``quote.accepted`` (the customer accepted it:
an order) and ``quote.declined`` (the customer declined it, with a reason). The API subscribes to it for
webhooks. Receivers run through ``send_robust``: a failing receiver is logged and never undoes the change.
"""

from __future__ import annotations

import logging

from django.dispatch import Signal

from .models import Quote

logger = logging.getLogger(__name__)

quote_event = Signal()

READY = "quote.ready"
FAILED = "quote.failed"
APPROVED = "quote.approved"
ACCEPTED = "quote.accepted"
DECLINED = "quote.declined"


def send_quote_event(quote: Quote, event: str) -> None:
    """Send ``quote_event`` now; call it from ``transaction.on_commit``."""
    for receiver, result in quote_event.send_robust(sender=Quote, quote=quote, event=event):
        if isinstance(result, Exception):
            logger.error("quote_event receiver %r failed for %s (%s): %r", receiver, quote.number, event, result)
