"""The quote's snapshot (``Quote.frozen``): lines, totals, VAT, the design, the validation receipt, the accepted
warnings and the sales contact, copied onto the row from an evaluation. Frozen for good when the quote is issued;
the documents are rendered from it alone."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import TYPE_CHECKING

from django.conf import settings
from django.utils import translation

from configurator.result import ShownFinding, ValidationResult
from configurator.services import acknowledgements_in_force
from design.jsontext import JsonObject

from ..models import Quote
from ..pricing import PricedLine
from ..snapshot import (
    SCHEMA,
    FrozenAcknowledgement,
    FrozenAddress,
    FrozenAgreement,
    FrozenApproval,
    FrozenContact,
    FrozenCustomer,
    FrozenExpansion,
    FrozenLine,
    FrozenQuote,
    FrozenReceipt,
    FrozenTerms,
    FrozenTotals,
    FrozenVat,
)
from .evaluation import Evaluation
from .handover import freeze_catalog

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from configurator.models import Configuration


def _acknowledgements(
    configuration: Configuration, result: ValidationResult, also: Sequence[ShownFinding] = ()
) -> list[FrozenAcknowledgement]:
    """The accepted warnings of this validation, and of an expansion's growth (``also``), with who accepted them and
    why (printed on the quote).

    Which acknowledgements count is configurator.services.acknowledgements_in_force's decision alone (it matches
    them against the design hash in ``result``: an acceptance given for another design does not count)."""
    messages = {(f.code, f.subject): f.message for f in (*result.warnings, *also)}
    return [
        FrozenAcknowledgement(
            code=ack.code,
            subject=ack.subject,
            message=messages.get((ack.code, ack.subject), ""),
            reason=ack.reason,
            by=(ack.user.get_full_name() or ack.user.get_username()) if ack.user else "",
            at=ack.created_at.isoformat(),
        )
        for ack in acknowledgements_in_force(configuration=configuration, result=result, also=also)
    ]


def apply_evaluation(quote: Quote, ev: Evaluation) -> None:
    """Copy the evaluation onto the row, with a preview snapshot (frozen for good at issue)."""
    quote.subtotal, quote.discount, quote.net = ev.totals.subtotal, ev.totals.discount, ev.totals.net
    quote.vat_rate, quote.vat_amount, quote.total = ev.totals.vat_rate, ev.totals.vat_amount, ev.totals.total
    quote.vat_category = ev.vat.category
    # staff only, beside the snapshot and never in it
    quote.costs = {part: str(cost) for part, cost in ev.costs.items() if cost is not None}
    quote.margin_eur = ev.margin.amount if ev.margin else None
    quote.margin_percent = ev.margin.percent if ev.margin else None
    quote.approval_reasons = list(ev.approval_reasons)
    with translation.override(quote.language):
        quote.vat_notice = ev.vat.notice
    result = ev.result
    validation = result.to_json()  # the quote keeps the result as the API sends it
    # What lists and reads of quotes show, in columns of their own: they never load the snapshot.
    quote.at_least, quote.design_hash = ev.totals.at_least, result.design_hash
    quote.agreement = ev.agreement.to_dict(ev.agreed) if ev.agreement else None
    quote.frozen = _snapshot(quote, ev, validation).to_json()


def _snapshot(quote: Quote, ev: Evaluation, validation: JsonObject) -> FrozenQuote:
    """The quote's snapshot: the row's terms and customer, the evaluation's lines, totals and result."""
    result = ev.result
    return FrozenQuote(
        schema_=SCHEMA,
        number=quote.number,
        revision=quote.revision,
        language=quote.language,
        currency="EUR",
        issued_at=quote.issued_at.isoformat() if quote.issued_at else None,
        valid_until=quote.valid_until.isoformat() if quote.valid_until else None,
        seller=dict(settings.SELLER),
        customer=_customer(quote),
        sales_contact=sales_contact(quote),
        terms=FrozenTerms(
            payment_days=_payment_days(ev),
            incoterm=settings.QUOTE_INCOTERM,
            general_terms_url=settings.QUOTE_GENERAL_TERMS_URL,
        ),
        indicative=False,
        crm_reference=quote.crm_reference,
        design=ev.document,
        validation=validation,
        lines=[_line(line, ev) for line in ev.lines],
        discount_percent=quote.discount_percent,
        line_discounts={k: Decimal(str(v)) for k, v in quote.line_discounts.items()},
        totals=FrozenTotals(
            currency="EUR",
            subtotal=ev.totals.subtotal,
            discount=ev.totals.discount,
            net=ev.totals.net,
            vat_rate=ev.totals.vat_rate,
            vat_amount=ev.totals.vat_amount,
            total=ev.totals.total,
            at_least=ev.totals.at_least,
        ),
        vat=FrozenVat(category=ev.vat.category, rate=ev.vat.rate, notice=quote.vat_notice),
        agreement=FrozenAgreement.model_validate(quote.agreement) if quote.agreement is not None else None,
        acknowledgements=_acknowledgements(quote.configuration, result, ev.growth_findings),
        approval=(
            FrozenApproval(by=quote.approved_by.get_username(), at=quote.approved_at.isoformat())
            if quote.approved_by_id and quote.approved_by is not None and quote.approved_at
            else None
        ),
        receipt=FrozenReceipt(
            design_hash=result.design_hash,
            catalog_version=result.catalog_version,
            catalog_digest=freeze_catalog(ev.catalog) if ev.catalog is not None else None,
            findings=validation["findings"],
        ),
        **_expansion(quote, ev),
    )


