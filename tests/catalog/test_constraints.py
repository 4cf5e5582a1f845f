"""Model constraints keep impossible specs out of the catalogue, whatever door writes them."""

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from catalog.models import Adapter, Media, Part, Server, ServerSlot

pytestmark = pytest.mark.django_db


def _part(pn, category):
    return Part.objects.create(part_number=pn, manufacturer="Test", name=pn, category=category)


def test_negative_lanes_are_rejected_by_the_database():
    server = Server.objects.create(part=_part("SRV-T", "server"))
    with pytest.raises(IntegrityError), transaction.atomic():
        ServerSlot.objects.create(server=server, name="S1", pcie_gen=5, lanes=-16)


def test_unknown_connector_is_rejected_by_the_database():
    with pytest.raises(IntegrityError), transaction.atomic():
        Adapter.objects.create(part=_part("NIC-T", "adapter"), family="X", protocol="vpi", connector="SFP-FANTASY")
    with pytest.raises(IntegrityError), transaction.atomic():
        Media.objects.create(
            part=_part("CBL-T", "cable"),
            kind="dac",
            a_connector="OSFP",
            a_speed_gbps=400,
            b_connector="USB-C",
            b_speed_gbps=400,
        )


def test_full_clean_names_the_bad_field():
    adapter = Adapter(part=_part("NIC-U", "adapter"), family="X", protocol="vpi", connector="SFP-FANTASY")
    with pytest.raises(ValidationError) as err:
        adapter.full_clean()
    assert "connector" in err.value.message_dict


def test_negative_price_is_rejected():
    with pytest.raises(IntegrityError), transaction.atomic():
        Part.objects.create(part_number="NEG", manufacturer="T", name="n", category="other", list_price_eur=-1)
