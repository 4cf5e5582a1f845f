"""Services of the quote lifecycle (write side). Every door (wizard, API, admin, tasks) calls these.

Business rules, in one home:

* A quote is only made for a design that validates without error findings (configurator.services.design_validate,
  the same service every door uses). Input errors are reported per field; nothing is stored.
* Warnings must be accepted by a sales engineer (configurator WarningAcknowledgement); until then the quote waits
  in ``awaiting_review``. The accepted warnings and their reasons are printed on the quote.
* A discount above settings.QUOTE_DISCOUNT_APPROVAL_THRESHOLD (quote discount, any line discount, or both
  combined on a line) waits in ``awaiting_approval`` until someone with ``quotes.approve_quote`` approves it.
  There is no other way to issue it: the admin makes status and discounts read-only, the API calls these.
* Issuing freezes lines, totals, VAT, the design and the validation receipt into ``Quote.frozen``; later
  catalogue changes never alter an issued quote. The documents are rendered from ``frozen`` alone, by a Celery
  task enqueued after commit.
* Issuing a reviewed quote needs the permission ``quotes.issue_quote`` (a staff user without it is refused).
  Approving needs ``quotes.approve_quote`` and four eyes on every door and channel (wizard, admin, API): whoever
  set the discount (``discount_set_by``: the staff user, or the user an API client acts as, recorded on the quote
  and carried over to revisions that keep its discounts) cannot approve it, nor can the user who made the
  revision (``created_by``). An API client approves only where its linked user differs from both.
* Customers' online requests (channel ``web``) follow quotes.policy: up to settings.QUOTE_INSTANT_LIMIT_EUR and
  without warnings they are issued at once as indicative quotes; larger ones and all with warnings wait for a
  sales engineer (``review_reason``), who is e-mailed at settings.QUOTE_SALES_EMAIL; a repeated request for an
  unchanged design returns the open quote. Staff and CRM quotes keep the rules below.
* One request at a time per configuration: the configuration row is locked while a quote is created, and a new
  request is refused while the configuration has a quote awaiting review or approval (revise that one), or when
  the same request (same channel, customer e-mail and CRM reference) was issued less than DUPLICATE_WINDOW ago
  (a double click or a retried submit).
* Pricing and rounding: quotes.pricing; VAT: quotes.vat; numbers: quotes.numbering.
* E-mailed download links sign an opaque ``Quote.download_id`` (never the token) and expire after
  settings.QUOTE_LINK_MAX_AGE; the e-mail carries nothing else that opens the quote.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal, InvalidOperation
from typing import Any

from django.conf import settings
from django.core import signing
from django.core.exceptions import NON_FIELD_ERRORS, PermissionDenied, ValidationError
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.core.mail import EmailMessage, EmailMultiAlternatives
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import F, Q
from django.template.loader import render_to_string
from django.urls import NoReverseMatch, reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from catalog.models import Part
from configurator.bom import design_bom
from configurator.models import Configuration
from configurator.rules.design import DesignInputError
from configurator.rules.parse import parse_design
from configurator.services import (
    acknowledgements_in_force,
    configuration_mark_quote_requested,
    configuration_mark_quoted,
    design_validate,
    unacknowledged_warnings,
)
from configurator.snapshot import catalog_snapshot

from . import documents, policy, pricing, signals
from .models import Quote
from .numbering import next_base_number, revision_number
from .vat import VatDecision, VatInputError, normalise_country, normalise_vat_number, vat_decide

logger = logging.getLogger(__name__)

LANGUAGES = ("en", "nl")
CHANNELS = ("web", "staff", "api")
LINK_SALT = "quotes.download-link.v2"
FILE_KINDS = ("pdf", "xlsx")
EMAIL_MAX_LENGTH = 254  # RFC 5321 path limit, and Quote.customer_email's max_length
DUPLICATE_WINDOW = timedelta(seconds=10)

# Model field → the input field name QuoteError reports (what the wizard and the API show the error next to).
MODEL_FIELDS = {
    "customer_name": "customer.name",
    "customer_company": "customer.company",
    "customer_email": "customer.email",
    "customer_country": "customer.country",
    "customer_vat_number": "customer.vat_number",
    "customer_street": "customer.address.street",
    "customer_postal_code": "customer.address.postal_code",
    "customer_city": "customer.address.city",
}


class QuoteError(Exception):
    """Bad input for a quote. ``errors`` maps a field name (``customer.country``, ``discount_percent``,
    ``line_discounts.<part>``, ``design.<path>``, ``status`` …) to a clear message."""

    def __init__(self, errors: dict[str, str]):
        self.errors = dict(errors)
        super().__init__("; ".join(f"{field}: {message}" for field, message in self.errors.items()))


# ---------------------------------------------------------------------------------------------------------------
# Input cleaning: every problem is collected and reported at once, before anything is written.


def _clean_percent(value: Any, field: str, errors: dict[str, str]) -> Decimal:
    if value is None or value == "":
        return Decimal("0")
    if isinstance(value, bool):
        errors[field] = _("Enter the discount as a number between 0 and 100.")
        return Decimal("0")
    try:
        number = Decimal(str(value).strip().replace(",", ".") if isinstance(value, str) else str(value))
    except (InvalidOperation, ValueError):
        errors[field] = _("“%(value)s” is not a number; enter a percentage between 0 and 100.") % {
            "value": str(value)[:20]
        }
        return Decimal("0")
    if not number.is_finite():
        errors[field] = _("Enter a finite percentage between 0 and 100.")
    elif number < 0:
        errors[field] = _("A discount cannot be negative.")
    elif number > 100:
        errors[field] = _("A discount cannot exceed 100%.")
    elif number != number.quantize(Decimal("0.01")):
        errors[field] = _("Give the discount with at most two decimals.")
    else:
        return number.quantize(Decimal("0.01"))
    return Decimal("0")


def _clean_line_discounts(value: Any, errors: dict[str, str]) -> dict[str, Decimal]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        errors["line_discounts"] = _("Give line discounts as an object of part number → percentage.")
        return {}
    cleaned = {}
    for part, percent in value.items():
        number = _clean_percent(percent, f"line_discounts.{part}", errors)
        if number:
            cleaned[str(part)] = number
    return cleaned


def _clean_customer(customer: Any, errors: dict[str, str]) -> dict[str, str]:
    if not isinstance(customer, dict):
        errors["customer"] = _("Give the customer as an object with name, company, email, country and vat_number.")
        return {}
    out: dict[str, str] = {}
    name = str(customer.get("name") or "").strip()
    if not name:
        errors["customer.name"] = _("Enter the customer's name.")
    elif len(name) > 200:
        errors["customer.name"] = _("The name is longer than 200 characters.")
    out["name"] = name[:200]
    company = str(customer.get("company") or "").strip()
    if len(company) > 200:
        errors["customer.company"] = _("The company name is longer than 200 characters.")
    out["company"] = company[:200]
    email = str(customer.get("email") or "").strip()
    if len(email) > EMAIL_MAX_LENGTH:
        errors["customer.email"] = _("The e-mail address is longer than %(max)s characters.") % {
            "max": EMAIL_MAX_LENGTH
        }
    else:
        try:
            validate_email(email)
        except ValidationError:
            errors["customer.email"] = (
                _("Enter a valid e-mail address.") if email else _("Enter the customer's e-mail address.")
            )
    out["email"] = email
    try:
        out["country"] = normalise_country(customer.get("country"))
    except VatInputError as exc:
        errors[f"customer.{exc.field}"] = str(exc)
        out["country"] = ""
    out["vat_number"] = ""
    if out["country"]:
        try:
            out["vat_number"] = normalise_vat_number(customer.get("vat_number"), out["country"])
        except VatInputError as exc:
            errors[f"customer.{exc.field}"] = str(exc)
    out.update(_clean_address(customer.get("address"), errors))
    return out


ADDRESS_FIELDS = {"street": 200, "postal_code": 16, "city": 100}


def _clean_address(address: Any, errors: dict[str, str]) -> dict[str, str]:
    """The billing address (street, postal_code, city): optional as a whole, complete when given."""
    empty = {f"address_{key}": "" for key in ADDRESS_FIELDS}
    if address in (None, "", {}):
        return empty
    if not isinstance(address, dict):
        errors["customer.address"] = _("Give the billing address as an object with street, postal_code and city.")
        return empty
    values = {key: str(address.get(key) or "").strip() for key in ADDRESS_FIELDS}
    if not any(values.values()):
        return empty
    missing = {
        "street": _("Enter the street and house number of the billing address."),
        "postal_code": _("Enter the postal code of the billing address."),
        "city": _("Enter the city of the billing address."),
    }
    for key, limit in ADDRESS_FIELDS.items():
        if not values[key]:
            errors[f"customer.address.{key}"] = missing[key]
        elif len(values[key]) > limit:
            errors[f"customer.address.{key}"] = _("This is longer than %(max)s characters.") % {"max": limit}
    return {f"address_{key}": value[: ADDRESS_FIELDS[key]] for key, value in values.items()}


def _clean_language(language: Any, errors: dict[str, str]) -> str:
    code = str(language or "en").strip()[:2].lower()
    if code not in LANGUAGES:
        errors["language"] = _("Choose English (en) or Dutch (nl).")
        return "en"
    return code


# ---------------------------------------------------------------------------------------------------------------
# Evaluation: validate the design and price it (no writes).


@dataclass(frozen=True)
class _Evaluation:
    document: dict[str, Any]
    result: dict[str, Any]
    lines: list[pricing.PricedLine]
    totals: pricing.Totals
    vat: VatDecision
    unacknowledged: list[dict[str, Any]]
    needs_approval: bool
    lead_times: dict[str, int | None]


def _evaluate(
    *,
    configuration,
    language: str,
    country: str,
    vat_number: str,
    discount_percent: Decimal,
    line_discounts: dict[str, Decimal],
) -> _Evaluation:
    """Validate the stored design and price it. Raises QuoteError on input errors or error findings."""
    document = configuration.document
    try:
        result = design_validate(document=document, language=language)
    except DesignInputError as exc:
        raise QuoteError({f"design.{path}": message for path, message in exc.errors.items()}) from None
    if not result["valid"]:
        errors: dict[str, str] = {}
        for finding in result["findings"]:
            if finding["severity"] == "error":
                key = f"design.{finding['subject']}" if finding.get("subject") else "design"
                errors[key] = f"{errors[key]} " if key in errors else ""
                errors[key] += f"{finding['message']} ({finding['code']})"
        raise QuoteError(errors or {"design": _("The design has errors; fix them before requesting a quote.")})

    bom = design_bom(parse_design(document), result.get("fabric_plan"), catalog_snapshot(), result.get("rack_plan"))
    unpriced = sorted({line.part_number for line in bom if line.unit_price_eur is None})
    if unpriced:
        raise QuoteError(
            {
                "design": _("No list price for %(parts)s (price on request); a sales engineer will quote these parts.")
                % {"parts": ", ".join(unpriced)}
            }
        )
    unknown = sorted(set(line_discounts) - {line.part_number for line in bom})
    if unknown:
        raise QuoteError(
            {f"line_discounts.{part}": _("%(part)s is not on this quote.") % {"part": part} for part in unknown}
        )
    raw = [
        pricing.RawLine(
            section=line.section,
            part_number=line.part_number,
            description=line.description,
            quantity=line.quantity,
            unit_price=Decimal(line.unit_price_eur),
        )
        for line in bom
    ]
    lines = pricing.price_lines(raw, quote_discount_percent=discount_percent, line_discounts=line_discounts)
    vat = vat_decide(country=country, vat_number=vat_number)
    totals = pricing.price_totals(lines, vat_rate=vat.rate)
    approval = pricing.needs_approval(
        quote_discount_percent=discount_percent,
        line_discounts=line_discounts,
        lines=lines,
        threshold=Decimal(settings.QUOTE_DISCOUNT_APPROVAL_THRESHOLD),
    )
    return _Evaluation(
        document=document,
        result=result,
        lines=lines,
        totals=totals,
        vat=vat,
        unacknowledged=unacknowledged_warnings(configuration=configuration, result=result),
        needs_approval=approval,
        lead_times=_lead_times({line.part_number for line in lines}),
    )


def _lead_times(part_numbers: set[str]) -> dict[str, int | None]:
    """The catalogue's lead time (days) of each part, frozen on the quote's lines (None: not known)."""
    return dict(Part.objects.filter(part_number__in=part_numbers).values_list("part_number", "lead_time_days"))


def _evaluate_quote(quote: Quote) -> _Evaluation:
    return _evaluate(
        configuration=quote.configuration,
        language=quote.language,
        country=quote.customer_country,
        vat_number=quote.customer_vat_number,
        discount_percent=quote.discount_percent,
        line_discounts={k: Decimal(v) for k, v in quote.line_discounts.items()},
    )


def _acknowledgements(configuration, result: dict[str, Any]) -> list[dict[str, str]]:
    """The accepted warnings of this validation, with who accepted them and why (printed on the quote).

    Which acknowledgements count is configurator.services.acknowledgements_in_force's decision alone (it matches
    them against the design hash in ``result``: an acceptance given for another design does not count)."""
    messages = {(f["code"], f["subject"]): f["message"] for f in result["findings"] if f["severity"] == "warning"}
    return [
        {
            "code": ack.code,
            "subject": ack.subject,
            "message": messages.get((ack.code, ack.subject), ""),
            "reason": ack.reason,
            "by": (ack.user.get_full_name() or ack.user.get_username()) if ack.user else "",
            "at": ack.created_at.isoformat(),
        }
        for ack in acknowledgements_in_force(configuration=configuration, result=result)
    ]


def _apply(quote: Quote, ev: _Evaluation) -> None:
    """Copy the evaluation onto the row, with a preview snapshot (frozen for good at issue)."""
    quote.subtotal, quote.discount, quote.net = ev.totals.subtotal, ev.totals.discount, ev.totals.net
    quote.vat_rate, quote.vat_amount, quote.total = ev.totals.vat_rate, ev.totals.vat_amount, ev.totals.total
    quote.vat_category = ev.vat.category
    with translation.override(quote.language):
        quote.vat_notice = ev.vat.notice
    result = ev.result
    quote.frozen = {
        "schema": "quote/v1",
        "number": quote.number,
        "revision": quote.revision,
        "language": quote.language,
        "currency": "EUR",
        "issued_at": quote.issued_at.isoformat() if quote.issued_at else None,
        "valid_until": quote.valid_until.isoformat() if quote.valid_until else None,
        "seller": dict(settings.SELLER),
        "customer": {
            "name": quote.customer_name,
            "company": quote.customer_company,
            "email": quote.customer_email,
            "country": quote.customer_country,
            "vat_number": quote.customer_vat_number,
            "address": (
                {
                    "street": quote.customer_street,
                    "postal_code": quote.customer_postal_code,
                    "city": quote.customer_city,
                }
                if quote.customer_street
                else None
            ),
        },
        "sales_contact": _sales_contact(quote),
        "terms": {
            "payment_days": settings.QUOTE_PAYMENT_DAYS,
            "incoterm": settings.QUOTE_INCOTERM,
            "general_terms_url": settings.QUOTE_GENERAL_TERMS_URL,
        },
        "indicative": False,
        "crm_reference": quote.crm_reference,
        "design": ev.document,
        "validation": result,
        "lines": [{**line.to_dict(), "lead_time_days": ev.lead_times.get(line.part_number)} for line in ev.lines],
        "discount_percent": str(quote.discount_percent),
        "line_discounts": {k: str(v) for k, v in quote.line_discounts.items()},
        "totals": ev.totals.to_dict(),
        "vat": {"category": ev.vat.category, "rate": str(ev.vat.rate), "notice": quote.vat_notice},
        "acknowledgements": _acknowledgements(quote.configuration, result),
        "approval": (
            {"by": quote.approved_by.get_username(), "at": quote.approved_at.isoformat()}
            if quote.approved_by_id and quote.approved_at
            else None
        ),
        "receipt": {
            "design_hash": result.get("design_hash"),
            "catalog_version": result.get("catalog_version"),
            "findings": result["findings"],
        },
    }


def _contact_of(user) -> dict[str, str] | None:
    if user is None or not user.is_staff:
        return None
    return {
        "name": user.get_full_name() or user.get_username(),
        "email": user.email or settings.QUOTE_SALES_EMAIL,
        "phone": settings.SELLER["phone"],
    }


def _sales_contact(quote: Quote, issued_by=None) -> dict[str, str]:
    """Who answers for the offer: the sales engineer who issued or made it, else the one the design is assigned
    to, else the sales team's address (settings.QUOTE_SALES_EMAIL)."""
    for user in (issued_by, quote.created_by, quote.configuration.assigned_to):
        if (contact := _contact_of(user)) is not None:
            return contact
    return {"name": "", "email": settings.QUOTE_SALES_EMAIL, "phone": settings.SELLER["phone"]}


