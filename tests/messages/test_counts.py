"""A count of one reads in the singular, in English and in Dutch: "1 rail", "1 day wanted", "1 byte per parameter",
never "1 rails" or "rack(s)"; and a figure too small to write out reads as a bound, not as hundreds of zeros."""

from __future__ import annotations

import pytest

from configurator.examples import h200_training_cluster
from engines.findings.params.fabric import FabricFewerRailsThanGpus, FabricGrowthReserve, FabricPortsExceeded
from engines.findings.params.networks import NetworkStorageSystemPorts
from engines.findings.params.racks import RackPduBusbar
from engines.findings.params.workload import WorkloadTimeNotEstimated
from engines.findings.registry import finding
from messages import finding_dicts
from messages.base import day_count, figure, per_parameter
from tests.results import validate_json


def _said(params, language: str) -> str:
    return finding_dicts([finding("fabric", params)], language)[0]["message"]


RESERVE = {"switch": "MQM9700-NS2F", "reserve_switches": 2, "cost_eur": 60000.0, "three_tier": False}
PORTS = {"nodes": 4, "rails": 1000, "switch": "MQM9700-NS2F", "ports": 64, "nodes_per_unit": 32, "max_rails": 32}
BUSBAR = {"first_rack": "R02-01", "power_w": 51000, "positions": 4, "max_w": 44000}


@pytest.mark.parametrize(
    "params,one,many",
    [
        (
            FabricFewerRailsThanGpus(rails=1, gpus_per_node=8),
            {"en": "has 1 rail for 8 GPUs", "nl": "heeft 1 rail voor 8 GPU's"},
            None,
        ),
        (
            FabricGrowthReserve(room_nodes=1, free_ports={"spine": 64}, **RESERVE),
            {"en": "Room for 1 more node without", "nl": "Ruimte voor nog 1 node zonder"},
            FabricGrowthReserve(room_nodes=3, free_ports={"spine": 64}, **RESERVE),
        ),
        (
            FabricPortsExceeded(units=1, leaves=1000, **PORTS),
            {"en": "so 1 unit needs 1,000 leaves", "nl": "dus 1 unit vraagt 1.000 leaves"},
            FabricPortsExceeded(units=2, leaves=2000, **PORTS),
        ),
        (
            RackPduBusbar(racks=1, **BUSBAR),
            {"en": "so 1 rack has no PDU planned", "nl": "dus voor 1 rack is geen PDU gepland"},
            RackPduBusbar(racks=3, **BUSBAR),
        ),
        (
            WorkloadTimeNotEstimated(reason="tokens", target_days=1.0),
            {"en": "against the 1 day wanted", "nl": "de gewenste 1 dag:"},
            WorkloadTimeNotEstimated(reason="tokens", target_days=1.5),
        ),
        (
            NetworkStorageSystemPorts(reserved=1, free=61, leaves=1, spines=0),
            {"en": "1, of which 0 spines and 1 leaf.", "nl": "1, waarvan 0 spines en 1 leaf."},
            NetworkStorageSystemPorts(reserved=48, free=20, leaves=10, spines=4),
        ),
    ],
)
def test_a_count_of_one_is_said_in_the_singular(params, one, many):
    for language, text in one.items():
        said = _said(params, language)
        assert text in said, said
    if many is not None:
        said = _said(many, "en")
        assert not any(text in said for text in one.values()), said
        assert "(s)" not in said


def test_the_phrases_take_their_number():
    assert (per_parameter(1.0), per_parameter(2.0), per_parameter(0.5)) == (
        "1 byte per parameter",
        "2 bytes per parameter",
        "0.5 bytes per parameter",
    )
    assert (day_count(1.0), day_count(1.04), day_count(14.0)) == ("1 day", "1 day", "14 days")


def test_a_figure_too_small_to_write_out_reads_as_a_bound():
    assert figure(0.046) == "0.046"
    assert figure(4.9e-324) == "< 0.000001"
    assert len(figure(1e-300)) < 12


@pytest.mark.django_db
def test_fp8_inference_of_one_sequence_reads_in_the_singular(seeded_catalog):
    design = h200_training_cluster()
    design["workload"] = {
        "kind": "inference",
        "model_parameters_billion": 405,
        "precision": "fp8",
        "concurrency": 1,
        "context_tokens": 8192,
    }
    said = " ".join(f["message"] for f in validate_json(document=design)["findings"])
    assert "1 byte per parameter" in said and "1 sequence of 8,192 tokens" in said, said
    said = " ".join(f["message"] for f in validate_json(document=design, language="nl")["findings"])
    assert "1 byte per parameter" in said and "1 reeks van 8.192 tokens" in said, said
