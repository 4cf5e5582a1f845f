"""`make messages` reads the Jinja2 page templates with Babel's Jinja2 extractor (babel.cfg): every page text reaches
the Dutch catalogue with its template and line, so translators see each one and none is marked obsolete."""

from __future__ import annotations

from pathlib import Path

from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po
from django.conf import settings

ROOT = Path(settings.BASE_DIR)
TEMPLATE = """{% extends "base.html" %}
<h1>{{ _("Findings") }}</h1>
<p>{% trans n=items|length %}{{ n }} error{% pluralize %}{{ n }} errors{% endtrans %}</p>
<button>{{ pgettext("language switch button", "Switch") }}</button> {{ _("Line discounts (%)") }}
"""


def _extract(folder: Path) -> list[tuple[str, int, object, str | None]]:
    with (ROOT / "babel.cfg").open() as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    return [
        (name, line, message, context)
        for name, line, message, _c, context in extract_from_dir(folder, method_map, options_map)
    ]


def test_page_texts_are_extracted_with_their_line_context_and_plural(tmp_path):
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "page.html").write_text(TEMPLATE)
    (tmp_path / "mail.html").write_text('{% load i18n %}<p>{% translate "Your quote" %}</p>')  # a Django template
    found = sorted((line, message, context) for _name, line, message, context in _extract(tmp_path))
    assert found == [
        (2, "Findings", None),
        (3, ("%(n)s error", "%(n)s errors"), None),
        (4, "Line discounts (%)", None),
        (4, "Switch", "language switch button"),
    ]


def test_every_page_text_is_in_the_dutch_catalogue_and_none_is_obsolete():
    with (ROOT / "locale/nl/LC_MESSAGES/django.po").open("rb") as po:
        catalogue = read_po(po)
    active = {(m.id if isinstance(m.id, str) else m.id[0], m.context) for m in catalogue if m.id}
    obsolete = {(m.id if isinstance(m.id, str) else m.id[0], m.context) for m in catalogue.obsolete.values()}
    texts = {
        (message if isinstance(message, str) else message[0], context)
        for _name, _line, message, context in _extract(ROOT)
    }
    assert texts, "babel.cfg extracts no page text"
    assert not texts - active, sorted(texts - active)
    assert not texts & obsolete
