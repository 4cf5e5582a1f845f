"""Evaluating a quote: validate the stored design and price it (no writes)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING

from django.conf import settings
from django.utils.translation import gettext as _

from catalog.models import Part
from configurator.result import ShownFinding, ValidationResult
from configurator.services import Validated, design_validate_parsed, unacknowledged_warnings
from design.jsontext import JsonObject
from design.model import DesignInputError
from engines.catalog_view import CatalogView
from engines.cluster.rackplan import growing_from
from outputs.links import installed_ends

from .. import pricing
from ..models import Quote
from ..vat import VatDecision, vat_decide
from .agreements import AgreementTerms, agreed_discounts, agreement_for
from .expansion import Expansion, expansion_compare
from .inputs import QuoteError
from .installed import expanded_from, installed_result

if TYPE_CHECKING:
    from configurator.models import Configuration


@dataclass(frozen=True)
class Evaluation:
    document: JsonObject
    result: ValidationResult
    lines: list[pricing.PricedLine]
    totals: pricing.Totals
    vat: VatDecision
    unacknowledged: list[ShownFinding]
    needs_approval: bool
    lead_times: dict[str, int | None]
    # Staff only: each part's purchase price, the quote's margin, and why it needs approval ("discount", "margin").
    costs: dict[str, Decimal | None] = field(default_factory=dict)
    margin: pricing.Margin | None = None
    approval_reasons: tuple[str, ...] = ()
    # The customer's price agreement and the parts its discounts apply to (part → %), or None and {}.
    agreement: AgreementTerms | None = None
    agreed: dict[str, Decimal] = field(default_factory=dict)
    # An expansion quote's growth (quotes.services.expanding.expansion_summary), None for any other quote.
    expansion: JsonObject | None = None
    # The catalogue view the design was validated and priced against (frozen with the quote: QuoteCatalog).
    catalog: CatalogView | None = None
    # An expansion quote's findings of what the growth crosses: its warnings are accepted like the design's.
    growth_findings: tuple[ShownFinding, ...] = ()


def evaluate(
    *,
    configuration: Configuration,
    language: str,
    country: str,
    vat_number: str,
    discount_percent: Decimal,
    line_discounts: dict[str, Decimal],
    kvk: str = "",
    installed: Quote | Configuration | None = None,
) -> Evaluation:
    """Validate the stored design and price it, with the customer's price agreement (found by ``vat_number`` or
    ``kvk``: quotes.services.agreements). Raises QuoteError on input errors or error findings.

    ``installed``: an expansion quote's installed cluster (its original quote, or the configuration marked as built).
    The stored design is then the grown cluster, and the lines are what the growth adds (quotes.services.expanding)."""
    document = configuration.document
    validated, growth = _validated_growth(document, installed, language)
    result = validated.result
    crossed = growth.findings if growth else ()
    raw = _raw_lines(growth.delta_bom if growth else validated.result.bill.lines, line_discounts)
    agreement = agreement_for(vat_number=vat_number, kvk=kvk)
    agreed = {
        part: value
        for part, value in agreed_discounts(agreement, {line.part_number for line in raw if line.part_number}).items()
        if part not in line_discounts  # a sales engineer's own line discount replaces the agreed one
    }
    line_discounts = {**agreed, **line_discounts}
    lines = pricing.price_lines(raw, quote_discount_percent=discount_percent, line_discounts=line_discounts)
    vat = vat_decide(country=country, vat_number=vat_number)
    totals = pricing.price_totals(lines, vat_rate=vat.rate)
    costs = part_costs({line.part_number for line in lines if line.part_number})
    margin = pricing.quote_margin(lines, costs)
    reasons = approval_reasons(
        discount=pricing.needs_approval(
            quote_discount_percent=discount_percent,
            line_discounts=line_discounts,
            lines=lines,
            threshold=Decimal(settings.QUOTE_DISCOUNT_APPROVAL_THRESHOLD),
        ),
        margin=margin,
    )
    return Evaluation(
        document=document,
        result=result,
        lines=lines,
        totals=totals,
        vat=vat,
        unacknowledged=unacknowledged_warnings(configuration=configuration, result=result, also=crossed),
        needs_approval=bool(reasons),
        lead_times=_lead_times({line.part_number for line in lines}),
        costs=costs,
        margin=margin,
        approval_reasons=reasons,
        agreement=agreement,
        agreed=agreed,
        expansion=growth.frozen_json() if growth else None,
        catalog=validated.catalog,
        growth_findings=crossed,
    )


def margin_floor() -> Decimal | None:
    """settings.QUOTE_MARGIN_APPROVAL_FLOOR_PERCENT: a quote whose known margin is below it needs a second person's
    approval, as a discount above the threshold does; None (empty) turns the floor off."""
    value = getattr(settings, "QUOTE_MARGIN_APPROVAL_FLOOR_PERCENT", None)
    return None if value in (None, "") else Decimal(str(value))


def approval_reasons(*, discount: bool, margin: pricing.Margin | None) -> tuple[str, ...]:
    """Why a quote needs four eyes: ``discount`` above the threshold, ``margin`` below the floor (either one)."""
    reasons: tuple[str, ...] = ("discount",) if discount else ()
    if pricing.margin_below_floor(margin, margin_floor()):
        reasons += ("margin",)
    return reasons


def part_costs(part_numbers: set[str]) -> dict[str, Decimal | None]:
    """The catalogue's purchase price of each part (None: unknown). Staff only: never frozen for a customer."""
    return dict(Part.objects.filter(part_number__in=part_numbers).values_list("part_number", "cost_price_eur"))


