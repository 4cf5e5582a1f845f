"""Issue #20 through the one validation service and the seeded catalogue: XDR fabrics are planned and cabled, a
catalogue gap is a warning with the bill marked incomplete, power is calibrated only against a system of the same
form and cooling, and refusals need evidence (a published count or a physical mismatch), never one sighting."""

import pytest

from tests.results import fabric_plan_json, validate_json

pytestmark = pytest.mark.django_db

B300 = {"part": "HGX-B300-8GPU", "quantity": 1}
B200 = {"part": "HGX-B200-8GPU", "quantity": 1}
H100 = {"part": "HGX-H100-8GPU", "quantity": 1}


def _node(server, *components, count=1):
    return {"name": "gpu", "count": count, "server": server, "components": list(components)}


def _doc(*groups, fabric=None):
    doc = {"schema": "design/v1", "name": "t", "node_groups": list(groups)}
    if fabric:
        doc["fabric"] = fabric
    return doc


def _by_code(result, code):
    return [f for f in result["findings"] if f["code"] == code]


def _errors(result):
    return {f["code"] for f in result["findings"] if f["severity"] == "error"}


def _bom(plan):
    return {row["part"]: row["quantity"] for row in plan["bom"]}


# --- 1. XDR media ------------------------------------------------------------------------------------------------


def test_four_hgx_b300_on_quantum_x800_is_valid_and_cabled_with_xdr_optics(seeded_catalog):
    # Issue #20: 4 x HGX B300 (integrated ConnectX-8) on Q3400-RA, NVIDIA's reference pairing.
    result = validate_json(document=_doc(_node("SYS-822GS-NB3RT", B300, count=4), fabric={"switch": "Q3400-RA"}))
    # The 6.6 kW supplies' outlet, which the catalogue lacks (FACTS.md, seed 2026.12.10), is a warning, not an error.
    assert result["valid"], _errors(result)
    assert not _by_code(result, "FABRIC_NO_CABLE") and not _by_code(result, "FABRIC_MEDIA_NOT_CATALOGUED")
    plan = result["fabric_plan"]
    assert plan["bom_complete"] is True and plan["uncabled_links"] == []
    bom = _bom(plan)
    # 32 ConnectX-8 ports: one MMS4A20 each; two ports per twin-port MMS4A00 in the switch cages (NV-XDR-OPN)
    assert bom["980-9IAT0-00XM00"] == 32 and bom["980-9IAH1-00XM00"] == 16
    assert sum(q for p, q in bom.items() if p.startswith("MFP7E30-")) == 32
    assert not any(p.startswith(("MMS4X00", "MMA4Z00", "MCP")) for p in bom)  # no NDR part in an XDR fabric


def test_an_xdr_leaf_spine_tier_uses_xdr_media_at_both_ends(seeded_catalog):
    plan = fabric_plan_json(request={"nodes": 256, "rails": 8, "switch": "Q3400-RA", "hca": "900-9X81E-00EX-ST0"})
    assert plan["tiers"] == 2 and plan["bom_complete"] is True
    spine = next(lk for lk in plan["links"] if lk["class"] == "leaf-spine")
    assert spine["speed_gbps"] == 800
    assert {p["part"] for p in spine["parts"]} <= {"980-9IAH1-00XM00"} | {
        p["part"] for p in spine["parts"] if p["part"].startswith("MFP7E30-")
    }


def test_a_short_xdr_switch_run_takes_the_1_6t_copper_cable(seeded_catalog):
    # MCA4K50 (IHS to IHS, up to 3 m, NV-XDR-OPN) is the switch-to-switch copper of Quantum-X800; 1.5 m + 0.5 m slack
    plan = fabric_plan_json(
        request={
            "nodes": 256,
            "rails": 8,
            "switch": "Q3400-RA",
            "hca": "900-9X81E-00EX-ST0",
            "rack": {"leaf_to_spine_m": 1.5},
        }
    )
    spine = next(lk for lk in plan["links"] if lk["class"] == "leaf-spine")
    assert spine["media"] == "acc" and spine["cable_part"] == "980-9IAM3-00X002"


