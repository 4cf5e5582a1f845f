"""Form widgets written in Python: a select widget, and the form renderer for inputs, options and labels.

Django renders each <option> of a Select through two template includes; a 50-country list then costs more than
the rest of the page. FastSelect produces the same markup (name, id, attributes, selected options) directly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django import forms
from django.forms.renderers import TemplatesSetting
from django.forms.utils import flatatt
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from markupsafe import escape

if TYPE_CHECKING:
    from typing import Any

    from django.http import HttpRequest
    from django.utils.safestring import SafeString


class FastSelect(forms.Select):
    def render(self, name: str, value: Any, attrs: dict[str, Any] | None = None, renderer: Any = None) -> SafeString:
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


# --- the form renderer --------------------------------------------------------------------------------------

_INPUT_TEMPLATES = frozenset(
    f"django/forms/widgets/{name}.html"
    for name in ("input", "text", "number", "email", "password", "hidden", "url", "tel", "search", "date", "time")
)
_OPTION_TEMPLATES = frozenset(
    f"django/forms/widgets/{name}.html" for name in ("input_option", "radio_option", "checkbox_option")
)


def _attrs(attrs: dict) -> str:
    """Django's attrs.html: ` name="value"`, a bare ` name` for True, nothing for False."""
    out = []
    for name, value in attrs.items():
        if value is False:
            continue
        out.append(f" {escape(name)}" if value is True else f' {escape(name)}="{escape(value)}"')
    return "".join(out)


def _input(widget: dict) -> str:
    value = widget["value"]
    return (
        f'<input type="{escape(widget["type"])}" name="{escape(widget["name"])}"'
        f"{'' if value is None else f' value={chr(34)}{escape(value)}{chr(34)}'}{_attrs(widget['attrs'])}>"
    )


def _safe(html: str) -> str:
    return mark_safe(html)  # noqa: S308 - built from escape()d names, values and labels only


class FastRenderer(TemplatesSetting):
    """The form renderer: input widgets, radio and checkbox options and labels are written in Python, with
    exactly the markup of Django's templates for them (tests/web/test_form_renderer.py compares the two); every
    other widget renders through the template engines (TemplatesSetting), the admin's included. A wizard page
    has up to a dozen fields, and each template render costs more than the rest of the field."""

    def render(self, template_name: str, context: dict[str, Any], request: HttpRequest | None = None) -> str:
        if template_name in _INPUT_TEMPLATES:
            return _safe(_input(context["widget"]))
        if template_name in _OPTION_TEMPLATES:
            widget = context["widget"]
            if not widget.get("wrap_label"):
                return _safe(_input(widget))
            target = widget["attrs"].get("id")
            opening = f'<label for="{escape(target)}">' if target else "<label>"
            return _safe(f"{opening}{_input(widget)} {escape(widget['label'])}</label>")
        if template_name == "django/forms/label.html":
            if not context["use_tag"]:
                return _safe(escape(context["label"]))
            tag = context["tag"]
            attrs = _attrs(context["attrs"]) if context["attrs"] else ""
            return _safe(f"<{tag}{attrs}>{escape(context['label'])}</{tag}>")
        return super().render(template_name, context, request)
