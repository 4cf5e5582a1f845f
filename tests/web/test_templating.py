"""The page templates print values as Django templates do: in the site's time zone and the visitor's locale."""

from __future__ import annotations

import datetime
from decimal import Decimal

from django.template import engines
from django.utils import translation

LATE_EVENING_UTC = datetime.datetime(2026, 11, 30, 23, 30, tzinfo=datetime.UTC)  # 00:30 on 1 December in Groenlo


def render(source: str, **context) -> str:
    return engines["jinja2"].from_string(source).render(context)


def test_dates_are_shown_in_amsterdam_time():
    assert render('{{ when|date("Y-m-d H:i") }}', when=LATE_EVENING_UTC) == "2026-12-01 00:30"
    assert render("{{ when|date }}", when=None) == ""


def test_printed_numbers_and_datetimes_follow_the_language():
    with translation.override("nl"):
        assert render("{{ x }} · {{ y|floatformat('2g') }}", x=Decimal("1234.5"), y=Decimal("1234.5")) == (
            "1234,5 · 1.234,50"
        )
        assert render("{{ when }}", when=LATE_EVENING_UTC).startswith("1 december 2026 00:30")
    with translation.override("en"):
        assert render("{{ x }} · {{ n|intcomma }}", x=0.5, n=1234567) == "0.5 · 1,234,567"


def test_values_are_escaped_and_texts_translated():
    with translation.override("nl"):
        assert render("{{ v }} {{ _('Findings') }}", v="<b>") == "&lt;b&gt; Bevindingen"


def test_remembered_prices_and_links_are_what_django_gives():
    from django.contrib.humanize.templatetags.humanize import intcomma
    from django.template.defaultfilters import floatformat
    from django.urls import reverse, set_script_prefix

    values = [Decimal("38000.00"), Decimal("0.5"), Decimal("1234567.125"), 141.0, 0.35, 7, None, "", "x"]
    for language in ("en", "nl"):
        with translation.override(language):
            for value in values:
                for arg in ("2g", "0g", "-1", "1g", "-2"):
                    assert render(f"{{{{ v|floatformat('{arg}') }}}}", v=value) == str(floatformat(value, arg))
                if isinstance(value, int | Decimal):
                    assert render("{{ v|intcomma }}", v=value) == str(intcomma(value))
    try:
        set_script_prefix("/shop/")
        assert render("{{ url('configurator:rules') }}") == "/shop/rules/" == reverse("configurator:rules")
    finally:
        set_script_prefix("/")
    assert render("{{ url('configurator:rules') }}") == "/rules/"


def test_a_settings_change_is_seen_by_the_remembered_formats():
    from django.test import override_settings

    assert render("{{ v|floatformat('2') }}", v=Decimal("1234.5")) == "1234.50"
    with override_settings(USE_THOUSAND_SEPARATOR=True):
        assert render("{{ v|floatformat('2') }}", v=Decimal("1234.5")) == "1,234.50"
    assert render("{{ v|floatformat('2') }}", v=Decimal("1234.5")) == "1234.50"
