"""The sizing an ML engineer signs, through the one validation service and the recommender on the seeded
catalogue: the result's time to train, parallelism plan and NVLink domains, and inference replicas without a fabric."""

import json

import pytest

from configurator import selectors
from configurator.recommend import RecommendParams, recommend
from configurator.snapshot import catalog_snapshot
from tests.results import validate_json

pytestmark = pytest.mark.django_db

H200_NODE = {
    "name": "gpu",
    "server": "SYS-821GE-TNHR",
    "components": [{"part": "HGX-H200-8GPU", "quantity": 1}, {"part": "MCX75310AAS-NEAT", "quantity": 8}],
}


def _doc(count, workload, fabric=True):
    doc = {"schema": "design/v1", "name": "t", "node_groups": [{**H200_NODE, "count": count}], "workload": workload}
    if fabric:
        doc["fabric"] = {"switch": "MQM9700-NS2F"}
    return doc


def test_result_gives_time_to_train_plan_and_domains(seeded_catalog):
    workload = {"kind": "training", "model_parameters_billion": 70, "training_tokens_billion": 2000, "target_days": 30}
    result = validate_json(document=_doc(4, workload))
    sizing = result["sizing"]
    assert sizing["parallelism"] == {"tensor": 8, "pipeline": 1, "data": 4}
    assert sizing["gpus_used"] == 32 and sizing["nvlink_domain_gpus"] == 8
    # 70B on 2 T tokens at 35 % MFU of 989.4 TFLOPS: about 780,000 GPU-hours, about 1,000 days on 32 GPUs
    assert sizing["gpu_hours"] == pytest.approx(7.8e5, rel=0.03)
    assert sizing["training_days"] == pytest.approx(sizing["gpu_hours"] / 32 / 24, rel=0.01)
    assert [set(a) for a in sizing["assumptions"]] == [{"name", "value", "source"}] * len(sizing["assumptions"])
    assert [g["nvlink_domain_gpus"] for g in result["totals"]["groups"]] == [8]
    [late] = [f for f in result["findings"] if f["code"] == "WORKLOAD_DEADLINE_MISSED"]
    assert late["severity"] == "warning" and "nodes of 8" in late["message"]
    json.dumps(result)  # the result stays plain JSON


def test_inference_replicas_pass_without_a_fabric(seeded_catalog):
    workload = {"kind": "inference", "model_parameters_billion": 405, "precision": "fp8"}
    result = validate_json(document=_doc(4, workload, fabric=False))
    codes = {f["code"] for f in result["findings"]}
    assert "FABRIC_ADVISED" not in codes and "FABRIC_NOT_NEEDED_REPLICAS" in codes
    assert result["sizing"]["parallelism"] == {"tensor": 4, "pipeline": 1, "data": 8}


def test_the_recommendation_adds_no_fabric_for_inference_replicas(seeded_catalog):
    view = catalog_snapshot()
    rec = recommend(RecommendParams("inference", 405, nodes=4), catalog=view, lead_times=selectors.lead_times(view))
    assert rec.nodes == 4 and rec.switch is None and rec.nic is None
    assert "fabric" not in rec.document
    result = validate_json(document=rec.document)
    assert not {"FABRIC_ADVISED", "WORKLOAD_NEEDS_FABRIC"} & {f["code"] for f in result["findings"]}


def test_the_recommendation_keeps_the_fabric_for_multi_node_training(seeded_catalog):
    view = catalog_snapshot()
    rec = recommend(RecommendParams("training", 70, nodes=4), catalog=view, lead_times=selectors.lead_times(view))
    assert rec.nodes == 4 and rec.switch is not None


def test_the_goal_step_keeps_a_training_runs_tokens_and_target_days():
    from web.wizard import apply_goal

    doc = _doc(
        2, {"kind": "training", "model_parameters_billion": 70, "training_tokens_billion": 2000, "target_days": 30}
    )
    kept = apply_goal(doc, kind="training", params_billion="70", gpus=None, nodes=None)["workload"]
    assert (kept["training_tokens_billion"], kept["target_days"]) == (2000, 30)
    served = apply_goal(doc, kind="inference", params_billion="70", gpus=None, nodes=None)["workload"]
    assert "training_tokens_billion" not in served and "target_days" not in served  # refused for inference