def _validated(document: JsonObject, language: str) -> Validated:
    """The validation of a design without error findings (with the parsed design and the catalogue view it was
    validated against, which price it); QuoteError naming each error otherwise."""
    try:
        validated = design_validate_parsed(document=document, language=language)
    except DesignInputError as exc:
        raise QuoteError({f"design.{path}": message for path, message in exc.errors.items()}) from None
    result = validated.result
    if not result.valid:
        errors: dict[str, str] = {}
        for finding in result.errors:
            key = f"design.{finding.subject}" if finding.subject else "design"
            errors[key] = f"{errors[key]} " if key in errors else ""
            errors[key] += f"{finding.message} ({finding.code})"
        raise QuoteError(errors or {"design": _("The design has errors; fix them before requesting a quote.")})
    return validated


def _raw_lines(bom: Sequence[pricing.BillLine], line_discounts: dict[str, Decimal]) -> list[pricing.RawLine]:
    """The bill ``bom`` at list price, every line of it (the validated design's one bill, the validation result's
    ``bom`` against the catalogue it was validated against; or an expansion's delta bill): a line priced on request
    stays on the quote with its quantity. QuoteError for a line discount for a part that is not on the bill."""
    unknown = sorted(set(line_discounts) - {line.part_number for line in bom if line.part_number})
    if unknown:
        raise QuoteError(
            {f"line_discounts.{part}": _("%(part)s is not on this quote.") % {"part": part} for part in unknown}
        )
    return pricing.raw_lines(bom)


def _lead_times(part_numbers: set[str]) -> dict[str, int | None]:
    """The catalogue's lead time (days) of each part, frozen on the quote's lines (None: not known)."""
    return dict(Part.objects.filter(part_number__in=part_numbers).values_list("part_number", "lead_time_days"))


def _validated_growth(
    document: JsonObject, installed: Quote | Configuration | None, language: str
) -> tuple[Validated, Expansion | None]:
    """The design's validation and, for an expansion quote, what it takes from the ``installed`` cluster: planned
    from the installed racks (``growing_from``), as the expansion door plans it."""
    if installed is None:
        return _validated(document, language), None
    before = _installed(installed, language)
    with growing_from(before.rack_plan.plan, installed_ends(before)):
        validated = _validated(document, language)
    return validated, expansion_compare(before=before, after=validated.result, language=language)


def _installed(installed: Quote | Configuration, language: str) -> ValidationResult:
    """The installed cluster's validation, planned as it was built (quotes.services.installed); QuoteError naming
    the installed design's fields when the catalogue can no longer read it."""
    try:
        return installed_result(installed, language=language)
    except DesignInputError as exc:
        raise QuoteError({f"expansion_of.design.{path}": message for path, message in exc.errors.items()}) from None


def pending_growth(*, configuration: Configuration, language: str) -> Expansion | None:
    """The growth of the configuration's newest quote, in ``language``, when that quote is an expansion quote: the
    grown design planned from the installed racks, as the quote plans it (the wizard shows that plan), and what the
    growth crosses (the wizard lists those findings beside the design's, and a sales engineer accepts their warnings
    there as the design's own before the quote is issued: ``Evaluation.unacknowledged`` counts both). None for any
    other configuration, and where the grown or the installed design no longer validates (the design's own findings
    say why)."""
    quote = (
        Quote.objects.filter(configuration=configuration)
        .select_related("expansion_of", "expansion_of_built")
        .order_by("-created_at", "-id")
        .first()
    )
    installed = expanded_from(quote) if quote is not None else None
    if installed is None:
        return None
    try:
        return _validated_growth(configuration.document, installed, language)[1]
    except QuoteError:
        return None


def evaluate_quote(quote: Quote) -> Evaluation:
    """The quote's evaluation as its row asks it (an expansion quote's with its original's installed design)."""
    return evaluate(
        installed=expanded_from(quote),
        configuration=quote.configuration,
        language=quote.language,
        country=quote.customer_country,
        vat_number=quote.customer_vat_number,
        discount_percent=quote.discount_percent,
        line_discounts={k: Decimal(v) for k, v in quote.line_discounts.items()},
        kvk=quote.customer_kvk,
    )
