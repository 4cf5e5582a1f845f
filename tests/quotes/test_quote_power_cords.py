"""A supply drawing more than any catalogued outlet carries stays an error after a sales engineer accepted it when it
was a warning: no design with an overloaded cord is quoted."""

from __future__ import annotations

import pytest

from configurator.services import warning_acknowledge
from quotes.services import QuoteError, quote_request

pytestmark = pytest.mark.django_db


def _hot_supplies() -> dict:
    # HGX B200 on SYS-822GS-NBRT: 6 x 6.6 kW supplies, 28.7 A each at 230 V; the catalogue's best outlet is C19, 16 A.
    return {
        "schema": "design/v1",
        "name": "hot supplies",
        "node_groups": [
            {
                "name": "gpu",
                "count": 4,
                "server": "SYS-822GS-NBRT",
                "components": [{"part": "HGX-B200-8GPU", "quantity": 1}],
            }
        ],
    }


def test_an_accepted_warning_does_not_bill_the_overloaded_cord_or_let_the_design_be_quoted(
    seeded_catalog, make_configuration, staff, customer
):
    configuration = make_configuration(_hot_supplies())
    warning_acknowledge(
        configuration=configuration,
        code="RACK_CORD_OVER_RATING",
        subject="facility.pdu_feeds",
        reason="site feeds the supplies from 32 A outlets",
        user=staff,
    )
    with pytest.raises(QuoteError) as refused:
        quote_request(configuration=configuration, customer=customer, user=None)
    assert any("28.7" in str(message) for message in refused.value.errors.values())
