"""Over-long e-mail addresses and every other model check come back as field errors, never a 500."""

from __future__ import annotations

import types
from datetime import timedelta
from decimal import Decimal as D

import pytest
from django.utils import timezone

from configurator.models import Configuration
from quotes import services
from quotes.models import Quote, QuoteCounter
from quotes.services import QuoteError, quote_request, quote_revise

pytestmark = pytest.mark.django_db


def test_a_312_character_email_is_a_field_error_not_a_500(configuration, customer, build):
    email = "a" * (312 - len("@example.nl")) + "@example.nl"  # passes validate_email (≤ 320 characters)
    assert len(email) == 312
    with pytest.raises(QuoteError) as exc:
        build(quote_request, configuration=configuration, customer={**customer, "email": email})
    assert "254" in exc.value.errors["customer.email"]
    assert not Quote.objects.exists() and not QuoteCounter.objects.filter(last__gt=0).exists()
    configuration.refresh_from_db()
    assert configuration.status == Configuration.Status.DRAFT


def test_a_254_character_email_is_accepted(configuration, customer, build, media):
    email = "a" * (254 - len("@example.nl")) + "@example.nl"
    assert build(quote_request, configuration=configuration, customer={**customer, "email": email}).pk


def test_any_other_model_check_becomes_a_quote_error_naming_the_field(
    configuration, customer, build, media, monkeypatch
):
    first = build(quote_request, configuration=configuration, customer=customer, channel="api")
    long_notice = types.SimpleNamespace(category="domestic", rate=D("21"), notice="x" * 300)
    monkeypatch.setattr(services.evaluation, "vat_decide", lambda **kw: long_notice)
    Quote.objects.filter(pk=first.pk).update(created_at=timezone.now() - timedelta(minutes=1))

    with pytest.raises(QuoteError) as exc:
        build(quote_request, configuration=configuration, customer=customer, channel="api")
    assert "vat_notice" in exc.value.errors
    with pytest.raises(QuoteError) as exc:
        build(quote_revise, quote=first, discount_percent="5")
    assert "vat_notice" in exc.value.errors
    first.refresh_from_db()
    assert Quote.objects.count() == 1 and first.status == "issued"
    assert QuoteCounter.objects.get().last == 1
