"""Example documents shared by the API schema, the benchmarks and the tests."""

from __future__ import annotations

import copy

_H200_TRAINING_CLUSTER = {
    "schema": "design/v1",
    "name": "4 x HGX H200 training cluster",
    "workload": {"kind": "training", "model_parameters_billion": 70},
    "node_groups": [
        {
            "name": "gpu",
            "count": 4,
            "server": "SYS-821GE-TNHR",
            "components": [
                {"part": "HGX-H200-8GPU", "quantity": 1},
                {"part": "MCX75310AAS-NEAT", "quantity": 8, "role": "compute"},
            ],
        }
    ],
    "fabric": {"switch": "MQM9700-NS2F", "oversubscription": "1:1", "topology": "rail-optimized"},
}


def h200_training_cluster() -> dict:
    """The contract's example design (schema design/v1), as a fresh deep copy the caller may change.

    4 x SYS-821GE-TNHR, each with an HGX-H200-8GPU board and 8 x MCX75310AAS-NEAT (role compute), for training
    a 70B model, on an MQM9700-NS2F 1:1 rail-optimized fabric.
    """
    return copy.deepcopy(_H200_TRAINING_CLUSTER)
