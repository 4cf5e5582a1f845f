"""A customer's pages carry the design's findings in plain words: the notes written for the sales engineer (an
alternative to offer) and about facts the catalogue does not hold ("not known from the sources", "add it from the data
sheet") stay on the sales engineer's pages."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.web.pages import H200_CLUSTER, url

pytestmark = pytest.mark.django_db


def _text(response) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())


@pytest.mark.parametrize("step", ["review", "fabric"])
def test_notes_for_sales_and_catalogue_gaps_stay_with_the_sales_engineer(staff_client, make_config, step):
    config = make_config(H200_CLUSTER)  # an InfiniBand fabric: RoCE is noted as an alternative; switch power unknown
    staff = _text(staff_client.get(url(config, step)))
    assert "If the customer prefers Ethernet" in staff and "is not known from the sources" in staff
    customer = _text(Client().get(url(config, step)))
    assert "If the customer prefers Ethernet" not in customer
    assert "not known from the sources" not in customer and "data sheet" not in customer
    assert "Notes" in customer  # the customer's own notes are still there
