"""Refusals only on evidence, power a facility can plan with, and sizing that prefers the fewest nodes: the seeded
catalogue through the one validation service and the recommender."""

import pytest

from configurator.examples import h200_training_cluster
from configurator.recommend import RecommendParams, recommend
from configurator.selectors import lead_times
from configurator.snapshot import catalog_snapshot
from tests.results import validate_json

pytestmark = pytest.mark.django_db


def _node(server, *components, count=1):
    return {"name": "gpu", "count": count, "server": server, "components": list(components)}


def _doc(*groups, fabric=None, workload=None):
    doc = {"schema": "design/v1", "name": "t", "node_groups": list(groups)}
    if fabric:
        doc["fabric"] = fabric
    if workload:
        doc["workload"] = workload
    return doc


def _by_code(result, code):
    return [f for f in result["findings"] if f["code"] == code]


def test_hgx_h200_in_the_liquid_cooled_h100_system_is_unverified_not_refused(seeded_catalog):
    # catalog/seed/FACTS.md: SYS-421GE-TNHR2-LCC accepts_complete rests on one MLPerf unit (MLC-421LCC) -> false
    result = validate_json(document=_doc(_node("SYS-421GE-TNHR2-LCC", {"part": "HGX-H200-8GPU", "quantity": 1})))
    assert not _by_code(result, "GPU_NOT_ACCEPTED")
    f = _by_code(result, "GPU_COMPATIBILITY_UNVERIFIED")[0]
    assert f["severity"] == "warning" and "Verify with Supermicro" in f["fix"]


def _hgx_821(nics: int, bluefields: int = 1):
    return _doc(
        _node(
            "SYS-821GE-TNHR",
            {"part": "HGX-H200-8GPU", "quantity": 1},
            {"part": "MCX75310AAS-NEAT", "quantity": nics, "role": "compute"},
            {"part": "900-9D3B6-00CN-AB0", "quantity": bluefields, "role": "storage"},
        )
    )


def test_eight_connectx7_plus_one_bluefield3_fit_the_sys_821ge_tnhr_slots(seeded_catalog):
    # SMC-RF-821: the BMC lists 12 PCIe 5.0 x16 slots, 8 in the NIC tray and 4 on two risers, so the common build
    # of eight ConnectX-7 plus one BlueField-3 gets a slot for every card and the Gen5 check runs.
    result = validate_json(document=_hgx_821(8))
    assert result["valid"], [f["code"] for f in result["findings"] if f["severity"] == "error"]
    assert not _by_code(result, "PCIE_NO_FREE_SLOT_UNVERIFIED") and not _by_code(result, "PCIE_NO_FREE_SLOT")
    slots = {s["slot"]: s for s in result["placement"][0]["slots"]}
    assert len(slots) == 12 and all(s["pcie_gen"] == 5 and s["lanes"] == 16 for s in slots.values())
    assert [slots[f"LP{i}"]["part"] for i in range(1, 9)] == ["MCX75310AAS-NEAT"] * 8
    riser = [s for name, s in slots.items() if name.startswith("RISER") and s["part"]]
    assert [s["part"] for s in riser] == ["900-9D3B6-00CN-AB0"]


def test_more_cards_than_the_sys_821ge_tnhr_slot_table_is_a_warning_to_confirm(seeded_catalog):
    # The slot table is one unit's (slots_complete false): a 13th card is to confirm with Supermicro, not refused.
    result = validate_json(document=_hgx_821(8, bluefields=5))
    assert result["valid"], [f["code"] for f in result["findings"] if f["severity"] == "error"]
    f = _by_code(result, "PCIE_NO_FREE_SLOT_UNVERIFIED")[0]
    assert f["severity"] == "warning" and "confirm with Supermicro" in f["fix"]


def test_cluster_power_adds_the_fabric_and_says_at_least_when_switch_power_is_unknown(seeded_catalog):
    result = validate_json(document=h200_training_cluster())
    totals = result["totals"]
    # DGX H200 10.2 kW per node [DGX-H100-PWR]
    assert totals["groups"][0]["peak_power_w_per_node"] == 10200
    assert totals["power_basis"][0]["reference_system"] == "DGX H200"
    # no switch power is sourced (catalog/seed/README.md): unknown, never zero, and the total a lower bound
    assert "MQM9700-NS2F" in totals["network_power_unknown"]
    assert totals["cluster_power_at_least"] is True
    expected = totals["peak_power_w"] - totals["node_optics_replaced_w"]
    expected += totals["switch_power_w"] + totals["transceiver_power_w"]
    assert totals["cluster_power_w"] == expected
    assert totals["transceiver_power_w"] > 0  # the plan's sourced transceivers (MMA4Z00-NS 15 W, ...)


def test_405b_inference_gets_one_node_not_two_nodes_and_a_fabric(seeded_catalog):
    view = catalog_snapshot()
    rec = recommend(RecommendParams("inference", 405), catalog=view, lead_times=lead_times(view))
    # 810 GB of bf16 weights: one HGX H200 (or larger) node holds them; two HGX H100 nodes plus InfiniBand cost
    # about twice as much
    assert rec.nodes == 1 and rec.switch is None and rec.errors == 0
    assert rec.gpu in {"HGX-H200-8GPU", "HGX-B200-8GPU", "HGX-B300-8GPU"}


def test_70b_inference_on_pcie_cards_is_recommended_in_one_server(seeded_catalog):
    view = catalog_snapshot()
    rec = recommend(RecommendParams("inference", 70, precision="fp8"), catalog=view, lead_times=lead_times(view))
    assert rec.nodes == 1 and rec.errors == 0
    assert rec.document["workload"]["precision"] == "fp8"
