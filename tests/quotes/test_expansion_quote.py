"""The expansion quote (quotes.services.expanding): a quote like any other whose lines are what the growth of a won
or issued quote's cluster adds, referring to that quote."""

from __future__ import annotations

import pytest

from configurator.models import Configuration
from design.model import DesignInputError
from quotes.models import Quote
from quotes.services import (
    QuoteError,
    expansion_design,
    quote_expansion_request,
    quote_request,
    quote_revise,
)
from quotes.services.expansion import Growth, expansion_plan
from tests.factories import design

pytestmark = pytest.mark.django_db


@pytest.fixture
def original(make_configuration, customer, media, build):
    """An issued quote of four H200 nodes on a rail-optimized QM9700 fabric, issued by the CRM (no review)."""
    configuration = make_configuration(design(4))
    customer = {
        **customer,
        "kvk_number": "12345678",
        "address": {"street": "Dam 1", "postal_code": "1012 JS", "city": "Amsterdam"},
    }
    quote = build(quote_request, configuration=configuration, customer=customer, channel="api", crm_reference="OPP-7")
    assert quote.status == Quote.Status.ISSUED, quote.review_reason
    return quote


def _expand(original, build, add=4, **kwargs):
    grown = expansion_design(original=original, growth=Growth(node_group="gpu", add=add))
    configuration = Configuration.objects.create(document=grown, name="grown")
    return build(quote_expansion_request, original=original, configuration=configuration, channel="api", **kwargs)


def _bill(lines, part="part_number"):
    return sorted((line["section"], line[part], line["quantity"]) for line in lines)


def test_the_expansion_quotes_lines_are_the_delta_bill_with_the_recabling_line(original, build):
    quote = _expand(original, build)
    quote.refresh_from_db()
    plan = expansion_plan(installed=original.frozen, growth=Growth(node_group="gpu", add=4)).to_json()
    assert _bill(quote.frozen["lines"]) == _bill(plan["delta_bom"], "part")
    parts = {line["part_number"]: line["quantity"] for line in quote.frozen["lines"]}
    assert parts["SYS-821GE-TNHR"] == 4  # the four new nodes, not the eight of the grown cluster
    assert parts["SVC-RECABLE"] == plan["expansion"]["labour_cables"] > 0
    assert quote.status == Quote.Status.ISSUED and quote.doc_status == Quote.DocStatus.READY


def test_the_expansion_quote_refers_to_the_original_number_and_keeps_its_customer(original, build):
    quote = _expand(original, build)
    quote.refresh_from_db()
    assert quote.expansion_of == original and quote.number != original.number
    expansion = quote.frozen["expansion"]
    assert expansion["of"] == original.number
    assert (expansion["installed_nodes"], expansion["expanded_nodes"]) == (4, 8)
    assert expansion["cables"]["keep"] > 0 and expansion["cables"]["add"] > 0
    assert all(row["action"] != "keep" for row in expansion["recabling"])  # kept cables only counted
    assert (quote.customer_email, quote.customer_kvk, quote.customer_city) == (
        original.customer_email,
        original.customer_kvk,
        "Amsterdam",
    )
    assert (quote.crm_reference, quote.channel) == ("OPP-7", "api")
    assert original.expansions.get() == quote


def test_a_revision_keeps_the_original_and_prices_the_delta_again(original, build):
    quote = _expand(original, build)
    revised = build(quote_revise, quote=quote, discount_percent="5")
    revised.refresh_from_db()
    assert revised.expansion_of == original and revised.frozen["expansion"]["of"] == original.number
    assert _bill(revised.frozen["lines"]) == _bill(Quote.objects.get(pk=quote.pk).frozen["lines"])


def test_only_a_won_or_issued_quote_is_expanded(original, build):
    Quote.objects.filter(pk=original.pk).update(status=Quote.Status.SUPERSEDED)
    original.refresh_from_db()
    with pytest.raises(QuoteError) as refused:
        expansion_design(original=original, growth=Growth(node_group="gpu", add=2))
    assert "quote" in refused.value.errors


def test_an_unknown_node_group_is_refused_naming_the_field(original):
    with pytest.raises(DesignInputError) as refused:
        expansion_design(original=original, growth=Growth(node_group="cpu", add=2))
    assert "node_group" in refused.value.errors
