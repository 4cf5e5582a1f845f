"""A customer back on another device (the bookmarked design link, no session) sees that the design is quoted, not an
empty request form, and opens the quote there through a link e-mailed to the address it was requested with; whoever
else holds the design link learns neither the quote's number nor whose it is."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client

from tests.web.pages import CUSTOMER, PRICED, url

pytestmark = pytest.mark.django_db


@pytest.fixture
def quoted(make_config):
    """A design a customer requested a quote for from her first browser (issued at once)."""
    config = make_config(PRICED)
    first = Client()
    assert first.post(url(config, "quote"), CUSTOMER).status_code == 302
    from quotes.models import Quote

    return config, Quote.objects.get(configuration=config)


def _text(page: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", page).split())


def test_another_device_sees_the_design_is_quoted_without_its_number_or_customer(quoted):
    config, quote = quoted
    page = Client().get(url(config, "quote")).content.decode()
    text = _text(page)
    assert 'id="existing-quote"' in page and "This design has a quote" in text and "Issued" in text
    assert "Quoted: this design has an issued quote." in text and "Ready to quote" not in text
    assert quote.number not in page and CUSTOMER["name"] not in page and CUSTOMER["email"] not in page
    assert re.search(r'<details class="another"><summary>Request another quote</summary>', page)


def test_only_the_requesters_address_gets_a_link_and_the_page_says_the_same_either_way(quoted):
    config, quote = quoted
    browser = Client()
    mail.outbox.clear()
    wrong = browser.post(url(config, "quote"), {"action": "find", "find_email": "eve@example.nl"}, follow=True)
    right = browser.post(url(config, "quote"), {"action": "find", "find_email": CUSTOMER["email"]}, follow=True)
    said = "If a quote for this design was requested with that address, we have e-mailed it a link"
    assert said in _text(wrong.content.decode()) and said in _text(right.content.decode())
    [message] = mail.outbox
    assert message.to == [CUSTOMER["email"]] and quote.number in message.subject and quote.token not in message.body
    link = re.search(r"https?://[^/\s]+(/d/\S+/quote/open/\S+/)", message.body).group(1)
    page = browser.get(link, follow=True).content.decode()
    assert f"Quote {quote.number} is shown on this device now." in _text(page)
    assert 'id="quote-progress"' in page and 'id="existing-quote"' not in page


def test_a_broken_link_or_one_for_another_design_opens_nothing(quoted, make_config):
    config, quote = quoted
    browser = Client()
    browser.post(url(config, "quote"), {"action": "find", "find_email": CUSTOMER["email"]})
    link = re.search(r"https?://[^/\s]+(/d/\S+/quote/open/\S+/)", mail.outbox[-1].body).group(1)
    other = make_config(PRICED)
    elsewhere = browser.get(link.replace(config.token, other.token), follow=True).content.decode()
    assert "This link does not open a quote of this design." in _text(elsewhere)
    broken = browser.get(link[:-3] + "xx/", follow=True).content.decode()
    assert "This link does not open a quote of this design." in _text(broken)
    assert quote.number not in browser.get(url(config, "quote")).content.decode()


def test_a_bad_address_is_an_error_at_its_field(quoted):
    config, _quote = quoted
    response = Client().post(url(config, "quote"), {"action": "find", "find_email": "not an address"})
    assert response.status_code == 422 and 'id="id_find_email_error"' in response.content.decode()
    assert not [m for m in mail.outbox if "/open/" in m.body]