def test_an_ndr_fabric_never_takes_xdr_media(seeded_catalog):
    # 200G-PAM4 XDR plugs cannot downshift to 100G-PAM4 (NV-XDR-LX): none in a QM9700 / ConnectX-7 fabric.
    plan = fabric_plan_json(request={"nodes": 128, "rails": 8, "switch": "MQM9700-NS2F", "hca": "MCX75310AAS-NEAT"})
    assert plan["bom_complete"] is True
    assert not any(p.startswith("980-9IA") for p in _bom(plan))


def test_connectx7_on_quantum_x800_never_pairs_an_xdr_optic_with_an_ndr_optic(seeded_catalog):
    plan = fabric_plan_json(request={"nodes": 16, "rails": 8, "switch": "Q3400-RA", "hca": "MCX75310AAS-NEAT"})
    node = next(lk for lk in plan["links"] if lk["class"] == "node-leaf")
    parts = {p["part"] for p in node["parts"]}
    assert not ("980-9IAH1-00XM00" in parts and "MMS4X00-NS400" in parts)
    assert "980-9IAT0-00XM00" not in parts  # an 800G XDR optic does not fit a 400G ConnectX-7


def _without_qsfp28_media():
    """The catalogue as it was before its 100 Gb/s QSFP28 cables were seeded (a catalogue gap to report)."""
    from catalog.models import Part

    Part.objects.filter(media__a_connector="QSFP28").delete()


def test_connectx7_qsfp112_cards_on_a_100g_qsfp28_switch_are_cabled_with_qsfp28_media(seeded_catalog):
    # SN4600C (100G QSFP28) to ConnectX-7 QSFP112 cards, whose cages take QSFP28 plugs (NV-LX-OV): the catalogue's
    # 100GbE QSFP28 cables join them, so the bill is complete.
    nic = {"part": "MCX755106AS-HEAT", "quantity": 1, "role": "compute"}
    result = validate_json(
        document=_doc(
            _node("SYS-421GE-TNRT3", {"part": "L40S", "quantity": 4}, nic, count=2), fabric={"switch": "SN4600C"}
        )
    )
    assert result["valid"], _errors(result)
    assert not _by_code(result, "FABRIC_MEDIA_NOT_CATALOGUED") and not _by_code(result, "FABRIC_NO_CABLE")
    node = next(lk for lk in result["fabric_plan"]["links"] if lk["class"] == "node-leaf")
    assert node["speed_gbps"] == 100 and node["cable_part"].startswith(("MCP1600-C", "MFA1A00-C"))
    assert result["fabric_plan"]["bom_complete"] is True


def test_a_fabric_the_catalogue_cannot_cable_is_valid_with_a_warning_and_an_incomplete_bill(seeded_catalog):
    # Without QSFP28 media in the catalogue, SN4600C to ConnectX-7 is a catalogue gap, not a hardware error: valid,
    # said, and the bill marked incomplete.
    _without_qsfp28_media()
    nic = {"part": "MCX755106AS-HEAT", "quantity": 1, "role": "compute"}
    result = validate_json(
        document=_doc(
            _node("SYS-421GE-TNRT3", {"part": "L40S", "quantity": 4}, nic, count=2), fabric={"switch": "SN4600C"}
        )
    )
    assert result["valid"], _errors(result)
    (gap,) = _by_code(result, "FABRIC_MEDIA_NOT_CATALOGUED")
    assert gap["severity"] == "warning" and "100 Gb/s QSFP28" in gap["message"] and "incomplete" in gap["message"]
    assert result["fabric_plan"]["bom_complete"] is False and result["fabric_plan"]["uncabled_links"] == ["node-leaf"]


def test_a_catalogue_gap_is_said_in_dutch_too(seeded_catalog):
    _without_qsfp28_media()
    plan = fabric_plan_json(request={"nodes": 16, "rails": 1, "switch": "SN4600C"}, language="nl")
    gap = next(f for f in plan["findings"] if f["code"] == "FABRIC_MEDIA_NOT_CATALOGUED")
    assert gap["severity"] == "warning" and "De stuklijst laat deze verbindingen weg" in gap["message"]
    assert plan["bom_complete"] is False and plan["uncabled_links"]


# --- 3. power calibrated per chassis and cooling -----------------------------------------------------------------


