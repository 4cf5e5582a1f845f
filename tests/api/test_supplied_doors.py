"""``facility.supplied`` at every door (docs/design-v1.md "Design document"): a bad value is refused naming the
field with the same words by the validation API, the configurations API and the validate_design command; a good
one changes the bill the API returns, and the result says what the offer left out and why."""

from __future__ import annotations

import pytest

from design.contract import SUPPLIED_ITEMS
from tests.api.test_design_limits_doors import VALIDATE, _refused_everywhere

pytestmark = pytest.mark.django_db

REFUSALS = [
    ("racks", "must be a list of racks, power, oob or control_plane, not a string"),
    ({"racks": True}, "must be a list of racks, power, oob or control_plane, not an object"),
    (["racks", "rack"], "holds 'rack'; each item must be one of racks, power, oob or control_plane"),
    ([1], "holds a number; each item must be one of racks, power, oob or control_plane"),
    (["Racks"], "holds 'Racks'; each item must be one of racks, power, oob or control_plane"),
]


@pytest.mark.parametrize(("value", "message"), REFUSALS)
def test_a_bad_supplied_value_is_refused_naming_the_field(seeded_catalog, api, design, value, message):
    design["facility"] = {"supplied": value}
    assert _refused_everywhere(api, design, "facility.supplied") == message


def test_a_bad_service_value_is_refused_naming_the_field(seeded_catalog, api, design):
    design["services"] = {"installation": "yes"}
    assert _refused_everywhere(api, design, "services.installation") == "must be true or false, not a string"


def test_what_the_site_has_leaves_the_api_bill_and_the_result_says_so(seeded_catalog, api, design):
    full = api.post(VALIDATE, design, format="json").json()
    design["facility"] = {"supplied": list(SUPPLIED_ITEMS)}
    lean = api.post(VALIDATE, design, format="json").json()
    sections = {line["section"] for line in lean["bom"]}
    assert {"racks_power", "oob", "control_plane"} <= {line["section"] for line in full["bom"]}
    assert not sections & {"racks_power", "oob", "control_plane"}
    assert lean["left_out"] == {"items": list(SUPPLIED_ITEMS), "basis": "design"}
    assert full["left_out"] == {"items": [], "basis": "size"}  # 4 nodes: the offer carries everything


def test_null_supplied_is_the_size_default(seeded_catalog, api, design):
    design["node_groups"][0]["count"] = 2
    design["facility"] = {"supplied": None}
    result = api.post(VALIDATE, design, format="json").json()
    assert result["left_out"] == {"items": ["control_plane"], "basis": "size"}
