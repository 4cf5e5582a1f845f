"""``networks`` at the API (CONTRACT-R3): every refusal is a 400 naming the field and saying why; a design
without ``networks`` stays valid and gets the default networks."""

from __future__ import annotations

import pytest

VALIDATE = "/api/v1/designs/validate/"


def _fields(response) -> dict[str, str]:
    assert response.status_code == 400, response.content
    return {f["path"]: f["message"] for f in response.json()["error"]["fields"]}


@pytest.mark.parametrize(
    ("networks", "path", "words"),
    [
        ({"wan": {}}, "networks.wan", "unknown key 'wan'; use storage, inband or oob"),
        ({"oob": {"oversubscription": "1:1"}}, "networks.oob.oversubscription", "does not apply to the out-of-band"),
        ({"inband": {"system_ports": 4}}, "networks.inband.system_ports", "applies to the storage network only"),
        ({"oob": {"system_ports": 4}}, "networks.oob.system_ports", "applies to the storage network only"),
        ({"storage": {"system_ports": -1}}, "networks.storage.system_ports", "at least 0"),
        ({"storage": {"system_ports": 100_001}}, "networks.storage.system_ports", "100,000"),
        ({"storage": {"system_ports": 2.5}}, "networks.storage.system_ports", "whole number"),
        ({"storage": {"ports": 4}}, "networks.storage.ports", "use switch, oversubscription or system_ports"),
        ({"oob": {"speed": 1}}, "networks.oob.speed", "unknown key 'speed'; use switch"),
        ({"storage": {"oversubscription": "2-1"}}, "networks.storage.oversubscription", "1:1 or 2:1"),
        ({"inband": {"oversubscription": "1:5000"}}, "networks.inband.oversubscription", "absurd ratio"),
        ({"storage": "yes"}, "networks.storage", "must be an object or null"),
        ({"storage": {"switch": 7}}, "networks.storage.switch", "must be a string"),
    ],
)
def test_bad_networks_are_refused_naming_the_field(api, design, networks, path, words):
    design["networks"] = networks
    fields = _fields(api.post(VALIDATE, design, format="json"))
    assert path in fields and words in fields[path], fields


def test_networks_must_be_an_object(api, design):
    design["networks"] = ["storage"]
    assert "must be an object" in _fields(api.post(VALIDATE, design, format="json"))["networks"]


@pytest.mark.parametrize(
    ("part", "words"),
    [("NO-SUCH-SWITCH", "unknown part number 'NO-SUCH-SWITCH'"), ("SYS-821GE-TNHR", "is a server, not a switch")],
)
def test_a_network_switch_is_checked_against_the_catalogue(api, design, part, words):
    design["networks"] = {"storage": {"switch": part}}
    fields = _fields(api.post(VALIDATE, design, format="json"))
    assert words in fields["networks.storage.switch"]


def test_a_design_without_networks_stays_valid_and_gets_the_out_of_band_network(api, design):
    body = api.post(VALIDATE, design, format="json").json()
    assert body["valid"] is True
    plans = body["network_plans"]
    assert set(plans) == {"storage", "inband", "oob"}
    # Four nodes with compute NICs only: nothing for storage or in-band, but every BMC has an out-of-band port.
    assert plans["storage"] is None and plans["inband"] is None
    assert plans["oob"]["devices"]["bmcs"] == 4


def test_null_networks_are_left_out_and_said_so(api, design):
    design["networks"] = {"oob": None, "storage": None}
    body = api.post(VALIDATE, design, format="json").json()
    assert body["network_plans"]["oob"] is None
    said = {f["subject"] for f in body["findings"] if f["code"] == "NETWORK_CUSTOMER_SUPPLIED"}
    assert said == {"networks.oob", "networks.storage"}
