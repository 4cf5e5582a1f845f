"""Every page carries a Content-Security-Policy that allows no inline script, and every page keeps working under
it: no page of the site, the admin or the API docs has an inline <script> or an inline event handler."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.web.pages import url

pytestmark = pytest.mark.django_db

INLINE_HANDLER = re.compile(r"\son[a-z]+\s*=", re.I)


def _scripts_are_files(html: str) -> None:
    for tag in re.findall(r"<script\b[^>]*>", html, re.I):
        assert "src=" in tag, tag
    assert not INLINE_HANDLER.search(re.sub(r"<script\b.*?</script>", "", html, flags=re.S | re.I))


def _policy(response) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    return {d.split()[0]: d.split()[1:] for d in header.split(";") if d.strip()}


def test_every_kind_of_page_has_a_policy_without_inline_script(client, staff_client, make_config, admin_user):
    config = make_config()
    pages = [
        reverse("home"),
        url(config, "goal"),
        url(config, "fabric"),
        url(config, "quote"),
        reverse("configurator:rules"),
        reverse("login"),
        "/api/docs/",
    ]
    from django.test import Client

    anonymous = Client()
    for path in pages:
        response = anonymous.get(path)
        assert response.status_code == 200, path
        policy = _policy(response)
        assert policy["script-src"] == ["'self'"], path
        assert policy["default-src"] == ["'self'"] and policy["frame-ancestors"] == ["'none'"]
        assert policy["object-src"] == ["'none'"]
        _scripts_are_files(response.content.decode())

    admin = Client()
    admin.force_login(admin_user)
    for path in ["/admin/", "/admin/quotes/quote/", "/admin/api/apiclient/add/"]:
        response = admin.get(path)
        assert response.status_code == 200, path
        assert _policy(response)["script-src"] == ["'self'"]
        _scripts_are_files(response.content.decode())

    # Swagger UI's start-up script is a file of this server, and so is Swagger UI itself.
    docs = anonymous.get("/api/docs/").content.decode()
    sources = re.findall(r'<script[^>]+src="([^"]+)"', docs)
    assert any("script" in s for s in sources) and all(s.startswith("/") for s in sources)
    assert anonymous.get(next(s for s in sources if "script" in s)).status_code == 200


def test_the_language_cookie_is_never_sent_cross_site(client):
    response = client.post(reverse("set_language"), {"language": "nl", "next": "/"})
    cookie = response.cookies["django_language"]
    assert cookie["samesite"] == "Lax" and cookie["httponly"]


def _through_csp(response, path="/"):
    from django.test import RequestFactory

    from project.csp import CSPMiddleware

    return CSPMiddleware(lambda request: response)(RequestFactory().get(path))


def test_the_policy_is_django_csps_and_follows_the_settings(settings):
    from csp.utils import build_policy
    from django.http import HttpResponse

    assert _through_csp(HttpResponse())["Content-Security-Policy"] == build_policy()
    assert "Content-Security-Policy-Report-Only" not in _through_csp(HttpResponse())

    settings.CONTENT_SECURITY_POLICY = {"DIRECTIVES": {"default-src": ["'none'"]}}
    settings.CONTENT_SECURITY_POLICY_REPORT_ONLY = {"DIRECTIVES": {"img-src": ["'self'"]}}
    response = _through_csp(HttpResponse())
    assert response["Content-Security-Policy"] == "default-src 'none'"
    report_only = {d.split()[0]: d.split()[1:] for d in response["Content-Security-Policy-Report-Only"].split(";")}
    assert report_only == {"default-src": ["'self'"], "img-src": ["'self'"]}

    settings.CONTENT_SECURITY_POLICY = {"DIRECTIVES": {"default-src": ["'self'"]}, "EXCLUDE_URL_PREFIXES": ["/x/"]}
    assert "Content-Security-Policy" not in _through_csp(HttpResponse(), "/x/page")


def test_a_response_with_a_policy_of_its_own_keeps_it():
    from django.http import HttpResponse

    response = HttpResponse()
    response._csp_update = {"img-src": ["https://images.example.com"]}
    policy = _policy(_through_csp(response))
    assert policy["img-src"] == ["'self'", "data:", "https://images.example.com"]
    assert policy["script-src"] == ["'self'"]
    exempt = HttpResponse()
    exempt._csp_exempt = True
    assert "Content-Security-Policy" not in _through_csp(exempt)
