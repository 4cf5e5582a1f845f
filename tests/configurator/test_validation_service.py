"""The one validation service, on the real seeded catalogue: the verdicts an expert would give."""

import pytest

from catalog.models import Part
from configurator.examples import h200_training_cluster
from configurator.snapshot import catalog_snapshot, clear_cache
from design.model import DesignInputError
from tests.results import fabric_plan_json, validate_json

pytestmark = pytest.mark.django_db


def _design(**changes):
    doc = h200_training_cluster()
    for key, value in changes.items():
        if value is None:
            doc.pop(key, None)
        else:
            doc[key] = value
    return doc


def _codes(result, severity=None):
    return {f["code"] for f in result["findings"] if severity is None or f["severity"] == severity}


def test_single_h200_node_with_eight_ndr_nics_is_valid(seeded_catalog):
    # Issue "Done when": SYS-821GE-TNHR + HGX-H200-8GPU + 8x MCX75310AAS-NEAT is valid.
    doc = _design(fabric=None, workload=None)
    doc["node_groups"][0]["count"] = 1
    result = validate_json(document=doc)
    assert result["valid"] is True, result["findings"]
    assert result["totals"]["gpus"] == 8 and result["totals"]["gpu_memory_gb"] == 8 * 141
    placed = [s for s in result["placement"][0]["slots"] if s["part"] == "MCX75310AAS-NEAT"]
    assert len(placed) == 8


def test_b200_board_in_an_h100_generation_server_is_rejected(seeded_catalog):
    doc = _design(fabric=None, workload=None)
    doc["node_groups"][0]["count"] = 1
    doc["node_groups"][0]["components"][0]["part"] = "HGX-B200-8GPU"
    result = validate_json(document=doc)
    assert result["valid"] is False
    assert "GPU_NOT_ACCEPTED" in _codes(result, "error")


def test_eleven_adapters_in_a_ten_slot_server_are_rejected(seeded_catalog):
    # SYS-822GS-NBRT: 8x LP + 2x FHHL PCIe 5.0 x16 (hardware.md §1b, DIST-PM).
    doc = _design(fabric=None, workload=None)
    doc["node_groups"][0].update(
        count=1,
        server="SYS-822GS-NBRT",
        components=[
            {"part": "HGX-B200-8GPU", "quantity": 1},
            {"part": "MCX75310AAS-NEAT", "quantity": 11, "role": "compute"},
        ],
    )
    result = validate_json(document=doc)
    assert result["valid"] is False
    assert "PCIE_NO_FREE_SLOT" in _codes(result, "error")


def test_four_h200_nodes_training_70b_without_fabric_are_rejected(seeded_catalog):
    result = validate_json(document=_design(fabric=None))
    assert result["valid"] is False
    assert "WORKLOAD_NEEDS_FABRIC" in _codes(result, "error")


def test_four_h200_nodes_with_a_qm9700_fabric_get_a_plan(seeded_catalog):
    # A hall that carries 50 kW per rack: the four nodes (10.2 kW each, DGX H200's maximum) and their switch
    # share one rack.
    result = validate_json(document=_design(facility={"rack_power_kw": 50}))
    assert result["valid"] is True, [f for f in result["findings"] if f["severity"] == "error"]
    plan = result["fabric_plan"]
    # 4 nodes x 8 rails = 32 NDR ports: one 64-port QM9700 (fabric.md §0 rule 5, §3).
    assert plan["tiers"] == 1 and plan["leaf_switches"] == 1 and plan["node_links"] == 32
    assert any(item["part"] == "MQM9700-NS2F" for item in plan["bom"])
    # The nodes and their leaf share one rack; the control plane's five servers stand in a management rack.
    racks = result["rack_plan"]["racks"]
    assert result["rack_plan"]["leaf_placement"] == "in-rack" and [r["kind"] for r in racks] == [
        "compute",
        "management",
    ]
    # In-rack runs of 2-3 m take a 1:2 DAC splitter (finned twin OSFP to 2x flat OSFP), 2 node links each,
    # not optics (fabric.md §4: MCP7Y00 up to 3 m, switch to ConnectX-7).
    bom = {item["part"]: item["quantity"] for item in plan["bom"]}
    dac = [pn for pn in bom if pn.startswith("MCP7Y00-")]
    assert len(dac) == 1 and bom[dac[0]] == 16
    assert not any(pn.startswith("MMA4Z00") for pn in bom)


