"""VAT on a quote (Dutch seller, goods shipped from the Netherlands).

Rules, in order (Wet op de omzetbelasting 1968; Council Directive 2006/112/EC):

1. Customer in the Netherlands: Dutch standard rate (settings.QUOTE_VAT_RATE_NL, 21%), with or without a VAT
   number.
2. Customer in another EU member state with a VAT number of valid format and check digits for that country
   (python-stdnum, ``stdnum.eu.vat``): 0%, the customer accounts for the VAT ("reverse charge",
   art. 138/196 of the directive); the quote says "VAT reverse charged" / "BTW verlegd".
3. Customer in another EU member state without a VAT number (a consumer): Dutch rate, 21%. (Distance-sales
   OSS rules for consumers are out of scope: GPU clusters are sold business-to-business in practice.)
4. Customer outside the EU: 0%, export (art. 146 of the directive).

A format check is not a VIES lookup: sales confirms the number in VIES before the order is accepted.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.conf import settings
from django.utils.translation import gettext_lazy as _
from stdnum.eu import vat as eu_vat
from stdnum.exceptions import ValidationError as StdnumError
from stdnum.util import clean

from .countries import EU_MEMBER_STATES, ISO_3166_ALPHA2, VAT_PREFIX

DOMESTIC = "domestic"
REVERSE_CHARGE = "reverse_charge"
EU_CONSUMER = "eu_consumer"
EXPORT = "export"

NOTICES = {
    DOMESTIC: "",
    EU_CONSUMER: "",
    REVERSE_CHARGE: _("VAT reverse charged (Article 196, Council Directive 2006/112/EC)"),
    EXPORT: _("Export outside the EU: 0% VAT (Article 146, Council Directive 2006/112/EC)"),
}


class VatInputError(ValueError):
    def __init__(self, field: str, message: str):
        self.field = field
        super().__init__(message)


@dataclass(frozen=True)
class VatDecision:
    category: str
    rate: Decimal  # percent

    @property
    def notice(self) -> str:
        """The notice in the active language (wrap the call in translation.override)."""
        return str(NOTICES[self.category]) if NOTICES[self.category] else ""


def normalise_country(country: object) -> str:
    code = str(country or "").strip().upper()
    if not code:
        raise VatInputError("country", str(_("Enter the customer's country (ISO 3166 code, e.g. NL).")))
    if code not in ISO_3166_ALPHA2:
        raise VatInputError(
            "country", str(_("“%(code)s” is not an ISO 3166 country code, e.g. NL, DE or US.")) % {"code": code[:10]}
        )
    return code


def normalise_vat_number(vat_number: object, country: str) -> str:
    """The VAT number in compact form with its country prefix, or "" when none was given.

    For EU customers the number must have a valid format and check digits, and belong to the customer's
    country. Numbers of customers outside the EU are kept as given (they do not change the VAT).
    """
    raw = str(vat_number or "").strip()
    if not raw:
        return ""
    if country not in EU_MEMBER_STATES:
        return raw[:20]
    compact = clean(raw, " -./,").upper()
    if not compact[:2].isalpha():
        compact = VAT_PREFIX[country] + compact
    try:
        compact = eu_vat.validate(compact)
    except StdnumError:
        raise VatInputError(
            "vat_number", str(_("“%(number)s” is not a valid EU VAT number.")) % {"number": raw[:30]}
        ) from None
    if compact[:2] != VAT_PREFIX[country]:
        raise VatInputError(
            "vat_number",
            str(
                _(
                    "This VAT number is registered in another country (%(prefix)s) than "
                    "the customer's country (%(country)s)."
                )
            )
            % {"prefix": compact[:2], "country": country},
        )
    return compact


def vat_decide(*, country: str, vat_number: str) -> VatDecision:
    """The VAT category and rate for a normalised country and VAT number (rules in the module docstring)."""
    nl_rate = Decimal(settings.QUOTE_VAT_RATE_NL)
    if country == "NL":
        return VatDecision(DOMESTIC, nl_rate)
    if country in EU_MEMBER_STATES:
        return VatDecision(REVERSE_CHARGE, Decimal("0")) if vat_number else VatDecision(EU_CONSUMER, nl_rate)
    return VatDecision(EXPORT, Decimal("0"))
