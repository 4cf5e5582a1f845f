"""Cleaning a quote request's input: every problem is collected and reported at once (QuoteError, field →
message), before anything is written."""

from __future__ import annotations

from decimal import Decimal
from enum import StrEnum
from typing import Any

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.core.validators import validate_email
from django.utils.translation import gettext as _

from messages.languages import default_language, languages_named, supported_language

from .. import pricing
from ..kvk import clean_kvk
from ..models import Quote
from ..vat import VatInputError, normalise_country, normalise_vat_number

CHANNELS = ("web", "staff", "api")
EMAIL_MAX_LENGTH = 254  # RFC 5321 path limit, and Quote.customer_email's max_length

# Model field → the input field name QuoteError reports (what the wizard and the API show the error next to).
MODEL_FIELDS = {
    "customer_name": "customer.name",
    "customer_company": "customer.company",
    "customer_email": "customer.email",
    "customer_country": "customer.country",
    "customer_vat_number": "customer.vat_number",
    "customer_kvk": "customer.kvk_number",
    "customer_street": "customer.address.street",
    "customer_postal_code": "customer.address.postal_code",
    "customer_city": "customer.address.city",
}


class QuoteErrorCode(StrEnum):
    """The stable code of every quote error the API answers: a refused quote (QuoteError), a quote whose state
    forbids it (QuoteStateError) and a quote's documents that cannot be sent (yet)."""

    QUOTE_REJECTED = "quote_rejected"  # bad input: a design with errors, an unknown country …
    QUOTE_EXPIRED = "quote_expired"
    QUOTE_SUPERSEDED = "quote_superseded"
    QUOTE_ALREADY_ACCEPTED = "quote_already_accepted"
    QUOTE_DECLINED = "quote_declined"
    QUOTE_NOT_ISSUED = "quote_not_issued"
    QUOTE_NOT_ACCEPTED = "quote_not_accepted"
    DOCUMENT_NOT_READY = "document_not_ready"  # not built yet (Retry-After)
    DOCUMENT_FAILED = "document_failed"
    DOCUMENT_MISSING = "document_missing"


class QuoteError(Exception):
    """Bad input for a quote. ``errors`` maps a field name (``customer.country``, ``discount_percent``,
    ``line_discounts.<part>``, ``design.<path>``, ``status`` …) to a clear message; ``code`` is its
    QuoteErrorCode."""

    code: QuoteErrorCode = QuoteErrorCode.QUOTE_REJECTED

    def __init__(self, errors: dict[str, str]):
        self.errors = dict(errors)
        super().__init__("; ".join(f"{field}: {message}" for field, message in self.errors.items()))


def clean_percent(value: Any, field: str, errors: dict[str, str]) -> Decimal:
    """``pricing.parse_percent`` (the preview's rules and messages), with its message recorded under ``field``."""
    try:
        return pricing.parse_percent(value)
    except pricing.PercentError as exc:
        errors[field] = str(exc)
        return Decimal("0")


def clean_line_discounts(value: Any, errors: dict[str, str]) -> dict[str, Decimal]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        errors["line_discounts"] = _("Give line discounts as an object of part number → percentage.")
        return {}
    cleaned = {}
    for part, percent in value.items():
        number = clean_percent(percent, f"line_discounts.{part}", errors)
        if number:
            cleaned[str(part)] = number
    return cleaned


def clean_customer(customer: Any, errors: dict[str, str]) -> dict[str, str]:
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
    try:
        out["kvk"] = clean_kvk(customer.get("kvk_number"))
    except ValueError as exc:
        errors["customer.kvk_number"] = str(exc)
        out["kvk"] = ""
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


def clean_language(language: Any, errors: dict[str, str]) -> str:
    """The quote's language: one of settings.LANGUAGES (``nl-BE`` is Dutch), the default language when none is
    given."""
    if not str(language or "").strip():
        return default_language()
    code = supported_language(language)
    if code is None:
        errors["language"] = _("Choose one of these languages: %(languages)s.") % {"languages": languages_named()}
        return default_language()
    return code


def full_clean_or_refuse(quote: Quote) -> None:
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
