"""Every text of the site's pages has a Dutch translation: the Jinja2 templates' message ids (``_()``,
``pgettext()`` and ``{% trans %}`` blocks) are all in the compiled Dutch catalogue, so no page falls back to
English for a Dutch visitor."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.template import engines
from django.utils.translation import trans_real

ROOT = Path(settings.BASE_DIR)
TEMPLATE_DIRS = [ROOT / "templates"]


def _messages():
    env = engines["jinja2"].env
    for folder in TEMPLATE_DIRS:
        for path in sorted(folder.rglob("*.html")):
            for lineno, function, message in env.extract_translations(path.read_text()):
                yield f"{path.relative_to(ROOT)}:{lineno}", function, message


def _catalogue():
    """Django's Dutch catalogue: locale/ and every app's locale/ merged, as the pages look texts up."""
    return trans_real.translation("nl")._catalog


def _key(function: str, message) -> object:
    if function == "pgettext":
        return f"{message[0]}\x04{message[1]}"
    if isinstance(message, tuple):  # singular and plural of a {% trans %} block with {% pluralize %}
        return (message[0], 0)
    return message


def test_the_pages_have_texts_to_translate():
    assert sum(1 for _ in _messages()) > 200


@pytest.mark.parametrize("where,function,message", list(_messages()), ids=lambda v: v if isinstance(v, str) else "")
def test_every_text_of_the_pages_is_translated_to_dutch(where, function, message):
    translated = _catalogue().get(_key(function, message))
    assert translated, f"{where}: no Dutch translation for {message!r} in a Dutch catalogue (locale/nl or the app's)"
