"""The engines stay pure: nothing in configurator/rules, configurator/fabric or their findings base imports Django
or the apps (CONVENTIONS.md: "configurator.rules and configurator.fabric import nothing from Django or the apps")."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENGINE_DIRS = [ROOT / "configurator" / d for d in ("rules", "fabric", "findings")]
FORBIDDEN_TOPS = {"django", "rest_framework", "celery", "catalog", "api"}
ALLOWED_CONFIGURATOR = (
    "configurator.rules",
    "configurator.fabric",
    "configurator.findings",
    "configurator.contract",
    "configurator.vocabulary",
    "configurator.spreadsheets",  # pure text rules for CSV and XLSX cells (import-linter keeps it so)
)


def _imports(path: Path) -> list[str]:
    """Absolute module names imported by a file (relative imports resolved against its package)."""
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    return _imports_in(path.read_text(encoding="utf-8"), package)


def _imports_in(source: str, package: str) -> list[str]:
    tree = ast.parse(source)
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                names.append(".".join(base + ([node.module] if node.module else [])))
            elif node.module:
                names.append(node.module)
    return names


def forbidden(name: str) -> bool:
    top = name.split(".")[0]
    if top in FORBIDDEN_TOPS:
        return True
    if top == "configurator":
        return not any(name == a or name.startswith(a + ".") for a in ALLOWED_CONFIGURATOR)
    return False


ENGINE_FILES = sorted(p for d in ENGINE_DIRS if d.exists() for p in d.rglob("*.py"))


def test_engine_packages_have_files():
    assert any(p.parent.name == "rules" for p in ENGINE_FILES)


@pytest.mark.parametrize("path", ENGINE_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_engine_module_imports_nothing_from_django_or_the_apps(path):
    bad = [name for name in _imports(path) if forbidden(name)]
    assert not bad, f"{path.relative_to(ROOT)} imports {bad}"


@pytest.mark.parametrize(
    "name, bad",
    [
        ("django.db", True),
        ("rest_framework", True),
        ("celery", True),
        ("catalog.models", True),
        ("api.views", True),
        ("configurator.models", True),
        ("configurator.snapshot", True),
        ("configurator", True),
        ("configurator.rules.specs", False),
        ("configurator.fabric.plan", False),
        ("dataclasses", False),
        ("catalogue", False),
    ],
)
def test_the_checker_itself_tells_forbidden_imports(name, bad):
    assert forbidden(name) is bad


def test_relative_imports_are_resolved():
    # a relative import that climbs out of configurator.rules into configurator.models must be caught
    names = _imports_in("from ..models import Thing\nfrom . import specs\nimport django.db\n", "configurator.rules")
    assert names == ["configurator.models", "configurator.rules", "django.db"]
    assert [forbidden(n) for n in names] == [True, False, True]
