"""A typo in ``facility``, an over-long name and an absurd oversubscription get the same refusal, naming the field,
at every door: the design validation API, the configurations API, the validate_design command, the fabric-plan
API and form, and the wizard (limits in design.contract)."""

from __future__ import annotations

import json

import pytest

from configurator.models import Configuration
from configurator.snapshot import catalog_snapshot
from design.contract import FACILITY_FIELDS, MAX_NAME_LENGTH, MAX_OVERSUBSCRIPTION
from tests.api.test_cli import run
from tests.web.pages import url
from web.forms import FabricForm

VALIDATE = "/api/v1/designs/validate/"
PLAN = "/api/v1/fabric-plans/"
CONFIGURATIONS = "/api/v1/configurations/"


def _refused_everywhere(api, design: dict, path: str) -> str:
    """Refused by the validation API, the configurations API (nothing stored) and the command, naming ``path``
    with the same words; returns the message."""
    response = api.post(VALIDATE, design, format="json")
    assert response.status_code == 400, response.json()
    fields = {e["path"]: e["message"] for e in response.json()["error"]["fields"]}
    assert path in fields, fields
    stored = api.post(CONFIGURATIONS, {"document": design}, format="json")
    assert stored.status_code == 400 and f"document.{path}" in {e["path"] for e in stored.json()["error"]["fields"]}
    assert not Configuration.objects.exists()
    code, _out, err = run("validate_design", "-", stdin=json.dumps(design))
    assert code == 2 and f"{path}: {fields[path]}" in err
    return fields[path]


def test_an_unknown_facility_key_is_refused_naming_it(api, design):
    design["facility"] = {"rack_power_kW": 40}
    message = _refused_everywhere(api, design, "facility.rack_power_kW")
    assert "rack_power_kw" in message  # the key it was meant to be


def test_the_facility_keys_of_the_contract_are_still_accepted(api, design):
    design["facility"] = {
        "rack_units": 48,
        "rack_power_kw": 40,
        "cooling": "air",
        "pdu_feeds": "A+B",
        "supplied": ["racks", "power"],
    }
    assert set(design["facility"]) == set(FACILITY_FIELDS)
    assert api.post(VALIDATE, design, format="json").status_code == 200


def test_the_wizard_names_an_unknown_facility_key(seeded_catalog, client, design):
    from configurator.services import configuration_create

    config = configuration_create(document={**design, "facility": {"rack_power_kW": 40}})
    assert not config.valid
    body = client.get(url(config, "fabric")).content.decode()
    assert "facility.rack_power_kW" in body


@pytest.mark.parametrize("where", ["name", "node_groups[0].name"])
def test_a_name_longer_than_the_configurations_own_is_refused(api, design, where):
    long = "x" * 100_000
    if where == "name":
        design["name"] = long
    else:
        design["node_groups"][0]["name"] = long
    message = _refused_everywhere(api, design, where)
    assert "100,000" in message and f"{MAX_NAME_LENGTH}" in message


def test_a_name_of_the_longest_length_is_accepted(api, design):
    design["name"] = "n" * MAX_NAME_LENGTH
    assert api.post(VALIDATE, design, format="json").status_code == 200


ABSURD = ["99999999999999999999:1", f"{MAX_OVERSUBSCRIPTION + 1}:1", "1" * 5000 + ":1"]


@pytest.mark.parametrize("ratio", ABSURD, ids=["20 digits", "limit+1", "5000 digits"])
def test_an_absurd_oversubscription_is_refused_at_every_door(api, design, ratio):
    design["fabric"]["oversubscription"] = ratio
    message = _refused_everywhere(api, design, "fabric.oversubscription")
    assert f"{MAX_OVERSUBSCRIPTION:,}" in message

    plan = api.post(PLAN, {"nodes": 16, "rails": 8, "switch": "MQM9700-NS2F", "oversubscription": ratio}, format="json")
    assert plan.status_code == 400
    assert [e["path"] for e in plan.json()["error"]["fields"]] == ["oversubscription"]

    data = {"switch": "MQM9700-NS2F", "oversubscription": ratio, "topology": "rail-optimized"}
    form = FabricForm(data, catalog=catalog_snapshot())
    assert not form.is_valid() and "oversubscription" in form.errors


def test_a_usual_oversubscription_still_plans(api, design):
    design["fabric"]["oversubscription"] = "2:1"
    assert api.post(VALIDATE, design, format="json").status_code == 200
    plan = api.post(PLAN, {"nodes": 16, "rails": 8, "switch": "MQM9700-NS2F", "oversubscription": "3:1"}, format="json")
    assert plan.status_code == 200