def _full_clean(quote: Quote) -> None:
    """The model's own checks, reported like every other input error (QuoteError naming the fields), never a 500.
    Raised inside the creating transaction, so nothing (no number, no row) is left behind."""
    try:
        quote.full_clean()
    except ValidationError as exc:
        if not hasattr(exc, "error_dict"):
            raise QuoteError({"quote": " ".join(exc.messages)}) from None
        errors = {}
        for field, messages in exc.message_dict.items():
            key = "quote" if field == NON_FIELD_ERRORS else MODEL_FIELDS.get(field, field)
            errors[key] = " ".join(messages)
        raise QuoteError(errors) from None


def _status_for(ev: _Evaluation, *, approved: bool) -> str:
    if ev.unacknowledged:
        return Quote.Status.AWAITING_REVIEW
    if ev.needs_approval and not approved:
        return Quote.Status.AWAITING_APPROVAL
    return Quote.Status.ISSUED


def _issue(quote: Quote, ev: _Evaluation, *, indicative: bool = False, issued_by=None) -> None:
    """Freeze the quote and enqueue its documents after commit. Caller holds the transaction.

    ``indicative``: issued at once for a customer's online request, without a sales engineer (quotes.policy)."""
    now = timezone.now()
    quote.status = Quote.Status.ISSUED
    quote.issued_at = now
    quote.valid_until = timezone.localdate(now) + timedelta(days=settings.QUOTE_VALIDITY_DAYS)
    quote.doc_status, quote.progress, quote.failure_message = Quote.DocStatus.PENDING, 0, ""
    quote.enqueued_at = now
    _apply(quote, ev)
    quote.frozen["indicative"] = indicative
    if issued_by is not None:
        quote.frozen["sales_contact"] = _sales_contact(quote, issued_by)
    _full_clean(quote)
    quote.save()
    configuration_mark_quoted(configuration_id=quote.configuration_id)
    quote_id = quote.pk
    transaction.on_commit(lambda: enqueue_build(quote_id))


