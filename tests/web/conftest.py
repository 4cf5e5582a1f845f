"""Fixtures of the web tests: drafts in known states, a sales engineer, and a larger catalogue."""

from __future__ import annotations

import pytest

from configurator.examples import h200_training_cluster

H200_CLUSTER = {**h200_training_cluster(), "name": "4 × SYS-821GE-TNHR, HGX-H200-8GPU"}
B200_IN_H100_SERVER = {
    "schema": "design/v1",
    "name": "B200 in an H100-generation server",
    "node_groups": [
        {
            "name": "gpu",
            "count": 1,
            "server": "SYS-821GE-TNHR",
            "components": [{"part": "HGX-B200-8GPU", "quantity": 1}],
        }
    ],
}
WITH_WARNING = {**H200_CLUSTER, "fabric": {"switch": "MQM9790-NS2F"}}  # unmanaged: FABRIC_SM_REQUIRED


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
def staff(django_user_model):
    return django_user_model.objects.create_user("sven", "sven@ncs.nl", "correct-horse-battery", is_staff=True)


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


def grant(user, *codenames):
    """Give a user permissions by codename (and forget the permission cache of the object)."""
    from django.contrib.auth.models import Permission

    user.user_permissions.add(*Permission.objects.filter(codename__in=codenames))
    for attr in ("_perm_cache", "_user_perm_cache"):
        user.__dict__.pop(attr, None)
    return user


def list_total(config):
    """The design's list total as the BOM service computes it (the pages must show this amount)."""
    from configurator.bom import bom_total, design_bom
    from configurator.rules.parse import parse_design
    from configurator.services import design_validate
    from configurator.snapshot import catalog_snapshot

    result = design_validate(document=config.document)
    total, _ = bom_total(design_bom(parse_design(config.document), result["fabric_plan"], catalog_snapshot()))
    return total


# A customer's quote-request form as the quote step posts it.
CUSTOMER = {
    "name": "Anna de Vries",
    "company": "Rekenkracht B.V.",
    "email": "anna@example.nl",
    "country": "NL",
    "vat_number": "",
    "action": "request",
}


def url(config, step):
    from django.urls import reverse

    return reverse("configurator:step", kwargs={"token": config.token, "step": step})
