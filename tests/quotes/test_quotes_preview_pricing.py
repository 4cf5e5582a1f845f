"""The price preview's arithmetic is the quote's: a discount the preview reads is the one a quote request reads
(same value, same refusal and message), and the preview's figures are those of the quote then requested."""

from __future__ import annotations

from decimal import Decimal

import pytest

from quotes import pricing
from quotes.services import QuoteError, quote_request

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("typed", ["", "0", "12,5", " 7.25 ", "100", "120", "-1", "1.005", "abc", "NaN", "Infinity"])
def test_the_preview_reads_a_discount_as_a_quote_request_does(configuration, customer, staff, typed):
    try:
        expected = ("ok", pricing.parse_percent(typed))
    except pricing.PercentError as exc:
        expected = ("refused", str(exc))
    try:
        quote = quote_request(
            configuration=configuration, customer=customer, user=staff, channel="staff", discount_percent=typed
        )
    except QuoteError as exc:
        assert expected == ("refused", exc.errors["discount_percent"])
    else:
        assert expected == ("ok", quote.discount_percent)


def test_the_preview_prices_a_design_to_the_cent_of_its_quote(configuration, customer, staff):
    from configurator.bom import design_bill
    from configurator.services import design_validate

    result = design_validate(document=configuration.document)
    bom = design_bill(document=configuration.document, result=result).lines
    lines = {"HGX-H200-8GPU": Decimal("3.33")}
    preview = pricing.price_preview(
        pricing.raw_lines(bom),
        quote_discount_percent=Decimal("11.11"),
        line_discounts=lines,
        vat_rate=Decimal("21"),
        threshold=Decimal("15"),
    )
    quote = quote_request(
        configuration=configuration,
        customer=customer,
        user=staff,
        channel="staff",
        discount_percent="11.11",
        line_discounts={"HGX-H200-8GPU": "3.33"},
    )
    t = preview.totals
    assert (t.subtotal, t.discount, t.net, t.vat_amount, t.total) == (
        quote.subtotal,
        quote.discount,
        quote.net,
        quote.vat_amount,
        quote.total,
    )
    assert preview.needs_approval is False and quote.status == "issued"
