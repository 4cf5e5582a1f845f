"""Catalogue facts a buyer relies on (issue #13): cable ends and purpose, lifecycle, plug tops, reference power,
completeness flags. Each fact is checked against what the seed's sources say, and each carries its source key."""

import json

import pytest

from catalog.models import Lifecycle, Media, Part, Server
from catalog.services import SEED_PATH, catalog_load_seed
from design.specs import GpuSpec, MediaSpec
from design.vocabulary import Connector, MediaPurpose, Top

pytestmark = pytest.mark.django_db

SEED = json.loads(SEED_PATH.read_text())
PARTS = {p["part_number"]: p for p in SEED["parts"]}
README = (SEED_PATH.parent / "README.md").read_text()
FACTS = (SEED_PATH.parent / "FACTS.md").read_text()


def test_mca4j80_is_a_switch_to_switch_twin_port_osfp_cable_not_an_adapter_splitter(seeded_catalog):
    # NVIDIA LinkX copper overview: LACC "in twin-port OSFP for 800G-to-800G switch-to-switch links at 3, 4, 5 m".
    cables = Media.objects.filter(part__part_number__startswith="MCA4J80-").select_related("part")
    assert {float(m.length_m) for m in cables} == {3.0, 4.0, 5.0}
    for m in cables:
        assert m.purpose == MediaPurpose.SWITCH_SWITCH
        for connector, top, twin, legs in (
            (m.a_connector, m.a_top, m.a_twin, m.a_legs),
            (m.b_connector, m.b_top, m.b_twin, m.b_legs),
        ):
            assert (connector, top, twin, legs) == (Connector.OSFP, Top.FINNED, True, 1), m.part.part_number
        assert m.sources["purpose"] == "NV-LX-CU" and m.sources["end_b"] == "NV-LX-CU"
        assert "splitter" not in m.part.name.lower()


def test_no_active_cable_fits_a_connectx7_osfp_card_beyond_passive_reach(seeded_catalog):
    # The 1:2 / 1:4 OSFP ACC splitters are discontinued; 3.5-5 m to a ConnectX-7 OSFP card means optics.
    flat_osfp = Media.objects.filter(
        part__category="cable", b_connector=Connector.OSFP, b_top=Top.FLAT, part__lifecycle=Lifecycle.ACTIVE
    )
    assert flat_osfp.exists()
    assert all(m.length_m <= 3 for m in flat_osfp), "a copper cable to a flat-top OSFP card longer than 3 m"


def test_discontinued_qsfp112_dac_splitters_carry_source_and_replacement(seeded_catalog):
    # "DACs 1:2 and 1:4 QSFP112 splitters have been discontinued – use transceivers" (NV-LX-CU).
    splitters = Part.objects.filter(part_number__startswith="MCP7Y10-")
    assert splitters.exists()
    for part in splitters:
        assert part.lifecycle == Lifecycle.DISCONTINUED
        assert part.lifecycle_source == "NV-LX-CU"
        assert "MMA1Z00-NS400" in part.replacement and "MMA4Z00-NS" in part.replacement
        for pn in ("MMA1Z00-NS400", "MMA4Z00-NS"):
            assert Part.objects.get(part_number=pn).lifecycle == Lifecycle.ACTIVE, "the replacement is orderable"


def test_every_lifecycle_claim_names_a_defined_source():
    for item in SEED["parts"]:
        if item.get("lifecycle") in ("discontinued", "eol") or item.get("lifecycle_source"):
            key = item.get("lifecycle_source")
            if item["lifecycle"] == "discontinued":
                assert key in SEED["sources"], f"{item['part_number']}: discontinued without a source"
            if key:
                assert key in SEED["sources"], f"{item['part_number']} cites undefined {key}"


def test_every_cable_end_and_purpose_has_a_source():
    for item in SEED["parts"]:
        if item["category"] not in ("cable", "transceiver"):
            continue
        for field in ("end_a", "end_b", "purpose", "watts"):
            if field in item["spec"]:
                assert item["sources"].get(field) in SEED["sources"], f"{item['part_number']}.{field}"


def test_qsfp112_cards_and_their_plugs_are_flat_top(seeded_catalog):
    # MCP7Y10: QSFP112 ends "use a flat top ... in ConnectX-7 adapters and BlueField-3 DPUs" (riding heat sink).
    qsfp112_cards = Part.objects.filter(category="adapter", adapter__connector=Connector.QSFP112)
    assert qsfp112_cards.count() >= 4
    assert all(p.adapter.top == Top.FLAT for p in qsfp112_cards.select_related("adapter"))
    assert Media.objects.get(part__part_number="MMA1Z00-NS400").a_top == Top.FLAT
    # MCP7Y60: flat-top QSFP56 ends "for use in ConnectX-6/7 adapters" (the HDR card's cage has a riding sink).
    assert Part.objects.get(part_number="MCX653105A-HDAT").adapter.top == Top.FLAT
    assert {m.b_top for m in Media.objects.filter(part__part_number__startswith="MCP7Y60-")} == {Top.FLAT}


