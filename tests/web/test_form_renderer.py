"""The form renderer writes inputs, radio and checkbox options and labels in Python: the markup must be exactly
what Django's own templates produce for them (names, values, ids, true/false attributes, escaping, errors)."""

from __future__ import annotations

import pytest
from django import forms
from django.contrib.auth.forms import AuthenticationForm
from django.forms.renderers import TemplatesSetting
from django.utils import translation

from web.forms import DashboardFilterForm, GoalForm, QuoteRequestForm
from web.widgets import FastRenderer


class EveryInput(forms.Form):
    text = forms.CharField(label='Name & "quote"', help_text="h", widget=forms.TextInput(attrs={"data-x": "a<b"}))
    number = forms.IntegerField(min_value=1, max_value=9, widget=forms.NumberInput(attrs={"step": 1}))
    decimal = forms.DecimalField(required=False, widget=forms.NumberInput(attrs={"inputmode": "decimal"}))
    email = forms.EmailField(widget=forms.EmailInput(attrs={"autocomplete": "email", "autofocus": True}))
    hidden = forms.CharField(widget=forms.HiddenInput, initial="it's")
    password = forms.CharField(widget=forms.PasswordInput(attrs={"disabled": False}))
    radio = forms.ChoiceField(choices=[("a", "A & B"), ("b", "<b>")], widget=forms.RadioSelect)
    boxes = forms.MultipleChoiceField(choices=[("x", "X"), ("y", "Y")], widget=forms.CheckboxSelectMultiple)
    date = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}))


def _markup(form: forms.Form) -> list[str]:
    out = []
    for bound in form:
        out += [str(bound), str(bound.label_tag()), str(bound.legend_tag())]
        out += [str(w.tag()) for w in bound.subwidgets]
        out += [str(w) for w in bound.subwidgets]  # options wrapped in their labels
    out.append(str(form.as_div()))
    return out


FORMS = {
    "every input, empty": lambda r: EveryInput(renderer=r),
    "every input, bound with errors": lambda r: EveryInput(
        {"text": '"><script>', "number": "12", "email": "x", "radio": "b", "boxes": ["x", "y"]}, renderer=r
    ),
    "goal": lambda r: GoalForm({"kind": "training", "params_billion": "70", "nodes": "x"}, renderer=r),
    "quote request": lambda r: QuoteRequestForm(initial={"name": "Jan & co"}, renderer=r),
    "dashboard filter": lambda r: DashboardFilterForm({"quote_status": "bogus"}, renderer=r),
    "login": lambda r: AuthenticationForm(data={"username": "a"}, renderer=r),
}


@pytest.mark.parametrize("name", FORMS)
def test_fields_render_exactly_as_with_django_templates(name):
    with translation.override("en"):  # whatever language an earlier test left active
        fast = _markup(FORMS[name](FastRenderer()))
        django = _markup(FORMS[name](TemplatesSetting()))
    assert len(fast) == len(django)
    for ours, theirs in zip(fast, django, strict=True):
        assert ours == theirs
