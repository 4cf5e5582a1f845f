"""Quote pricing: pure Decimal arithmetic, no floats, no database (messages through gettext only).

Rounding rule (documented on the quote): every amount is rounded to whole cents, half up (0.005 → 0.01),
at these points and nowhere else:

1. line list value   = unit list price × quantity                        → cents
2. line discount     = line list value × line discount % / 100            → cents
3. quote discount    = (line list value − line discount) × quote % / 100  → cents, per line
4. line net          = line list value − line discount − quote discount   (exact, already cents)
5. subtotal          = Σ line list values; discount = Σ (line + quote discounts); net = Σ line nets (exact)
6. VAT               = net × VAT rate / 100                               → cents, once on the quote total
7. total             = net + VAT

Applying the quote discount per line keeps every printed line consistent with the totals: the lines of the
bill of materials always add up to the net amount exactly.

A line priced on request (no list price in the catalogue) has no amounts: it is quoted with its quantity, takes no
discount, and every total leaves it out, so the totals are *at least* these (``Totals.at_least``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Protocol

from django.utils.translation import gettext as _

CENT = Decimal("0.01")
HUNDRED = Decimal("100")
ZERO = Decimal("0.00")


def cents(value: Decimal) -> Decimal:
    return value.quantize(CENT, rounding=ROUND_HALF_UP)


def _text(value: Decimal | None) -> str | None:
    return None if value is None else str(value)


@dataclass(frozen=True)
class PricedLine:
    """A priced line; ``unit_price``, ``list_total`` and ``net`` are None for a line priced on request."""

    section: str
    part_number: str
    description: str
    quantity: int
    unit_price: Decimal | None
    list_total: Decimal | None
    line_discount_percent: Decimal
    line_discount: Decimal
    quote_discount_percent: Decimal
    quote_discount: Decimal
    net: Decimal | None
    group: str | None = None

    @property
    def on_request(self) -> bool:
        return self.unit_price is None

    def to_dict(self) -> dict[str, object]:
        return {
            "section": self.section,
            "group": self.group,
            "part_number": self.part_number,
            "description": self.description,
            "quantity": self.quantity,
            "unit_price": _text(self.unit_price),
            "list_total": _text(self.list_total),
            "line_discount_percent": str(self.line_discount_percent),
            "line_discount": str(self.line_discount),
            "quote_discount_percent": str(self.quote_discount_percent),
            "quote_discount": str(self.quote_discount),
            "net": _text(self.net),
        }


@dataclass(frozen=True)
class Totals:
    subtotal: Decimal
    discount: Decimal
    net: Decimal
    vat_rate: Decimal
    vat_amount: Decimal
    total: Decimal
    at_least: bool = False  # some line is priced on request: every amount leaves it out

    @property
    def effective_discount_percent(self) -> Decimal:
        """The discount as a share of the list value, for the approval rule."""
        return ZERO if not self.subtotal else (self.discount * HUNDRED / self.subtotal)

    def to_dict(self) -> dict[str, str | bool]:
        return {
            "currency": "EUR",
            "subtotal": str(self.subtotal),
            "discount": str(self.discount),
            "net": str(self.net),
            "vat_rate": str(self.vat_rate),
            "vat_amount": str(self.vat_amount),
            "total": str(self.total),
            "at_least": self.at_least,
        }


@dataclass(frozen=True)
class RawLine:
    section: str
    part_number: str
    description: str
    quantity: int
    unit_price: Decimal | None  # None: priced on request
    group: str | None = None


class BillLine(Protocol):
    """A line of the bill of materials as pricing reads it (configurator.bom.BomLine)."""

    @property
    def section(self) -> str: ...
    @property
    def part_number(self) -> str: ...
    @property
    def description(self) -> str: ...
    @property
    def quantity(self) -> int: ...
    @property
    def unit_price_eur(self) -> Decimal | str | None: ...


def raw_lines(bom_lines: Iterable[BillLine]) -> list[RawLine]:
    """The lines to price from a bill of materials (configurator.bom.BomLine: section, group, part_number,
    description, quantity, unit_price_eur; None for a line priced on request), in the bill's order."""
    return [
        RawLine(
            section=line.section,
            part_number=line.part_number,
            description=line.description,
            quantity=line.quantity,
            unit_price=None if line.unit_price_eur is None else Decimal(line.unit_price_eur),
            group=getattr(line, "group", None),
        )
        for line in bom_lines
    ]


