"""Pricing and VAT rules (pure functions; the rules are documented in quotes/pricing.py and quotes/vat.py)."""

from decimal import Decimal as D

import pytest

from quotes import pricing
from quotes.vat import VatInputError, normalise_country, normalise_vat_number, vat_decide


def raw(price: str, qty: int = 1, pn: str = "P") -> pricing.RawLine:
    return pricing.RawLine(section="gpu", part_number=pn, description="", quantity=qty, unit_price=D(price))


@pytest.mark.parametrize(
    ("price", "qty", "line_pct", "quote_pct", "list_total", "line_disc", "quote_disc", "net"),
    [
        # 3 × 0.335 = 1.005 → 1.01 (half up, not banker's 1.00)
        ("0.335", 3, "0", "0", "1.01", "0.00", "0.00", "1.01"),
        # 10% of 0.05 = 0.005 → 0.01
        ("0.05", 1, "10", "0", "0.05", "0.01", "0.00", "0.04"),
        # the quote discount applies after the line discount: 1000 − 100 = 900; 10% of 900 = 90
        ("1000.00", 1, "10", "10", "1000.00", "100.00", "90.00", "810.00"),
        # 12.5% of 0.04 = 0.005 → 0.01
        ("0.02", 2, "0", "12.5", "0.04", "0.00", "0.01", "0.03"),
        ("220000.00", 128, "0", "5", "28160000.00", "0.00", "1408000.00", "26752000.00"),
        ("99.99", 1, "100", "0", "99.99", "99.99", "0.00", "0.00"),
    ],
)
def test_line_amounts_round_half_up_to_cents(price, qty, line_pct, quote_pct, list_total, line_disc, quote_disc, net):
    line = pricing.price_line(raw(price, qty), line_discount_percent=D(line_pct), quote_discount_percent=D(quote_pct))
    assert (line.list_total, line.line_discount, line.quote_discount, line.net) == (
        D(list_total),
        D(line_disc),
        D(quote_disc),
        D(net),
    )


def test_lines_add_up_to_the_net_total_and_vat_is_rounded_once():
    lines = pricing.price_lines(
        [raw("0.335", 3, "A"), raw("0.335", 3, "B"), raw("10.00", 1, "C")],
        quote_discount_percent=D("0"),
        line_discounts={"C": D("33.33")},
    )
    totals = pricing.price_totals(lines, vat_rate=D("21"))
    assert totals.net == sum(line.net for line in lines) == D("1.01") + D("1.01") + D("6.67")
    assert totals.subtotal - totals.discount == totals.net
    assert totals.vat_amount == D("1.82")  # 21% of 8.69 = 1.8249, rounded once on the total
    assert totals.total == totals.net + totals.vat_amount


@pytest.mark.parametrize(
    ("quote_pct", "line_pcts", "expected"),
    [
        ("15", {}, False),  # the threshold itself is allowed
        ("15.01", {}, True),
        ("0", {"A": "16"}, True),  # a single line above the threshold
        ("10", {"A": "10"}, True),  # combined on line A: 1 − 0.9 × 0.9 = 19%
        ("5", {"A": "5"}, False),  # combined 9.75%
    ],
)
def test_discount_above_threshold_needs_approval(quote_pct, line_pcts, expected):
    line_discounts = {k: D(v) for k, v in line_pcts.items()}
    lines = pricing.price_lines(
        [raw("1000.00", 1, "A"), raw("1000.00", 1, "B")],
        quote_discount_percent=D(quote_pct),
        line_discounts=line_discounts,
    )
    assert (
        pricing.needs_approval(
            quote_discount_percent=D(quote_pct), line_discounts=line_discounts, lines=lines, threshold=D("15")
        )
        is expected
    )


@pytest.mark.parametrize(
    ("country", "vat_number", "category", "rate"),
    [
        ("NL", "", "domestic", "21"),
        ("NL", "NL004495445B01", "domestic", "21"),  # Dutch business: still Dutch VAT
        ("DE", "DE136695976", "reverse_charge", "0"),  # EU business: reverse charged
        ("BE", "BE0403019261", "reverse_charge", "0"),
        ("DE", "", "eu_consumer", "21"),
        ("US", "", "export", "0"),
        ("CH", "CHE-123.456.788", "export", "0"),
    ],
)
def test_vat_follows_customer_country_and_vat_number(country, vat_number, category, rate):
    number = normalise_vat_number(vat_number, normalise_country(country))
    decision = vat_decide(country=country, vat_number=number)
    assert (decision.category, decision.rate) == (category, D(rate))


def test_vat_number_without_prefix_gets_the_country_prefix_and_greece_uses_el():
    assert normalise_vat_number("136695976", "DE") == "DE136695976"
    assert normalise_vat_number("EL094259216", "GR") == "EL094259216"


@pytest.mark.parametrize(
    ("country", "vat_number", "field"),
    [
        ("DE", "DE12345", "vat_number"),  # too short
        ("DE", "DE136695977", "vat_number"),  # wrong check digit
        ("DE", "NL004495445B01", "vat_number"),  # another country's number
        ("XX", "", "country"),
        ("Netherlands", "", "country"),
        ("", "", "country"),
    ],
)
def test_rejects_malformed_vat_numbers_and_unknown_countries(country, vat_number, field):
    with pytest.raises(VatInputError) as exc:
        normalise_vat_number(vat_number, normalise_country(country))
    assert exc.value.field == field
