"""Accepted warnings count, and are printed, only for the design they were accepted for."""

from __future__ import annotations

import pytest

from configurator.models import WarningAcknowledgement
from configurator.services import warning_acknowledge
from quotes.services import quote_issue, quote_request
from tests.factories import WARNING_DESIGN

pytestmark = pytest.mark.django_db


def test_an_acknowledgement_for_another_design_is_neither_counted_nor_printed(
    make_configuration, customer, staff, build, media
):
    configuration = make_configuration(WARNING_DESIGN)
    WarningAcknowledgement.objects.create(
        configuration=configuration,
        code="POWER_CAPACITY_UNKNOWN",
        subject="node_groups[0].server",
        design_hash="0" * 64,
        reason="given for an earlier design",
        user=staff,
    )
    quote = build(quote_request, configuration=configuration, customer=customer)
    assert quote.status == "awaiting_review" and quote.frozen["acknowledgements"] == []

    warning_acknowledge(
        configuration=configuration,
        code="POWER_CAPACITY_UNKNOWN",
        subject="node_groups[0].server",
        reason="PSU rating confirmed",
        user=staff,
    )
    quote = build(quote_issue, quote=quote, user=staff)
    assert [a["reason"] for a in quote.frozen["acknowledgements"]] == ["PSU rating confirmed"]
    assert quote.frozen["acknowledgements"][0]["message"]


def test_a_warning_that_calls_a_part_wrong_is_fixed_not_accepted(make_configuration, customer, staff, build, media):
    from django.core.exceptions import ValidationError

    from quotes.services import QuoteError
    from tests.factories import design

    # an end-of-life server and board: the configurator says to choose an active part instead
    configuration = make_configuration(
        design(1, server="SYS-420GP-TNAR", components=[{"part": "HGX-A100-8GPU", "quantity": 1}])
    )
    quote = build(quote_request, configuration=configuration, customer=customer, channel="staff", user=staff)
    warnings = [f for f in quote.frozen["receipt"]["findings"] if f["severity"] == "warning"]
    wrong = [f for f in warnings if f["code"] == "PART_DISCONTINUED"]
    assert wrong and quote.status == "awaiting_review"
    for finding in warnings:
        if finding["code"] == "PART_DISCONTINUED":
            with pytest.raises(ValidationError):
                warning_acknowledge(
                    configuration=configuration,
                    code=finding["code"],
                    subject=finding["subject"],
                    reason="ok",
                    user=staff,
                )
        else:
            warning_acknowledge(
                configuration=configuration, code=finding["code"], subject=finding["subject"], reason="ok", user=staff
            )
    # an acceptance recorded before the rule does not count either
    WarningAcknowledgement.objects.create(
        configuration=configuration,
        code="PART_DISCONTINUED",
        subject=wrong[0]["subject"],
        design_hash=quote.frozen["receipt"]["design_hash"],
        reason="accepted earlier",
        user=staff,
    )
    with pytest.raises(QuoteError, match="Replace the parts these warnings name before issuing: PART_DISCONTINUED"):
        build(quote_issue, quote=quote, user=staff)
    quote.refresh_from_db()
    assert quote.status == "awaiting_review" and not quote.pdf
