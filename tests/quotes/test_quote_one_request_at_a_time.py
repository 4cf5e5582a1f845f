"""One request at a time per configuration: a double click or a repeat makes no second quote."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from quotes import services
from quotes.models import Quote, QuoteCounter
from quotes.services import QuoteError, quote_request
from tests.factories import WARNING_DESIGN

pytestmark = pytest.mark.django_db


def test_a_double_click_makes_one_quote(configuration, customer, build, media):
    # A CRM's retried call is refused; a customer's repeat gets the same quote back (tests/quotes/test_quotes_policy).
    first = build(quote_request, configuration=configuration, customer=customer, channel="api")
    with pytest.raises(QuoteError) as exc:
        build(quote_request, configuration=configuration, customer=customer, channel="api")
    assert first.number in exc.value.errors["quote"]
    assert Quote.objects.count() == 1 and QuoteCounter.objects.get().last == 1


def test_the_same_request_later_or_a_different_request_is_a_new_quote(configuration, customer, build, media):
    api = {"configuration": configuration, "customer": customer, "channel": "api"}
    first = build(quote_request, **api)
    other = build(quote_request, **api, crm_reference="CRM-2")
    assert other.number != first.number
    Quote.objects.update(created_at=timezone.now() - services.DUPLICATE_WINDOW - timedelta(seconds=1))
    assert build(quote_request, **api).pk
    assert Quote.objects.count() == 3


def test_no_second_request_while_a_quote_waits_for_review_or_approval(
    make_configuration, configuration, customer, build, media
):
    waiting = build(quote_request, configuration=make_configuration(WARNING_DESIGN), customer=customer)
    Quote.objects.update(created_at=timezone.now() - timedelta(hours=1))
    with pytest.raises(QuoteError) as exc:
        build(quote_request, configuration=waiting.configuration, customer=customer, channel="staff")
    assert waiting.number in exc.value.errors["quote"]

    approval = build(quote_request, configuration=configuration, customer=customer, discount_percent="40")
    with pytest.raises(QuoteError) as exc:
        build(quote_request, configuration=configuration, customer={**customer, "email": "x@example.nl"})
    assert approval.number in exc.value.errors["quote"]
    assert Quote.objects.count() == 2