def _is_staff(user) -> bool:
    return bool(user is not None and user.is_active and user.is_staff)


# ---------------------------------------------------------------------------------------------------------------
# Public services.


def quote_request(
    *,
    configuration,
    customer: dict,
    user=None,
    channel: str = "web",
    crm_reference: str = "",
    language: str = "en",
    discount_percent=None,
    line_discounts: dict[str, Decimal] | None = None,
) -> Quote:
    """Request a quote for a stored configuration.

    ``customer``: name, company, email, country (ISO 3166 alpha-2), vat_number (optional). Raises QuoteError
    (field → message) on any bad input or a design with errors, leaving nothing behind. The new quote is
    ``awaiting_review`` if warnings are not yet accepted, ``awaiting_approval`` if the discount exceeds the
    threshold, otherwise ``issued`` at once (frozen, documents built after commit). A customer's online request
    (``channel="web"``) follows quotes.policy instead: it may wait for review above the instant-quote limit, and a
    repeat for an unchanged design returns the open quote (with ``repeated`` set on it). The configuration becomes
    ``quote_requested`` (or ``quoted`` when issued).
    """
    errors: dict[str, str] = {}
    cust = _clean_customer(customer, errors)
    language = _clean_language(language, errors)
    if channel not in CHANNELS:
        errors["channel"] = _("Channel must be one of %(channels)s.") % {"channels": ", ".join(CHANNELS)}
    crm_reference = str(crm_reference or "").strip()
    if len(crm_reference) > 100:
        errors["crm_reference"] = _("The CRM reference is longer than 100 characters.")
    percent = _clean_percent(discount_percent, "discount_percent", errors)
    lines = _clean_line_discounts(line_discounts, errors)
    if configuration is None or getattr(configuration, "pk", None) is None:
        errors["configuration"] = _("Save the configuration before requesting a quote.")
    if errors:
        raise QuoteError(errors)
    ev = _evaluate(
        configuration=configuration,
        language=language,
        country=cust["country"],
        vat_number=cust["vat_number"],
        discount_percent=percent,
        line_discounts=lines,
    )
    return _create(
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


def _lock_configuration(configuration) -> None:
    """Lock the configuration row for the rest of the transaction: concurrent requests for it queue here."""
    list(Configuration.objects.select_for_update().filter(pk=configuration.pk).values_list("pk", flat=True))


def _refuse_duplicate(*, configuration, channel: str, customer: dict[str, str], crm_reference: str) -> None:
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


_UNSET = object()


def _user_or_none(user):
    return user if getattr(user, "is_authenticated", False) else None


@transaction.atomic
def _create(
    *,
    configuration,
    customer: dict[str, str],
    user,
    channel: str,
    crm_reference: str,
    language: str,
    discount_percent: Decimal,
    line_discounts: dict[str, Decimal],
    ev: _Evaluation,
    previous: Quote | None = None,
    discount_set_by=_UNSET,
) -> Quote:
    if previous is not None:
        base, revision = previous.base_number, previous.revision + 1
    else:
        _lock_configuration(configuration)
        if channel == policy.ONLINE_CHANNEL:
            repeat = policy.repeated_request(
                configuration=configuration,
                customer_email=customer["email"],
                design_hash=ev.result.get("design_hash"),
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
        channel=channel,
        crm_reference=crm_reference,
        language=language,
        customer_name=customer["name"],
        customer_company=customer["company"],
        customer_email=customer["email"],
        customer_country=customer["country"],
        customer_vat_number=customer["vat_number"],
        customer_street=customer.get("address_street", ""),
        customer_postal_code=customer.get("address_postal_code", ""),
        customer_city=customer.get("address_city", ""),
        discount_percent=discount_percent,
        line_discounts={k: str(v) for k, v in line_discounts.items()},
        created_by=user if getattr(user, "is_authenticated", False) else None,
        discount_set_by=discount_set_by if discount_set_by is not _UNSET else _user_or_none(user),
    )
    status = _status_for(ev, approved=False)
    online = previous is None and channel == policy.ONLINE_CHANNEL
    if online:
        quote.review_reason = policy.review_reason(channel=channel, net=ev.totals.net, findings=ev.result["findings"])
        if quote.review_reason:
            status = Quote.Status.AWAITING_REVIEW
    if status == Quote.Status.ISSUED:
        _issue(quote, ev, indicative=online)
    else:
        quote.status = status
        _apply(quote, ev)
        _full_clean(quote)
        quote.save()
        configuration_mark_quote_requested(configuration_id=configuration.pk)
        if quote.review_reason:
            quote_id = quote.pk
            transaction.on_commit(lambda: _notify_review_quietly(quote_id))
    if previous is not None:
        Quote.objects.filter(pk=previous.pk).update(status=Quote.Status.SUPERSEDED, updated_at=timezone.now())
    return quote


def quote_issue(*, quote: Quote, user) -> Quote:
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
        ev = _evaluate_quote(quote)
        if ev.unacknowledged:
            pending = ", ".join(f"{f['code']} ({f['subject']})" for f in ev.unacknowledged)
            message = _("Accept these warnings, with a reason, before issuing: %(pending)s.")
            raise QuoteError({"warnings": message % {"pending": pending}})
        if _status_for(ev, approved=quote.approved_by_id is not None) == Quote.Status.AWAITING_APPROVAL:
            quote.status = Quote.Status.AWAITING_APPROVAL
            _apply(quote, ev)
            quote.save()
        else:
            _issue(quote, ev, issued_by=user)
    return quote


def quote_approve(*, quote: Quote, user) -> Quote:
    """Approve a discount above the threshold (permission ``quotes.approve_quote``) and issue the quote.

    Raises PermissionDenied without the permission, or when the user set the discount themselves (four eyes, on
    every channel: ``discount_set_by`` set the discounts, ``created_by`` requested the quote or made this
    revision; an API client counts as the user it acts as); QuoteError if
    the quote is not awaiting approval or the design no longer validates. If new warnings appeared meanwhile,
    the quote goes back to review, approved.
    """
    if user is None or not user.is_active or not user.has_perm("quotes.approve_quote"):
        raise PermissionDenied(_("Only a user with the approve permission may approve quote discounts."))
    with transaction.atomic():
        quote = Quote.objects.select_for_update().select_related("configuration").get(pk=quote.pk)
        if user.pk in {quote.created_by_id, quote.discount_set_by_id}:
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
        ev = _evaluate_quote(quote)
        quote.approved_by, quote.approved_at = user, timezone.now()
        if ev.unacknowledged:
            quote.status = Quote.Status.AWAITING_REVIEW
            _apply(quote, ev)
            quote.save()
        else:
            _issue(quote, ev)
        transaction.on_commit(lambda: signals.send_quote_event(quote, signals.APPROVED))
    return quote


def quote_revise(*, quote: Quote, user=None, discount_percent=None, line_discounts=None, configuration=None) -> Quote:
    """A new revision (Q-YYYY-NNNNN-R2, -R3 …) of the newest revision of a quote.

    Unchanged arguments are taken over from ``quote``; ``configuration`` may point at another (e.g. a changed)
    design. The same validation and approval rules apply. The older revision becomes ``superseded`` and stays
    readable. Only the newest revision can be revised (QuoteError otherwise).
    """
    errors: dict[str, str] = {}
    percent = (
        quote.discount_percent
        if discount_percent is None
        else _clean_percent(discount_percent, "discount_percent", errors)
    )
    lines = (
        {k: Decimal(v) for k, v in quote.line_discounts.items()}
        if line_discounts is None
        else _clean_line_discounts(line_discounts, errors)
    )
    configuration = configuration or quote.configuration
    if errors:
        raise QuoteError(errors)
    ev = _evaluate(
        configuration=configuration,
        language=quote.language,
        country=quote.customer_country,
        vat_number=quote.customer_vat_number,
        discount_percent=percent,
        line_discounts=lines,
    )
    with transaction.atomic():
        newest = Quote.objects.select_for_update().filter(base_number=quote.base_number).order_by("-revision").first()
        # A concurrent revision may have superseded it while we waited for the lock (READ COMMITTED returns the
        # locked row's new version, not the new revision): refuse rather than hit the unique constraint.
        if newest is None or newest.pk != quote.pk or newest.status == Quote.Status.SUPERSEDED:
            raise QuoteError(
                {
                    "quote": (
                        _("%(number)s is not the newest revision (%(newest)s); revise that one.")
                        % {"number": quote.number, "newest": newest.number}
                        if newest
                        else _("%(number)s is not the newest revision; revise the newest one.")
                        % {"number": quote.number}
                    )
                }
            )
        customer = {
            "name": quote.customer_name,
            "company": quote.customer_company,
            "email": quote.customer_email,
            "country": quote.customer_country,
            "vat_number": quote.customer_vat_number,
            "address_street": quote.customer_street,
            "address_postal_code": quote.customer_postal_code,
            "address_city": quote.customer_city,
        }
        same_discounts = percent == newest.discount_percent and lines == {
            k: Decimal(v) for k, v in newest.line_discounts.items()
        }
        return _create(
            configuration=configuration,
            customer=customer,
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


# ---------------------------------------------------------------------------------------------------------------
# Documents: built by quotes.tasks.quote_build_documents from the frozen snapshot alone.


def enqueue_build(quote_id: int) -> bool:
    """Send the build task. A broker outage is logged, not raised: the request stays recorded (pending) and the
    periodic requeue (quotes_requeue_stuck) sends it again."""
    from .tasks import quote_build_documents  # quotes.tasks calls these services: a real cycle, broken here

    try:
        quote_build_documents.delay(quote_id)
    except Exception:  # kombu raises several types for an unreachable broker
        logger.warning(
            "Could not enqueue documents of quote %s; the periodic requeue will retry", quote_id, exc_info=True
        )
        return False
    Quote.objects.filter(pk=quote_id).update(enqueued_at=timezone.now())
    return True


def quote_documents_claim(*, quote_id: int) -> datetime | None:
    """Claim the build of a quote's documents; None when another worker holds it or it is done.

    One conditional UPDATE decides: a pending quote, or one stuck in building longer than the lease
    (settings.QUOTE_STUCK_AFTER: its worker died). The claim time identifies the holder afterwards.
    """
    now = timezone.now()
    claimed = (
        Quote.objects.filter(pk=quote_id, issued_at__isnull=False)
        .filter(
            Q(doc_status=Quote.DocStatus.PENDING)
            | Q(doc_status=Quote.DocStatus.BUILDING, claimed_at__lt=now - settings.QUOTE_STUCK_AFTER)
        )
        .update(
            doc_status=Quote.DocStatus.BUILDING,
            claimed_at=now,
            progress=5,
            failure_message="",
            build_attempts=F("build_attempts") + 1,
            updated_at=now,
        )
    )
    return now if claimed else None


def _store(name: str, content: bytes) -> str:
    """Write a file under a fixed name, replacing an earlier build (re-running yields the same names)."""
    if default_storage.exists(name):
        default_storage.delete(name)
    stored = default_storage.save(name, ContentFile(content))
    if stored != name:  # a concurrent builder wrote the same name first: keep one copy
        default_storage.delete(stored)
    return name


def document_names(quote: Quote) -> dict[str, str]:
    folder = f"quotes/{quote.token}"
    return {"pdf": f"{folder}/{quote.number}.pdf", "xlsx": f"{folder}/{quote.number}-bom.xlsx"}


def quote_documents_build(*, quote_id: int, claim: datetime) -> bool:
    """Render the PDF and the XLSX from the frozen snapshot and store them; mark the quote ready.

    Only the holder of ``claim`` writes progress and the result, so a worker that lost its lease cannot undo
    a newer build. Transient errors (database, storage) propagate for the task to retry. Returns whether this
    call finished the build.
    """
    mine = Quote.objects.filter(pk=quote_id, doc_status=Quote.DocStatus.BUILDING, claimed_at=claim)
    quote = Quote.objects.get(pk=quote_id)
    delay = float(getattr(settings, "QUOTE_BUILD_DELAY_SECONDS", 0) or 0)
    if delay:
        mine.update(progress=10)
        time.sleep(delay)  # test-only: lets the fault tests kill a worker mid-build
    pdf = documents.render_pdf(quote.frozen)
    mine.update(progress=60)
    xlsx = documents.render_xlsx(quote.frozen)
    mine.update(progress=80)
    names = document_names(quote)
    _store(names["pdf"], pdf)
    _store(names["xlsx"], xlsx)
    with transaction.atomic():
        done = mine.update(
            doc_status=Quote.DocStatus.READY,
            progress=100,
            pdf=names["pdf"],
            xlsx=names["xlsx"],
            failure_message="",
            updated_at=timezone.now(),
        )
        if done:
            transaction.on_commit(lambda: _after_ready(quote_id))
    return bool(done)


def _after_ready(quote_id: int) -> None:
    quote = Quote.objects.select_related("created_by", "configuration__assigned_to").get(pk=quote_id)
    signals.send_quote_event(quote, signals.READY)
    try:
        quote_notify_ready(quote=quote)
    except Exception:
        logger.exception("Could not send the ready e-mail of quote %s", quote.number)


def quote_documents_release(*, quote_id: int, claim: datetime, message: str = "") -> None:
    """Give a claim back after a transient error so that the retry can claim it again."""
    Quote.objects.filter(pk=quote_id, doc_status=Quote.DocStatus.BUILDING, claimed_at=claim).update(
        doc_status=Quote.DocStatus.PENDING, progress=0, failure_message=message[:2000], updated_at=timezone.now()
    )


def quote_documents_fail(*, quote_id: int, claim: datetime | None, message: str) -> None:
    """Mark a build failed for good, with a message staff can read, and send ``quote.failed``."""
    rows = Quote.objects.filter(pk=quote_id).exclude(doc_status=Quote.DocStatus.READY)
    if claim is not None:
        rows = rows.filter(claimed_at=claim)
    with transaction.atomic():
        if rows.update(
            doc_status=Quote.DocStatus.FAILED, progress=0, failure_message=message[:2000], updated_at=timezone.now()
        ):
            transaction.on_commit(lambda: signals.send_quote_event(Quote.objects.get(pk=quote_id), signals.FAILED))


def quote_documents_rebuild(*, quote: Quote) -> Quote:
    """Build the documents again from the snapshot (after a failure, or a template change)."""
    if quote.issued_at is None:
        raise QuoteError({"status": _("%(number)s is not issued yet; it has no documents.") % {"number": quote.number}})
    with transaction.atomic():
        Quote.objects.filter(pk=quote.pk).exclude(doc_status=Quote.DocStatus.BUILDING).update(
            doc_status=Quote.DocStatus.PENDING, progress=0, failure_message="", updated_at=timezone.now()
        )
        transaction.on_commit(lambda: enqueue_build(quote.pk))
    quote.refresh_from_db()
    return quote


def quotes_requeue_stuck(*, older_than: timedelta | None = None) -> list[int]:
    """Enqueue again the builds stuck in pending (never delivered: the broker was down) or in building (the
    worker died) for longer than settings.QUOTE_STUCK_AFTER. Safe to run any time: the claim is conditional."""
    cutoff = timezone.now() - (settings.QUOTE_STUCK_AFTER if older_than is None else older_than)
    ids = list(
        Quote.objects.filter(issued_at__isnull=False)
        .filter(
            Q(doc_status=Quote.DocStatus.PENDING, enqueued_at__lte=cutoff)
            | Q(doc_status=Quote.DocStatus.PENDING, enqueued_at__isnull=True)
            | Q(doc_status=Quote.DocStatus.BUILDING, claimed_at__lte=cutoff)
        )
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    return [pk for pk in ids if enqueue_build(pk)]


# ---------------------------------------------------------------------------------------------------------------
# Links and e-mail.


class DownloadLinkError(Exception):
    """A download link that does not open: ``expired`` (older than QUOTE_LINK_MAX_AGE) or invalid."""

    def __init__(self, *, expired: bool):
        self.expired = expired
        super().__init__("expired" if expired else "invalid")


def _link_signer() -> signing.TimestampSigner:
    return signing.TimestampSigner(salt=LINK_SALT)


def download_link_sign(*, quote: Quote, kind: str) -> str:
    """The signed part of an e-mailed download link: the quote's opaque download id and the kind, timestamped;
    it expires after settings.QUOTE_LINK_MAX_AGE. It carries no token: the link is the only credential the
    e-mail holds, and it stops working."""
    if kind not in FILE_KINDS:
        raise ValueError(kind)
    return _link_signer().sign(f"{quote.download_id}.{kind}")


def download_link_open(signed: str) -> tuple[Quote, str]:
    """(quote, kind) of a valid, unexpired signed link. Raises DownloadLinkError (expired or invalid)."""
    try:
        value = _link_signer().unsign(signed, max_age=settings.QUOTE_LINK_MAX_AGE)
    except signing.SignatureExpired:
        raise DownloadLinkError(expired=True) from None
    except signing.BadSignature:
        raise DownloadLinkError(expired=False) from None
    download_id, _sep, kind = value.rpartition(".")
    quote = Quote.objects.filter(download_id=download_id).first() if download_id else None
    if quote is None or kind not in FILE_KINDS:
        raise DownloadLinkError(expired=False)
    return quote, kind


def absolute_url(path: str) -> str:
    return settings.QUOTE_SITE_URL.rstrip("/") + path


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


def _notify_review_quietly(quote_id: int) -> None:
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
