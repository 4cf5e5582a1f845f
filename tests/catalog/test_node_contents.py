"""Node contents in the catalogue: CPUs, memory, drives, racks and cords, and what each server takes.

A later service completes designs from each server's default node set, so the defaults must fit the server they
belong to; every new fact cites a source or stays unknown.
"""

from __future__ import annotations

import csv
import io
import json
from decimal import Decimal

import pytest

from catalog import pricelist
from catalog.models import M2_FORMS, DefaultPart, Part, Server
from catalog.services import SEED_PATH, SeedError, catalog_load_seed, reference_systems

pytestmark = pytest.mark.django_db

SEED = json.loads(SEED_PATH.read_text())
NEW_CATEGORIES = {"cpu", "memory", "drive", "rack", "pdu", "power_cord"}
NEW_SERVER_FIELDS = [
    "cpu_socket",
    "cpu_families",
    "memory_channels_per_socket",
    "dimms_per_channel",
    "memory_speed_1dpc_mts",
    "memory_speed_2dpc_mts",
    "m2_slots",
]
# The HGX A100 system is an X12 (DDR4) platform: no DDR5 node set is catalogued for it (see the seed README).
WITHOUT_DEFAULTS = {"SYS-420GP-TNAR"}


def _servers():
    # A rack-scale NVL72 system comes with its trays fitted: it has no node set to complete.
    return (
        Server.objects.filter(rack_scale=False)
        .select_related("part")
        .prefetch_related("default_parts__part", "drive_bays", "psu_options")
    )


def _defaults(server) -> dict[str, DefaultPart]:
    return {d.role: d for d in server.default_parts.all()}


def test_every_ddr5_server_has_a_complete_default_node_set(seeded_catalog):
    for server in _servers():
        pn = server.part.part_number
        if pn in WITHOUT_DEFAULTS:
            assert not server.default_parts.exists()
            continue
        defaults = _defaults(server)
        assert set(defaults) == {"cpu", "memory", "boot"}, f"{pn}: default node set {sorted(defaults)}"
        assert defaults["cpu"].part.category == "cpu"
        assert defaults["memory"].part.category == "memory"
        assert defaults["boot"].part.category == "drive" and defaults["boot"].part.drive.use == "boot"


def test_default_cpus_fill_every_socket_and_fit_the_platform(seeded_catalog):
    for server in _servers().exclude(part__part_number__in=WITHOUT_DEFAULTS):
        pn = server.part.part_number
        cpu = _defaults(server)["cpu"]
        spec = cpu.part.cpu
        assert cpu.quantity == server.cpu_sockets, f"{pn}: {cpu.quantity} CPUs for {server.cpu_sockets} sockets"
        assert server.cpu_socket, f"{pn}: socket unknown, so no default CPU can be checked against it"
        assert spec.socket == server.cpu_socket, f"{pn}: {spec.socket} CPU in a {server.cpu_socket} board"
        assert spec.family in server.cpu_families, f"{pn}: {spec.family} not in {server.cpu_families}"
        if spec.tdp_w is not None and server.cpu_tdp_w is not None:
            assert spec.tdp_w <= server.cpu_tdp_w, f"{pn}: {spec.tdp_w} W CPU, board takes {server.cpu_tdp_w} W"


def test_default_memory_is_balanced_over_the_channels_and_fits_the_slots(seeded_catalog):
    for server in _servers().exclude(part__part_number__in=WITHOUT_DEFAULTS):
        pn = server.part.part_number
        memory = _defaults(server)["memory"]
        cpu = _defaults(server)["cpu"].part.cpu
        channels = server.memory_channels_per_socket or cpu.memory_channels
        if server.dimm_slots is not None:
            assert memory.quantity <= server.dimm_slots, f"{pn}: {memory.quantity} DIMMs, {server.dimm_slots} slots"
        if channels is not None:
            per_channel, rest = divmod(memory.quantity, server.cpu_sockets * channels)
            assert rest == 0 and per_channel >= 1, f"{pn}: {memory.quantity} DIMMs over {channels} channels"
            if server.dimms_per_channel is not None:
                assert per_channel <= server.dimms_per_channel, f"{pn}: {per_channel} DIMMs per channel"
        assert memory.part.memory.memory_type == "DDR5 RDIMM"


