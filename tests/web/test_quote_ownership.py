"""Who sees which quote of a design, and what a customer can do once a sales engineer has taken it over.

A design's link may be shared, and a sales engineer may quote the same design to other customers: a customer's
browser is shown only the quotes it requested (kept in its session), staff see all of them. After a take-over the
customer is offered a copy instead of a second request."""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from tests.web.pages import PRICED, grant, url

pytestmark = pytest.mark.django_db

ANNA = {
    "name": "Anna de Vries",
    "company": "Rekenkracht B.V.",
    "email": "anna@example.nl",
    "country": "NL",
    "vat_number": "",
    "street": "Stationsplein 1",
    "postal_code": "3511 ED",
    "city": "Utrecht",
}
BOB = {
    "name": "Bob Jansen",
    "company": "Datahal B.V.",
    "email": "bob@example.nl",
    "country": "NL",
    "vat_number": "",
    "street": "Hoofdstraat 2",
    "postal_code": "7141 AB",
    "city": "Groenlo",
}


def quotes_of(config):
    from quotes.models import Quote

    return list(Quote.objects.filter(configuration=config).order_by("created_at", "pk"))


def test_a_customer_sees_only_the_quotes_their_browser_requested(staff_client, staff, make_config):
    from quotes.services import quote_request

    config = make_config(PRICED)  # issued at once: Bob's quote is not refused while Anna's waits
    anna = Client()
    assert anna.post(url(config, "quote"), {**ANNA, "action": "request"}).status_code == 302
    (annas,) = quotes_of(config)
    # A sales engineer quotes the same design to another customer.
    bobs = quote_request(configuration=config, customer=BOB, user=staff, channel="staff")

    page = anna.get(url(config, "quote")).content.decode()
    assert annas.number in page and bobs.number not in page and "Datahal" not in page
    assert annas.number in anna.get(url(config, "quote")).content.decode()  # kept across visits

    stranger = Client().get(url(config, "quote")).content.decode()
    assert annas.number not in stranger and bobs.number not in stranger

    staff_page = staff_client.get(url(config, "quote")).content.decode()
    assert annas.number in staff_page and bobs.number in staff_page


def test_a_customer_sees_the_revisions_of_their_own_quote(staff, make_config):
    from quotes.services import quote_revise

    config = make_config()
    anna = Client()
    anna.post(url(config, "quote"), {**ANNA, "action": "request"})
    (annas,) = quotes_of(config)
    revision = quote_revise(quote=annas, user=staff)
    assert revision.token != annas.token
    page = anna.get(url(config, "quote")).content.decode()
    assert revision.number in page


def test_a_refused_second_request_is_shown_at_the_form(client, make_config, monkeypatch):
    from quotes.services import QuoteError
    from web.views import quote

    message = "A quote request for this design is already open."

    def refuse(**kwargs):
        raise QuoteError({"quote": message})

    monkeypatch.setattr(quote, "quote_request", refuse)
    config = make_config()
    response = client.post(url(config, "quote"), {**ANNA, "action": "request"})
    assert response.status_code == 422
    body = response.content.decode()
    assert 'id="form-errors"' in body and message in body[body.index('id="form-errors"') :]


def test_after_a_take_over_the_customer_is_offered_a_copy_instead_of_a_second_request(staff, make_config):
    grant(staff, "take_over_configuration")
    config = make_config()
    anna = Client()
    anna.get(url(config, "goal"))
    sales = Client()
    sales.force_login(staff, backend="django.contrib.auth.backends.ModelBackend")
    assert sales.post(reverse("configurator:take_over", kwargs={"token": config.token})).status_code == 302
    config.refresh_from_db()
    assert config.assigned_to == staff and config.channel == "web"

    page = anna.get(url(config, "quote")).content.decode()
    assert "A sales engineer is handling this design" in page and 'id="edit-copy"' in page
    assert 'id="request-quote"' not in page

    response = anna.post(url(config, "quote"), {**ANNA, "action": "request"})
    assert response.status_code == 302 and quotes_of(config) == []
    # The design is the sales engineer's now: the customer's edits go to a copy.
    anna.post(url(config, "platform"), {"nodes": "1", "server": "SYS-821GE-TNHR", "gpu": ""})
    config.refresh_from_db()
    assert config.document["node_groups"][0]["count"] == 4
    copy = anna.post(reverse("configurator:copy", kwargs={"token": config.token}))
    assert copy.status_code == 302 and config.token not in copy["Location"]

    # The sales engineer still requests quotes on it.
    assert 'id="request-quote"' in sales.get(url(config, "quote")).content.decode()


def test_taking_over_needs_the_permission(staff_client, staff, make_config):
    config = make_config()
    assert 'action="/d/' + config.token + '/take-over/"' not in staff_client.get(url(config, "review")).content.decode()
    response = staff_client.post(reverse("configurator:take_over", kwargs={"token": config.token}))
    assert response.status_code == 302
    assert [str(m) for m in get_messages(response.wsgi_request)] == [
        "You do not have the permission to take over designs."
    ]
    config.refresh_from_db()
    assert config.assigned_to is None

    grant(staff, "take_over_configuration")
    assert f'action="/d/{config.token}/take-over/"' in staff_client.get(url(config, "review")).content.decode()
    staff_client.post(reverse("configurator:take_over", kwargs={"token": config.token}))
    config.refresh_from_db()
    assert config.assigned_to == staff


def test_the_demo_sales_engineer_may_take_over(seeded_catalog, settings):
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    settings.DEBUG = True  # the command creates demo users only in local development
    call_command("ensure_demo_users", verbosity=0)
    assert get_user_model().objects.get(username="sales").has_perm("configurator.take_over_configuration")


def test_the_take_over_notice_is_in_dutch(staff, make_config):
    from django.conf import settings

    from configurator.services import configuration_take_over

    grant(staff, "take_over_configuration")
    config = configuration_take_over(configuration=make_config(), user=staff)
    dutch = Client()
    dutch.cookies[settings.LANGUAGE_COOKIE_NAME] = "nl"
    page = dutch.get(url(config, "quote")).content.decode()
    assert "Een sales engineer behandelt dit ontwerp" in page and "Een kopie bewerken" in page


def test_a_shared_draft_link_never_shows_the_first_requesters_details(make_config, django_user_model):
    """Anna requests a quote and shares the design's link: another browser gets an empty form, not Anna's name
    and company; Anna's own browser keeps them; a customer account prefills its own name."""
    config = make_config()
    anna = Client()
    assert anna.post(url(config, "quote"), {**ANNA, "action": "request"}).status_code == 302

    stranger = Client().get(url(config, "quote")).content.decode()
    assert ANNA["name"] not in stranger and ANNA["company"] not in stranger

    # Anna's own browser fills in her details on her next design.
    own = anna.get(url(make_config(), "quote")).content.decode()
    assert f'value="{ANNA["name"]}"' in own and f'value="{ANNA["company"]}"' in own

    bob = django_user_model.objects.create_user("bob", "bob@example.nl", "pw", first_name="Bob", last_name="Jansen")
    account = Client()
    account.force_login(bob)
    page = account.get(url(config, "quote")).content.decode()
    assert 'value="Bob Jansen"' in page and ANNA["name"] not in page
