"""URLs of the web app: the home page, the wizard (one URL per step), staff actions, dashboard, rule catalogue.

The home page keeps the bare name "home"; everything else is in the "configurator" namespace. A customer's
draft lives under /d/<token>/, the token being the unguessable key to it.
"""

from django.urls import include, path, re_path

from web import views
from web.wizard import STEP_SLUGS

app_name_patterns = [
    path("start/", views.start, name="start"),
    path("d/<slug:token>/", views.draft, name="draft"),
    re_path(rf"^d/(?P<token>[-\w]+)/(?P<step>{'|'.join(STEP_SLUGS)})/$", views.step, name="step"),
    path("d/<slug:token>/cabling.csv", views.cabling_csv, name="cabling_csv"),
    path("d/<slug:token>/exports/<str:name>", views.export_file, name="export"),
    path("staff/quotes/<int:pk>/exports/<str:name>", views.quote_export, name="quote_export"),
    path("d/<slug:token>/acknowledge/", views.acknowledge, name="acknowledge"),
    path("d/<slug:token>/clone/", views.clone, name="clone"),
    path("d/<slug:token>/copy/", views.customer_copy, name="copy"),
    path("d/<slug:token>/take-over/", views.take_over, name="take_over"),
    path("d/<slug:token>/alternatives/", views.alternatives, name="alternatives"),
    path("d/<slug:token>/alternatives/start/", views.alternative_start, name="alternative_start"),
    path("compare/", views.compare_drafts, name="compare"),
    path("d/<slug:token>/price-preview/", views.price_preview, name="price_preview"),
    path("d/<slug:token>/quote/open/<str:signed>/", views.open_quote, name="open_quote"),
    path("q/<str:token>/expand/", views.expand, name="expand"),
    path("d/<slug:token>/built/", views.mark_built, name="mark_built"),
    path("d/<slug:token>/expand/", views.expand_built, name="expand_built"),
    path("dashboard/", views.dashboard, name="dashboard"),
    path("rules/", views.rules, name="rules"),
]

urlpatterns = [
    path("", views.home, name="home"),
    path("", include((app_name_patterns, "configurator"))),
]
