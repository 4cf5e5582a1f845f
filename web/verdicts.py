"""The verdict of the summary panel and of the phone's compact summary: can this design be quoted, and what stands
in the way. It says "ready" only when nothing blocks issuing: for a sales engineer no error and no warning left to
accept; for a customer no error and a request that is issued at once (quotes.policy). A design that already has a
quote says so, with its number and status, instead of inviting a request it does not need."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from quotes import policy


@dataclass(frozen=True)
class Verdict:
    """``kind``: the panel's colour (ok, warn, bad); ``text``: the summary panel's sentence; ``short``: the compact
    summary's."""

    kind: str
    text: str
    short: str


def design_verdict(ev: Any, *, staff: bool, quote: Any = None, known: bool = True) -> Verdict:
    """The verdict for the design's evaluation ``ev`` (web.views.common.Evaluation), shown to a sales engineer
    (``staff``) or a customer; ``quote``: the design's newest quote (not superseded), if any; ``known``: this viewer
    may see it (else only that it exists and its status are said, not its number)."""
    if not ev.quotable:
        n = len(ev.errors)
        text = ngettext("%(n)s error blocks quoting.", "%(n)s errors block quoting.", n) % {"n": n}
        return Verdict("bad", text, text)
    if staff and ev.unacknowledged:
        n = len(ev.unacknowledged)
        text = ngettext(
            "Not ready to issue: accept %(n)s warning with a reason first.",
            "Not ready to issue: accept %(n)s warnings with a reason first.",
            n,
        ) % {"n": n}
        short = ngettext("%(n)s warning to accept.", "%(n)s warnings to accept.", n) % {"n": n}
        return Verdict("warn", text, short)
    if quote is not None:
        return _quoted(quote, staff=staff) if known else _quoted_elsewhere(quote)
    if staff:
        return Verdict("ok", _("Ready to quote: nothing blocks issuing."), _("Ready to quote."))
    return _customer(ev)


def _quoted(quote: Any, *, staff: bool) -> Verdict:
    values = {"number": quote.number}
    if staff and quote.status == "awaiting_review":  # no error, no warning left to accept: the engineer may issue
        text = _("Ready to issue: quote %(number)s waits for you, nothing blocks it.") % values
        return Verdict("ok", text, _("Ready to issue %(number)s.") % values)
    if quote.status == "issued" and not quote.is_expired:
        return Verdict("ok", _("Quoted: quote %(number)s is issued.") % values, _("Quoted: %(number)s.") % values)
    if quote.status == "issued":
        return Verdict("warn", _("Quote %(number)s has expired.") % values, _("%(number)s expired.") % values)
    text = _("Quote %(number)s waits for a sales engineer.") % values
    return Verdict("warn", text, _("%(number)s waits for review.") % values)


def _quoted_elsewhere(quote: Any) -> Verdict:
    """A quote exists for the design, requested from another browser: its status, not its number."""
    if quote.status == "issued" and not quote.is_expired:
        return Verdict("ok", _("Quoted: this design has an issued quote."), _("Quoted."))
    if quote.status == "issued":
        return Verdict("warn", _("This design's quote has expired."), _("Quote expired."))
    return Verdict("warn", _("This design's quote waits for a sales engineer."), _("Quote waits for review."))


def _customer(ev: Any) -> Verdict:
    """What a customer's request would get: issued at once ("ready"), or why a sales engineer reviews it first."""
    if ev.review == "warnings":
        n = len(ev.warnings)
        text = ngettext(
            "You can request a quote: a sales engineer reviews it first because of its %(n)s warning.",
            "You can request a quote: a sales engineer reviews it first because of its %(n)s warnings.",
            n,
        ) % {"n": n}
        return Verdict("warn", text, _("Reviewed first (warnings)."))
    if ev.review == "on_request":
        n = ev.bill.on_request if ev.bill else 0
        text = ngettext(
            "You can request a quote: a sales engineer prices its %(n)s line on request first.",
            "You can request a quote: a sales engineer prices its %(n)s lines on request first.",
            n,
        ) % {"n": n}
        return Verdict("warn", text, _("Reviewed first (lines on request)."))
    if ev.review == "zero_net":
        text = _("You can request a quote: no line has a list price yet, so a sales engineer prices it first.")
        return Verdict("warn", text, _("Reviewed first (no price yet)."))
    if ev.review == "amount":
        limit = {"limit": policy.limit_text()}
        text = _("You can request a quote: above %(limit)s a sales engineer reviews it first.") % limit
        return Verdict("warn", text, _("Reviewed first (above %(limit)s).") % limit)
    text = _("Ready to quote: a request is issued at once as an indicative quote.")
    return Verdict("ok", text, _("Ready to quote: issued at once."))
