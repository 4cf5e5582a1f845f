"""The quote policy for customers' online requests (the wizard's "Request quote" without a login).

Business rules, in one home (quotes.services applies them; the site's footer, the quote page and the e-mails
say the same, with the limit from ``context``; the wizard's "Ready to quote" asks quotes.selectors
.online_request_review, which decides by ``review_reason``):

* A request whose every line has a list price, whose net amount (excl. VAT) is above zero and at most
  settings.QUOTE_INSTANT_LIMIT_EUR, and whose design has no warnings is issued at once as an *indicative* quote:
  list prices, no discount, no human review. No quote leaves without a price: a bill with a line priced on request
  (``on_request``) or a net of zero (``zero_net``, e.g. every line on request) is never issued at once.
* Every other request waits in ``awaiting_review`` for a sales engineer (``Quote.review_reason`` says why:
  ``warnings``, ``on_request``, ``zero_net`` or ``amount``, in that order); the sales team is e-mailed at
  settings.QUOTE_SALES_EMAIL and sees it on the dashboard, and the customer is e-mailed, in their language, that the
  request was received and waits for review. A sales engineer issues it (quotes.services.quote_issue); that quote
  is not indicative.
* A repeated request for an unchanged design (same configuration, same design hash, same customer e-mail) returns
  the open quote (awaiting review or approval, or issued and not expired) instead of a new number.

Quotes created by staff (channel ``staff``) and by CRM clients (channel ``api``) keep their own rules: warnings
reviewed, discounts above the threshold approved.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Protocol

from django.conf import settings
from django.utils import formats, translation
from django.utils.translation import gettext as _

if TYPE_CHECKING:
    from django.http import HttpRequest


ONLINE_CHANNEL = "web"


class Finding(Protocol):
    """What the policy reads of a finding (configurator.result.ShownFinding): whether it is a warning. A protocol,
    so the quote model's module, which the migrations import, stays clear of the engines."""

    @property
    def is_warning(self) -> bool: ...


def instant_limit() -> Decimal:
    return Decimal(str(settings.QUOTE_INSTANT_LIMIT_EUR))


def review_reason(*, channel: str, net: Decimal, on_request: int, findings: Iterable[Finding]) -> str:
    """Why a new request on ``channel`` must wait for a sales engineer: ``warnings``, ``on_request`` (``on_request``
    lines of the bill have no list price), ``zero_net`` (the bill comes to nothing), ``amount`` (above the limit), or
    '' (issue it at once as an indicative quote). Only customers' online requests are decided here; other channels
    get ''."""
    if channel != ONLINE_CHANNEL:
        return ""
    if any(finding.is_warning for finding in findings):
        return "warnings"
    if on_request:
        return "on_request"
    if net <= 0:
        return "zero_net"
    if net > instant_limit():
        return "amount"
    return ""


def review_note(reason: str) -> str:
    """What the customer reads about a request waiting for review, in the active language: that it waits, why in
    plain words, and when the quote follows. The same sentence on the quote step, the quote's page and the e-mail."""
    if reason == "amount":
        why = _("Requests above %(limit)s are reviewed by a sales engineer before we send the quote.") % {
            "limit": limit_text()
        }
    elif reason == "on_request":
        why = _(
            "Some parts of your design are priced on request: a sales engineer prices them before we send the quote."
        )
    elif reason == "zero_net":
        why = _(
            "The parts of your design are priced on request: a sales engineer prices them before we send the quote."
        )
    else:
        why = _("A sales engineer checks the points noted on your design before we send the quote.")
    return why + " " + _("You will receive it by e-mail, usually within one working day.")


def limit_text(language: str | None = None) -> str:
    """The instant-quote limit as the site prints it: € 500,000 (en) or € 500.000 (nl)."""
    with translation.override(language or translation.get_language() or settings.LANGUAGE_CODE):
        return "€ " + formats.number_format(instant_limit(), 0, use_l10n=True, force_grouping=True)


def context(request: HttpRequest) -> dict[str, Any]:
    """Template context processor: the policy's figures for the footer and the quote page."""
    return {"quote_policy": {"limit": limit_text()}}
