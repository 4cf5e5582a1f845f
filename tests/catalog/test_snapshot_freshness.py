"""Every write to a part's specs refreshes the engines' catalogue snapshot and the version on receipts."""

import pytest

from catalog.models import Part, PcieSwitch, Server, ServerSlot, Switch
from configurator.snapshot import catalog_snapshot, catalog_version

pytestmark = pytest.mark.django_db

SERVER = "SYS-821GE-TNHR"


def _fresh():
    return catalog_snapshot(max_age=0)


def test_saving_a_server_spec_row_refreshes_snapshot_and_version(seeded_catalog):
    before_view, before_version = _fresh(), catalog_version()
    server = Server.objects.get(part__part_number=SERVER)
    server.psu_watts = 1234
    server.save()
    after = _fresh()
    assert after is not before_view
    assert after.get(SERVER).psu_watts == 1234
    assert catalog_version() != before_version
    assert after.version == catalog_version()


def test_other_spec_rows_slots_switches_and_accepts_refresh_the_snapshot(seeded_catalog):
    server = Server.objects.get(part__part_number=SERVER)
    steps = [
        lambda: Switch.objects.filter(part__part_number="MQM9700-NS2F").first().save(),
        lambda: ServerSlot.objects.filter(server=server).first().save(),
        lambda: PcieSwitch.objects.create(server=server, name="PEX-TEST"),
        lambda: PcieSwitch.objects.get(server=server, name="PEX-TEST").delete(),
        lambda: server.accepts.remove(*server.accepts.all()[:1]),
        lambda: Part.objects.get(part_number="HGX-B300-8GPU").accepted_by.add(server),
        lambda: Part.objects.get(part_number="HGX-B300-8GPU").accepted_by.clear(),
    ]
    for step in steps:
        before_view, before_version = _fresh(), catalog_version()
        step()
        assert _fresh() is not before_view
        assert catalog_version() != before_version


def test_accepts_change_is_in_the_snapshot(seeded_catalog):
    server = Server.objects.get(part__part_number=SERVER)
    assert "HGX-B300-8GPU" not in _fresh().get(SERVER).accepts
    server.accepts.add(Part.objects.get(part_number="HGX-B300-8GPU"))
    assert "HGX-B300-8GPU" in _fresh().get(SERVER).accepts


def test_deleting_a_part_changes_the_version(seeded_catalog):
    before = catalog_version()
    oldest = Part.objects.order_by("updated_at").first()  # not the newest: the timestamp alone would not move
    oldest.delete()
    assert catalog_version() != before
    assert oldest.part_number not in _fresh().parts
