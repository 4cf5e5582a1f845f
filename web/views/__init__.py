"""Views of the web app: home, the six wizard steps, staff actions, the dashboard and the rule catalogue.

Thin: parse the request, call one service or selector, render. Every step is one URL (/d/<token>/<step>/) that
works by full-page GET/POST without JavaScript; with htmx, a changed field posts the form, the draft is saved,
re-validated, and the step's body (``configurator/steps/<step>.html``, swapped into ``#step-body``) comes back with
the findings and the price.
"""

from web.views.built import expand_built, mark_built
from web.views.common import step_url
from web.views.compare import alternative_start, alternatives, compare_drafts
from web.views.expand import expand
from web.views.pages import cabling_csv, draft, export_file, home, rules, start
from web.views.quote import open_quote, price_preview
from web.views.quote_exports import quote_export
from web.views.staff import acknowledge, clone, customer_copy, dashboard, take_over
from web.views.steps import step

__all__ = [
    "expand_built",
    "mark_built",
    "acknowledge",
    "alternative_start",
    "alternatives",
    "cabling_csv",
    "expand",
    "export_file",
    "clone",
    "compare_drafts",
    "customer_copy",
    "dashboard",
    "draft",
    "home",
    "open_quote",
    "price_preview",
    "quote_export",
    "rules",
    "start",
    "step",
    "step_url",
    "take_over",
]
