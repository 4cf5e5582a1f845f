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