def test_findings_come_in_dutch_when_asked(seeded_catalog):
    english = validate_json(document=_design(fabric=None), language="en")
    dutch = validate_json(document=_design(fabric=None), language="nl")
    en = next(f for f in english["findings"] if f["code"] == "WORKLOAD_NEEDS_FABRIC")
    nl = next(f for f in dutch["findings"] if f["code"] == "WORKLOAD_NEEDS_FABRIC")
    assert en["message"] != nl["message"] and en["fix"] != nl["fix"]
    assert "fabric" in en["message"].lower()


def test_malformed_design_names_every_bad_field(seeded_catalog):
    doc = _design(schema=None)
    doc["node_groups"][0]["count"] = 0
    doc["node_groups"][0]["components"][1]["part"] = "NO-SUCH-PART"
    with pytest.raises(DesignInputError) as err:
        validate_json(document=doc)
    assert "schema" in err.value.errors
    assert "node_groups[0].count" in err.value.errors


def test_unknown_part_and_wrong_category_are_input_errors(seeded_catalog):
    doc = _design()
    doc["node_groups"][0]["components"][1]["part"] = "NO-SUCH-PART"
    doc["node_groups"][0]["server"] = "MQM9700-NS2F"
    with pytest.raises(DesignInputError) as err:
        validate_json(document=doc)
    assert set(err.value.errors) >= {"node_groups[0].server", "node_groups[0].components[1].part"}


def test_the_planner_sizes_128_h200_nodes_like_nvidias_reference(seeded_catalog):
    # NVIDIA DGX SuperPOD H100 RA: 4 SUs of 32 nodes, 32 leaves and 16 spines of QM9700 at 1:1.
    plan = fabric_plan_json(request={"nodes": 128, "rails": 8, "switch": "MQM9700-NS2F", "hca": "MCX75310AAS-NEAT"})
    assert (plan["tiers"], plan["units"], plan["leaf_switches"], plan["spine_switches"]) == (2, 4, 32, 16)
    assert plan["node_links"] == 1024 and plan["leaf_spine_links"] == 1024


def test_snapshot_costs_a_fixed_number_of_queries_whatever_the_catalogue_size(
    seeded_catalog, django_assert_max_num_queries
):
    clear_cache()
    with django_assert_max_num_queries(10) as small:  # + drive bays and default node sets
        catalog_snapshot()
    Part.objects.bulk_create(
        Part(part_number=f"EXTRA-{i}", manufacturer="T", name="extra", category="other") for i in range(300)
    )
    clear_cache()
    with django_assert_max_num_queries(len(small.captured_queries)):
        view = catalog_snapshot()
    assert "EXTRA-299" in view.parts
    with django_assert_max_num_queries(2):  # warm: only the freshness check
        catalog_snapshot()


def test_a_price_change_refreshes_the_snapshot(seeded_catalog):
    before = catalog_snapshot().get("MQM9700-NS2F").price_eur
    Part.objects.filter(part_number="MQM9700-NS2F").update(list_price_eur=before + 100)
    part = Part.objects.get(part_number="MQM9700-NS2F")
    part.save()  # bumps updated_at as the admin and the import do
    assert catalog_snapshot().get("MQM9700-NS2F").price_eur == before + 100


def test_a_warm_snapshot_within_its_max_age_costs_no_query(seeded_catalog, django_assert_num_queries):
    catalog_snapshot(max_age=60)
    with django_assert_num_queries(0):
        catalog_snapshot(max_age=60)


def _b300_integrated_nic_design():
    # SYS-822GS-NB3RT: 8 integrated ConnectX-8 SuperNICs, 800G OSFP, one per GPU (hardware.md §1b); no slotted
    # compute adapter.
    doc = _design(workload=None)
    doc["node_groups"][0].update(server="SYS-822GS-NB3RT", components=[{"part": "HGX-B300-8GPU", "quantity": 1}])
    doc["facility"] = {"rack_power_kw": 80}  # the four nodes and their switch in one rack: in-rack runs
    return doc


