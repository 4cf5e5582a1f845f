"""Importing any engine module loads no Django, Celery or app: each module is imported in a fresh interpreter
and its sys.modules inspected (issue #12: "python -c importing any engine module loads no Django")."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MODULES = sorted(
    ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
    for folder in ("engines", "design")
    for path in (ROOT / folder).rglob("*.py")
)
FORBIDDEN = ("django", "rest_framework", "celery", "catalog", "api", "quotes")


def test_there_are_engine_modules_to_check():
    assert {"engines.node.engine", "engines.fabric.plan", "engines.racks.plan", "engines.intake.parse"} <= set(MODULES)


@pytest.mark.parametrize("module", MODULES)
def test_importing_an_engine_module_loads_no_django(module):
    code = (
        f"import json, sys; import {module}; "
        f"print(json.dumps(sorted({{m.split('.')[0] for m in sys.modules}} & set({list(FORBIDDEN)!r}))))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == [], f"importing {module} loads {out.stdout.strip()}"
