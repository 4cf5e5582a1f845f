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
"""

from __future__ import annotations

import datetime
from decimal import Decimal

from django.contrib.humanize.templatetags.humanize import intcomma
from django.middleware.csrf import get_token
from django.template import defaultfilters
from django.templatetags.static import static
from django.urls import reverse
from django.utils import formats, translation
from django.utils.html import format_html
from django.utils.timezone import template_localtime
from jinja2 import Environment, Undefined

_LOCALISED = (float, Decimal, datetime.date, datetime.time)  # datetime.datetime is a date


def url(name: str, *args, **kwargs) -> str:
    return reverse(name, args=args or None, kwargs=kwargs or None)


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
    env.install_gettext_callables(translation.gettext, translation.ngettext, newstyle=False)
    env.globals.update(url=url, static=static, pgettext=translation.pgettext)
    env.filters.update(
        intcomma=intcomma,
        floatformat=defaultfilters.floatformat,
        date=date,
        localize=formats.localize,
    )
    return env
