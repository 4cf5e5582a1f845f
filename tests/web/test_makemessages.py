"""``manage.py makemessages`` reads the Jinja2 page templates: their texts reach the catalogue with references to
the template and line, so translators see every page text and none is marked obsolete."""

from __future__ import annotations

import ast
from pathlib import Path

from configurator.management.commands import makemessages

TEMPLATE = """{% extends "base.html" %}
<h1>{{ _("Findings") }}</h1>
<p>{% trans n=items|length %}{{ n }} error{% pluralize %}{{ n }} errors{% endtrans %}</p>
<button>{{ pgettext("language switch button", "Switch") }}</button> {{ _("Line discounts (%)") }}
"""


def _calls(python: str) -> list[tuple[int, str, tuple]]:
    return [
        (node.lineno, node.func.id, tuple(a.value for a in node.args))
        for node in ast.walk(ast.parse(python))
        if isinstance(node, ast.Call)
    ]


def test_template_texts_become_gettext_calls_on_their_lines():
    assert sorted(_calls(makemessages.jinja_to_python(TEMPLATE))) == [
        (2, "gettext", ("Findings",)),
        (3, "ngettext", ("%(n)s error", "%(n)s errors", 1)),
        (4, "gettext", ("Line discounts (%)",)),
        (4, "pgettext", ("language switch button", "Switch")),
    ]


def test_jinja_templates_are_read_as_jinja_and_django_templates_as_django(tmp_path, monkeypatch):
    from django.core.management.commands.makemessages import TranslatableFile

    pages = tmp_path / "pages"
    pages.mkdir()
    (pages / "page.html").write_text(TEMPLATE)
    (tmp_path / "mail.html").write_text('{% load i18n %}<p>{% translate "Your quote" %}</p>')
    monkeypatch.setattr(makemessages, "jinja_template_dirs", lambda: [str(pages)])
    command = makemessages.Command()
    built = {}
    for folder, name in ((pages, "page.html"), (tmp_path, "mail.html")):
        build = makemessages.BuildFile(command, "django", TranslatableFile(str(folder), name, None))
        build.preprocess()
        built[name] = Path(build.work_path).read_text(encoding="utf-8")
    assert ("gettext", ("Findings",)) in [(f, a) for _line, f, a in _calls(built["page.html"])]
    assert "Your quote" in built["mail.html"]  # Django's templatize output
