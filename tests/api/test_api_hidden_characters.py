"""A design's names refuse characters that are invisible or turn the text around them (a right-to-left override
makes "Lab-Bdrawkcab" read as another name on an offer), naming the field, at the API and the CLI alike."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("character", "named"),
    [
        ("\u202e", "U+202E, right-to-left override"),
        ("\u2066", "U+2066, left-to-right isolate"),
        ("\u200b", "U+200B, zero width space"),
        ("\u200d", "U+200D, zero width joiner"),
        ("\ufeff", "U+FEFF, zero width no-break space"),
    ],
)
def test_a_design_name_with_a_hidden_character_is_refused_naming_the_field(api, design, character, named):
    design["name"] = f"Cluster {character}A"
    design["node_groups"][0]["name"] = f"rack{character}1"
    response = api.post("/api/v1/designs/validate/", design, format="json")
    assert response.status_code == 400
    fields = {f["path"]: f["message"] for f in response.json()["error"]["fields"]}
    assert set(fields) == {"name", "node_groups[0].name"}
    assert named in fields["name"]


def test_names_in_any_script_stay_allowed(api, design):
    design["name"] = "Клaster 東京 — مختبر (Ω)"
    response = api.post("/api/v1/configurations/", {"document": design}, format="json")
    assert response.status_code == 201, response.content[:300]


def test_the_cli_refuses_them_as_well(design, tmp_path):
    design["name"] = "Lab \u202eBdrawkcab"
    path = tmp_path / "design.json"
    path.write_text(json.dumps(design))
    result = subprocess.run(
        [sys.executable, "manage.py", "validate_design", str(path)], capture_output=True, text=True, cwd=ROOT
    )
    assert result.returncode == 2
    assert "U+202E" in result.stdout + result.stderr
