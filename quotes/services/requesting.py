"""Requesting a quote for a stored configuration, and revising one: input cleaning, one request at a time per
configuration, numbering, and the first status (issued at once, or waiting for review or approval)."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal
from enum import Enum
from typing import TYPE_CHECKING, Final, Literal, TypeVar

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from configurator.models import Configuration
from configurator.services import configuration_mark_quote_requested
from design.jsontext import JsonObject

from .. import policy
from ..actors import signed_in
from ..models import Quote
from ..numbering import next_base_number, revision_number
from ..selectors import repeated_request
from .deciding import QuoteStateError
from .evaluation import Evaluation, evaluate
from .freezing import apply_evaluation
from .inputs import (
    CHANNELS,
    QuoteError,
    QuoteErrorCode,
    clean_customer,
    clean_language,
    clean_line_discounts,
    clean_percent,
    full_clean_or_refuse,
)
from .installed import expanded_from
from .issuing import freeze_and_issue, status_for
from .mail import notify_review_quietly

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from ..actors import Actor

DUPLICATE_WINDOW = timedelta(seconds=10)


T = TypeVar("T")


def _of(source: Quote | Configuration | None, kind: type[T]) -> T | None:
    return source if isinstance(source, kind) else None


def quote_request(
    *,
    configuration: Configuration,
    customer: JsonObject,
    user: Actor = None,
    channel: str = "web",
    crm_reference: str = "",
    language: str = "en",
    discount_percent: Decimal | str | None = None,  # cleaned here (quotes.services.inputs)
    line_discounts: dict[str, Decimal] | dict[str, str] | None = None,
    expansion_of: Quote | Configuration | None = None,
) -> Quote:
    """Request a quote for a stored configuration.

    ``customer``: name, company, email, country (ISO 3166 alpha-2), vat_number (optional). Raises QuoteError
    (field → message) on any bad input or a design with errors, leaving nothing behind. The new quote is
    ``awaiting_review`` if warnings are not yet accepted, ``awaiting_approval`` if the discount exceeds the
    threshold, otherwise ``issued`` at once (frozen, documents built after commit). A customer's online request
    (``channel="web"``) follows quotes.policy instead: it may wait for review above the instant-quote limit, and a
    repeat for an unchanged design returns the open quote (with ``repeated`` set on it). The configuration becomes
    ``quote_requested`` (or ``quoted`` when issued). ``expansion_of``: the won or issued quote, or the configuration
    marked as built, whose installed cluster the configuration grows (quotes.services.expanding); the lines are
    then what the growth adds.
    """
    errors: dict[str, str] = {}
    cust = clean_customer(customer, errors)
    language = clean_language(language, errors)
    if channel not in CHANNELS:
        errors["channel"] = _("Channel must be one of %(channels)s.") % {"channels": ", ".join(CHANNELS)}
    crm_reference = str(crm_reference or "").strip()
    if len(crm_reference) > 100:
        errors["crm_reference"] = _("The CRM reference is longer than 100 characters.")
    percent = clean_percent(discount_percent, "discount_percent", errors)
    lines = clean_line_discounts(line_discounts, errors)
    if configuration is None or getattr(configuration, "pk", None) is None:
        errors["configuration"] = _("Save the configuration before requesting a quote.")
    if errors:
        raise QuoteError(errors)
    ev = evaluate(
        configuration=configuration,
        language=language,
        country=cust["country"],
        vat_number=cust["vat_number"],
        discount_percent=percent,
        line_discounts=lines,
        kvk=cust.get("kvk", ""),
        installed=expansion_of,
    )
    return _create(
        expansion_of=expansion_of,
        configuration=configuration,
        customer=cust,
        user=user,
        channel=channel,
        crm_reference=crm_reference,
        language=language,
        discount_percent=percent,
        line_discounts=lines,
        ev=ev,
    )


def _lock_configuration(configuration: Configuration) -> None:
    """Lock the configuration row for the rest of the transaction: concurrent requests for it queue here."""
    list(Configuration.objects.select_for_update().filter(pk=configuration.pk).values_list("pk", flat=True))


def _refuse_duplicate(*, configuration: Configuration, channel: str, customer: JsonObject, crm_reference: str) -> None:
    """Lock the configuration row for the rest of the transaction, then refuse a second request (QuoteError on
    ``quote``) while the configuration has a quote awaiting review or approval, or when the same request (channel,
    customer e-mail, CRM reference) was issued less than DUPLICATE_WINDOW ago. Two concurrent requests (a double
    click) queue on the lock, so the second one sees the first."""
    list(Configuration.objects.select_for_update().filter(pk=configuration.pk).values_list("pk", flat=True))
    quotes = Quote.objects.filter(configuration_id=configuration.pk)
    open_quote = quotes.filter(status__in=[Quote.Status.AWAITING_REVIEW, Quote.Status.AWAITING_APPROVAL]).first()
    if open_quote is not None:
        raise QuoteError(
            {
                "quote": _("Quote %(number)s for this design is %(status)s; revise it instead of requesting another.")
                % {"number": open_quote.number, "status": open_quote.get_status_display().lower()}
            }
        )
    recent = (
        quotes.filter(
            status=Quote.Status.ISSUED,
            channel=channel,
            customer_email__iexact=customer["email"],
            crm_reference=crm_reference,
            created_at__gte=timezone.now() - DUPLICATE_WINDOW,
        )
        .order_by("-created_at")
        .first()
    )
    if recent is not None:
        raise QuoteError(
            {
                "quote": _("Quote %(number)s was just issued for this request; it is not requested twice.")
                % {"number": recent.number}
            }
        )


class _Unset(Enum):
    UNSET = "unset"


_UNSET: Final = _Unset.UNSET


def _user_or_none(user: Actor) -> User | None:
    return signed_in(user)


@transaction.atomic
def _create(
    *,
    configuration: Configuration,
    customer: JsonObject,
    user: Actor,
    channel: str,
    crm_reference: str,
    language: str,
    discount_percent: Decimal,
    line_discounts: dict[str, Decimal],
    ev: Evaluation,
    previous: Quote | None = None,
    discount_set_by: User | None | Literal[_Unset.UNSET] = _UNSET,
    expansion_of: Quote | Configuration | None = None,
) -> Quote:
    if previous is not None:
        base, revision = previous.base_number, previous.revision + 1
    else:
        _lock_configuration(configuration)
        if channel == policy.ONLINE_CHANNEL:
            repeat = repeated_request(
                configuration=configuration,
                customer_email=customer["email"],
                design_hash=ev.result.design_hash,
            )
            if repeat is not None:
                repeat.repeated = True  # the door tells the customer this is the quote they already have
                return repeat
        _refuse_duplicate(configuration=configuration, channel=channel, customer=customer, crm_reference=crm_reference)
        base, revision = next_base_number(), 1
    quote = Quote(
        number=revision_number(base, revision),
        base_number=base,
        revision=revision,
        configuration=configuration,
        expansion_of=previous.expansion_of if previous is not None else _of(expansion_of, Quote),
        expansion_of_built=previous.expansion_of_built if previous is not None else _of(expansion_of, Configuration),
        channel=channel,
        crm_reference=crm_reference,
        language=language,
        customer_name=customer["name"],
        customer_company=customer["company"],
        customer_email=customer["email"],
        customer_country=customer["country"],
        customer_vat_number=customer["vat_number"],
        customer_kvk=customer.get("kvk", ""),
        customer_street=customer.get("address_street", ""),
        customer_postal_code=customer.get("address_postal_code", ""),
        customer_city=customer.get("address_city", ""),
        discount_percent=discount_percent,
        line_discounts={k: str(v) for k, v in line_discounts.items()},
        created_by=signed_in(user),
        discount_set_by=discount_set_by if discount_set_by is not _UNSET else _user_or_none(user),
    )
    _save_with_first_status(quote, ev, online=previous is None and channel == policy.ONLINE_CHANNEL)
    if previous is not None:  # a declined revision keeps saying so; the customer's answer stays on record
        Quote.objects.filter(pk=previous.pk).exclude(status=Quote.Status.DECLINED).update(
            status=Quote.Status.SUPERSEDED, updated_at=timezone.now()
        )
    return quote


def _save_with_first_status(quote: Quote, ev: Evaluation, *, online: bool) -> None:
    """Issue the new quote at once, or save it waiting for review or approval (a customer's online request may
    wait for a sales engineer, who is then e-mailed)."""
    status = status_for(ev, approved=False)
    if online:
        quote.review_reason = policy.review_reason(
            channel=quote.channel,
            net=ev.totals.net,
            on_request=sum(1 for line in ev.lines if line.on_request),
            findings=ev.result.findings,
        )
        if quote.review_reason:
            status = Quote.Status.AWAITING_REVIEW
    elif status == Quote.Status.AWAITING_REVIEW:  # a staff or CRM quote waits for its warnings to be accepted
        quote.review_reason = Quote.ReviewReason.WARNINGS
    if status == Quote.Status.ISSUED:
        freeze_and_issue(quote, ev, indicative=online)
        return
    quote.status = status
    apply_evaluation(quote, ev)
    full_clean_or_refuse(quote)
    quote.save()
    configuration_mark_quote_requested(configuration_id=quote.configuration_id)
    if online and quote.review_reason:
        quote_id = quote.pk
        transaction.on_commit(lambda: notify_review_quietly(quote_id))


def quote_revise(
    *,
    quote: Quote,
    user: Actor = None,
    discount_percent: Decimal | str | None = None,
    line_discounts: dict[str, Decimal] | dict[str, str] | None = None,
    configuration: Configuration | None = None,
) -> Quote:
    """A new revision (Q-YYYY-NNNNN-R2, -R3 …) of the newest revision of a quote.

    Unchanged arguments are taken over from ``quote``; ``configuration`` may point at another (e.g. a changed)
    design. The same validation and approval rules apply. The older revision becomes ``superseded`` and stays
    readable. Only the newest revision can be revised (QuoteError otherwise), and never an accepted quote
    (QuoteStateError ``quote_already_accepted``: an order is frozen for good).
    """
    errors: dict[str, str] = {}
    percent = (
        quote.discount_percent
        if discount_percent is None
        else clean_percent(discount_percent, "discount_percent", errors)
    )
    lines = (
        {k: Decimal(v) for k, v in quote.line_discounts.items()}
        if line_discounts is None
        else clean_line_discounts(line_discounts, errors)
    )
    configuration = configuration or quote.configuration
    if errors:
        raise QuoteError(errors)
    ev = evaluate(
        configuration=configuration,
        language=quote.language,
        country=quote.customer_country,
        vat_number=quote.customer_vat_number,
        discount_percent=percent,
        line_discounts=lines,
        kvk=quote.customer_kvk,
        installed=expanded_from(quote),
    )
    with transaction.atomic():
        newest = _newest_revision_locked(quote)
        same_discounts = percent == newest.discount_percent and lines == {
            k: Decimal(v) for k, v in newest.line_discounts.items()
        }
        return _create(
            configuration=configuration,
            customer=customer_of(quote),
            user=user or quote.created_by,
            # Whoever changes the discounts sets them; a revision that keeps them keeps who set them.
            discount_set_by=newest.discount_set_by if same_discounts else _user_or_none(user),
            channel=quote.channel,
            crm_reference=quote.crm_reference,
            language=quote.language,
            discount_percent=percent,
            line_discounts=lines,
            ev=ev,
            previous=newest,
        )


def _newest_revision_locked(quote: Quote) -> Quote:
    """Lock the newest revision of ``quote``'s number; QuoteError unless that is ``quote`` itself."""
    newest = Quote.objects.select_for_update().filter(base_number=quote.base_number).order_by("-revision").first()
    if newest is not None and newest.status == Quote.Status.ACCEPTED:
        raise QuoteStateError(
            QuoteErrorCode.QUOTE_ALREADY_ACCEPTED,
            _("Quote %(number)s is accepted: an order is never revised. Request a new quote instead.")
            % {"number": newest.number},
        )
    # A concurrent revision may have superseded it while we waited for the lock (READ COMMITTED returns the
    # locked row's new version, not the new revision): refuse rather than hit the unique constraint.
    if newest is None or newest.pk != quote.pk or newest.status == Quote.Status.SUPERSEDED:
        raise QuoteError(
            {
                "quote": (
                    _("%(number)s is not the newest revision (%(newest)s); revise that one.")
                    % {"number": quote.number, "newest": newest.number}
                    if newest
                    else _("%(number)s is not the newest revision; revise the newest one.") % {"number": quote.number}
                )
            }
        )
    return newest


def customer_of(quote: Quote) -> dict[str, str]:
    """The customer of a quote, as clean_customer gives it (a revision keeps it)."""
    return {
        "name": quote.customer_name,
        "company": quote.customer_company,
        "email": quote.customer_email,
        "country": quote.customer_country,
        "vat_number": quote.customer_vat_number,
        "kvk": quote.customer_kvk,
        "address_street": quote.customer_street,
        "address_postal_code": quote.customer_postal_code,
        "address_city": quote.customer_city,
    }