def test_connectx8_cages_take_flat_top_plugs_and_the_xdr_switch_finned_ones(seeded_catalog):
    # NVIDIA XDR LinkX list: "RHS devices are used in ConnectX-8 cages for ... ConnectX-8 PCIe cards" (flat top);
    # "IHS transceivers or copper cables are only used in air-cooled switches (Q3400, Q3200)" (finned top).
    cx8 = Part.objects.select_related("adapter").get(adapter__family__icontains="ConnectX-8")
    assert cx8.adapter.top == Top.FLAT and PARTS[cx8.part_number]["sources"]["top"] == "NV-XDR-LX"
    q3400 = Part.objects.select_related("switch").get(part_number="Q3400-RA")
    assert q3400.switch.top == Top.FINNED and PARTS["Q3400-RA"]["sources"]["top"] == "NV-XDR-LX"
    assert "NV-XDR-LX" in SEED["sources"] and "NV-XDR-LX" in FACTS
    # Both were listed as unknown before; neither is any more.
    unknown = README.split("## What stayed unknown")[1].split("## Node contents")[0]
    assert "plug top of ConnectX-8" not in unknown and "plug top of Q3400-RA" not in unknown


def test_reference_system_maxima_are_stored_on_the_baseboards(seeded_catalog):
    from configurator.snapshot import catalog_snapshot

    view = catalog_snapshot(max_age=0)
    expected = {"HGX-H100-8GPU": 10200, "HGX-H200-8GPU": 10200, "HGX-B200-8GPU": 14300}
    for pn, watts in expected.items():
        board = view.get(pn)
        assert isinstance(board, GpuSpec) and board.ref_system_max_w == watts, pn
        assert board.ref_system.startswith("DGX ")
        assert PARTS[pn]["sources"]["ref_system_max_w"] in SEED["sources"]
    # The calibration basis is written down for the engines and the reader.
    assert "10.2 kW" in README and "14.3 kW" in README


def test_snapshot_carries_purpose_and_replacement(seeded_catalog):
    from configurator.snapshot import catalog_snapshot

    view = catalog_snapshot(max_age=0)
    mca = view.get("MCA4J80-N004")
    assert isinstance(mca, MediaSpec) and mca.purpose == MediaPurpose.SWITCH_SWITCH
    assert mca.end_b.twin and mca.end_b.legs == 1
    splitter = view.get("MCP7Y10-N001")
    assert splitter.lifecycle == "discontinued" and "MMA1Z00-NS400" in splitter.replacement
    assert view.get("MFP7E10-N003").purpose is None  # a fibre's purpose is not stated: unknown, not guessed


def test_switch_power_stays_unknown_and_is_listed(seeded_catalog):
    # No NVIDIA datasheet power figure was found for any catalogued switch.
    assert not Part.objects.filter(category="switch", switch__watts__isnull=False).exists()
    assert "Power of every switch" in README


def test_completeness_flags_rest_on_a_stated_list():
    # An MLPerf system file is one unit's inventory, never a complete list.
    for item in SEED["parts"]:
        for flag in ("accepts_complete", "slots_complete"):
            if item["spec"].get(flag):
                assert not item["sources"][flag].startswith(("MLC", "MLCT")), f"{item['part_number']}.{flag}"
                assert item["part_number"] in README.split("## Completeness flags")[1], item["part_number"]


def test_sys_421ge_tnhr2_lcc_gpu_list_is_not_definitive(seeded_catalog):
    server = Server.objects.get(part__part_number="SYS-421GE-TNHR2-LCC")
    assert server.accepts_complete is False
    assert Server.objects.get(part__part_number="AS-4125GS-TNRT").slots_complete is False


def test_sys_821ge_tnhr_has_twelve_gen5_x16_slots_from_its_bmc_and_the_rest_stays_unknown(seeded_catalog):
    # SMC-RF-821: the BMC's PCIeSlots table lists PCIe Slot 1-8 and two slots on each of two risers, all Gen5 x16.
    server = Server.objects.get(part__part_number="SYS-821GE-TNHR")
    slots = list(server.slots.all())
    assert server.slots_known and len(slots) == 12
    assert all((s.pcie_gen, s.lanes, s.source) == (5, 16, "SMC-RF-821") for s in slots)
    assert [s.name for s in slots if s.form == "LP"] == [f"LP{i}" for i in range(1, 9)]
    assert {s.name for s in slots if s.form == ""} == {"RISER0-1", "RISER0-2", "RISER1-1", "RISER1-2"}
    # One unit's slot table is not a statement that no other position exists; GPU and switch links are not in it.
    assert server.slots_complete is False
    assert all(s.gpus == [] and s.pcie_switch_id is None and s.cpu_socket is None for s in slots)
    unknown = README.split("## What stayed unknown")[1]
    assert "SYS-821GE-TNHR" in unknown and "riser slots" in unknown
    assert "SMC-RF-821" in SEED["sources"] and "SMC-RF-821" in FACTS


