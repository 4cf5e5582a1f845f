"""A select widget rendered in Python.

Django renders each <option> of a Select through two template includes; a 50-country list then costs more than
the rest of the page. This widget produces the same markup (name, id, attributes, selected options) directly.
"""

from __future__ import annotations

from django import forms
from django.forms.utils import flatatt
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe


class FastSelect(forms.Select):
    def render(self, name, value, attrs=None, renderer=None):
        context = self.get_context(name, value, attrs)
        widget = context["widget"]
        options = []
        for group_name, group_options, _index in widget["optgroups"]:
            rendered = format_html_join(
                "",
                '<option value="{}"{}>{}</option>',
                (
                    (o["value"], mark_safe(" selected") if o["selected"] else "", o["label"])  # noqa: S308 - constant
                    for o in group_options
                ),
            )
            options.append(
                format_html('<optgroup label="{}">{}</optgroup>', group_name, rendered) if group_name else rendered
            )
        return format_html(
            '<select name="{}"{}>{}</select>',
            widget["name"],
            flatatt(widget["attrs"]),
            mark_safe("".join(options)),  # noqa: S308
        )