def test_integrated_800g_nics_are_planned_at_their_speed_not_assumed(seeded_catalog):
    result = validate_json(document=_b300_integrated_nic_design())
    codes = _codes(result)
    assert "FABRIC_HCA_ASSUMED" not in codes
    speed = next(f for f in result["findings"] if f["code"] == "FABRIC_SPEED_MISMATCH")
    assert "SYS-822GS-NB3RT integrated NIC runs at 800 Gb/s" in speed["message"]
    assert "400 Gb/s" in speed["message"] and "Q3400" in speed["fix"]
    plan = result["fabric_plan"]
    assert plan["hca"] == "SYS-822GS-NB3RT integrated NIC" and plan["link_speed_gbps"] == 400
    assert plan["rails"] == 8 and plan["node_links"] == 32
    # The 800G OSFP ports take the twin-OSFP -> 2x OSFP splitter in the rack (top not sourced: any top fits).
    assert any(item["part"].startswith("MCP7Y00-") for item in plan["bom"])


def test_the_integrated_nic_connector_is_catalogue_data(seeded_catalog):
    from catalog.models import Server
    from design.vocabulary import Connector

    assert catalog_snapshot().get("SYS-822GS-NB3RT").integrated_nic_connector == Connector.OSFP
    # Without the sourced connector the planner chooses no cable rather than assuming OSFP from a code table.
    Server.objects.filter(part__part_number="SYS-822GS-NB3RT").update(integrated_nic_connector="")
    Part.objects.get(part_number="SYS-822GS-NB3RT").save()  # queryset update() sends no signal: touch the part
    assert catalog_snapshot().get("SYS-822GS-NB3RT").integrated_nic_connector is None
    plan = validate_json(document=_b300_integrated_nic_design())["fabric_plan"]
    assert not any(item["part"].startswith("MCP7Y00-") for item in plan["bom"])


def test_hdr_adapter_on_qm9700_is_beyond_reach_not_no_cable(seeded_catalog):
    doc = _design(workload=None, facility={"rack_power_kw": 50})
    doc["node_groups"][0]["components"][1]["part"] = "MCX653105A-HDAT"
    # The rack plan's longest in-rack run: the lowest node (U1) up to the top of the rack (U42), 41 x 44.45 mm
    # + 2 x 0.3 m = 2.42 m, rounded up to 2.5 m; with the 0.5 m slack the medium must reach 3 m.
    # Given by the design, that run is evidence: no catalogued HDR splitter reaches it and the catalogue holds no HDR
    # optics, so a longer medium is missing from the catalogue (issue #20): a warning with the bill incomplete.
    doc["fabric"]["rack"] = {"in_rack_m": 2.5}
    result = validate_json(document=doc)
    codes = _codes(result)
    assert "FABRIC_NO_CABLE" not in codes and {"FABRIC_REACH_NOT_CATALOGUED", "FABRIC_SPEED_MISMATCH"} <= codes
    reach = next(f for f in result["findings"] if f["code"] == "FABRIC_REACH_NOT_CATALOGUED")
    assert reach["severity"] == "warning" and result["fabric_plan"]["bom_complete"] is False
    assert result["rack_plan"]["distances"]["in_rack_m"]["length_m"] == 2.5
    assert "at least 3 m" in reach["message"] and "reaches 2 m" in reach["message"]
    assert "“Cable run within a rack (m)”" in reach["fix"] and "rack.in_rack_m" not in reach["fix"]
    # The same run estimated from the rack layout (the design gives none) is an assumption: the 2 m MCP7Y60
    # splitter with a warning that the runs must stay within 1.5 m, not an invalid design.
    del doc["fabric"]["rack"]
    result = validate_json(document=doc)
    assert not _codes(result) & {"FABRIC_NO_CABLE", "FABRIC_BEYOND_REACH", "FABRIC_REACH_NOT_CATALOGUED"}
    assumed = next(f for f in result["findings"] if f["code"] == "FABRIC_DISTANCE_ASSUMED")
    assert assumed["severity"] == "warning" and "2.5 m" in assumed["message"] and "1.5 m" in assumed["message"]
    # With the rack override the 2 m MCP7Y60 splitter serves the in-rack run, without a warning.
    doc["fabric"]["rack"] = {"in_rack_m": 1.5}
    result = validate_json(document=doc)
    assert not _codes(result) & {
        "FABRIC_NO_CABLE",
        "FABRIC_BEYOND_REACH",
        "FABRIC_REACH_NOT_CATALOGUED",
        "FABRIC_DISTANCE_ASSUMED",
    }
    bom = {item["part"]: item["quantity"] for item in result["fabric_plan"]["bom"]}
    assert bom.get("MCP7Y60-H002") == 16