def test_liquid_cooled_hgx_b200_is_not_refused_on_the_air_cooled_dgx_maximum(seeded_catalog):
    # Issue #20: SYS-422GS-NBRT-LCC, 2+2 x 6.6 kW, was refused with "14,300 W ... 108% of 13,200 W".
    result = validate_json(document=_doc(_node("SYS-422GS-NBRT-LCC", B200)))
    assert result["valid"], _errors(result)
    assert not _by_code(result, "POWER_OVER_CAPACITY")
    (basis,) = _by_code(result, "POWER_ESTIMATE_BASIS")
    assert basis["message"].startswith("Estimated peak per node is 10,350 W")  # (8,000 + 700 + 300) x 1.15
    assert "NVIDIA's maximum of 14,300 W for DGX B200 is not applied" in basis["message"]
    assert "air-cooled" in basis["message"] and "liquid-cooled" in basis["message"]
    power = result["totals"]["power_basis"][0]
    assert power["basis"] == "parts" and power["reference_skipped"]["reason"] == "cooling"
    assert result["totals"]["groups"][0]["peak_power_w_per_node"] < 13200


def test_liquid_cooled_basis_is_stated_in_dutch(seeded_catalog):
    result = validate_json(document=_doc(_node("SYS-422GS-NBRT-LCC", B200)), language="nl")
    (basis,) = _by_code(result, "POWER_ESTIMATE_BASIS")
    assert "wordt niet toegepast" in basis["message"] and "vloeistofgekoeld" in basis["message"]


def test_the_air_cooled_8u_hgx_b200_keeps_the_dgx_b200_calibration(seeded_catalog):
    # Same board, same cooling (air, DGXB200-AIR): the published 14.3 kW maximum still sets the peak.
    result = validate_json(document=_doc(_node("SYS-822GS-NBRT", B200)))
    assert result["totals"]["groups"][0]["peak_power_w_per_node"] == 14300
    assert result["totals"]["power_basis"][0]["basis"] == "reference_system"


def test_the_liquid_cooled_hgx_h100_system_is_not_calibrated_on_the_air_cooled_dgx_h100(seeded_catalog):
    result = validate_json(document=_doc(_node("SYS-421GE-TNHR2-LCC", H100)))
    power = result["totals"]["power_basis"][0]
    assert power["basis"] == "parts" and power["reference_skipped"]["system"] == "DGX H100"
    assert result["totals"]["groups"][0]["peak_power_w_per_node"] < 10200


@pytest.mark.parametrize(
    ("server", "board", "system", "maximum"),
    [
        # air-cooled SYS-822GS-NB3RT: the sum of parts was 11,583 W; DGX B300 is about 14 kW (NV-DS), its cooling
        # not sourced
        ("SYS-822GS-NB3RT", {"part": "HGX-B300-8GPU", "quantity": 1}, "DGX B300", 14000),
        # SYS-420GP-TNAR, cooling not sourced: the sum of parts was 4,830 W; DGX A100 is 6.5 kW (DGX-A100-PWR)
        ("SYS-420GP-TNAR", {"part": "HGX-A100-8GPU", "quantity": 1}, "DGX A100", 6500),
    ],
)
def test_a_missing_cooling_fact_takes_the_closest_nvidia_systems_maximum_and_says_so(
    seeded_catalog, server, board, system, maximum
):
    result = validate_json(document=_doc(_node(server, board)))
    group = result["totals"]["groups"][0]
    assert group["peak_power_w_per_node"] == maximum
    power = result["totals"]["power_basis"][0]
    assert power["basis"] == "reference_system" and power["reference_system"] == system
    assert power["reference_unconfirmed"]["system"] == system and power["parts_w"] < maximum
    (basis,) = _by_code(result, "POWER_ESTIMATE_BASIS")
    assert f"is not sourced, so the two are not confirmed alike; the published maximum of {system}" in basis["message"]
    dutch = validate_json(document=_doc(_node(server, board)), language="nl")
    (basis,) = _by_code(dutch, "POWER_ESTIMATE_BASIS")
    assert "het dichtstbijzijnde NVIDIA-systeem" in basis["message"]


def test_a_known_other_cooling_still_keeps_the_sum_of_parts(seeded_catalog):
    result = validate_json(document=_doc(_node("SYS-422GS-NBRT-LCC", B200)))
    power = result["totals"]["power_basis"][0]
    assert power["basis"] == "parts" and power["reference_unconfirmed"] is None


# --- 4. refusals only on evidence, and no wrong pass -------------------------------------------------------------


