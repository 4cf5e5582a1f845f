"""The distributor's rules: a compute fabric from two GPU nodes on, a management switch never offered as a fabric
switch, and a note on what RoCE needs on Spectrum Ethernet fabrics."""

import pytest

from configurator.bom import design_bill
from design.model import DesignInputError
from tests.results import validate_json

pytestmark = pytest.mark.django_db

CX7 = {"part": "MCX75310AAS-NEAT", "quantity": 8, "role": "compute"}


def _doc(count=2, nics=(CX7,), fabric=None, workload=None, server="SYS-821GE-TNHR", gpu="HGX-H100-8GPU"):
    doc = {
        "schema": "design/v1",
        "name": "t",
        "node_groups": [
            {
                "name": "gpu",
                "count": count,
                "server": server,
                "components": [{"part": gpu, "quantity": 1}, *nics],
            }
        ],
    }
    if fabric:
        doc["fabric"] = fabric
    if workload:
        doc["workload"] = workload
    return doc


def _found(result, code):
    return [f for f in result["findings"] if f["code"] == code]


def test_two_gpu_nodes_without_a_fabric_get_a_warning_that_names_the_missing_switches(seeded_catalog):
    result = validate_json(document=_doc(count=2))
    [f] = _found(result, "FABRIC_ADVISED")
    assert f["severity"] == "warning" and f["subject"] == "fabric"
    assert "2 GPU nodes" in f["message"] and "switches" in f["message"]
    nl = _found(validate_json(document=_doc(count=2), language="nl"), "FABRIC_ADVISED")[0]
    assert "2 GPU-nodes" in nl["message"] and "switches" in nl["message"]


def test_nodes_without_nics_are_told_they_cannot_work_on_one_job(seeded_catalog):
    [f] = _found(validate_json(document=_doc(count=3, nics=())), "FABRIC_ADVISED")
    assert "3 GPU nodes" in f["message"] and "one job" in f["message"]


def test_independent_jobs_make_it_an_info_and_no_warning(seeded_catalog):
    workload = {"kind": "inference", "model_parameters_billion": 8, "independent_jobs": True}
    result = validate_json(document=_doc(count=4, workload=workload))
    assert not _found(result, "FABRIC_ADVISED")
    [f] = _found(result, "FABRIC_OPTIONAL_INDEPENDENT_JOBS")
    assert f["severity"] == "info" and "independent jobs" in f["message"]


@pytest.mark.parametrize(
    "doc",
    [
        _doc(count=1),  # one node: NVLink inside the server is enough
        _doc(count=2, fabric={"switch": "MQM9700-NS2F"}),  # a fabric is there
    ],
)
def test_no_fabric_advice_for_one_node_or_a_design_with_a_fabric(seeded_catalog, doc):
    result = validate_json(document=doc)
    assert not _found(result, "FABRIC_ADVISED") and not _found(result, "FABRIC_OPTIONAL_INDEPENDENT_JOBS")


def test_a_job_that_must_span_nodes_gets_the_sizing_error_and_not_a_second_warning(seeded_catalog):
    workload = {"kind": "training", "model_parameters_billion": 405}
    result = validate_json(document=_doc(count=4, workload=workload))
    assert _found(result, "WORKLOAD_NEEDS_FABRIC") and not _found(result, "FABRIC_ADVISED")


def test_independent_jobs_must_be_a_boolean_and_the_error_names_the_field(seeded_catalog):
    workload = {"kind": "inference", "model_parameters_billion": 8, "independent_jobs": "yes"}
    with pytest.raises(DesignInputError) as exc:
        validate_json(document=_doc(workload=workload))
    assert "workload.independent_jobs" in exc.value.errors


def test_roce_on_spectrum_says_what_lossless_needs_and_names_nics_outside_spectrum_x(seeded_catalog):
    cx6 = {"part": "MCX653105A-HDAT", "quantity": 8, "role": "compute"}
    result = validate_json(document=_doc(count=4, nics=(cx6,), fabric={"switch": "SN4600C"}))
    [f] = _found(result, "ROCE_LOSSLESS")
    assert f["severity"] == "info" and f["subject"] == "fabric.switch"
    assert "PFC" in f["message"] and "ECN" in f["message"] and "MCX653105A-HDAT" in f["message"]
    assert "SuperNIC" in f["fix"]
    nl = _found(
        validate_json(document=_doc(count=4, nics=(cx6,), fabric={"switch": "SN4600C"}), language="nl"),
        "ROCE_LOSSLESS",
    )
    assert "verliesvrij" in nl[0]["message"]


def test_roce_with_connectx7_is_a_note_without_a_nic_change(seeded_catalog):
    result = validate_json(document=_doc(count=4, fabric={"switch": "SN5600"}))
    [f] = _found(result, "ROCE_LOSSLESS")
    assert "MCX75310AAS-NEAT" not in f["message"] and "is not among" not in f["message"]
    assert "PFC" in f["fix"]


def test_infiniband_fabrics_get_no_roce_note(seeded_catalog):
    assert not _found(validate_json(document=_doc(count=4, fabric={"switch": "MQM9700-NS2F"})), "ROCE_LOSSLESS")


def test_the_management_switch_is_listed_as_out_of_band_network_not_as_fabric(seeded_catalog):
    doc = _doc(count=4, fabric={"switch": "MQM9700-NS2F"})
    result = validate_json(document=doc)
    bill = design_bill(document=doc, result=result)
    sections = {line.part_number: line.section for line in bill.lines}
    assert sections["SN2201"] == "oob"
    assert sections["MQM9700-NS2F"] == "compute_fabric"


def test_an_nvlink_board_for_a_model_that_fits_one_gpu_gets_a_pcie_hint(seeded_catalog):
    workload = {"kind": "inference", "model_parameters_billion": 8}
    [f] = _found(validate_json(document=_doc(count=1, nics=(), workload=workload)), "NVLINK_NOT_NEEDED")
    assert f["severity"] == "info" and "HGX-H100-8GPU" in f["message"] and "PCIe" in f["message"]
    nl = _found(validate_json(document=_doc(count=1, nics=(), workload=workload), language="nl"), "NVLINK_NOT_NEEDED")
    assert "PCIe-GPU-server" in nl[0]["message"]


@pytest.mark.parametrize(
    "workload",
    [
        {"kind": "inference", "model_parameters_billion": 405},  # needs tensor parallelism over NVLink
        {"kind": "training", "model_parameters_billion": 8},  # training exchanges gradients every step
    ],
)
def test_no_pcie_hint_where_nvlink_carries_the_work(seeded_catalog, workload):
    assert not _found(validate_json(document=_doc(count=1, nics=(), workload=workload)), "NVLINK_NOT_NEEDED")


def test_independent_training_jobs_get_the_pcie_hint_too(seeded_catalog):
    workload = {"kind": "training", "model_parameters_billion": 8, "independent_jobs": True}
    [f] = _found(validate_json(document=_doc(count=2, workload=workload)), "NVLINK_NOT_NEEDED")
    assert "independent jobs" in f["message"]
