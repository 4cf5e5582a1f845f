"""Every finding message, fix and rule title has a Dutch translation: the message ids that the service edge
renders findings from (messages/) and the rule registry's titles and explanations
(engines/findings/) are all in the compiled Dutch catalogue, so no finding falls back to English for a Dutch
visitor."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.conf import settings
from django.utils.translation import trans_real

ROOT = Path(settings.BASE_DIR)
SOURCES = sorted((ROOT / "messages").glob("*.py")) + sorted((ROOT / "engines/findings").glob("*.py"))
SINGULAR = {"_", "gettext", "gettext_lazy", "gettext_noop"}
PLURAL = {"ngettext", "ngettext_lazy"}


def _messages():
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            name = node.func.id
            if name in SINGULAR | PLURAL and all(isinstance(a, ast.Constant) for a in node.args[:1]):
                args = [ast.literal_eval(a) for a in node.args[: 2 if name in PLURAL else 1]]
                key = (args[0], 0) if name in PLURAL else args[0]
                yield f"{path.relative_to(ROOT)}:{node.lineno}", key


def test_the_findings_have_texts_to_translate():
    assert sum(1 for _ in _messages()) > 150


@pytest.mark.parametrize("where,key", list(_messages()), ids=lambda v: v if isinstance(v, str) else "")
def test_every_finding_text_is_translated_to_dutch(where, key):
    translated = trans_real.translation("nl")._catalog.get(key)
    assert translated, f"{where}: no Dutch translation for {key!r} in locale/nl"
