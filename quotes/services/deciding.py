"""The customer's answer to an issued quote: accepting it (an order) or declining it, through every door.

Business rules, in one home (the signed link and the quote page, a sales engineer on the customer's behalf, and the
CRM's ``accept``/``decline`` all call these):

* Only the newest revision, issued and unexpired, can be accepted or declined. An expired, superseded, already
  accepted or declined, or not yet issued quote is refused with QuoteStateError naming why (``code``).
* Accepting needs the accepting person's name and e-mail and their agreement to the terms; a sales engineer
  recording it on the customer's behalf also gives the purchase-order number. The acceptance is recorded with its
  time, channel and the address it came from; the quote becomes ``accepted`` and is frozen for good (no revision,
  quotes.services.quote_revise refuses). After commit: the worker builds the order confirmation from the frozen
  snapshot (quotes.services.orders), which is then e-mailed to the customer and the sales team, and the
  ``quote.accepted`` webhook fires.
* Declining needs a reason; the quote becomes ``declined`` and ``quote.declined`` fires. A declined quote may be
  revised (a better offer), which makes the next revision.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from .. import signals
from ..models import Quote, QuoteDecision
from .inputs import EMAIL_MAX_LENGTH, QuoteError, QuoteErrorCode


class QuoteStateError(QuoteError):
    """The quote is not in a state that allows this (``code``: a QuoteErrorCode, quote_expired, quote_superseded,
    quote_already_accepted, quote_declined, quote_not_issued, quote_not_accepted); ``errors["status"]`` says why."""

    def __init__(self, code: QuoteErrorCode, message: str):
        self.code = code
        super().__init__({"status": message})


CHANNELS = tuple(QuoteDecision.Channel.values)
LIMITS = {"name": 200, "position": 100, "po_number": 64, "note": 2000, "reason": 2000}


def _text(value: Any, field: str, errors: dict[str, str], *, required: str | None = None) -> str:
    text = str(value or "").strip()
    if not text and required:
        errors[field] = required
    elif len(text) > LIMITS[field]:
        errors[field] = _("This is longer than %(max)s characters.") % {"max": LIMITS[field]}
    return text[: LIMITS[field]]


def _email(value: Any, errors: dict[str, str], *, required: bool) -> str:
    email = str(value or "").strip()
    if not email:
        if required:
            errors["email"] = _("Enter the e-mail address of the person who accepts.")
        return ""
    if len(email) > EMAIL_MAX_LENGTH:
        errors["email"] = _("The e-mail address is longer than %(max)s characters.") % {"max": EMAIL_MAX_LENGTH}
        return email
    try:
        validate_email(email)
    except ValidationError:
        errors["email"] = _("Enter a valid e-mail address.")
    return email


def _state_refusal(quote: Quote, *, answering: str) -> QuoteStateError | None:
    """Why ``quote`` cannot be accepted or declined now (``answering``: the verb for the message), or None."""
    values = {"number": quote.number}
    if quote.status == Quote.Status.ACCEPTED:
        return QuoteStateError(
            QuoteErrorCode.QUOTE_ALREADY_ACCEPTED, _("Quote %(number)s is already accepted.") % values
        )
    if quote.status == Quote.Status.DECLINED:
        return QuoteStateError(QuoteErrorCode.QUOTE_DECLINED, _("Quote %(number)s was declined.") % values)
    if quote.status == Quote.Status.SUPERSEDED:
        return QuoteStateError(
            QuoteErrorCode.QUOTE_SUPERSEDED,
            _("Quote %(number)s is superseded by a newer revision; only the newest revision can be %(answered)s.")
            % {**values, "answered": answering},
        )
    if quote.status != Quote.Status.ISSUED or quote.issued_at is None:
        return QuoteStateError(
            QuoteErrorCode.QUOTE_NOT_ISSUED,
            _("Quote %(number)s is not issued yet (%(status)s); it can be %(answered)s once it is issued.")
            % {**values, "status": quote.get_status_display().lower(), "answered": answering},
        )
    if quote.is_expired:
        return QuoteStateError(
            QuoteErrorCode.QUOTE_EXPIRED,
            _("Quote %(number)s expired on %(date)s; ask us for a new revision.")
            % {**values, "date": quote.valid_until.isoformat() if quote.valid_until else ""},
        )
    return None


def quote_may_answer(quote: Quote) -> bool:
    """Whether ``quote`` can be accepted or declined now (what the doors offer the forms for)."""
    return _state_refusal(quote, answering=_("accepted")) is None


def _record(quote: Quote, decision: QuoteDecision, *, answering: str) -> Quote:
    """Lock the quote, refuse it if it cannot be answered, store the decision and the quote's new status."""
    locked = Quote.objects.select_for_update().get(pk=quote.pk)
    if (refusal := _state_refusal(locked, answering=answering)) is not None:
        raise refusal
    decision.quote = locked
    try:
        with transaction.atomic():
            decision.full_clean(exclude=["quote"])
            decision.save()
    except IntegrityError:  # another answer won the race for the one-to-one row
        locked.refresh_from_db()
        raise _state_refusal(locked, answering=answering) or QuoteStateError(
            QuoteErrorCode.QUOTE_ALREADY_ACCEPTED,
            _("Quote %(number)s is already answered.") % {"number": locked.number},
        ) from None
    except ValidationError as exc:
        raise QuoteError({key: " ".join(messages) for key, messages in exc.message_dict.items()}) from None
    locked.status = decision.outcome
    locked.save(update_fields=["status", "updated_at"])
    return locked


