"""The round-3 input fields (docs/design-v1.md "Networks" and "Workload"): ``networks`` and the workload's
``training_tokens_billion`` and ``target_days``. Every refusal names its field with the same words at the design
validation API, the configurations API and the validate_design command; what the contract allows is accepted and
parsed into the model the engines read (design.model); and the OpenAPI schema states the same rules, generated
from that model."""

from __future__ import annotations

import json

import pytest

from design.contract import MAX_SYSTEM_PORTS, MAX_TARGET_DAYS, MAX_TRAINING_TOKENS_BILLION, NETWORK_KEYS
from design.model import DEFAULT, NetworkIn, NetworksIn
from engines.intake.parse import parse_design
from tests.api.test_cli import run
from tests.api.test_design_limits_doors import VALIDATE, _refused_everywhere

# (networks, path, message): every refusal CONTRACT round 3 states for networks
NETWORK_REFUSALS = [
    ({"storge": None}, "networks.storge", "unknown key 'storge'; use storage, inband or oob"),
    ("all", "networks", "must be an object, not a string"),
    ({"storage": "SN5600"}, "networks.storage", "must be an object or null, not a string"),
    ({"inband": []}, "networks.inband", "must be an object or null, not a list"),
    (
        {"oob": {"oversubscription": "2:1"}},
        "networks.oob.oversubscription",
        "oversubscription does not apply to the out-of-band network",
    ),
    (
        {"inband": {"system_ports": 8}},
        "networks.inband.system_ports",
        "system_ports applies to the storage network only",
    ),
    ({"oob": {"system_ports": 8}}, "networks.oob.system_ports", "system_ports applies to the storage network only"),
    (
        {"storage": {"placement": "central"}},
        "networks.storage.placement",
        "placement applies to the out-of-band network only",
    ),
    ({"oob": {"placement": "row"}}, "networks.oob.placement", "must be one of central, per-rack, not 'row'"),
    ({"oob": {"uplinks": 2}}, "networks.oob.uplinks", "unknown key 'uplinks'; use switch or placement"),
    (
        {"storage": {"speed": 400}},
        "networks.storage.speed",
        "unknown key 'speed'; use switch, oversubscription or system_ports",
    ),
    (
        {"inband": {"Switch": "SN2201"}},
        "networks.inband.Switch",
        "unknown key 'Switch'; use switch, oversubscription or system_ports",
    ),
    ({"oob": {"switchs": "SN2201"}}, "networks.oob.switchs", "unknown key 'switchs'; use switch"),
    ({"storage": {"switch": 5600}}, "networks.storage.switch", "must be a string, not a number"),
    ({"storage": {"switch": "NO-SUCH-SWITCH"}}, "networks.storage.switch", "unknown part number 'NO-SUCH-SWITCH'"),
    ({"inband": {"switch": "SYS-821GE-TNHR"}}, "networks.inband.switch", "'SYS-821GE-TNHR' is a server, not a switch"),
    (
        {"storage": {"oversubscription": "0:1"}},
        "networks.storage.oversubscription",
        "must look like 1:1 or 2:1 (two whole numbers above 0), not '0:1'",
    ),
    ({"inband": {"oversubscription": "2001:1"}}, "networks.inband.oversubscription", "is an absurd ratio"),
    ({"storage": {"system_ports": -1}}, "networks.storage.system_ports", "must be at least 0, not -1"),
    (
        {"storage": {"system_ports": MAX_SYSTEM_PORTS + 1}},
        "networks.storage.system_ports",
        "the most this tool accepts is 100,000",
    ),
    ({"storage": {"system_ports": 2.5}}, "networks.storage.system_ports", "must be a whole number, not 2.5"),
]


@pytest.mark.parametrize(("networks", "path", "words"), NETWORK_REFUSALS, ids=[p for _n, p, _w in NETWORK_REFUSALS])
def test_every_networks_refusal_names_its_field_at_every_door(api, design, networks, path, words):
    design["networks"] = networks
    assert words in _refused_everywhere(api, design, path)


