"""What the API's JSON parser refuses besides malformed JSON: a key named twice in one object (Python would keep
the last: 1 node, then 100,000), and a body over the one JSON limit the README states (1,000,000 bytes)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.django_db
VALIDATE = "/api/v1/designs/validate/"
ROOT = Path(__file__).resolve().parents[2]


def _with_duplicate_count(design: dict) -> str:
    """The design with its first group's count sent twice: 1, then 100000."""
    group = dict(design["node_groups"][0])
    marker = group["count"] = "__COUNT__"
    text = json.dumps({**design, "node_groups": [group, *design["node_groups"][1:]]})
    return text.replace(f'"count": "{marker}"', '"count": 1, "count": 100000', 1)


def test_a_key_named_twice_is_refused_naming_the_field(api, design):
    response = api.generic("POST", VALIDATE, _with_duplicate_count(design).encode(), content_type="application/json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "parse_error"
    assert error["fields"] == [{"path": "node_groups[0].count", "message": 'the key "count" appears more than once'}]


def test_the_cli_refuses_a_key_named_twice_as_well(design, tmp_path):
    path = tmp_path / "design.json"
    path.write_text(_with_duplicate_count(design))
    result = subprocess.run(
        [sys.executable, "manage.py", "validate_design", str(path)], capture_output=True, text=True, cwd=ROOT
    )
    assert result.returncode == 2
    assert "node_groups[0].count appears more than once" in result.stderr


@pytest.mark.parametrize("size", [1_000_001, 2_000_000, 3_000_000])
def test_a_json_body_over_the_stated_limit_is_413_wherever_it_is_read(api, size):
    name = "x" * (size - len('{"schema": "design/v1", "name": ""}'))
    body = '{"schema": "design/v1", "name": "' + name + '"}'
    assert len(body) == size
    for url in (VALIDATE, "/api/v1/configurations/"):  # parsed by DRF; read first by the idempotency check
        response = api.generic("POST", url, body.encode(), content_type="application/json")
        assert response.status_code == 413, (url, response.content[:200])
        assert response.json()["error"]["code"] == "too_large"
        assert "1000000 bytes" in response.json()["error"]["message"]


def test_a_json_body_at_the_limit_is_read(api, design):
    body = json.dumps({**design, "name": ""})
    body = body.replace('"name": ""', '"name": "' + "x" * 200 + '"' + " " * (1_000_000 - len(body) - 200), 1)
    assert len(body) == 1_000_000
    response = api.generic("POST", VALIDATE, body.encode(), content_type="application/json")
    assert response.status_code == 200, response.content[:300]
