"""One cluster power total: the nodes (with their CPUs' own TDP), the fabric's switches and transceivers, summed
once; the rack plan's facility figures and the cluster figures are that one sum."""

import pytest

from catalog.models import Gpu
from configurator.examples import h200_training_cluster
from configurator.snapshot import clear_cache
from tests.results import validate_json

pytestmark = pytest.mark.django_db


def _doc(*components, server="SYS-521GE-TNRT", count=1, fabric=None):
    doc = {
        "schema": "design/v1",
        "name": "t",
        "node_groups": [{"name": "gpu", "count": count, "server": server, "components": list(components)}],
    }
    if fabric:
        doc["fabric"] = fabric
    return doc


def _assert_one_sum(totals):
    assert totals["facility_power_known_w"] == totals["cluster_power_w"]
    if totals["cluster_power_at_least"]:
        assert totals["facility_power_w"] is None and totals["power_unknown"]
    else:
        assert totals["facility_power_w"] == totals["cluster_power_w"] and not totals["power_unknown"]


def test_fabric_cluster_totals_agree_and_name_what_is_unknown(seeded_catalog):
    totals = validate_json(document=h200_training_cluster())["totals"]
    _assert_one_sum(totals)
    # No switch power is sourced for QM9700 or the management switch: the one list names them, and both
    # figures are the same lower bound.
    assert "MQM9700-NS2F" in totals["power_unknown"]
    assert totals["facility_power_w"] is None
    nodes = sum(g["count"] * g["peak_power_w_per_node"] for g in totals["groups"])
    assert totals["cluster_power_w"] == round(
        nodes - totals["node_optics_replaced_w"] + totals["switch_power_w"] + totals["transceiver_power_w"]
    )


def test_single_node_totals_agree_and_are_complete(seeded_catalog):
    totals = validate_json(document=_doc({"part": "L40S", "quantity": 8}))["totals"]
    _assert_one_sum(totals)
    assert totals["facility_power_w"] == totals["cluster_power_w"] == totals["peak_power_w"]


def test_a_gpu_of_unknown_power_makes_both_totals_a_lower_bound(seeded_catalog):
    Gpu.objects.filter(part__part_number="L40S").update(tdp_w=None)
    clear_cache()
    totals = validate_json(document=_doc({"part": "L40S", "quantity": 8}, count=2))["totals"]
    _assert_one_sum(totals)
    assert "L40S" in totals["power_unknown"]
    assert totals["facility_power_w"] is None and totals["cluster_power_at_least"] is True


def _cpu_basis(result):
    return result["totals"]["power_basis"][0]


def test_node_power_counts_the_named_cpus_tdp(seeded_catalog):
    # Xeon Platinum 8462Y+ 300 W and 8468 350 W (ARK-DS): two sockets differ by 100 W, 115 W with the fan margin.
    gpus = {"part": "L40S", "quantity": 8}
    low = validate_json(document=_doc(gpus, {"part": "XEON-8462Y+", "quantity": 2}))
    high = validate_json(document=_doc(gpus, {"part": "XEON-8468", "quantity": 2}))
    assert _cpu_basis(low)["cpu_basis"] == "cpus" and _cpu_basis(low)["cpu_w"] == 600
    assert _cpu_basis(high)["cpu_w"] == 700
    peak = lambda r: r["totals"]["groups"][0]["peak_power_w_per_node"]  # noqa: E731
    assert peak(high) - peak(low) == 115
    said = next(f for f in low["findings"] if f["code"] == "POWER_ESTIMATE_BASIS")["message"]
    assert "XEON-8462Y+" in said


def test_the_default_cpus_count_too_and_the_basis_says_so(seeded_catalog):
    result = validate_json(document=_doc({"part": "L40S", "quantity": 8}))
    added = [d["part"] for d in result["defaults_added"] if d["role"] == "cpu"]
    assert added and _cpu_basis(result)["cpu_basis"] == "cpus"
    assert _cpu_basis(result)["cpu_parts"] == added
    # no "350 W per socket assumed" in the stated assumptions when the CPUs are known
    assert not [a for a in result["totals"]["power_assumptions"] if "per socket assumed" in a["en"]]
