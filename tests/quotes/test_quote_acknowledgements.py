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
