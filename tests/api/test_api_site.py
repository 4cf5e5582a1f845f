"""Issue #34, the naming template's refusals: a bad ``site`` is a 400 naming the field through the API's validate
door and exit code 2 (malformed) through ``manage.py validate_design``."""

from __future__ import annotations

import json

import pytest

from tests.api.test_cli import run

BAD = [
    ({"prefix": "GPU"}, "site.prefix"),
    ({"prefix": "1gpu"}, "site.prefix"),
    ({"prefix": "g" * 21}, "site.prefix"),
    ({"digits": 7}, "site.digits"),
    ({"digits": 0}, "site.digits"),
    ({"digits": 1, "first": 7}, "site.digits"),
    ({"first": -1}, "site.first"),
    ({"first": 9999}, "site.first"),
    ({"suffix": "x"}, "site.suffix"),
]


@pytest.mark.parametrize(("site", "field"), BAD)
def test_a_bad_site_is_400_naming_the_field(api, design, site, field):
    response = api.post("/api/v1/designs/validate/", {**design, "site": site}, format="json")
    assert response.status_code == 400
    assert field in {f["path"] for f in response.json()["error"]["fields"]}


def test_validate_design_exits_2_for_a_bad_site(seeded_catalog, design):
    code, _, err = run("validate_design", "-", stdin=json.dumps({**design, "site": {"digits": 9}}))
    assert code == 2 and "site.digits" in err
    code, _, _ = run("validate_design", "-", stdin=json.dumps({**design, "site": {"prefix": "gpu", "digits": 3}}))
    assert code == 0