def _expansion(quote: Quote, ev: Evaluation) -> dict[str, FrozenExpansion]:
    """An expansion quote's growth, with its original's number (or its built configuration's name); nothing for any
    other quote."""
    if ev.expansion is None:
        return {}
    if quote.expansion_of is not None:
        return {"expansion": FrozenExpansion.model_validate({**ev.expansion, "of": quote.expansion_of.number})}
    if quote.expansion_of_built is not None:
        built = quote.expansion_of_built
        name = built.name or f"#{built.pk}"
        return {"expansion": FrozenExpansion.model_validate({**ev.expansion, "built": name})}
    return {}


def _payment_days(ev: Evaluation) -> int:
    """The agreed payment term of the customer's price agreement, else the standard one."""
    agreed = ev.agreement.payment_days if ev.agreement else None
    return settings.QUOTE_PAYMENT_DAYS if agreed is None else agreed


def _line(line: PricedLine, ev: Evaluation) -> FrozenLine:
    """A frozen line: its prices, its lead time, and the agreed discount it carries (None: not the agreement's)."""
    agreed = ev.agreed.get(line.part_number) if line.part_number else None
    return FrozenLine(
        section=line.section,
        group=line.group,
        part_number=line.part_number,
        description=line.description,
        quantity=line.quantity,
        unit_price=line.unit_price,
        list_total=line.list_total,
        line_discount_percent=line.line_discount_percent,
        line_discount=line.line_discount,
        quote_discount_percent=line.quote_discount_percent,
        quote_discount=line.quote_discount,
        net=line.net,
        lead_time_days=ev.lead_times.get(line.part_number),
        agreement_discount_percent=None if agreed is None or line.on_request else agreed,
    )


def _customer(quote: Quote) -> FrozenCustomer:
    address = (
        FrozenAddress(street=quote.customer_street, postal_code=quote.customer_postal_code, city=quote.customer_city)
        if quote.customer_street
        else None
    )
    return FrozenCustomer(
        name=quote.customer_name,
        company=quote.customer_company,
        email=quote.customer_email,
        country=quote.customer_country,
        vat_number=quote.customer_vat_number,
        kvk_number=quote.customer_kvk,
        address=address,
    )


def _contact_of(user: User | None) -> FrozenContact | None:
    if user is None or not user.is_staff:
        return None
    return FrozenContact(
        name=user.get_full_name() or user.get_username(),
        email=user.email or settings.QUOTE_SALES_EMAIL,
        phone=settings.SELLER["phone"],
    )


def sales_contact(quote: Quote, issued_by: User | None = None) -> FrozenContact:
    """Who answers for the offer: the sales engineer who issued or made it, else the one the design is assigned
    to, else the sales team's address (settings.QUOTE_SALES_EMAIL)."""
    for user in (issued_by, quote.created_by, quote.configuration.assigned_to):
        if (contact := _contact_of(user)) is not None:
            return contact
    return FrozenContact(name="", email=settings.QUOTE_SALES_EMAIL, phone=settings.SELLER["phone"])