def test_a_4th_gen_xeon_in_the_5th_gen_lcc_system_is_unverified_not_refused(seeded_catalog):
    # Issue #20: the only source of SYS-421GE-TNHR2-LCC's CPU family is one MLPerf unit (a 5th Gen Xeon 8570).
    doc = _doc(_node("SYS-421GE-TNHR2-LCC", H100, {"part": "XEON-8468", "quantity": 2, "role": "cpu"}))
    result = validate_json(document=doc)
    assert result["valid"], _errors(result)
    (f,) = _by_code(result, "NODE_CPU_UNVERIFIED")
    assert f["severity"] == "warning" and "LGA4677" in f["message"]
    assert f["fix"].startswith("Confirm BIOS support for XEON-8468 with Supermicro.") and "XEON-8570" in f["fix"]


def test_a_cpu_of_another_socket_is_still_refused(seeded_catalog):
    doc = _doc(_node("SYS-821GE-TNHR", H100, {"part": "EPYC-9474F", "quantity": 2, "role": "cpu"}))
    result = validate_json(document=doc)
    assert "NODE_CPU_NOT_ACCEPTED" in _errors(result)


def test_three_cpus_in_two_sockets_are_refused_and_one_in_an_hgx_host_too(seeded_catalog):
    three = validate_json(document=_doc(_node("SYS-821GE-TNHR", H100, {"part": "XEON-8468", "quantity": 3})))
    assert "NODE_CPU_COUNT" in _errors(three)
    # NV-DGXH100-UG §1.2.3, Table 6: GPUs 4-7 and their ConnectX-7 hang off the second CPU
    for board in (H100, {"part": "HGX-H200-8GPU", "quantity": 1}):
        one = validate_json(document=_doc(_node("SYS-821GE-TNHR", board, {"part": "XEON-8468", "quantity": 1})))
        assert not one["valid"] and "NODE_CPU_SOCKET_EMPTY_HGX" in _errors(one)
        assert not _by_code(one, "NODE_CPU_SOCKET_EMPTY")


def test_twenty_dimms_on_sixteen_channels_is_a_warning_not_an_error(seeded_catalog):
    # Issue #20: the system boots and only loses bandwidth, so balance is best practice, a warning.
    doc = _doc(_node("SYS-821GE-TNHR", H100, {"part": "MTC40F2046S1RC48BA1", "quantity": 20, "role": "memory"}))
    result = validate_json(document=doc)
    (f,) = _by_code(result, "MEMORY_UNBALANCED")
    assert f["severity"] == "warning" and "16 or 32" in f["fix"]
    assert "MEMORY_UNBALANCED" not in _errors(result)


def test_more_dimms_than_the_published_slots_stays_an_error(seeded_catalog):
    doc = _doc(_node("SYS-821GE-TNHR", H100, {"part": "MTC40F2046S1RC48BA1", "quantity": 48, "role": "memory"}))
    assert "MEMORY_TOO_MANY" in _errors(validate_json(document=doc))


def test_a_dimm_count_seen_in_one_unit_is_no_slot_count(seeded_catalog):
    # SYS-421GE-TNHR2-LCC's 32 DIMMs were one MLPerf unit's population, a lower bound: no longer a refusal count.
    doc = _doc(_node("SYS-421GE-TNHR2-LCC", H100, {"part": "MTC40F2046S1RC56BD1", "quantity": 48, "role": "memory"}))
    assert "MEMORY_TOO_MANY" not in _errors(validate_json(document=doc))


def test_eight_l40s_plus_eight_connectx7_in_nine_positions_is_refused(seeded_catalog):
    # Issue #20, the wrong pass: 16 cards for 8 FHFL slots and one OCP bay; the open AIOM count gives no PCIe slot.
    doc = _doc(
        _node(
            "SYS-421GE-TNRT3",
            {"part": "L40S", "quantity": 8},
            {"part": "MCX75310AAS-NEAT", "quantity": 8, "role": "compute"},
        )
    )
    result = validate_json(document=doc)
    assert not result["valid"]
    (f,) = _by_code(result, "PCIE_NO_FREE_SLOT")
    assert f["severity"] == "error" and "16 cards need one each" in f["message"]
    assert "the published slot count decides" in f["message"]
    assert not _by_code(result, "PCIE_NO_FREE_SLOT_UNVERIFIED")


