"""The seed catalogue: idempotent loading and internal consistency of its facts (issue: foundation)."""

import json

import pytest
from django.core.management import call_command
from django.db import models

from catalog.models import SPEC_MODELS, CatalogRelease, Part, Server
from catalog.services import SEED_PATH, catalog_load_seed, spec_values
from design.vocabulary import Connector

pytestmark = pytest.mark.django_db

SEED = json.loads(SEED_PATH.read_text())
REQUIRED = {
    "server": [
        "SYS-821GE-TNHR",
        "AS-8125GS-TNHR",
        "SYS-421GE-TNHR2-LCC",
        "SYS-822GS-NBRT",
        "SYS-422GS-NBRT-LCC",
        "SYS-822GS-NB3RT",
        "SYS-421GE-TNRT3",
        "AS-4125GS-TNRT",
        "SYS-521GE-TNRT",
    ],
    "gpu": [
        "HGX-A100-8GPU",
        "HGX-H100-8GPU",
        "HGX-H200-8GPU",
        "HGX-B200-8GPU",
        "HGX-B300-8GPU",
        "H100-NVL",
        "H200-NVL",
        "L40S",
        "RTX-PRO-6000-SE",
    ],
    "adapter": [
        "MCX653105A-HDAT",
        "MCX75310AAS-NEAT",
        "MCX75310AAS-HEAT",
        "MCX755106AS-HEAT",
        "MCX715105AS-WEAT",
        "MCX75343AMS-NEAC",
    ],
    "switch": ["MQM8700-HS2F", "MQM9700-NS2F", "MQM9790-NS2F", "SN5600", "SN4600C", "SN2201"],
}


def test_seed_contains_every_required_part(seeded_catalog):
    have = set(Part.objects.values_list("part_number", "category"))
    for category, numbers in REQUIRED.items():
        for pn in numbers:
            assert (pn, category) in have, f"{pn} missing from the seed as a {category}"
    families = set(Part.objects.filter(category="adapter").values_list("adapter__family", flat=True))
    assert any("BlueField-3" in f for f in families) and any("ConnectX-8" in f for f in families)
    assert Part.objects.filter(category="switch", part_number__startswith="Q3400").exists()
    cables = set(Part.objects.filter(category__in=["cable", "transceiver"]).values_list("part_number", flat=True))
    for prefix in [
        "MCP4Y10-N",
        "MCP7Y00-N",
        "MCP7Y10-N",
        "MCA4J80-N",
        "MMA4Z00-NS",
        "MMA4Z00-NS400",
        "MMA1Z00-NS400",
        "MMS4X00-NS",
        "MMS4X00-NS400",
        "MMS4X00-NM",
        "MFP7E10-N",
        "MFP7E20-N",
    ]:
        assert any(c.startswith(prefix) for c in cables), prefix
    assert sum(c.startswith("MFP7E10-N") for c in cables) >= 3, "straight fibres in several lengths"
    hdr = Part.objects.filter(media__a_connector=Connector.QSFP56, media__b_connector=Connector.QSFP56)
    assert {m.media.kind for m in hdr.select_related("media")} >= {"dac", "aoc"}, "HDR QSFP56 DAC and AOC parts"


def test_loading_the_seed_twice_changes_nothing(seeded_catalog):
    before = {p.part_number: p.updated_at for p in Part.objects.all()}
    releases = CatalogRelease.objects.count()
    report = catalog_load_seed()
    assert not report.created and not report.updated
    assert report.unchanged == len(SEED["parts"])
    assert {p.part_number: p.updated_at for p in Part.objects.all()} == before
    assert CatalogRelease.objects.count() == releases


def test_load_catalog_command_reports_counts(seeded_catalog, capsys):
    call_command("load_catalog")
    assert "0 created, 0 updated" in capsys.readouterr().out


def test_seed_restores_a_changed_price(seeded_catalog):
    part = Part.objects.get(part_number="MQM9700-NS2F")
    original = part.list_price_eur
    part.list_price_eur = original + 1
    part.save()
    report = catalog_load_seed()
    assert report.updated == ["MQM9700-NS2F"]
    part.refresh_from_db()
    assert part.list_price_eur == original


def test_every_spec_has_a_source():
    defined = set(SEED["sources"])
    for item in SEED["parts"]:
        for field in item.get("spec", {}):
            assert field in item.get("sources", {}), f"{item['part_number']}.{field} has no source"
        for key in item.get("sources", {}).values():
            assert key in defined, f"{item['part_number']} cites undefined source {key}"


def test_every_cable_end_matches_a_connector_in_the_catalogue(seeded_catalog):
    connectors = set(Part.objects.filter(category="adapter").values_list("adapter__connector", flat=True))
    connectors |= set(Part.objects.filter(category="switch").values_list("switch__cage_connector", flat=True))
    if Part.objects.filter(category="switch", switch__rj45_ports__gt=0).exists():
        connectors.add(Connector.RJ45.value)  # management ports (SN2201: 48 x RJ45 1 GbE)
    optical = {Connector.MPO12.value, Connector.LC.value}
    for part in Part.objects.filter(category__in=["cable", "transceiver"]).select_related("media"):
        for end in (part.media.a_connector, part.media.b_connector):
            assert end in connectors | optical, f"{part.part_number}: no adapter or switch has a {end} port"


