"""The catalogue speaks the shared hardware vocabulary, never an engine's module, and its migrations hold literal
values, so that editing an enum or an engine never breaks the migration history."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return names


def test_the_catalogue_imports_no_engine():
    for path in sorted((ROOT / "catalog").rglob("*.py")):
        engines = {n for n in _imported(path) if n.startswith(("engines.node", "engines.fabric"))}
        assert not engines, f"{path.relative_to(ROOT)} imports {sorted(engines)}"


def test_migrations_hold_literal_values_not_enum_members():
    enums = ("engines.node", "engines.fabric", "design.vocabulary")
    for folder in ("catalog", "configurator", "quotes", "api"):
        for path in sorted((ROOT / folder / "migrations").glob("*.py")):
            used = {n for n in _imported(path) if n.startswith(enums)}
            assert not used, f"{path.relative_to(ROOT)} imports {sorted(used)}: write literal values"