def test_an_ocp_card_beyond_the_listed_aiom_bay_stays_unverified(seeded_catalog):
    # The datasheet leaves the AIOM count open (DS-421TNRT3): a second OCP 3.0 card may have a bay.
    doc = _doc(
        _node(
            "SYS-421GE-TNRT3",
            {"part": "L40S", "quantity": 8},
            {"part": "MCX75343AMS-NEAC", "quantity": 2, "role": "storage"},
        )
    )
    result = validate_json(document=doc)
    assert "PCIE_NO_FREE_SLOT" not in _errors(result)
    assert _by_code(result, "PCIE_NO_FREE_SLOT_UNVERIFIED")[0]["severity"] == "warning"


# --- smaller ------------------------------------------------------------------------------------------------------


def test_the_b300_default_memory_is_not_measured_against_dgx_b200(seeded_catalog):
    # Issue #20: 3 TB with HGX B300 was compared with DGX B200; no NVIDIA B300 system memory is sourced.
    result = validate_json(document=_doc(_node("SYS-822GS-NB3RT", B300)))
    assert not _by_code(result, "MEMORY_BELOW_REFERENCE")


def test_an_h100_node_is_measured_against_dgx_h100_not_b200(seeded_catalog):
    doc = _doc(_node("SYS-821GE-TNHR", H100, {"part": "MTC40F2046S1RC48BA1", "quantity": 16, "role": "memory"}))
    (f,) = _by_code(validate_json(document=doc), "MEMORY_BELOW_REFERENCE")
    assert "NVIDIA DGX H100" in f["message"] and "B200" not in f["message"] and "2,048 GB" in f["fix"]


def test_ddr5_5600_dimms_on_a_4800_cpu_get_a_down_clock_note(seeded_catalog):
    doc = _doc(
        _node(
            "SYS-821GE-TNHR",
            H100,
            {"part": "XEON-8468", "quantity": 2, "role": "cpu"},
            {"part": "MTC40F2046S1RC56BD1", "quantity": 16, "role": "memory"},
        )
    )
    (f,) = _by_code(validate_json(document=doc), "MEMORY_DOWNCLOCKED")
    assert f["severity"] == "info" and "5,600 MT/s" in f["message"] and "run at 4,800 MT/s" in f["message"]


def test_the_cpu_tdp_limit_is_checked_with_the_sourced_tdp(seeded_catalog):
    # SYS-822GS-NBRT takes up to 350 W per socket (DIST-PM); the Xeon 6787P is 350 W (SR-SR650V4): checked, within.
    result = validate_json(document=_doc(_node("SYS-822GS-NBRT", B200)))
    assert not _by_code(result, "NODE_CPU_TDP") and not _by_code(result, "NODE_CPU_TDP_UNKNOWN")
    basis = result["totals"]["power_basis"][0]
    assert (basis["cpu_basis"], basis["cpu_parts"], basis["cpu_w"]) == ("cpus", ["XEON-6787P"], 700)


def test_the_cpu_tdp_limit_says_when_the_cpus_tdp_is_unknown(seeded_catalog):
    # The Xeon 8570's TDP is not sourced: against a published limit that is said, never passed silently.
    doc = _doc(_node("SYS-822GS-NBRT", B200, {"part": "XEON-8570", "quantity": 2, "role": "cpu"}))
    (f,) = _by_code(validate_json(document=doc), "NODE_CPU_TDP_UNKNOWN")
    assert "XEON-8570" in f["message"] and "350 W" in f["message"] and "350 W" in f["fix"]


def test_default_nodes_get_a_mirrored_boot_pair(seeded_catalog):
    # NVIDIA's own systems mirror two M.2 boot drives (NV-DGXB200-UG: "2x 1.92 TB NVMe M.2 in RAID 1").
    for server, board in (("SYS-821GE-TNHR", H100), ("SYS-421GE-TNHR2-LCC", H100), ("SYS-822GS-NB3RT", B300)):
        result = validate_json(document=_doc(_node(server, board)))
        boot = [a for a in result["defaults_added"] if a["role"] == "boot"]
        assert [a["quantity"] for a in boot] == [2], (server, boot)
    # AS-4125GS-TNRT has one M.2 slot (SR-4125): one boot drive, no pair that does not fit
    result = validate_json(document=_doc(_node("AS-4125GS-TNRT", {"part": "L40S", "quantity": 4})))
    assert [a["quantity"] for a in result["defaults_added"] if a["role"] == "boot"] == [1]
