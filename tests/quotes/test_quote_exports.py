"""Issue #34: a won quote's page gives sales engineers the hand-over exports of the design frozen in the quote
(netbox.zip, topology.conf, topology.yaml, fabric.topo, cut-sheet.xlsx); customers neither see the links nor get
the files."""

from __future__ import annotations

import pytest
from django.urls import reverse

from configurator.examples import h200_training_cluster
from outputs.services import HANDOVER_EXPORTS
from quotes.services import quote_accept, quote_request
from tests.factories import StaffFactory

MEDIA_TYPES = {
    "netbox.zip": "application/zip",
    "topology.conf": "text/plain",
    "topology.yaml": "application/yaml",
    "fabric.topo": "text/plain",
    "cut-sheet.xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}


@pytest.fixture
def won(make_configuration, customer, media, build):
    configuration = make_configuration(h200_training_cluster())  # four HGX nodes on a compute fabric
    quote = build(quote_request, configuration=configuration, customer=customer, channel="staff")
    build(quote_accept, quote=quote, channel="customer", name="G", email="g@example.nl", accept_terms=True)
    quote.refresh_from_db()
    assert quote.status == "accepted"
    return quote


def test_staff_download_the_won_quotes_hand_over_exports(won, client):
    client.force_login(StaffFactory(username="petra"), backend="django.contrib.auth.backends.ModelBackend")
    page = client.get(reverse("configurator:step", args=[won.configuration.token, "quote"])).content.decode()
    assert 'id="quote-exports"' in page
    for name in HANDOVER_EXPORTS:
        link = reverse("configurator:quote_export", args=[won.pk, name])
        assert link in page
        response = client.get(link)
        assert response.status_code == 200, name
        assert response["Content-Type"].split(";")[0] == MEDIA_TYPES[name]
        body = b"".join(response.streaming_content)
        assert body and (b"node-" in body or name in ("cut-sheet.xlsx", "netbox.zip"))
        assert f"{won.number}-{name}" in response["Content-Disposition"]
    assert client.get(reverse("configurator:quote_export", args=[won.pk, "elevation.svg"])).status_code == 404


def test_a_customer_sees_no_exports_and_gets_no_file(won, client, django_user_model):
    client.force_login(django_user_model.objects.create_user("customer"))
    page = client.get(reverse("configurator:step", args=[won.configuration.token, "quote"])).content.decode()
    assert 'id="quote-exports"' not in page and "/exports/" not in page
    response = client.get(reverse("configurator:quote_export", args=[won.pk, "topology.conf"]))
    assert response.status_code == 302 and "login" in response["Location"]
    client.logout()
    assert client.get(reverse("configurator:quote_export", args=[won.pk, "topology.conf"])).status_code == 302


def test_a_quote_not_won_has_no_exports(configuration, customer, media, build, client):
    quote = build(quote_request, configuration=configuration, customer=customer, channel="staff")
    client.force_login(StaffFactory(username="petra"), backend="django.contrib.auth.backends.ModelBackend")
    page = client.get(reverse("configurator:step", args=[configuration.token, "quote"])).content.decode()
    assert 'id="quote-exports"' not in page
    assert client.get(reverse("configurator:quote_export", args=[quote.pk, "topology.conf"])).status_code == 404
