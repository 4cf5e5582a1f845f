"""``manage.py makemessages``: Django's, which also reads the Jinja2 page templates.

Django's own command reads every .html file as a Django template, so it would miss the texts of the site's pages
(Jinja2: ``{{ _("…") }}``, ``{{ pgettext("…", "…") }}`` and ``{% trans %}`` blocks) and mark their translations
obsolete. Here a Jinja2 template is turned into Python calls of gettext, ngettext and pgettext, each on the line
the text stands on, so the catalogue's references point at the template and line. Everything else is Django's.
"""

from __future__ import annotations

import os

from django.core.management.commands import makemessages
from django.template import engines


def jinja_template_dirs() -> list[str]:
    return [os.path.abspath(d) for d in engines["jinja2"].template_dirs]


def jinja_to_python(source: str) -> str:
    """The template's translatable texts as Python gettext calls, each on its template line."""
    lines = [[] for _ in range(source.count("\n") + 1)]
    for lineno, function, message in engines["jinja2"].env.extract_translations(source):
        if function == "pgettext":
            call = f"pgettext({message[0]!r}, {message[1]!r})"
        elif isinstance(message, tuple):  # a {% trans %} block with {% pluralize %}: (singular, plural, None)
            call = f"ngettext({message[0]!r}, {message[1]!r}, 1)"
        else:
            call = f"gettext({message!r})"
        lines[lineno - 1].append(call)
    return "\n".join("; ".join(calls) for calls in lines) + "\n"


class BuildFile(makemessages.BuildFile):
    def preprocess(self):
        path = os.path.abspath(self.path)
        if self.domain == "django" and path.endswith(".html") and path.startswith(tuple(jinja_template_dirs())):
            with open(self.path, encoding="utf-8") as source, open(self.work_path, "w", encoding="utf-8") as out:
                out.write(jinja_to_python(source.read()))
            return
        super().preprocess()


class Command(makemessages.Command):
    build_file_class = BuildFile