def test_every_slot_has_generation_and_lanes_or_is_explicitly_unknown(seeded_catalog):
    for server in Server.objects.prefetch_related("slots").select_related("part"):
        if not server.slots_known:
            assert server.slots.count() == 0 or all(s.pcie_gen is None for s in server.slots.all())
        for slot in server.slots.all():
            known = slot.pcie_gen is not None and slot.lanes is not None
            unknown = slot.pcie_gen is None and slot.lanes is None
            assert known or unknown, f"{server.part.part_number} {slot.name}: half-known slot"


def test_every_gpu_board_is_accepted_by_a_server(seeded_catalog):
    for gpu in Part.objects.filter(category="gpu", gpu__is_board=True):
        assert gpu.accepted_by.exists(), f"no server accepts {gpu.part_number}"


def test_unknown_facts_stay_unknown(seeded_catalog):
    # hardware.md §5: the HGX B300 NVSwitch count and the ConnectX-8 power were not found.
    b300 = Part.objects.select_related("gpu").get(part_number="HGX-B300-8GPU")
    assert b300.gpu.nvswitch_count is None
    slotless = Part.objects.select_related("server").get(part_number="AS-8125GS-TNHR")
    assert slotless.server.slots_known is False and slotless.server.slots.count() == 0


# --- audit: unknown management status; definitive versus partial GPU lists ------------------------------------
# Only where a source states which baseboard the system takes (a spec page or a review of the platform). One
# MLPerf sighting names the board in one unit, not the list: AS-8125GS-TNHR, SYS-421GE-TNHR2-LCC and the
# unverified SYS-420GP-TNAR listing stay unverified, so another board there is a warning, not a refusal.
HGX_WITH_SOURCED_BOARD = {
    "SYS-821GE-TNHR",
    "SYS-822GS-NBRT",
    "SYS-422GS-NBRT-LCC",
    "SYS-822GS-NB3RT",
}
# The NVL72 racks' GPU sets are built in (NVIDIA DGX GB200 User Guide; GB300 NVL72 Enterprise RA): definitive.
RACK_SCALE_SYSTEMS = {"SRS-GB200-NVL72", "SRS-GB300-NVL72"}


def test_unsourced_switch_management_is_unknown_not_unmanaged(seeded_catalog):
    # fabric.md: QM9700 managed, QM9790 unmanaged; Q3400-RA and SN5600 management "not sourced".
    managed = dict(Part.objects.filter(category="switch").values_list("part_number", "switch__managed"))
    assert managed["MQM9700-NS2F"] is True and managed["MQM9790-NS2F"] is False
    assert managed["Q3400-RA"] is None and managed["SN5600"] is None
    for item in SEED["parts"]:
        if item["category"] == "switch" and "managed" not in item["spec"]:
            assert managed[item["part_number"]] is None, item["part_number"]


def test_snapshot_passes_unknown_management_and_list_completeness_through(seeded_catalog):
    from configurator.snapshot import catalog_snapshot

    view = catalog_snapshot(max_age=0)
    assert view.get("Q3400-RA").managed is None
    assert view.get("MQM9790-NS2F").managed is False
    assert view.get("SYS-821GE-TNHR").accepts_complete is True
    assert view.get("SYS-421GE-TNRT3").accepts_complete is False


def test_only_hgx_servers_whose_sources_name_the_board_have_a_definitive_gpu_list(seeded_catalog):
    complete = set(Part.objects.filter(server__accepts_complete=True).values_list("part_number", flat=True))
    assert complete == HGX_WITH_SOURCED_BOARD | RACK_SCALE_SYSTEMS
    for item in SEED["parts"]:
        if item["spec"].get("accepts_complete"):
            assert item.get("accepts"), f"{item['part_number']}: a definitive but empty GPU list"


def test_pcie_gpu_servers_list_the_gpus_the_reference_names(seeded_catalog):
    # hardware.md §1a: SYS-521GE-TNRT observed with 8x H200 NVL [OBS-521]; up to 8x RTX PRO 6000 [DIST-PM].
    accepts = set(Server.objects.get(part__part_number="SYS-521GE-TNRT").accepts.values_list("part_number", flat=True))
    assert {"H200-NVL", "RTX-PRO-6000-SE"} <= accepts
    # SYS-421GE-TNRT3 lists L40S among others the catalogue does not hold [DS-421TNRT3]; AS-4125GS-TNRT none.
    assert "L40S" in Server.objects.get(part__part_number="SYS-421GE-TNRT3").accepts.values_list(
        "part_number", flat=True
    )
    assert not Server.objects.get(part__part_number="AS-4125GS-TNRT").accepts.exists()


def test_migration_makes_unsourced_management_unknown(seeded_catalog):
    import importlib

    from django.apps import apps

    from catalog.models import Switch

    migration = importlib.import_module("catalog.migrations.0002_server_accepts_complete_alter_switch_managed")
    Switch.objects.filter(part__part_number="Q3400-RA").update(managed=False)  # the pre-0002 stored default
    migration.unsourced_management_is_unknown(apps, None)
    assert Switch.objects.get(part__part_number="Q3400-RA").managed is None
    assert Switch.objects.get(part__part_number="MQM9790-NS2F").managed is False  # sourced: kept


@pytest.mark.parametrize("category", sorted(SPEC_MODELS))
def test_a_text_spec_the_seed_leaves_null_is_stored_blank_for_every_part_kind(category):
    # any part kind, including one added later: a null text in the seed is unknown (blank), never a crash on load
    texts = [
        f.name
        for f in SPEC_MODELS[category]._meta.concrete_fields
        if isinstance(f, models.CharField) and not f.null and f.blank
    ]
    values = spec_values(category, dict.fromkeys(texts))
    assert {name: values[name] for name in texts} == dict.fromkeys(texts, "")
