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
    from tests.results import validate_json

    result = validate_json(document=configuration.document)
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


def _bill_lines(configuration):
    from configurator.bom import design_bill
    from tests.results import validate_json

    return design_bill(document=configuration.document, result=validate_json(document=configuration.document)).lines


def test_the_preview_service_comes_to_the_quote_then_requested(configuration, customer, staff, settings):
    from quotes.services import quote_preview

    settings.QUOTE_DISCOUNT_APPROVAL_THRESHOLD = 15
    preview = quote_preview(
        lines=_bill_lines(configuration),
        discount_percent="11,11",
        line_discounts={"HGX-H200-8GPU": "3.33", "MCX75310AAS-NEAT": ""},
        country="DE",
        vat_number="",
    )
    quote = quote_request(
        configuration=configuration,
        customer={**customer, "country": "DE"},
        user=staff,
        channel="staff",
        discount_percent="11.11",
        line_discounts={"HGX-H200-8GPU": "3.33"},
    )
    t = preview.result.totals
    assert preview.errors == {} and preview.vat.rate == quote.vat_rate
    assert (t.net, t.vat_amount, t.total) == (quote.net, quote.vat_amount, quote.total)
    assert preview.result.needs_approval is False and quote.status == "issued"


def test_the_preview_service_names_each_bad_input_as_a_quote_request_does(configuration, customer, staff):
    from quotes.services import quote_preview

    preview = quote_preview(
        lines=_bill_lines(configuration),
        discount_percent="abc",
        line_discounts={"HGX-H200-8GPU": "120", "NOT-ON-THE-BILL": "5"},
        country="NL",
        vat_number="NL123",
    )
    with pytest.raises(QuoteError) as refused:
        quote_request(
            configuration=configuration,
            customer={**customer, "vat_number": "NL123"},
            user=staff,
            channel="staff",
            discount_percent="abc",
            line_discounts={"HGX-H200-8GPU": "120"},
        )
    assert preview.result is None and preview.vat is None
    assert list(preview.errors) == [
        "discount_percent",
        "line_discounts.HGX-H200-8GPU",
        "line_discounts.NOT-ON-THE-BILL",
        "vat_number",
    ]
    for key in ("discount_percent", "line_discounts.HGX-H200-8GPU"):
        assert preview.errors[key] == refused.value.errors[key]
    assert "NOT-ON-THE-BILL" in preview.errors["line_discounts.NOT-ON-THE-BILL"]


def test_the_quote_evaluation_reads_the_design_once_and_prices_it_from_the_catalogue_it_validated(
    configuration, monkeypatch
):
    """The bill is priced from the design as parsed for its validation, from the same catalogue view: one parse,
    one catalogue read, so a price change in between cannot give a quote validated on one catalogue and priced on
    another."""
    import configurator.services
    import engines.intake.parse
    from quotes.services.evaluation import evaluate

    parses, reads = [], []
    validate, snapshot = engines.intake.parse.DesignDocument.model_validate, configurator.validation.catalog_snapshot
    monkeypatch.setattr(
        engines.intake.parse.DesignDocument,
        "model_validate",
        classmethod(lambda cls, *a, **k: parses.append(1) or validate(*a, **k)),
    )
    monkeypatch.setattr(configurator.validation, "catalog_snapshot", lambda: reads.append(1) or snapshot())
    ev = evaluate(
        configuration=configuration,
        language="en",
        country="NL",
        vat_number="",
        discount_percent=Decimal("0"),
        line_discounts={},
    )
    assert ev.result.valid and ev.lines and ev.totals.net > 0
    assert (len(parses), len(reads)) == (1, 1)