TRAINING = {"kind": "training", "model_parameters_billion": 70}
INFERENCE = {"kind": "inference", "model_parameters_billion": 70}
# (workload, path, message)
WORKLOAD_REFUSALS = [
    ({**TRAINING, "training_tokens_billion": 0}, "workload.training_tokens_billion", "must be a number above 0"),
    ({**TRAINING, "training_tokens_billion": -5}, "workload.training_tokens_billion", "must be a number above 0"),
    (
        {**TRAINING, "training_tokens_billion": MAX_TRAINING_TOKENS_BILLION + 1},
        "workload.training_tokens_billion",
        "must be at most 1,000,000",
    ),
    (
        {**TRAINING, "training_tokens_billion": "15000"},
        "workload.training_tokens_billion",
        "must be a number, not a string",
    ),
    (
        {**TRAINING, "training_tokens_billion": True},
        "workload.training_tokens_billion",
        "must be a number, not a boolean",
    ),
    ({**TRAINING, "target_days": 0}, "workload.target_days", "must be a number above 0"),
    ({**TRAINING, "target_days": MAX_TARGET_DAYS + 0.5}, "workload.target_days", "must be at most 3,650"),
    ({**TRAINING, "target_days": [30]}, "workload.target_days", "must be a number, not a list"),
    ({**INFERENCE, "training_tokens_billion": 15_000}, "workload.training_tokens_billion", "applies to training only"),
    ({**INFERENCE, "target_days": 30}, "workload.target_days", "applies to training only"),
    (
        {"mode": "inference", "model_parameters_billion": 70, "target_days": 30},
        "workload.target_days",
        "applies to training only",
    ),
]


@pytest.mark.parametrize(("workload", "path", "words"), WORKLOAD_REFUSALS)
def test_every_training_time_refusal_names_its_field_at_every_door(api, design, workload, path, words):
    design["workload"] = workload
    message = _refused_everywhere(api, design, path)
    assert message == words or words in message


def test_the_round_3_fields_the_contract_allows_are_accepted_by_the_api_and_the_command(api, design):
    design["workload"] = {**TRAINING, "mode": "full-finetune", "training_tokens_billion": 15_000, "target_days": 30}
    design["networks"] = {
        "storage": {"switch": "SN5600", "oversubscription": "2:1", "system_ports": 16},
        "inband": None,
        "oob": {},
    }
    response = api.post(VALIDATE, design, format="json")
    assert response.status_code == 200, response.json()
    code, _out, err = run("validate_design", "-", stdin=json.dumps(design))
    assert code in (0, 1), err


def test_target_days_without_the_tokens_is_no_input_error(api, design):
    design["workload"] = {**TRAINING, "target_days": 30}
    assert api.post(VALIDATE, design, format="json").status_code == 200


def test_the_parsed_networks_say_default_supplied_or_chosen(design):
    design["networks"] = {"storage": {"switch": "SN5600", "system_ports": 0}, "inband": None}
    networks = parse_design(design).networks
    assert isinstance(networks, NetworksIn)
    assert networks.storage == NetworkIn(switch="SN5600", oversubscription=None, system_ports=0)
    assert networks.inband is None  # the customer supplies it
    assert networks.oob is DEFAULT  # absent: the service plans it
    assert parse_design({**design, "networks": None}).networks is None
    with pytest.raises(Exception, match="frozen"):
        networks.storage.switch = "SN2201"  # type: ignore[misc,union-attr]


def test_the_parsed_workload_keeps_both_training_numbers(design):
    design["workload"] = {**TRAINING, "training_tokens_billion": 15_000, "target_days": 30.5}
    workload = parse_design(design).workload
    assert (workload.training_tokens_billion, workload.target_days) == (15_000.0, 30.5)
    assert isinstance(workload.training_tokens_billion, float)


def test_the_schema_states_the_round_3_fields_from_the_model(api):
    schemas = api.get("/api/schema/", HTTP_ACCEPT="application/json").json()["components"]["schemas"]
    design = schemas["DesignRequest"]
    assert design["required"] == ["node_groups", "schema"] or set(design["required"]) == {"node_groups", "schema"}
    assert design["properties"]["networks"]["allOf"][0]["$ref"].endswith("/NetworksRequest")
    networks = schemas["NetworksRequest"]
    assert set(networks["properties"]) == set(NETWORK_KEYS) and networks["additionalProperties"] is False
    assert all(networks["properties"][key]["nullable"] for key in NETWORK_KEYS)  # null: the customer supplies it
    network = schemas["NetworkRequest"]
    assert set(network["properties"]) == {"switch", "oversubscription", "system_ports", "placement"}
    assert network["properties"]["placement"]["description"] == NetworkIn.model_fields["placement"].description
    assert network["properties"]["system_ports"]["maximum"] == MAX_SYSTEM_PORTS
    workload = schemas["WorkloadRequest"]["properties"]
    tokens, days = workload["training_tokens_billion"], workload["target_days"]
    assert tokens["maximum"] == MAX_TRAINING_TOKENS_BILLION and days["maximum"] == MAX_TARGET_DAYS
    assert tokens["minimum"] == 0 and tokens["exclusiveMinimum"] is True
    # the descriptions are the model's own: the schema is generated from design.model, not written beside it
    from design.model import WorkloadIn

    assert tokens["description"] == WorkloadIn.model_fields["training_tokens_billion"].description
    assert "additionalProperties" not in schemas["WorkloadRequest"]  # a workload's unknown keys are ignored
