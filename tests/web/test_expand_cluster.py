""" "Expand this cluster": a won or issued quote's page (the customer's, and the sales engineer's quote step) leads
to a small form (node group, nodes to add) that shows what the expansion takes and requests the expansion quote;
the home page offers it for this browser's won or issued quotes."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from quotes.models import Quote
from tests.web.pages import CUSTOMER, H200_CLUSTER, grant, url

pytestmark = pytest.mark.django_db


@pytest.fixture
def anna_quote(make_config, media_root):
    """Anna's browser and the quote it requested for the 4-node H200 example, issued at once."""
    config = make_config()
    anna = Client()
    assert anna.post(url(config, "quote"), CUSTOMER).status_code == 302
    quote = Quote.objects.get(configuration=config)
    assert quote.status == Quote.Status.ISSUED
    return anna, quote


@pytest.fixture
def media_root(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path / "media")


def expand_url(quote: Quote) -> str:
    return reverse("configurator:expand", args=[quote.token])


def test_the_quote_page_and_the_quote_step_offer_to_expand_the_cluster(anna_quote, staff_client):
    anna, quote = anna_quote
    page = anna.get(reverse("quotes:status", args=[quote.token])).content.decode()
    assert "Expand this cluster" in page and expand_url(quote) in page
    step = staff_client.get(url(quote.configuration, "quote")).content.decode()
    assert 'id="expand-cluster"' in step and expand_url(quote) in step


def test_a_quote_waiting_for_review_offers_no_expansion(anna_quote):
    anna, quote = anna_quote
    Quote.objects.filter(pk=quote.pk).update(status=Quote.Status.AWAITING_REVIEW)
    page = anna.get(reverse("quotes:status", args=[quote.token])).content.decode()
    assert "Expand this cluster" not in page
    refused = anna.get(expand_url(quote))
    assert refused.status_code == 409 and 'id="not-expandable"' in refused.content.decode()


def test_the_form_shows_what_the_expansion_takes(anna_quote):
    anna, quote = anna_quote
    form = anna.get(expand_url(quote))
    assert form.status_code == 200 and 'name="add"' in form.content.decode()
    group = quote.frozen["design"]["node_groups"][0]["name"]
    shown = anna.post(expand_url(quote), {"node_group": group, "add": "4", "action": "preview"})
    body = shown.content.decode()
    assert shown.status_code == 200 and 'id="expansion-summary"' in body
    assert "After the expansion" in body and "8 nodes" in body and "SVC-RECABLE" in body
    assert Quote.objects.count() == 1  # a summary stores nothing


def test_a_bad_number_of_nodes_is_refused_at_its_field(anna_quote):
    anna, quote = anna_quote
    group = quote.frozen["design"]["node_groups"][0]["name"]
    refused = anna.post(expand_url(quote), {"node_group": group, "add": "0", "action": "request"})
    assert refused.status_code == 422
    assert 'id="id_add_error"' in refused.content.decode()
    assert Quote.objects.count() == 1


def test_requesting_the_expansion_quote_shows_it_on_the_grown_designs_quote_step(anna_quote, client):
    anna, quote = anna_quote
    group = quote.frozen["design"]["node_groups"][0]["name"]
    response = anna.post(expand_url(quote), {"node_group": group, "add": "4", "action": "request"})
    assert response.status_code == 302
    expansion = Quote.objects.exclude(pk=quote.pk).get()
    assert expansion.expansion_of == quote and expansion.channel == "web"
    assert expansion.customer_email == CUSTOMER["email"]
    assert response["Location"] == url(expansion.configuration, "quote")
    assert expansion.configuration.document["node_groups"][0]["count"] == 8
    assert expansion.number in anna.get(response["Location"]).content.decode()  # this browser is shown it
    page = anna.get(reverse("quotes:status", args=[expansion.token])).content.decode()
    assert f"Expansion of quote {quote.number}" in page
    # the home page offers the browser's won or issued quotes to expand; another browser sees none
    home = anna.get(reverse("home")).content.decode()
    assert 'id="expandable-quotes"' in home and expand_url(quote) in home
    assert 'id="expandable-quotes"' not in client.get(reverse("home")).content.decode()


def test_the_form_sent_twice_gets_one_expansion_quote(anna_quote):
    anna, quote = anna_quote
    group = quote.frozen["design"]["node_groups"][0]["name"]
    first = anna.post(expand_url(quote), {"node_group": group, "add": "4", "action": "request"})
    again = anna.post(expand_url(quote), {"node_group": group, "add": "4", "action": "request"})
    assert first.status_code == again.status_code == 302 and first["Location"] == again["Location"]
    assert Quote.objects.filter(expansion_of=quote).count() == 1
    # another growth is another quote
    assert anna.post(expand_url(quote), {"node_group": group, "add": "8", "action": "request"}).status_code == 302
    assert Quote.objects.filter(expansion_of=quote).count() == 2


def test_an_unknown_quote_is_404(client):
    assert client.get(reverse("configurator:expand", args=["no-such-token"])).status_code == 404


