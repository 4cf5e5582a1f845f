"""While the database cannot be reached the site answers 503 with Retry-After (a plain page), not 500.

The outage is simulated on the connection itself: every statement matching a pattern raises what the driver
raises when PostgreSQL is down (django.db.OperationalError), the rest of the request runs as usual."""

from __future__ import annotations

import re

import pytest
from django.db import OperationalError, connection
from django.test import Client

pytestmark = pytest.mark.django_db


def database_down(pattern: str = ""):
    """Statements matching ``pattern`` (all of them by default) fail as if the server had gone away."""
    regex = re.compile(pattern, re.I)

    def wrapper(execute, sql, params, many, context):
        if regex.search(sql):
            raise OperationalError("connection to server at 127.0.0.1, port 5432 failed: Connection refused")
        return execute(sql, params, many, context)

    return connection.execute_wrapper(wrapper)


def test_login_during_a_database_outage_is_503_with_retry_after_not_500(settings):
    settings.DATABASE_RETRY_AFTER_SECONDS = 45
    browser = Client(raise_request_exception=False)
    with database_down():
        response = browser.post("/accounts/login/", {"username": "sales", "password": "whatever-it-is"})
    assert response.status_code == 503
    assert response["Retry-After"] == "45" and response["Content-Type"].startswith("text/html")
    assert "try again in 45 seconds" in response.content.decode()


def test_the_outage_page_speaks_dutch_to_a_dutch_visitor():
    browser = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="nl")
    with database_down():
        response = browser.post("/accounts/login/", {"username": "sales", "password": "whatever-it-is"})
    assert response.status_code == 503
    assert "probeer het over 30 seconden opnieuw" in response.content.decode()


def test_an_outage_after_the_view_saving_the_session_is_503_as_well(seeded_catalog):
    """The draft is made, then the session (which remembers it) cannot be saved: Django's handler500 path."""
    browser = Client(raise_request_exception=False)
    with database_down(r'^(INSERT INTO|UPDATE) "django_session"'):
        response = browser.post("/start/", {"blank": "1"})
    assert response.status_code == 503 and response["Retry-After"] == "30"


def test_other_server_errors_stay_500(monkeypatch):
    from web.views import pages

    def broken(request):
        raise RuntimeError("a bug, not an outage")

    monkeypatch.setattr(pages, "render", broken)
    response = Client(raise_request_exception=False).get("/")
    assert response.status_code == 500 and "Retry-After" not in response


def test_healthz_keeps_its_own_answer_during_an_outage():
    with database_down():
        response = Client().get("/healthz")
    assert response.status_code == 503
    assert response.json()["database"] == {"ok": False, "detail": "OperationalError"}
