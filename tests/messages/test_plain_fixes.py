"""Every finding's fix speaks to the person using the wizard: it says what to do there (choose, move, enter, ask
us), never what a developer would do (set a design field by its path, add a part to the catalogue)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.utils.translation import trans_real

ROOT = Path(settings.BASE_DIR)
SOURCES = sorted((ROOT / "messages").glob("*.py"))
GETTEXT = {"_", "gettext", "gettext_lazy", "ngettext", "ngettext_lazy"}
# A design document's field path (fabric.switch, rack.in_rack_m, node_groups[0].server) or the seller's catalogue
# as something to edit: words a customer cannot act on.
DEVELOPER_WORDS = re.compile(
    r"\b(?:rack|fabric|node_groups|workload|components)(?:\[\d*\])?\.[a-z_]+|\[\d+\]|\bin_rack_m\b|\boverride\b"
    r"|\bcatalogu(?:e|s)\b|\bcatalog\b",
    re.IGNORECASE,
)


def _texts(node: ast.AST):
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and sub.func.id in GETTEXT:
            for arg in sub.args[: 2 if "ngettext" in sub.func.id else 1]:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    yield arg.value


def _fixes():
    """The texts of every renderer's fix: the second of the (message, fix) pair it returns, or what it assigns
    to ``fix``."""
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text())):
            where = f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple) and len(node.value.elts) == 2:
                for text in _texts(node.value.elts[1]):
                    yield where, text
            elif isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "fix" for t in node.targets):
                for text in _texts(node.value):
                    yield where, text


FIXES = list(_fixes())


def test_the_fixes_are_found():
    assert len(FIXES) > 60


@pytest.mark.parametrize("where,text", FIXES, ids=lambda v: v if ":" in v else "")
def test_no_fix_names_a_field_path_or_the_catalogue(where, text):
    dutch = trans_real.translation("nl")._catalog.get(text) or ""
    for language, sentence in (("en", text), ("nl", dutch)):
        assert not DEVELOPER_WORDS.search(sentence), f"{where} ({language}): {sentence!r}"