def test_the_dutch_page_says_it_in_dutch(anna_quote):
    anna, quote = anna_quote
    page = anna.get(reverse("quotes:status", args=[quote.token]), HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Dit cluster uitbreiden" in page


def test_a_sales_engineer_accepts_what_the_growth_crosses_before_issuing_the_expansion_quote(
    make_config, media_root, staff_client, staff
):
    # Three nodes, two a rack: a fourth joins the third in its installed rack, which then draws more than the
    # installed plan gave it. The grown design's quote step lists that beside the design's findings, and the quote
    # is issued once a sales engineer accepts it with a reason.
    grant(staff, "issue_quote")
    three = {**H200_CLUSTER, "node_groups": [{**H200_CLUSTER["node_groups"][0], "count": 3}]}
    anna = Client()
    assert anna.post(url(make_config(three), "quote"), CUSTOMER).status_code == 302
    quote = Quote.objects.get()
    anna.post(expand_url(quote), {"node_group": "gpu", "add": "1", "action": "request"})
    expansion = Quote.objects.exclude(pk=quote.pk).get()
    assert expansion.status == Quote.Status.AWAITING_REVIEW
    grown = expansion.configuration
    step = staff_client.get(url(grown, "quote")).content.decode()
    assert 'data-code="EXPANSION_RACK_POWER"' in step and "R01-02" in step and "Accept warning" in step
    assert 'id="issue-quote" disabled' in step
    staff_client.post(
        reverse("configurator:acknowledge", kwargs={"token": grown.token}),
        {"code": "EXPANSION_RACK_POWER", "subject": "rack_plan", "reason": "PDU has room", "next_step": "quote"},
    )
    step = staff_client.get(url(grown, "quote")).content.decode()
    assert "PDU has room" in step and 'id="issue-quote" disabled' not in step
    staff_client.post(url(grown, "quote"), {"action": "issue", "quote": expansion.token})
    expansion.refresh_from_db()
    assert expansion.status == Quote.Status.ISSUED
    assert [a["code"] for a in expansion.frozen["acknowledgements"]] == ["EXPANSION_RACK_POWER"]


def test_a_sales_engineer_marks_a_design_built_and_quotes_its_expansion(make_config, media_root, staff_client, staff):
    # A cluster sold elsewhere: its design is marked as built on the quote step, then expanded there for a
    # customer the sales engineer names; the new quote refers to the built design and its lines are the growth.
    config = make_config()
    config.valid = True
    config.save(update_fields=["valid"])
    step = staff_client.get(url(config, "quote")).content.decode()
    assert 'id="mark-built"' in step and 'id="expand-built"' not in step
    staff_client.post(reverse("configurator:mark_built", args=[config.token]))
    config.refresh_from_db()
    assert config.built_at is not None
    step = staff_client.get(url(config, "quote")).content.decode()
    built_url = reverse("configurator:expand_built", args=[config.token])
    assert 'id="built-at"' in step and built_url in step
    shown = staff_client.post(built_url, {"node_group": "gpu", "add": "4", "action": "preview"}).content.decode()
    assert 'id="expansion-summary"' in shown and "8 nodes" in shown
    customer = {k: v for k, v in CUSTOMER.items() if k != "action"}
    refused = staff_client.post(
        built_url, {**customer, "email": "nope", "node_group": "gpu", "add": "4", "action": "request"}
    )
    assert refused.status_code == 422 and 'id="id_email_error"' in refused.content.decode()
    assert not Quote.objects.exists()  # nothing stored
    response = staff_client.post(built_url, {**customer, "node_group": "gpu", "add": "4", "action": "request"})
    quote = Quote.objects.get()
    assert quote.expansion_of_built == config and quote.customer_email == CUSTOMER["email"]
    assert response["Location"] == url(quote.configuration, "quote")
    assert quote.configuration.document["node_groups"][0]["count"] == 8
    assert quote.status == Quote.Status.ISSUED
    parts = {line["part_number"]: line["quantity"] for line in quote.frozen["lines"]}
    assert parts["SYS-821GE-TNHR"] == 4 and parts["SVC-RECABLE"] > 0  # the growth, not the grown cluster
    # Its next expansion's form starts from that quote's customer, address and KvK number included.
    Quote.objects.filter(pk=quote.pk).update(configuration=config, customer_kvk="12345678")
    again = staff_client.get(built_url).content.decode()
    for field, value in (("company", "Rekenkracht B.V."), ("street", "Stationsplein 1"), ("kvk_number", "12345678")):
        assert f'name="{field}" value="{value}"' in again or f'value="{value}" name="{field}"' in again, field


def test_only_a_design_marked_as_built_is_expanded_and_only_by_staff(make_config, staff_client):
    config = make_config()
    client = Client()
    built_url = reverse("configurator:expand_built", args=[config.token])
    refused = staff_client.get(built_url)
    assert refused.status_code == 409 and 'id="not-built"' in refused.content.decode()
    assert client.get(built_url).status_code == 302  # customers are sent to sign in
    assert client.post(reverse("configurator:mark_built", args=[config.token])).status_code == 302
    config.refresh_from_db()
    assert config.built_at is None
