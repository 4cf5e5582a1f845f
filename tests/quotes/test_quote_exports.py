"""Issue #34: a won quote's page gives sales engineers the hand-over exports of the design frozen in the quote
(netbox.zip, topology.conf, topology.yaml, fabric.topo, cut-sheet.xlsx); customers neither see the links nor get
the files."""

from __future__ import annotations

import io
import zipfile
from decimal import Decimal

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from catalog.models import Part
from configurator.examples import h200_training_cluster
from configurator.selectors import catalog_forget
from outputs.services import HANDOVER_EXPORTS, configuration_export
from quotes.models import Quote
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


def _exports(client, quote) -> dict[str, object]:
    """Each export's bytes; the workbook's cell values (its zip entries carry the time it was written)."""
    out: dict[str, object] = {}
    for name in HANDOVER_EXPORTS:
        response = client.get(reverse("configurator:quote_export", args=[quote.pk, name]))
        assert response.status_code == 200, name
        body = b"".join(response.streaming_content)
        if name.endswith(".xlsx"):
            book = load_workbook(io.BytesIO(body), read_only=True)
            out[name] = {ws.title: list(ws.iter_rows(values_only=True)) for ws in book.worksheets}
        else:
            out[name] = body
    return out


def _device_types(bundle: bytes) -> set[str]:
    with zipfile.ZipFile(io.BytesIO(bundle)) as z:
        return {n for n in z.namelist() if n.startswith("device-types/")}


def test_a_won_quote_exports_the_cluster_as_quoted_whatever_the_catalogue_says_since(won, client):
    """The exports validate the frozen design against the catalogue frozen with the quote: a compute switch
    renamed, repriced and given to another manufacturer after the quote was won, then deleted, changes nothing in
    them, and they are still served."""
    client.force_login(StaffFactory(username="petra"), backend="django.contrib.auth.backends.ModelBackend")
    quoted = _exports(client, won)
    switch = won.snapshot.design["fabric"]["switch"]
    assert f"device-types/NVIDIA/{switch}.yaml" in _device_types(quoted["netbox.zip"])

    part = Part.objects.get(part_number=switch)
    part.name, part.manufacturer, part.list_price_eur = "Renamed switch", "Acme", Decimal("1.00")
    part.save()
    catalog_forget()
    # Today's catalogue gives the draft another switch type; the won quote's files do not follow it.
    today = b"".join(configuration_export(configuration=won.configuration, name="netbox.zip").body)
    assert f"device-types/Acme/{switch}.yaml" in _device_types(today)
    assert _exports(client, won) == quoted

    part.delete()
    catalog_forget()
    assert _exports(client, won) == quoted


def test_a_quote_frozen_before_the_catalogue_was_kept_exports_against_todays(won, client):
    """A quote frozen without a catalogue digest (before the catalogue state was kept) is exported as before:
    its frozen design validated against today's catalogue."""
    frozen = dict(won.frozen)
    frozen["receipt"] = {k: v for k, v in frozen["receipt"].items() if k != "catalog_digest"}
    Quote.objects.filter(pk=won.pk).update(frozen=frozen)
    switch = won.snapshot.design["fabric"]["switch"]
    Part.objects.filter(part_number=switch).update(manufacturer="Acme")
    catalog_forget()
    client.force_login(StaffFactory(username="petra"), backend="django.contrib.auth.backends.ModelBackend")
    assert f"device-types/Acme/{switch}.yaml" in _device_types(_exports(client, won)["netbox.zip"])