def price_line(raw: RawLine, *, line_discount_percent: Decimal, quote_discount_percent: Decimal) -> PricedLine:
    if raw.unit_price is None:  # on request: quoted with its quantity, no amounts, no discount
        return PricedLine(
            raw.section,
            raw.part_number,
            raw.description,
            raw.quantity,
            None,
            None,
            ZERO,
            ZERO,
            ZERO,
            ZERO,
            None,
            raw.group,
        )
    list_total = cents(raw.unit_price * raw.quantity)
    line_discount = cents(list_total * line_discount_percent / HUNDRED)
    quote_discount = cents((list_total - line_discount) * quote_discount_percent / HUNDRED)
    return PricedLine(
        section=raw.section,
        part_number=raw.part_number,
        description=raw.description,
        quantity=raw.quantity,
        unit_price=cents(raw.unit_price),
        list_total=list_total,
        line_discount_percent=line_discount_percent,
        line_discount=line_discount,
        quote_discount_percent=quote_discount_percent,
        quote_discount=quote_discount,
        net=list_total - line_discount - quote_discount,
        group=raw.group,
    )


def price_lines(
    raw_lines: Iterable[RawLine], *, quote_discount_percent: Decimal, line_discounts: Mapping[str, Decimal]
) -> list[PricedLine]:
    """Price every line; ``line_discounts`` maps a part number to its discount on every line of that part."""
    return [
        price_line(
            raw,
            line_discount_percent=line_discounts.get(raw.part_number, Decimal("0")),
            quote_discount_percent=quote_discount_percent,
        )
        for raw in raw_lines
    ]


def _amount(value: Decimal | None) -> Decimal:
    """An amount of a priced line (price_line gives every line with a unit price its list value and net amount;
    only a line priced on request has none, and it is never summed)."""
    if value is None:
        raise ValueError("a priced line without an amount")
    return value


def price_totals(lines: Iterable[PricedLine], *, vat_rate: Decimal) -> Totals:
    lines = list(lines)
    priced = [line for line in lines if not line.on_request]
    subtotal = sum((_amount(line.list_total) for line in priced), ZERO)
    discount = sum((line.line_discount + line.quote_discount for line in priced), ZERO)
    net = sum((_amount(line.net) for line in priced), ZERO)
    vat_amount = cents(net * vat_rate / HUNDRED)
    return Totals(
        subtotal=subtotal,
        discount=discount,
        net=net,
        vat_rate=vat_rate,
        vat_amount=vat_amount,
        total=net + vat_amount,
        at_least=len(priced) < len(lines),
    )


def needs_approval(
    *,
    quote_discount_percent: Decimal,
    line_discounts: Mapping[str, Decimal],
    lines: Iterable[PricedLine],
    threshold: Decimal,
) -> bool:
    """A discount above the threshold needs approval: the quote discount, any line discount, or both combined
    on any line (10% on a line plus 10% on the quote is 19% off that line)."""
    if quote_discount_percent > threshold or any(value > threshold for value in line_discounts.values()):
        return True
    return any(
        line.list_total and (line.line_discount + line.quote_discount) * HUNDRED > threshold * line.list_total
        for line in lines
    )


class PercentError(ValueError):
    """A discount percentage that cannot be used; the message says why, in the active language."""


def parse_percent(value: object) -> Decimal:
    """A discount as typed (``12,5``, ``12.5``, empty for none) → Decimal with two decimals, 0 ≤ x ≤ 100.

    The same rules and messages as the quote services apply when a quote is requested, so a discount the preview
    accepts is one the quote accepts. Raises PercentError."""
    if value is None or value == "":
        return Decimal("0")
    if isinstance(value, bool):
        raise PercentError(_("Enter the discount as a number between 0 and 100."))
    text = str(value).strip().replace(",", ".") if isinstance(value, str) else str(value)
    if not text:
        return Decimal("0")
    try:
        number = Decimal(text)
    except (InvalidOperation, ValueError):
        raise PercentError(
            _("“%(value)s” is not a number; enter a percentage between 0 and 100.") % {"value": str(value)[:20]}
        ) from None
    if not number.is_finite():
        raise PercentError(_("Enter a finite percentage between 0 and 100."))
    if number < 0:
        raise PercentError(_("A discount cannot be negative."))
    if number > 100:
        raise PercentError(_("A discount cannot exceed 100%."))
    if number != number.quantize(CENT):
        raise PercentError(_("Give the discount with at most two decimals."))
    return number.quantize(CENT)


