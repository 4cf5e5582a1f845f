"""One parameter object for a recommendation: the comparison builds it from a design's workload for the wizard and
the API's recommendation door, and the recommender caches per object."""

import dataclasses

import pytest

from configurator.comparison import workload_inputs
from configurator.goal import Limits
from configurator.recommend import RecommendParams


def test_a_workload_becomes_one_frozen_hashable_parameter_object():
    doc = {
        "workload": {
            "kind": "training",
            "model_parameters_billion": 70,
            "training_tokens_billion": 1000,
            "target_days": 30,
            "context_tokens": 4096,  # inference's: left out for training
        }
    }
    params = workload_inputs(doc, Limits(max_nodes=4))
    assert params == RecommendParams(
        "training", 70.0, training_tokens_billion=1000, target_days=30, limits=Limits(max_nodes=4)
    )
    assert params.asked == {
        "context_tokens": None,
        "concurrency": None,
        "training_tokens_billion": 1000,
        "target_days": 30,
    }
    assert hash(params) == hash(RecommendParams("training", 70, training_tokens_billion=1000, target_days=30,
                                                limits=Limits(max_nodes=4)))  # fmt: skip
    assert isinstance(params.params_billion, float) and not params.count_given
    with pytest.raises(dataclasses.FrozenInstanceError):
        params.nodes = 2  # type: ignore[misc]
    assert workload_inputs({"workload": {"kind": "inference"}}) is None
    assert workload_inputs({"workload": {"kind": "inference", "model_parameters_billion": 8}}).limits == Limits()
