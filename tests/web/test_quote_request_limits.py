"""Quote-request limits that fit people: customers' count only accepted requests, sales engineers have their own, and
the VAT number the form gives as its example passes the form's own check."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import Client, override_settings

from quotes.vat import normalise_vat_number
from tests.web.pages import CUSTOMER, url
from web.forms import QuoteRequestForm

pytestmark = pytest.mark.django_db

VAT_EXAMPLE = re.compile(r"\b([A-Z]{2}[0-9A-Z]{8,12})\b")


@pytest.fixture(autouse=True)
def empty_counts():
    cache.clear()
    yield
    cache.clear()


@override_settings(QUOTE_REQUEST_LIMIT=2, QUOTE_REQUEST_LIMIT_PER_IP=3)
def test_rejected_quote_forms_do_not_count_toward_the_customers_limit(client, make_config):
    configs = [make_config() for _ in range(3)]
    typo = {**CUSTOMER, "vat_number": "NL123456789B01"}  # wrong check digits
    for _ in range(6):
        rejected = client.post(url(configs[0], "quote"), typo)
        assert rejected.status_code == 422
        assert "Too many quote requests" not in rejected.content.decode()
    assert client.post(url(configs[0], "quote"), CUSTOMER).status_code == 302
    assert client.post(url(configs[1], "quote"), CUSTOMER).status_code == 302
    refused = client.post(url(configs[2], "quote"), CUSTOMER)  # the third accepted one would pass the limit of 2
    assert refused.status_code == 429 and "Too many quote requests" in refused.content.decode()


@override_settings(QUOTE_REQUEST_LIMIT=2, QUOTE_REQUEST_LIMIT_PER_IP=3, QUOTE_REQUEST_STAFF_LIMIT=6)
def test_sales_engineers_have_their_own_higher_quote_request_limit(staff_client, make_config):
    configs = [make_config() for _ in range(7)]
    codes = [staff_client.post(url(c, "quote"), CUSTOMER).status_code for c in configs]
    assert codes == [302] * 6 + [429]
    # The engineers' requests from the office address leave the customers' count of that address alone.
    assert Client().post(url(make_config(), "quote"), CUSTOMER).status_code == 302


@override_settings(QUOTE_REQUEST_STAFF_LIMIT=1)
def test_the_staff_limit_counts_per_sales_engineer(staff_client, make_config):
    from tests.factories import StaffFactory

    assert staff_client.post(url(make_config(), "quote"), CUSTOMER).status_code == 302
    assert staff_client.post(url(make_config(), "quote"), CUSTOMER).status_code == 429
    colleague = Client()
    colleague.force_login(StaffFactory(username="ilse"), backend="django.contrib.auth.backends.ModelBackend")
    assert colleague.post(url(make_config(), "quote"), CUSTOMER).status_code == 302


def _vat_example(text: str) -> str:
    match = VAT_EXAMPLE.search(text)
    assert match, text
    return match.group(1)


def test_the_vat_hints_example_is_a_valid_dutch_vat_number(client, make_config):
    hint = str(QuoteRequestForm.base_fields["vat_number"].help_text)
    example = _vat_example(hint)
    assert normalise_vat_number(example, "NL") == example  # raises VatInputError on a bad number
    response = client.post(url(make_config(), "quote"), {**CUSTOMER, "vat_number": example})
    assert response.status_code == 302


def test_the_dutch_vat_hint_gives_the_same_valid_example():
    from babel.messages.pofile import read_po

    hint = str(QuoteRequestForm.base_fields["vat_number"].help_text)
    with (Path(settings.BASE_DIR) / "locale" / "nl" / "LC_MESSAGES" / "django.po").open("rb") as po:
        dutch = read_po(po).get(hint)
    assert dutch is not None and dutch.string.startswith("Bijvoorbeeld")
    example = _vat_example(dutch.string)
    assert example == _vat_example(hint) and normalise_vat_number(example, "NL") == example