def _who(user, channel: str) -> Any:
    if channel == QuoteDecision.Channel.STAFF and not (user is not None and user.is_active and user.is_staff):
        raise PermissionDenied(_("Only a sales engineer can record an answer on the customer's behalf."))
    return user if getattr(user, "is_authenticated", False) else None


def quote_accept(
    *,
    quote: Quote,
    channel: str,
    name: Any,
    email: Any,
    accept_terms: Any,
    position: Any = "",
    po_number: Any = "",
    note: Any = "",
    user=None,
    api_client: str = "",
    ip_address: str | None = None,
) -> Quote:
    """Accept an issued, unexpired quote: the customer's order (see the module's rules).

    ``channel``: ``customer`` (online), ``staff`` (a sales engineer on the customer's behalf: ``user``, with the
    purchase-order number) or ``api``. Raises QuoteError naming each bad field (``name``, ``email``,
    ``accept_terms``, ``po_number`` …), QuoteStateError when the quote cannot be accepted, PermissionDenied when a
    non-staff user records it on the customer's behalf. Returns the accepted quote."""
    if channel not in CHANNELS:
        raise ValueError(channel)
    user = _who(user, channel)
    errors: dict[str, str] = {}
    decision = QuoteDecision(
        outcome=QuoteDecision.Outcome.ACCEPTED,
        channel=channel,
        name=_text(name, "name", errors, required=_("Enter the name of the person who accepts.")),
        email=_email(email, errors, required=True),
        position=_text(position, "position", errors),
        po_number=_text(
            po_number,
            "po_number",
            errors,
            required=_("Enter the customer's purchase order number.") if channel == "staff" else None,
        ),
        note=_text(note, "note", errors),
        terms_accepted=accept_terms is True or str(accept_terms).lower() in ("true", "on", "1", "yes"),
        recorded_by=user,
        api_client=api_client[:100],
        ip_address=ip_address or None,
        confirmation_status=Quote.DocStatus.PENDING,
    )
    if not decision.terms_accepted:
        errors["accept_terms"] = _("Accept the quote's terms to place the order.")
    with transaction.atomic():
        # The quote's state first: a refused quote is refused whatever the form says.
        if (refusal := _state_refusal(quote, answering=_("accepted"))) is not None:
            raise refusal
        if errors:
            raise QuoteError(errors)
        accepted = _record(quote, decision, answering=_("accepted"))
        transaction.on_commit(lambda: _after_accept(accepted.pk))
    return accepted


def _after_accept(quote_id: int) -> None:
    from .orders import enqueue_confirmation

    quote = Quote.objects.select_related("decision").get(pk=quote_id)
    signals.send_quote_event(quote, signals.ACCEPTED)
    enqueue_confirmation(quote_id)


def quote_decline(
    *,
    quote: Quote,
    channel: str,
    reason: Any,
    name: Any = "",
    email: Any = "",
    user=None,
    api_client: str = "",
    ip_address: str | None = None,
) -> Quote:
    """Decline an issued, unexpired quote with a reason (required). The sales team is e-mailed and
    ``quote.declined`` fires after commit. Raises QuoteError (``reason``, ``email`` …) or QuoteStateError."""
    if channel not in CHANNELS:
        raise ValueError(channel)
    user = _who(user, channel)
    errors: dict[str, str] = {}
    decision = QuoteDecision(
        outcome=QuoteDecision.Outcome.DECLINED,
        channel=channel,
        reason=_text(reason, "reason", errors, required=_("Tell us why the quote is declined.")),
        name=_text(name, "name", errors),
        email=_email(email, errors, required=False),
        recorded_by=user,
        api_client=api_client[:100],
        ip_address=ip_address or None,
    )
    with transaction.atomic():
        if (refusal := _state_refusal(quote, answering=_("declined"))) is not None:
            raise refusal
        if errors:
            raise QuoteError(errors)
        declined = _record(quote, decision, answering=_("declined"))
        transaction.on_commit(lambda: _after_decline(declined.pk))
    return declined


def _after_decline(quote_id: int) -> None:
    from .mail import notify_declined_quietly

    quote = Quote.objects.select_related("decision").get(pk=quote_id)
    signals.send_quote_event(quote, signals.DECLINED)
    notify_declined_quietly(quote_id)