@dataclass(frozen=True)
class Preview:
    """What a quote with these discounts comes to, before it is requested: the priced lines, the totals and
    whether the discount waits for a second person's approval."""

    lines: list[PricedLine]
    totals: Totals
    needs_approval: bool
    threshold: Decimal


def price_preview(
    raw_lines: Iterable[RawLine],
    *,
    quote_discount_percent: Decimal,
    line_discounts: Mapping[str, Decimal],
    vat_rate: Decimal,
    threshold: Decimal,
) -> Preview:
    """Price a quote exactly as issuing it does (price_lines, price_totals, needs_approval), without storing it."""
    lines = price_lines(raw_lines, quote_discount_percent=quote_discount_percent, line_discounts=line_discounts)
    return Preview(
        lines=lines,
        totals=price_totals(lines, vat_rate=vat_rate),
        needs_approval=needs_approval(
            quote_discount_percent=quote_discount_percent,
            line_discounts=line_discounts,
            lines=lines,
            threshold=threshold,
        ),
        threshold=threshold,
    )


# --- cost and margin (staff only) ----------------------------------------------------------------------------
#
# A line's cost is its part's purchase price (catalogue ``cost_price_eur``) × quantity, rounded to cents; its margin
# is its net amount less that cost, and its margin % that margin as a share of the net amount. A line priced on
# request, or whose part has no purchase price, has no margin (unknown, never zero); the quote's margin is over the
# lines whose margin is known (``complete`` says whether that is every priced line), or None when none is.


@dataclass(frozen=True)
class LineMargin:
    part_number: str
    cost: Decimal | None
    margin: Decimal | None
    percent: Decimal | None


@dataclass(frozen=True)
class Margin:
    """The quote's margin over the lines whose cost is known: amount (EUR), percent of their net, the net and cost
    it is taken over, and whether every priced line is in it."""

    amount: Decimal
    percent: Decimal | None
    net: Decimal
    cost: Decimal
    complete: bool

    def to_dict(self) -> dict[str, object]:
        return {
            "margin_eur": str(self.amount),
            "margin_percent": None if self.percent is None else str(self.percent),
            "net": str(self.net),
            "cost": str(self.cost),
            "complete": self.complete,
        }


def margin_percent(margin: Decimal, net: Decimal) -> Decimal | None:
    """A margin as a share of the net amount, in percent with two decimals; None when the net amount is zero."""
    return None if not net else cents(margin * HUNDRED / net)


def line_margins(lines: Iterable[PricedLine], costs: Mapping[str, Decimal | None]) -> list[LineMargin]:
    """Each line's cost and margin (``costs``: part number → unit purchase price, None or absent when unknown)."""
    out = []
    for line in lines:
        unit = costs.get(line.part_number) if line.part_number else None
        if unit is None or line.net is None:
            out.append(LineMargin(line.part_number, None, None, None))
            continue
        cost = cents(unit * line.quantity)
        margin = line.net - cost
        out.append(LineMargin(line.part_number, cost, margin, margin_percent(margin, line.net)))
    return out


def quote_margin(lines: Iterable[PricedLine], costs: Mapping[str, Decimal | None]) -> Margin | None:
    """The quote's margin over the lines whose margin is known; None when no line has a known cost."""
    lines = list(lines)
    known = [(line, m) for line, m in zip(lines, line_margins(lines, costs), strict=True) if m.margin is not None]
    if not known:
        return None
    net = sum((line.net for line, _m in known if line.net is not None), ZERO)
    cost = sum((m.cost for _line, m in known if m.cost is not None), ZERO)
    amount = net - cost
    priced = sum(1 for line in lines if not line.on_request)
    return Margin(amount=amount, percent=margin_percent(amount, net), net=net, cost=cost, complete=len(known) == priced)


def margin_below_floor(margin: Margin | None, floor: Decimal | None) -> bool:
    """The margin floor of the four-eyes rule: a known margin below ``floor`` percent needs approval (an unknown
    margin cannot be judged and does not)."""
    if floor is None or margin is None:
        return False
    return margin.percent is not None and margin.percent < floor if margin.net > 0 else margin.amount < 0
