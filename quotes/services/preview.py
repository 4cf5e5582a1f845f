"""The price preview: what a quote with the discounts typed so far comes to, before it is requested (no writes).

The same rules as requesting the quote, in one home: the discounts are read by quotes.pricing.parse_percent,
the VAT is decided by quotes.vat, and the lines are priced by quotes.pricing as issuing prices them, against
settings.QUOTE_DISCOUNT_APPROVAL_THRESHOLD, with the margin against settings.QUOTE_MARGIN_APPROVAL_FLOOR_PERCENT
(staff only: the preview is a sales engineer's). Every door that previews a quote (the wizard's staff panel) calls
``quote_preview``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from django.conf import settings
from django.utils.translation import gettext as _

from .. import pricing
from ..kvk import clean_kvk
from ..vat import VatDecision, VatInputError, normalise_country, normalise_vat_number, vat_decide
from .agreements import AgreementTerms, agreed_discounts, agreement_for
from .evaluation import approval_reasons, margin_floor, part_costs
from .inputs import clean_percent


@dataclass(frozen=True)
class QuotePreview:
    """The preview of a quote, or why it cannot be priced.

    ``errors``: field → message for each input that cannot be used, under the keys a quote request reports them
    under (``discount_percent``, ``line_discounts.<part>``, ``country``, ``vat_number``), discounts first.
    ``result`` is None while a discount is wrong or the design has no bill of materials. ``unpriced``: the lines
    priced on request (part numbers, or what is needed where no catalogue part fits); they stay out of every
    amount, which is then at least what it shows (``result.totals.at_least``). ``vat`` is None while the country
    or VAT number is wrong; the figures are then without VAT."""

    errors: dict[str, str] = field(default_factory=dict)
    result: pricing.Preview | None = None
    vat: VatDecision | None = None
    unpriced: list[str] = field(default_factory=list)
    # Staff only: the margin of the quote and of each line (same order as ``result.lines``), the floor, and why the
    # quote would wait for a second person (``discount`` above the threshold, ``margin`` below the floor).
    margin: pricing.Margin | None = None
    line_margins: list[pricing.LineMargin] = field(default_factory=list)
    floor: Decimal | None = None
    approval_reasons: tuple[str, ...] = ()
    # The customer's price agreement (by VAT or KvK number) and the parts its discounts apply to (part → %).
    agreement: AgreementTerms | None = None
    agreed: dict[str, Decimal] = field(default_factory=dict)

    @property
    def needs_approval(self) -> bool:
        return bool(self.approval_reasons)

    @property
    def margin_lines(self) -> list[tuple[pricing.PricedLine, pricing.LineMargin]]:
        return list(zip(self.result.lines, self.line_margins, strict=True)) if self.result else []


def quote_preview(
    *,
    lines: Sequence,
    discount_percent: object,
    line_discounts: Mapping[str, object],
    country: object,
    vat_number: object,
    kvk: object = "",
) -> QuotePreview:
    """Price a design's bill of materials (``lines``: configurator.bom.BomLine) with the discounts as typed
    (``discount_percent``; ``line_discounts``: part number → percentage, an empty one is none) for a customer in
    ``country`` with ``vat_number``. Nothing is stored."""
    errors: dict[str, str] = {}
    percent = clean_percent(discount_percent, "discount_percent", errors)
    on_bill = {line.part_number for line in lines if line.part_number}
    discounts: dict[str, Decimal] = {}
    for part, typed in line_discounts.items():
        key = f"line_discounts.{part}"
        if part not in on_bill:
            errors[key] = _("%(part)s is not on this quote.") % {"part": part}
        elif value := clean_percent(typed, key, errors):
            discounts[part] = value
    discounts_ok = not errors
    vat = None
    try:
        code = normalise_country(country)
        vat = vat_decide(country=code, vat_number=normalise_vat_number(vat_number, code))
    except VatInputError as exc:
        errors["vat_number" if exc.field == "vat_number" else "country"] = str(exc)
    if not discounts_ok or not lines:
        return QuotePreview(errors=errors, vat=vat)
    agreement = _agreement(vat, vat_number, country, kvk)
    agreed = {
        part: value
        for part, value in agreed_discounts(agreement, on_bill).items()
        if part not in discounts  # a sales engineer's own line discount replaces the agreed one
    }
    discounts = {**agreed, **discounts}
    unpriced = sorted({line.part_number or line.description for line in lines if line.unit_price_eur is None})
    result = pricing.price_preview(
        pricing.raw_lines(lines),
        quote_discount_percent=percent,
        line_discounts=discounts,
        vat_rate=vat.rate if vat else Decimal("0"),
        threshold=Decimal(settings.QUOTE_DISCOUNT_APPROVAL_THRESHOLD),
    )
    costs = part_costs({line.part_number for line in result.lines if line.part_number})
    margin = pricing.quote_margin(result.lines, costs)
    return QuotePreview(
        errors=errors,
        result=result,
        vat=vat,
        unpriced=unpriced,
        margin=margin,
        line_margins=pricing.line_margins(result.lines, costs),
        floor=margin_floor(),
        approval_reasons=approval_reasons(discount=result.needs_approval, margin=margin),
        agreement=agreement,
        agreed=agreed,
    )


def _agreement(vat: VatDecision | None, vat_number: object, country: object, kvk: object) -> AgreementTerms | None:
    """The price agreement of the customer typed so far (a VAT or KvK number that cannot be read finds none)."""
    number = ""
    if vat is not None:
        try:
            number = normalise_vat_number(vat_number, normalise_country(country))
        except VatInputError:
            number = ""
    try:
        kvk_number = clean_kvk(kvk)
    except ValueError:
        kvk_number = ""
    return agreement_for(vat_number=number, kvk=kvk_number)
