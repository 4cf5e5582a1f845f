"""A supply drawing more than any catalogued outlet carries is never quoted on a cord the product calls overloaded:
after a sales engineer accepts the warning, the frozen bill carries the cord it needs on request, not a C19 cord."""

from __future__ import annotations

import pytest

from configurator.services import warning_acknowledge
from quotes.services import quote_request

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


def test_an_accepted_warning_never_bills_the_overloaded_cord(make_configuration, staff, customer, media, build):
    configuration = make_configuration(_hot_supplies())
    warning_acknowledge(
        configuration=configuration,
        code="RACK_CORD_OVER_RATING",
        subject="facility.pdu_feeds",
        reason="site feeds the supplies from 32 A outlets",
        user=staff,
    )
    quote = build(quote_request, configuration=configuration, customer=customer, user=staff, channel="api")
    lines = quote.frozen["lines"]
    cords = [x for x in lines if "28.7" in x["description"]]
    assert cords and all(x["unit_price"] is None for x in cords)  # the cord it needs, on request
    # the nodes' 24 supplies are not on C19 cords (the C19 cords left, if any, feed other devices)
    assert sum(x["quantity"] for x in lines if x["part_number"] == "CORD-C19-C20-2M") < 4 * 6