def test_xdr_and_qsfp28_are_cabled_and_a_catalogue_gap_is_a_warning_with_the_bill_incomplete(seeded_catalog):
    # Issue #20: the XDR LinkX media are catalogued (NV-XDR-OPN), so ConnectX-8 on Quantum-X800 is planned and
    # cabled like NDR; the 100G QSFP28 media are still missing, which is a catalogue gap, never a hardware error.
    xdr = fabric_plan_json(request={"nodes": 16, "rails": 8, "switch": "Q3400-RA", "hca": "900-9X81E-00EX-ST0"})
    assert not [f for f in xdr["findings"] if f["code"] in ("FABRIC_NO_CABLE", "FABRIC_MEDIA_NOT_CATALOGUED")]
    assert xdr["bom_complete"] is True
    node = next(lk for lk in xdr["links"] if lk["class"] == "node-leaf")
    assert node["cable_part"].startswith("980-9IAH1-00XM00 + MFP7E30-") and node["cable_part"].endswith(
        "980-9IAT0-00XM00"
    )
    # The 100G QSFP28 media are catalogued too now (MCP1600-C, MFA1A00-C): an SN4600C fabric is cabled.
    eth = fabric_plan_json(request={"nodes": 16, "rails": 1, "switch": "SN4600C"})
    assert not [f for f in eth["findings"] if f["code"] == "FABRIC_MEDIA_NOT_CATALOGUED"]
    assert eth["bom_complete"] is True
    # Without them it is the catalogue gap: a warning, the bill incomplete.
    from catalog.models import Part

    Part.objects.filter(media__a_connector="QSFP28").delete()
    eth = fabric_plan_json(request={"nodes": 16, "rails": 1, "switch": "SN4600C"})
    gap = next(f for f in eth["findings"] if f["code"] == "FABRIC_MEDIA_NOT_CATALOGUED")
    assert gap["severity"] == "warning" and "no 100 Gb/s QSFP28 cables or optics" in gap["message"]
    assert "incomplete" in gap["message"] and eth["bom_complete"] is False


def test_absurd_rails_are_an_input_error_naming_rails(seeded_catalog):
    with pytest.raises(DesignInputError) as err:
        fabric_plan_json(request={"nodes": 4, "rails": 100, "switch": "MQM9700-NS2F"})
    assert set(err.value.errors) == {"rails"} and "at most 64 rails" in err.value.errors["rails"]


def test_a_result_says_its_findings_when_read_and_once(seeded_catalog):
    """The verdict, the bill and the rack plan are read without a message said (the recommender ranks many
    candidates that way); the findings are said in the result's language on first reading, and only then."""
    from unittest import mock

    from configurator import result as result_module
    from configurator.services import design_validate

    doc = _design()
    doc["node_groups"][0]["components"][0]["part"] = "HGX-B200-8GPU"  # not in an H100-generation server
    with mock.patch.object(result_module, "finding_dicts", wraps=result_module.finding_dicts) as said:
        result = design_validate(document=doc, language="nl")
        assert result.valid is False and result.bom and result.rack_plan.plan.racks
        assert said.call_count == 0
        first = result.findings
        assert result.findings is first and said.call_count == 1
    [error] = [f for f in first if f.code == "GPU_NOT_ACCEPTED"]
    assert error.is_error and "HGX-B200-8GPU" in error.message and error.message != error.fix
    assert result.to_json()["findings"] == [f.to_json() for f in first]
