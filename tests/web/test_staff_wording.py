"""Staff tools on the quote step: the approve button only for who may approve, staff wording for the customer's
details, and English dates day-first in the site's format."""

from __future__ import annotations

from datetime import date

import pytest
from django.test import Client
from django.utils import formats, translation

from tests.factories import StaffFactory, grant
from tests.web.pages import CUSTOMER, url

pytestmark = pytest.mark.django_db


def _awaiting_approval(make_config, setter):
    from quotes.services import quote_request

    config = make_config()
    customer = {k: v for k, v in CUSTOMER.items() if k != "action"}
    quote = quote_request(configuration=config, customer=customer, user=setter, channel="staff", discount_percent=30)
    assert quote.status == "awaiting_approval"
    return config, quote


def _page(user, config):
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client.get(url(config, "quote")).content.decode()


def test_the_approve_button_shows_only_for_a_user_who_may_approve(make_config):
    setter = grant(StaffFactory(username="setter"), "approve_quote")
    approver = grant(StaffFactory(username="approver"), "approve_quote")
    plain = StaffFactory(username="plain")
    config, _quote = _awaiting_approval(make_config, setter)

    assert 'id="approve-quote"' in _page(approver, config)
    for user in (setter, plain):  # who set the discount, and who lacks the permission
        page = _page(user, config)
        assert 'id="approve-quote"' not in page and 'id="approve-why"' in page


def test_staff_read_staff_wording_and_customers_their_own(staff_client, client, make_config):
    config = make_config()
    staff_page = staff_client.get(url(config, "quote")).content.decode()
    assert '<label for="id_name">Customer&#39;s name</label>' in staff_page
    assert "Your name" not in staff_page and "We use your details" not in staff_page
    customer_page = Client().get(url(config, "quote")).content.decode()
    assert '<label for="id_name">Your name</label>' in customer_page and "Customer&#39;s" not in customer_page


def test_staff_see_no_promise_of_an_e_mail_to_themselves(staff_client, make_config, settings):
    settings.QUOTE_INSTANT_LIMIT_EUR = 1000  # the customer's request waits for review
    config = make_config()
    from quotes.services import quote_request

    customer = {k: v for k, v in CUSTOMER.items() if k != "action"}
    assert quote_request(configuration=config, customer=customer).status == "awaiting_review"
    page = staff_client.get(url(config, "quote")).content.decode()
    assert "You will receive it by e-mail" not in page
    assert "The customer receives the quote by e-mail once it is issued." in page


def test_english_dates_are_day_first_not_us_style():
    with translation.override("en"):
        assert formats.date_format(date(2026, 12, 1)) == "1 December 2026"
        assert formats.date_format(date(2026, 12, 1), "SHORT_DATE_FORMAT") == "1 Dec 2026"
    with translation.override("nl"):
        assert formats.date_format(date(2026, 12, 1)) == "1 december 2026"
