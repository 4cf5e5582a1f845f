"""The project package stays out of the engines' way: importing an engine loads neither Django nor Celery, while
Celery still finds its app as ``celery -A project``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_importing_the_engines_loads_no_django_and_no_celery():
    code = (
        "import sys, engines.node.engine, engines.fabric.plan, outputs.pictures\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'django', 'celery', 'kombu'}))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def test_celery_finds_the_app_of_the_project():
    from celery.bin.celery import find_app

    assert find_app("project").main == "project"