def test_default_boot_drive_is_m2_and_fits_the_m2_slots(seeded_catalog):
    for server in _servers().exclude(part__part_number__in=WITHOUT_DEFAULTS):
        boot = _defaults(server)["boot"]
        assert boot.part.drive.form_factor in M2_FORMS and boot.part.drive.interface == "nvme"
        if server.m2_slots is not None:
            assert boot.quantity <= server.m2_slots, server.part.part_number


def test_drive_bays_and_psu_options_are_what_the_sources_say(seeded_catalog):
    hgx = Server.objects.get(part__part_number="SYS-821GE-TNHR")
    assert {(b.count, b.form_factor, b.interface) for b in hgx.drive_bays.all()} == {
        (16, "U.2", "nvme"),
        (3, "2.5in", "sata"),
    }
    assert [(p.count, p.watts, p.redundancy, p.default) for p in hgx.psu_options.all()] == [
        (6, 3000, "4+2", True),
        (8, 3000, "4+4", False),
    ]
    b200 = Server.objects.get(part__part_number="SYS-822GS-NBRT")
    assert [(b.count, b.form_factor) for b in b200.drive_bays.all()] == [(8, "E1.S")]
    assert [(p.count, p.watts, p.redundancy) for p in b200.psu_options.all()] == [(6, 6600, "3+3")]
    # The AS-8125GS-TNHR bay form and PSU redundancy are not published in the sources: unknown, not guessed.
    amd = Server.objects.get(part__part_number="AS-8125GS-TNHR")
    assert not amd.drive_bays.exists()
    assert [(p.count, p.watts, p.redundancy) for p in amd.psu_options.all()] == [(6, 3000, "")]


def test_every_new_fact_has_a_source_key_or_is_unknown(seeded_catalog):
    defined = set(SEED["sources"])
    for item in SEED["parts"]:
        pn = item["part_number"]
        if item["category"] in NEW_CATEGORIES:
            for field, value in item["spec"].items():
                assert value is not None, f"{pn}.{field}: an unknown fact is left out, not written as null"
                assert item["sources"].get(field) in defined, f"{pn}.{field} cites no defined source"
        if item["category"] == "server":
            for field in NEW_SERVER_FIELDS:
                if field in item["spec"]:
                    assert item["sources"].get(field) in defined, f"{pn}.{field} cites no defined source"
            for key in ("drive_bays", "psu_options", "defaults"):
                for row in item.get(key, []):
                    assert row["source"] in defined, f"{pn} {key}: source {row['source']!r} is not defined"
    for part in Part.objects.filter(category__in=NEW_CATEGORIES):
        spec = getattr(part, part.category)
        for field in spec._meta.concrete_fields:
            if field.name in ("part", "sources"):
                continue
            value = getattr(spec, field.name)
            if value not in (None, ""):
                assert field.name in spec.sources, f"{part.part_number}.{field.name} = {value!r} has no source"


def test_unsourced_node_facts_load_as_unknown(seeded_catalog):
    emerald = Part.objects.get(part_number="XEON-8570").cpu
    assert emerald.cores == 56 and emerald.tdp_w is None and emerald.memory_channels is None
    lcc = Server.objects.get(part__part_number="SYS-421GE-TNHR2-LCC")
    assert lcc.memory_channels_per_socket is None and not lcc.psu_options.exists()
    # No server's memory speed is published; the CPU's own limits stand in until it is.
    assert not Server.objects.filter(memory_speed_1dpc_mts__isnull=False).exists()