def test_an_apc_pdu_with_a_sourced_rating_is_seeded_with_a_placeholder_price_said_as_such(seeded_catalog):
    pdu = Part.objects.select_related("pdu").get(part_number="AP8886")
    # priced like every part the offer adds by itself, the price a placeholder the README says is one
    assert pdu.category == "pdu" and pdu.list_price_eur is not None and pdu.lead_time_days is not None
    placeholders = README.split("## Prices and lead times are placeholders")[1].split("\n## ")[0]
    assert "AP8886" in placeholders and "placeholder" in placeholders
    spec = pdu.pdu
    assert (float(spec.power_kw), spec.current_a, spec.voltage_v, spec.phases) == (22.0, 32, 230, 3)
    assert (spec.outlets_c13, spec.outlets_c19, spec.height_u) == (30, 12, 0)
    assert set(PARTS["AP8886"]["sources"].values()) == {"NB-AP8886"} and "NB-AP8886" in FACTS
    assert "AP8886" in README.split("### What stayed unknown (node contents)")[1]  # plug, price, derating unknown


def test_facts_file_lists_every_new_source_key():
    for key in ("NV-LX-CU", "NV-LX-OV", "NV-MCP7Y10", "DGX-H100-PWR", "DGX-B200-PWR", "NV-NIM-PERF"):
        assert key in SEED["sources"] and key in FACTS, key


def test_seed_version_was_bumped_and_reload_is_idempotent(seeded_catalog):
    assert SEED["version"] != "2026.11.4"
    report = catalog_load_seed()
    assert not report.changed


def test_price_list_import_accepts_discontinued_with_a_replacement(seeded_catalog):
    from catalog import pricelist

    content = (
        b"part_number,list_price_eur,lifecycle,replacement\n"
        b"MCP7Y00-N001,199.00,discontinued,MMA4Z00-NS + MFP7E10 + MMA4Z00-NS400\n"
    )
    pricelist.import_price_list(filename="prices.csv", content=content)
    part = Part.objects.get(part_number="MCP7Y00-N001")
    assert part.lifecycle == Lifecycle.DISCONTINUED and part.replacement.startswith("MMA4Z00-NS")
    assert "replacement" in pricelist.export_csv().splitlines()[0]
    with pytest.raises(pricelist.PriceListError, match="lifecycle"):
        pricelist.import_price_list(filename="p.csv", content=b"part_number,list_price_eur,lifecycle\nSN5600,1,gone\n")


def test_media_admin_lists_both_ends_purpose_and_lifecycle(admin_client, seeded_catalog):
    resp = admin_client.get("/admin/catalog/media/", {"purpose": "switch-switch"})
    assert resp.status_code == 200
    assert b"MCA4J80-N004" in resp.content and b"MCP7Y00-N001" not in resp.content
    page = admin_client.get("/admin/catalog/media/?q=MCP7Y10-N001").content.decode()
    assert "Discontinued" in page


def test_the_corrected_cable_ends_change_what_the_planner_can_choose(seeded_catalog):
    # With MCA4J80 modelled as NVIDIA describes it, a ConnectX-7 OSFP card 4 m from its leaf gets optics (no
    # copper cable reaches it), while a 4 m leaf-spine link gets the switch-to-switch active copper cable.
    from configurator.snapshot import catalog_snapshot
    from design.vocabulary import Protocol
    from engines.fabric.media import Side, select_media

    view = catalog_snapshot(max_age=0)
    leaf = Side(
        connector=Connector.OSFP, top=Top.FINNED, twin=True, links_per_plug=2, label="MQM9700-NS2F", is_switch=True
    )
    hca = Side(
        connector=Connector.OSFP, top=Top.FLAT, twin=False, links_per_plug=1, label="MCX75310AAS-NEAT", is_switch=False
    )
    to_node = select_media(view, leaf, hca, speed_gbps=400, distance_m=4.0, protocol=Protocol.INFINIBAND)
    assert to_node.choice is not None and to_node.choice.kind == "optics"
    assert not any(i.part.part_number.startswith("MCA4J80") for i in to_node.choice.items)
    to_spine = select_media(view, leaf, leaf, speed_gbps=400, distance_m=4.0, protocol=Protocol.INFINIBAND)
    assert to_spine.choice is not None
    assert [i.part.part_number for i in to_spine.choice.items] == ["MCA4J80-N005"]
