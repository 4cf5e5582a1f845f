"""A validation plans its racks once: the central out-of-band switches are racked in the management racks in the
same plan as everything else (engines.cluster.oob_racks), so a new design's answer does not pay for two or three
rack plans. Their count is the out-of-band network's, and every one is placed."""

from __future__ import annotations

import pytest

import engines.cluster.rackplan as rackplan
from tests.results import validate_json

pytestmark = pytest.mark.django_db


def _design(nodes: int, name: str) -> dict:
    return {
        "schema": "design/v1",
        "name": name,
        "node_groups": [
            {
                "name": name,
                "count": nodes,
                "server": "SYS-821GE-TNHR",
                "components": [
                    {"part": "HGX-H200-8GPU", "quantity": 1},
                    {"part": "MCX75310AAS-NEAT", "quantity": 8, "role": "compute"},
                ],
            }
        ],
        "fabric": {"switch": "MQM9700-NS2F"},
    }


@pytest.fixture
def plans_made(monkeypatch):
    made: list[int] = []
    real = rackplan.plan_racks

    def counting(**kwargs):
        made.append(1)
        return real(**kwargs)

    rackplan.rack_plan_memo_clear()
    monkeypatch.setattr(rackplan, "plan_racks", counting)
    yield made
    rackplan.rack_plan_memo_clear()


@pytest.mark.parametrize("nodes", [32, 256, 2048])
def test_a_new_design_with_central_out_of_band_switches_plans_its_racks_once(seeded_catalog, plans_made, nodes):
    result = validate_json(document=_design(nodes, f"fresh-{nodes}"))
    assert result["valid"] is True
    oob = result["network_plans"]["oob"]
    assert oob["placement"] == "central"
    assert len(plans_made) == 1
    racked = sum(
        run["count"] * sum(d.get("count", 1) for d in run["devices"] if d["role"] == "oob")
        for run in result["rack_plan"]["racks"]
        if run["kind"] == "management"
    )
    assert racked == oob["leaf_switches"] > 0
