"""The client's address behind reverse proxies: the quote rate limit and the login lockout key on it
(project.clientip.client_ip), taking X-Forwarded-For only when TRUSTED_PROXY_COUNT says proxies add it."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client, RequestFactory, override_settings
from django.urls import reverse

from project.clientip import client_ip
from tests.web.pages import CUSTOMER, url


def request_with(xff: str | None, remote: str = "10.0.0.1"):
    extra = {"REMOTE_ADDR": remote}
    if xff is not None:
        extra["HTTP_X_FORWARDED_FOR"] = xff
    return RequestFactory().get("/", **extra)


@pytest.mark.parametrize(
    ("count", "xff", "expected"),
    [
        (0, None, "10.0.0.1"),
        (0, "203.0.113.7", "10.0.0.1"),  # no trusted proxy: the header is the client's to forge, so ignored
        (1, None, "10.0.0.1"),  # a request that did not pass the proxy
        (1, "203.0.113.7", "203.0.113.7"),
        (1, "198.51.100.1, 203.0.113.7", "203.0.113.7"),  # the left entry was sent by the client: ignored
        (2, "198.51.100.1, 203.0.113.7, 192.0.2.9", "203.0.113.7"),  # two proxies: the second from the right
        (2, " 203.0.113.7 ", "203.0.113.7"),  # fewer entries than proxies: the leftmost a proxy saw
    ],
)
def test_client_ip_takes_the_forwarded_address_only_behind_trusted_proxies(settings, count, xff, expected):
    settings.TRUSTED_PROXY_COUNT = count
    assert client_ip(request_with(xff)) == expected


def test_the_proxy_count_defaults_to_none_and_axes_uses_the_same_address(settings):
    from axes.helpers import get_client_ip_address

    assert settings.TRUSTED_PROXY_COUNT == 0
    assert settings.AXES_CLIENT_IP_CALLABLE == "project.clientip.client_ip"
    settings.TRUSTED_PROXY_COUNT = 1
    assert get_client_ip_address(request_with("198.51.100.1, 203.0.113.7")) == "203.0.113.7"


@pytest.mark.django_db
@override_settings(QUOTE_REQUEST_LIMIT=100, QUOTE_REQUEST_LIMIT_PER_IP=1, TRUSTED_PROXY_COUNT=1)
def test_behind_a_proxy_clients_are_rate_limited_by_their_forwarded_address(make_config):
    cache.clear()
    configs = [make_config() for _ in range(4)]
    anna = Client(HTTP_X_FORWARDED_FOR="203.0.113.1")
    assert anna.post(url(configs[0], "quote"), CUSTOMER).status_code == 302
    assert anna.post(url(configs[1], "quote"), CUSTOMER).status_code == 429
    # Another client behind the same proxy (same REMOTE_ADDR) has its own limit.
    assert Client(HTTP_X_FORWARDED_FOR="203.0.113.2").post(url(configs[2], "quote"), CUSTOMER).status_code == 302
    # Anna cannot escape by prepending an address of her choice: the proxy's entry is the rightmost.
    forged = Client(HTTP_X_FORWARDED_FOR="198.51.100.99, 203.0.113.1")
    assert forged.post(url(configs[3], "quote"), CUSTOMER).status_code == 429


@pytest.mark.django_db
@override_settings(QUOTE_REQUEST_LIMIT=100, QUOTE_REQUEST_LIMIT_PER_IP=1, TRUSTED_PROXY_COUNT=0)
def test_without_a_trusted_proxy_a_forged_forwarded_header_does_not_escape_the_limit(make_config):
    cache.clear()
    configs = [make_config() for _ in range(2)]
    assert Client(HTTP_X_FORWARDED_FOR="203.0.113.1").post(url(configs[0], "quote"), CUSTOMER).status_code == 302
    assert Client(HTTP_X_FORWARDED_FOR="203.0.113.2").post(url(configs[1], "quote"), CUSTOMER).status_code == 429


def _fail_login(client, n):
    for _ in range(n):
        client.post(reverse("login"), {"username": "sven", "password": "wrong"})


@pytest.mark.django_db
@override_settings(TRUSTED_PROXY_COUNT=1)
def test_behind_a_proxy_the_login_lockout_is_per_forwarded_address(staff):
    attacker = Client(HTTP_X_FORWARDED_FOR="203.0.113.66")
    _fail_login(attacker, 5)
    locked = attacker.post(reverse("login"), {"username": "sven", "password": "correct-horse-battery"})
    assert locked.status_code == 429
    # The sales engineer at another address behind the same proxy still logs in.
    own = Client(HTTP_X_FORWARDED_FOR="203.0.113.10")
    response = own.post(reverse("login"), {"username": "sven", "password": "correct-horse-battery"})
    assert response.status_code == 302


@pytest.mark.django_db
@override_settings(TRUSTED_PROXY_COUNT=0)
def test_without_a_trusted_proxy_a_forged_header_does_not_escape_the_login_lockout(staff):
    _fail_login(Client(HTTP_X_FORWARDED_FOR="203.0.113.66"), 5)
    other = Client(HTTP_X_FORWARDED_FOR="203.0.113.67")
    assert other.post(reverse("login"), {"username": "sven", "password": "correct-horse-battery"}).status_code == 429
