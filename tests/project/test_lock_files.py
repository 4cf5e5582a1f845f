"""The lock files that dev.py, CI and the Dockerfile install from (requirements/*.txt, written by `make lock`) pin
every dependency pyproject.toml names, at a version within its bounds, each with its hashes: a dependency added or
re-bounded in pyproject.toml without `make lock` fails here rather than on a fresh machine."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)")


def _pins(lock: str) -> dict[str, str]:
    """Package → pinned version; every pin must carry at least one hash."""
    text = (ROOT / "requirements" / lock).read_text()
    pins = {}
    for block in re.split(r"\n(?=[A-Za-z0-9])", text):
        match = PIN.match(block)
        if match:
            assert "--hash=sha256:" in block, f"{lock}: {match[1]} is pinned without a hash"
            pins[canonicalize_name(match[1])] = match[2]
    return pins


@pytest.mark.parametrize(
    "lock, requirements",
    [
        ("base.txt", PROJECT["dependencies"]),
        ("dev.txt", PROJECT["dependencies"] + PROJECT["optional-dependencies"]["dev"]),
    ],
)
def test_the_lock_pins_every_dependency_within_the_bounds_of_pyproject(lock, requirements):
    pins = _pins(lock)
    for line in requirements:
        requirement = Requirement(line)
        name = canonicalize_name(requirement.name)
        assert name in pins, f"requirements/{lock} does not pin {requirement.name}: run `make lock`"
        assert requirement.specifier.contains(pins[name], prereleases=True), (
            f"requirements/{lock} pins {requirement.name} {pins[name]} outside {requirement.specifier}: make lock"
        )


def test_every_dependency_has_an_upper_bound():
    for line in PROJECT["dependencies"] + PROJECT["optional-dependencies"]["dev"]:
        requirement = Requirement(line)
        if requirement.name == "drf-spectacular-sidecar":  # calendar-versioned static files (Swagger UI, ReDoc)
            continue
        assert any(s.operator in ("<", "<=", "==", "~=") for s in requirement.specifier), f"{line} has no upper bound"
