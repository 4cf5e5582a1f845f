"""The quote policy for customers' online requests (the wizard's "Request quote" without a login).

Business rules, in one home (quotes.services applies them; the site's footer, the quote page and the e-mails
say the same, with the limit from ``context``; the wizard's "Ready to quote" asks quotes.selectors
.online_request_review, which decides by ``review_reason``):

* A request whose net amount (excl. VAT) is at most settings.QUOTE_INSTANT_LIMIT_EUR and whose design has no
  warnings is issued at once as an *indicative* quote: list prices, no discount, no human review.
* A larger request, and every request whose design has warnings, waits in ``awaiting_review`` for a sales
  engineer (``Quote.review_reason`` says why); the sales team is e-mailed at settings.QUOTE_SALES_EMAIL and sees
  it on the dashboard. A sales engineer issues it (quotes.services.quote_issue); that quote is not indicative.
* A repeated request for an unchanged design (same configuration, same design hash, same customer e-mail) returns
  the open quote (awaiting review or approval, or issued and not expired) instead of a new number.

Quotes created by staff (channel ``staff``) and by CRM clients (channel ``api``) keep their own rules: warnings
reviewed, discounts above the threshold approved.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.utils import formats, translation

from configurator.result import ShownFinding

ONLINE_CHANNEL = "web"


def instant_limit() -> Decimal:
    return Decimal(str(settings.QUOTE_INSTANT_LIMIT_EUR))


def review_reason(*, channel: str, net: Decimal, findings: Iterable[ShownFinding]) -> str:
    """Why a new request on ``channel`` must wait for a sales engineer: ``warnings``, ``amount``, or '' (issue it
    at once as an indicative quote). Only customers' online requests are decided here; other channels get ''."""
    if channel != ONLINE_CHANNEL:
        return ""
    if any(finding.is_warning for finding in findings):
        return "warnings"
    if net > instant_limit():
        return "amount"
    return ""


def repeated_request(*, configuration, customer_email: str, design_hash: str | None):
    """The open quote a repeated online request for the same, unchanged design gets back, or None.

    Open: awaiting review or approval, or issued and not expired. The design must be the one quoted (the design
    hash frozen on the quote), and the request must come from the same customer e-mail: another requester never
    sees someone else's quote."""
    from .models import Quote

    if not design_hash:
        return None
    candidates = Quote.objects.filter(
        configuration_id=configuration.pk,
        channel=ONLINE_CHANNEL,
        customer_email__iexact=customer_email,
        status__in=[Quote.Status.AWAITING_REVIEW, Quote.Status.AWAITING_APPROVAL, Quote.Status.ISSUED],
        design_hash=design_hash,
    ).order_by("-created_at", "-id")
    for quote in candidates.defer("frozen"):
        if quote.status == Quote.Status.ISSUED and quote.is_expired:
            continue
        return quote
    return None


def limit_text(language: str | None = None) -> str:
    """The instant-quote limit as the site prints it: € 500,000 (en) or € 500.000 (nl)."""
    with translation.override(language or translation.get_language() or settings.LANGUAGE_CODE):
        return "€ " + formats.number_format(instant_limit(), 0, use_l10n=True, force_grouping=True)


def context(request) -> dict[str, Any]:
    """Template context processor: the policy's figures for the footer and the quote page."""
    return {"quote_policy": {"limit": limit_text()}}
