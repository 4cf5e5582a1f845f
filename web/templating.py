"""The Jinja2 environment of the site's pages (home, wizard, dashboard, rule catalogue, login, quote status).

Jinja2 compiles a template to Python once, so a wizard page renders several times faster than with Django's
template language; the admin, the e-mails and the quote PDF keep Django templates (settings.TEMPLATES lists
both engines, Jinja2 first, each with its own directories).

What a Django template got from built-in tags comes from here:

- translations: the ``i18n`` extension with Django's own gettext, so ``{% trans %}`` blocks and ``_("…")`` look
  up the same message ids in ``locale/`` as the Python code; ``pgettext(context, message)`` for a context;
- ``url(name, *args)`` (reverse), ``static(path)``;
- filters ``intcomma``, ``floatformat``, ``date`` (in the current time zone, like Django's) and ``localize``;
- every printed float, Decimal, date or time is localised as Django prints it (``finalize``), so amounts read
  ``1.234,50`` in Dutch.

A page translates some eighty texts, formats dozens of prices and links the same few URLs; each of these costs
Django 4 to 30 µs a call. The results depend only on the language, the value and the URL prefix, and repeat from
page to page (catalogue prices, menu links), so they are remembered per process; any settings change (tests)
forgets them.
"""

from __future__ import annotations

import datetime
from decimal import Decimal
from functools import lru_cache

from django.contrib.humanize.templatetags import humanize
from django.core.signals import setting_changed
from django.middleware.csrf import get_token
from django.template import defaultfilters
from django.templatetags.static import static
from django.urls import get_script_prefix, reverse
from django.utils import formats, translation
from django.utils.html import format_html
from django.utils.timezone import template_localtime
from jinja2 import Environment, Undefined

from messages.languages import language_name

_LOCALISED = (float, Decimal, datetime.date, datetime.time)  # datetime.datetime is a date


def url(name: str, *args, **kwargs) -> str:
    if not args and not kwargs:
        return _plain_url(name, get_script_prefix())
    return reverse(name, args=args, kwargs=kwargs or None)


@lru_cache(maxsize=256)
def _plain_url(name: str, prefix: str) -> str:  # the prefix is part of the key: reverse() prepends it
    return reverse(name)


_texts: dict[tuple[str | None, str], str] = {}


def gettext(message: str) -> str:
    key = (translation.get_language(), message)
    text = _texts.get(key)
    if text is None:
        text = _texts[key] = translation.gettext(message)
    return text


@lru_cache(maxsize=8192)
def _formatted(language: str | None, kind: type, value, arg, formatter) -> str:
    return formatter(value, arg) if arg is not None else formatter(value)


def _remembered(formatter):
    def format_value(value, arg=None):
        try:
            return _formatted(translation.get_language(), type(value), value, arg, formatter)
        except TypeError:  # an unhashable value
            return formatter(value, arg) if arg is not None else formatter(value)

    format_value.__doc__ = formatter.__doc__
    return format_value


floatformat = _remembered(defaultfilters.floatformat)
intcomma = _remembered(humanize.intcomma)


def _forget(**kwargs) -> None:
    _plain_url.cache_clear()
    _formatted.cache_clear()
    _texts.clear()


setting_changed.connect(_forget, dispatch_uid="web.templating.forget")


def date(value, arg: str | None = None) -> str:
    """Django's ``date`` filter, after converting an aware datetime to the current time zone as Django does."""
    if value in (None, ""):
        return ""
    return defaultfilters.date(template_localtime(value), arg)


def csrf(request) -> dict:
    """Context processor: one masked CSRF token per page. Django's Jinja2 backend passes lazy values that mask
    the token anew (32 random characters) at every use, and a wizard page uses it three to five times."""
    token = get_token(request)
    return {
        "csrf_token": token,
        "csrf_input": format_html('<input type="hidden" name="csrfmiddlewaretoken" value="{}">', token),
    }


def _finalize(value):
    if not isinstance(value, _LOCALISED):
        return value
    if isinstance(value, datetime.datetime):
        value = template_localtime(value)  # aware datetimes print in the site's time zone, as in Django templates
    return formats.localize(value)


def environment(**options) -> Environment:
    # A missing value prints as nothing, in development too (Django's backend would print "{{ name }}" there).
    options["undefined"] = Undefined
    options.pop("autoescape", None)  # always on: every page is HTML
    env = Environment(extensions=["jinja2.ext.i18n"], finalize=_finalize, autoescape=True, **options)
    env.install_gettext_callables(gettext, translation.ngettext, newstyle=False)
    env.globals.update(url=url, static=static, pgettext=translation.pgettext)
    env.filters.update(
        intcomma=intcomma,
        floatformat=floatformat,
        date=date,
        localize=formats.localize,
        language_name=language_name,
    )
    return env