def test_cpu_memory_and_drive_facts_as_published(seeded_catalog):
    sapphire = Part.objects.get(part_number="XEON-8468").cpu
    assert (sapphire.socket, sapphire.cores, sapphire.tdp_w) == ("LGA4677", 48, 350)
    assert (sapphire.memory_channels, sapphire.memory_speed_mts, sapphire.memory_speed_2dpc_mts) == (8, 4800, 4400)
    genoa = Part.objects.get(part_number="EPYC-9474F").cpu
    assert (genoa.socket, genoa.cores, genoa.tdp_w, genoa.memory_channels) == ("SP5", 48, 360, 12)
    dimm = Part.objects.get(part_number="MTC40F2046S1RC48BA1").memory
    assert (dimm.size_gb, dimm.speed_mts, dimm.ranks) == (64, 4800, 2)
    data = Part.objects.get(part_number="MZQL27T6HBLA-00A07").drive
    assert (data.use, data.form_factor, data.capacity_gb, data.pcie_gen, data.pcie_lanes) == ("data", "U.2", 7680, 4, 4)
    cord = Part.objects.get(part_number="CORD-C19-C20-2M").power_cord
    assert (cord.a_connector, cord.b_connector, cord.current_a) == ("C20", "C19", 16)
    assert Part.objects.get(part_number="RACK-42U").rack.height_u == 42


def test_nvidia_reference_systems_give_the_memory_ratio():
    by_name = {r.system: r for r in reference_systems()}
    h100, b200 = by_name["NVIDIA DGX H100"], by_name["NVIDIA DGX B200"]
    assert (h100.system_memory_gb, h100.gpu_memory_gb, h100.memory_ratio) == (2048, 640, Decimal("3.20"))
    assert (b200.system_memory_gb, b200.gpu_memory_gb, b200.system_memory_max_gb) == (2048, 1440, 4096)
    assert b200.memory_ratio == Decimal("1.42")
    assert {r.source for r in by_name.values()} <= set(SEED["sources"])


def test_loading_twice_keeps_node_sets_and_restores_an_edited_default(seeded_catalog):
    report = catalog_load_seed()
    assert not report.created and not report.updated
    server = Server.objects.get(part__part_number="SYS-821GE-TNHR")
    memory = server.default_parts.get(role="memory")
    memory.quantity = 8
    memory.save()
    server.drive_bays.all().delete()
    report = catalog_load_seed()
    assert report.updated == ["SYS-821GE-TNHR"]
    assert server.default_parts.get(role="memory").quantity == 32
    assert server.drive_bays.count() == 2
    assert catalog_load_seed().updated == []


def test_a_default_naming_an_unknown_part_is_a_clear_seed_error(seeded_catalog, tmp_path):
    data = json.loads(SEED_PATH.read_text())
    server = next(p for p in data["parts"] if p["part_number"] == "SYS-821GE-TNHR")
    server["defaults"][0]["part"] = "XEON-NOPE"
    path = tmp_path / "catalog.json"
    path.write_text(json.dumps(data))
    with pytest.raises(SeedError, match="SYS-821GE-TNHR: defaults name unknown part.*XEON-NOPE"):
        catalog_load_seed(path=path)


def test_price_list_exports_and_imports_node_parts(seeded_catalog):
    rows = list(csv.DictReader(io.StringIO(pricelist.export_csv())))
    categories = {r["category"] for r in rows}
    assert NEW_CATEGORIES - {"pdu"} <= categories
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["part_number", "list_price_eur", "lead_time_days"])
    writer.writerow(["MTC40F2046S1RC48BA1", "412.00", "10"])
    writer.writerow(["XEON-8468", "4999.99", "28"])
    report = pricelist.import_price_list(filename="p.csv", content=out.getvalue().encode())
    assert report.updated == 2
    assert Part.objects.get(part_number="MTC40F2046S1RC48BA1").list_price_eur == Decimal("412.00")
    assert Part.objects.get(part_number="XEON-8468").lead_time_days == 28


def test_admin_shows_node_specs_and_server_node_sets(admin_client, seeded_catalog):
    cpu = Part.objects.get(part_number="XEON-8468")
    page = admin_client.get(f"/admin/catalog/part/{cpu.pk}/change/")
    assert page.status_code == 200 and b"LGA4677" in page.content
    server = Server.objects.get(part__part_number="SYS-822GS-NBRT")
    page = admin_client.get(f"/admin/catalog/server/{server.pk}/change/")
    assert page.status_code == 200
    assert b"3+3" in page.content and b"E1.S" in page.content
