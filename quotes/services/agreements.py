"""Price agreements per customer company: finding the one that applies to a quote, and keeping them (admin, CRM).

Business rules, in one home (quotes.services.evaluation applies them to every quote and preview):

* A company is identified by its VAT number (compact, with its country prefix) or, for a Dutch company, its KvK
  number (8 digits). A quote whose customer has that VAT or KvK number gets the active agreement.
* Its agreed discount of a catalogue category applies to every line of a part of that category, as the line's
  discount; a sales engineer's own line discount for a part replaces the agreed one on that part. The quote
  discount applies on top, as always. The agreed discounts count toward the approval rule like any discount.
* Its payment term, when set, replaces the standard one (settings.QUOTE_PAYMENT_DAYS) on the quote.
* The quote keeps the agreement it was priced with in its snapshot (``agreement``: company, reference, the agreed
  discounts and payment term, the parts it discounted), so the documents show it as the agreement's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from catalog.models import CATEGORY_CHOICES, Part
from design.jsontext import JsonObject

from ..kvk import clean_kvk
from ..models import AgreementDiscount, PriceAgreement
from ..vat import VatInputError, normalise_vat_number
from .inputs import QuoteError, clean_percent


@dataclass(frozen=True)
class AgreementTerms:
    """An agreement as a quote applies it: category → discount %, and the payment term (None: standard)."""

    id: int
    company: str
    reference: str
    payment_days: int | None
    discounts: dict[str, Decimal] = field(default_factory=dict)

    def to_dict(self, applied: Mapping[str, Decimal]) -> JsonObject:
        return {
            "id": self.id,
            "company": self.company,
            "reference": self.reference,
            "payment_days": self.payment_days,
            "discounts": {category: str(value) for category, value in self.discounts.items()},
            "applied": {part: str(value) for part, value in applied.items()},
        }


def clean_agreement_vat(value: Any) -> str:
    """The agreement's VAT number in compact form with its country prefix (as quotes record it)."""
    raw = str(value or "").strip()
    if not raw:
        return ""
    prefix = raw[:2].upper()
    if not prefix.isalpha():
        raise ValueError(_("Give the VAT number with its country prefix, e.g. NL000099998B57."))
    country = "GR" if prefix == "EL" else prefix
    try:
        return normalise_vat_number(raw, country)
    except VatInputError as exc:
        raise ValueError(str(exc)) from None


def agreement_for(*, vat_number: str, kvk: str) -> AgreementTerms | None:
    """The active agreement of the company with this VAT number or KvK number, or None."""
    match = Q()
    if vat_number:
        match |= Q(vat_number=vat_number)
    if kvk:
        match |= Q(kvk_number=kvk)
    if not match:
        return None
    agreement = (
        PriceAgreement.objects.filter(match, is_active=True).prefetch_related("discounts").order_by("id").first()
    )
    if agreement is None:
        return None
    return AgreementTerms(
        id=agreement.pk,
        company=agreement.company,
        reference=agreement.reference,
        payment_days=agreement.payment_days,
        discounts={d.category: d.discount_percent for d in agreement.discounts.all() if d.discount_percent},
    )


def agreed_discounts(terms: AgreementTerms | None, part_numbers: Iterable[str]) -> dict[str, Decimal]:
    """Part number → the agreed discount of its category, for the parts the agreement discounts."""
    if terms is None or not terms.discounts:
        return {}
    categories = Part.objects.filter(part_number__in=set(part_numbers)).values_list("part_number", "category")
    return {part: terms.discounts[category] for part, category in categories if category in terms.discounts}


# --- keeping them (the admin's form and the API call this) --------------------------------------------------------


def _clean(data: Mapping[str, Any], errors: dict[str, str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    company = str(data.get("company") or "").strip()
    if not company:
        errors["company"] = _("Enter the company's name.")
    out["company"] = company[:200]
    for key, cleaner in (("vat_number", clean_agreement_vat), ("kvk_number", clean_kvk)):
        try:
            out[key] = cleaner(data.get(key))
        except ValueError as exc:
            errors[key] = str(exc)
            out[key] = ""
    if not errors.keys() & {"vat_number", "kvk_number"} and not (out["vat_number"] or out["kvk_number"]):
        errors["vat_number"] = _("Give the company's VAT number or its KvK number.")
    days = data.get("payment_days")
    if days is None or days == "":
        out["payment_days"] = None
    elif isinstance(days, bool) or not str(days).isdigit() or not 0 <= int(days) <= 365:
        errors["payment_days"] = _("Give the payment term as a whole number of days, 0 to 365.")
    else:
        out["payment_days"] = int(days)
    out["reference"] = str(data.get("reference") or "").strip()[:100]
    out["is_active"] = bool(data.get("is_active", True))
    return out


def _clean_discounts(value: Any, errors: dict[str, str]) -> dict[str, Decimal]:
    known = {code for code, _label in CATEGORY_CHOICES}
    if value in (None, ""):
        return {}
    if not isinstance(value, Mapping):
        errors["discounts"] = _("Give the discounts as an object of catalogue category → percentage.")
        return {}
    out = {}
    for category, percent in value.items():
        key = f"discounts.{category}"
        if category not in known:
            errors[key] = _("Not a catalogue category; use one of %(categories)s.") % {
                "categories": ", ".join(sorted(known))
            }
            continue
        out[str(category)] = clean_percent(percent, key, errors)
    return out


@transaction.atomic
def price_agreement_save(*, data: Mapping[str, Any], agreement: PriceAgreement | None = None) -> PriceAgreement:
    """Create or change a price agreement: ``data`` holds company, vat_number and/or kvk_number, payment_days,
    reference, is_active and ``discounts`` (category → percentage; given, it replaces the agreement's discounts).
    Raises QuoteError naming each bad field (``vat_number``, ``discounts.<category>`` …), leaving nothing changed."""
    errors: dict[str, str] = {}
    base = {} if agreement is None else _as_data(agreement)
    values = _clean({**base, **data}, errors)
    discounts = _clean_discounts(data.get("discounts"), errors) if "discounts" in data else None
    if errors:
        raise QuoteError(errors)
    agreement = agreement or PriceAgreement()
    for key, value in values.items():
        setattr(agreement, key, value)
    try:
        agreement.full_clean()
    except ValidationError as exc:
        raise QuoteError({key: " ".join(messages) for key, messages in exc.message_dict.items()}) from None
    agreement.save()
    if discounts is not None:
        agreement.discounts.all().delete()
        AgreementDiscount.objects.bulk_create(
            AgreementDiscount(agreement=agreement, category=category, discount_percent=percent)
            for category, percent in discounts.items()
        )
    return agreement


def _as_data(agreement: PriceAgreement) -> dict[str, Any]:
    return {
        "company": agreement.company,
        "vat_number": agreement.vat_number,
        "kvk_number": agreement.kvk_number,
        "payment_days": agreement.payment_days,
        "reference": agreement.reference,
        "is_active": agreement.is_active,
    }
