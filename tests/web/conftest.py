"""Fixtures of the web tests: drafts in known states, a sales engineer, and a larger catalogue."""

from __future__ import annotations

import pytest

from tests.factories import StaffFactory
from tests.web.pages import H200_CLUSTER


@pytest.fixture(autouse=True)
def instant_quotes_for_the_example_cluster(settings):
    """The wizard tests quote the 4-node H200 example (about € 1.1 M): raise the instant-quote limit above it so a
    customer's request is issued at once, as the tests of the quote step expect. The limit itself is tested in
    tests/quotes/test_quotes_policy.py and by the tests here that lower it again."""
    settings.QUOTE_INSTANT_LIMIT_EUR = 2_000_000


@pytest.fixture(autouse=True)
def fresh_catalog_memo():
    """The wizard memoises the catalogue view for a couple of seconds; each test starts from the database."""
    from web.selectors import catalog_forget

    catalog_forget()
    yield
    catalog_forget()


@pytest.fixture
def make_config(seeded_catalog):
    from configurator.services import configuration_create

    def make(document=None, **kwargs):
        import copy

        return configuration_create(document=copy.deepcopy(document or H200_CLUSTER), **kwargs)

    return make


@pytest.fixture
def staff(db):
    user = StaffFactory(username="sven")
    user.set_password("correct-horse-battery")
    user.save(update_fields=["password"])
    return user


@pytest.fixture
def staff_client(client, staff):
    client.force_login(staff, backend="django.contrib.auth.backends.ModelBackend")
    return client


@pytest.fixture
def bigger_catalog(seeded_catalog):
    """The seed catalogue plus 60 more adapters and 20 more servers with 8 slots each."""
    from catalog.models import Adapter, Part, Server, ServerSlot
    from configurator.snapshot import clear_cache
    from web.selectors import catalog_forget

    for i in range(60):
        part = Part.objects.create(
            part_number=f"TEST-NIC-{i:03d}",
            manufacturer="Test",
            name=f"Test NIC {i}",
            category="adapter",
            list_price_eur="100.00",
        )
        Adapter.objects.create(
            part=part,
            family="Test",
            ports=1,
            speed_gbps=100,
            protocol="ethernet",
            form="HHHL",
            host_pcie_gen=4,
            host_lanes=16,
        )
    h200 = Part.objects.get(part_number="HGX-H200-8GPU")
    for i in range(20):
        part = Part.objects.create(
            part_number=f"TEST-SRV-{i:03d}",
            manufacturer="Test",
            name=f"Test server {i}",
            category="server",
            list_price_eur="1000.00",
        )
        server = Server.objects.create(part=part, slots_known=True, slots_complete=True)
        server.accepts.add(h200)
        for s in range(8):
            ServerSlot.objects.create(server=server, position=s, name=f"S{s}", form="LP", pcie_gen=5, lanes=16)
    clear_cache()
    catalog_forget()
    return Part.objects
