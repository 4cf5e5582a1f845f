"""Status changes of a quote that waited: issuing after review (sales engineers), approving a discount (four
eyes), and the freeze that every issue goes through."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, TypeGuard

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from configurator.services import FIX_NOT_ACCEPT, configuration_mark_quoted

from .. import signals
from ..actors import signed_in
from ..models import Quote
from .builds import enqueue_build
from .evaluation import Evaluation, evaluate_quote
from .freezing import apply_evaluation, sales_contact
from .inputs import QuoteError, full_clean_or_refuse

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from ..actors import Actor, RequestUser


def status_for(ev: Evaluation, *, approved: bool) -> str:
    if ev.unacknowledged:
        return Quote.Status.AWAITING_REVIEW
    if ev.needs_approval and not approved:
        return Quote.Status.AWAITING_APPROVAL
    return Quote.Status.ISSUED


def freeze_and_issue(quote: Quote, ev: Evaluation, *, indicative: bool = False, issued_by: User | None = None) -> None:
    """Freeze the quote and enqueue its documents after commit. Caller holds the transaction.

    ``indicative``: issued at once for a customer's online request, without a sales engineer (quotes.policy)."""
    now = timezone.now()
    quote.status = Quote.Status.ISSUED
    quote.issued_at = now
    quote.valid_until = timezone.localdate(now) + timedelta(days=settings.QUOTE_VALIDITY_DAYS)
    quote.doc_status, quote.progress, quote.failure_message = Quote.DocStatus.PENDING, 0, ""
    quote.enqueued_at = now
    apply_evaluation(quote, ev)
    quote.indicative = indicative
    snapshot = quote.snapshot.model_copy(update={"indicative": indicative})
    if issued_by is not None:
        snapshot = snapshot.model_copy(update={"sales_contact": sales_contact(quote, issued_by)})
    quote.frozen = snapshot.to_json()
    full_clean_or_refuse(quote)
    quote.save()
    configuration_mark_quoted(configuration_id=quote.configuration_id)
    quote_id = quote.pk
    transaction.on_commit(lambda: enqueue_build(quote_id))


def _is_staff(user: Actor) -> TypeGuard[RequestUser]:
    return bool(user is not None and user.is_active and user.is_staff)


def quote_issue(*, quote: Quote, user: Actor) -> Quote:
    """A sales engineer (active staff with ``quotes.issue_quote``) issues a quote that waited for review, after
    accepting its warnings. Raises PermissionDenied otherwise.

    Re-validates the design: errors or still unaccepted warnings raise QuoteError. A discount above the threshold
    that nobody approved yet moves the quote to ``awaiting_approval`` instead of issuing it.
    """
    if not _is_staff(user) or not user.has_perm("quotes.issue_quote"):
        raise PermissionDenied(_("Only a sales engineer with the issue permission can issue a quote."))
    with transaction.atomic():
        quote = Quote.objects.select_for_update().select_related("configuration").get(pk=quote.pk)
        if quote.status != Quote.Status.AWAITING_REVIEW:
            raise QuoteError(
                {
                    "status": _("Only a quote awaiting review can be issued; %(number)s is %(status)s.")
                    % {"number": quote.number, "status": quote.get_status_display().lower()}
                }
            )
        ev = evaluate_quote(quote)
        if ev.unacknowledged:
            wrong = [f for f in ev.unacknowledged if f.code in FIX_NOT_ACCEPT]
            pending = ", ".join(f"{f.code} ({f.subject})" for f in (wrong or ev.unacknowledged))
            message = (
                _("Replace the parts these warnings name before issuing: %(pending)s.")
                if wrong
                else _("Accept these warnings, with a reason, before issuing: %(pending)s.")
            )
            raise QuoteError({"warnings": message % {"pending": pending}})
        if status_for(ev, approved=quote.approved_by_id is not None) == Quote.Status.AWAITING_APPROVAL:
            quote.status = Quote.Status.AWAITING_APPROVAL
            apply_evaluation(quote, ev)
            quote.save()
        else:
            freeze_and_issue(quote, ev, issued_by=signed_in(user))
    return quote


def _approver(user: Actor) -> TypeGuard[RequestUser]:
    return bool(user is not None and user.is_active and user.has_perm("quotes.approve_quote"))


def _set_the_discount(user: Actor, quote: Quote) -> bool:
    """Four eyes: the user who requested the quote (or made this revision) or set its discount."""
    return user is not None and user.pk in {quote.created_by_id, quote.discount_set_by_id}


def quote_may_approve(*, quote: Quote, user: Actor) -> bool:
    """Whether ``user`` may approve ``quote``'s discount, as quote_approve decides it (the approve permission, and
    four eyes), so a door offers the action only to those it will not refuse for who they are."""
    return _approver(user) and not _set_the_discount(user, quote)


def quote_approve(*, quote: Quote, user: Actor) -> Quote:
    """Approve a discount above the threshold (permission ``quotes.approve_quote``) and issue the quote.

    Raises PermissionDenied without the permission, or when the user set the discount themselves (four eyes, on
    every channel: ``discount_set_by`` set the discounts, ``created_by`` requested the quote or made this
    revision; an API client counts as the user it acts as); QuoteError if
    the quote is not awaiting approval or the design no longer validates. If new warnings appeared meanwhile,
    the quote goes back to review, approved.
    """
    if not _approver(user):
        raise PermissionDenied(_("Only a user with the approve permission may approve quote discounts."))
    with transaction.atomic():
        quote = Quote.objects.select_for_update().select_related("configuration").get(pk=quote.pk)
        if _set_the_discount(user, quote):
            message = _(
                "You set the discount of %(number)s yourself; another user with the approve permission must approve it."
            )
            raise PermissionDenied(message % {"number": quote.number})
        if quote.status != Quote.Status.AWAITING_APPROVAL:
            raise QuoteError(
                {
                    "status": _("Only a quote awaiting approval can be approved; %(number)s is %(status)s.")
                    % {"number": quote.number, "status": quote.get_status_display().lower()}
                }
            )
        ev = evaluate_quote(quote)
        quote.approved_by, quote.approved_at = signed_in(user), timezone.now()
        if ev.unacknowledged:
            quote.status = Quote.Status.AWAITING_REVIEW
            apply_evaluation(quote, ev)
            quote.save()
        else:
            freeze_and_issue(quote, ev)
        transaction.on_commit(lambda: signals.send_quote_event(quote, signals.APPROVED))
    return quote
