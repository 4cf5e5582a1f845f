"""The command-line doors: validate_design and plan_fabric (exit codes, JSON on stdout, field on stderr)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

ROOT = Path(__file__).resolve().parents[2]


def run(command: str, *args: str, stdin: str | None = None) -> tuple[int, str, str]:
    """Run a management command in-process, as ``manage.py`` would, returning (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    if stdin is not None:
        sys.stdin = io.StringIO(stdin)
    try:
        call_command(command, *args, stdout=out, stderr=err)
        code = 0
    except SystemExit as exc:
        code = exc.code
    finally:
        sys.stdin = old_stdin
    return code, out.getvalue(), err.getvalue()


def test_valid_design_exits_0_with_the_result(seeded_catalog, design, tmp_path):
    path = tmp_path / "design.json"
    path.write_text(json.dumps(design))
    code, out, _err = run("validate_design", str(path))
    assert code == 0
    result = json.loads(out)
    assert result["valid"] is True
    assert result["fabric_plan"]["tiers"] >= 1


def test_invalid_design_exits_1(seeded_catalog, design):
    design["node_groups"][0]["components"][0]["part"] = "HGX-B200-8GPU"  # refused: SYS-821GE-TNHR takes H100/H200
    code, out, _err = run("validate_design", "-", stdin=json.dumps(design))
    assert code == 1
    assert json.loads(out)["valid"] is False


def test_malformed_design_exits_2_naming_the_field(seeded_catalog, design):
    design["node_groups"][0]["count"] = "four"
    code, out, err = run("validate_design", "-", stdin=json.dumps(design))
    assert code == 2
    assert out == ""
    assert "node_groups[0].count" in err


def test_a_design_beyond_the_size_caps_exits_2_naming_the_limit(seeded_catalog, design):
    from engines.intake.parse import MAX_COMPONENTS_PER_GROUP, MAX_NODE_GROUPS

    too_many_groups = {**design, "node_groups": design["node_groups"] * (MAX_NODE_GROUPS + 1)}
    code, out, err = run("validate_design", "-", stdin=json.dumps(too_many_groups))
    assert code == 2 and out == ""
    assert "node_groups" in err and f"{MAX_NODE_GROUPS}" in err
    group = design["node_groups"][0]
    too_many_parts = {**design, "node_groups": [{**group, "components": group["components"] * 40}]}
    assert len(too_many_parts["node_groups"][0]["components"]) > MAX_COMPONENTS_PER_GROUP
    code, out, err = run("validate_design", "-", stdin=json.dumps(too_many_parts))
    assert code == 2 and "node_groups[0].components" in err and f"{MAX_COMPONENTS_PER_GROUP}" in err


@pytest.mark.parametrize("text", ["", "not json", "[1, 2", "NaN", "1e999"])
def test_unparseable_input_exits_2(seeded_catalog, text):
    code, _out, err = run("validate_design", "-", stdin=text)
    assert code == 2
    assert err.strip()


def test_missing_file_exits_2(seeded_catalog, tmp_path):
    code, _out, err = run("validate_design", str(tmp_path / "nope.json"))
    assert code == 2
    assert "nope.json" in err


def test_dutch_messages(seeded_catalog, design):
    english = json.loads(run("validate_design", "-", stdin=json.dumps(design))[1])
    dutch = json.loads(run("validate_design", "-", "--lang", "nl", stdin=json.dumps(design))[1])
    assert [f["code"] for f in dutch["findings"]] == [f["code"] for f in english["findings"]]
    assert dutch["language"] == "nl"


def test_plan_fabric_prints_the_plan(seeded_catalog):
    code, out, _err = run(
        "plan_fabric",
        "--nodes",
        "128",
        "--rails",
        "8",
        "--switch",
        "MQM9700-NS2F",
        "--oversubscription",
        "1:1",
        "--topology",
        "rail-optimized",
        "--hca",
        "MCX75310AAS-NEAT",
    )
    assert code == 0
    plan = json.loads(out)
    assert plan["node_links"] == 1024
    assert plan["bom"]


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["--nodes", "0", "--rails", "8", "--switch", "MQM9700-NS2F"], "--nodes"),
        (["--nodes", "4", "--rails", "8", "--switch", "NO-SUCH-SWITCH"], "--switch"),
        (
            ["--nodes", "4", "--rails", "8", "--switch", "MQM9700-NS2F", "--oversubscription", "1:4"],
            "--oversubscription",
        ),
        (["--nodes", "4", "--rails", "8", "--switch", "MQM9700-NS2F", "--topology", "torus"], "--topology"),
        (["--nodes", "4", "--rails", "8", "--switch", "MQM9700-NS2F", "--hca", "MQM9700-NS2F"], "--hca"),
    ],
)
def test_plan_fabric_bad_input_exits_2_naming_the_option(seeded_catalog, args, field):
    code, out, err = run("plan_fabric", *args)
    assert code == 2
    assert out == ""
    assert field in err


def test_real_process_never_prints_a_traceback(tmp_path):
    """Through manage.py in a subprocess, against a database that has no tables: exit 2, a message, no traceback."""
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'empty.sqlite3'}",
        "DJANGO_SETTINGS_MODULE": "project.settings.test",
    }
    for args in (
        ["validate_design", "-"],
        ["plan_fabric", "--nodes", "x", "--rails", "1", "--switch", "S"],
        ["plan_fabric", "--nodes", "2", "--rails", "1", "--switch", "S"],
    ):
        proc = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=env,
            input='{"schema": "design/v1"}',
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert proc.returncode == 2, (args, proc.stderr)
        assert "Traceback" not in proc.stderr, proc.stderr
        assert proc.stderr.strip()
