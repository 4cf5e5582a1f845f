"""Quote requests sent at the same instant cannot overrun a customer's limits: each takes its place with one atomic
count before it is worked on, so of five requests racing for a limit of two, two are accepted and three refused
(the per-session and the per-address limit alike)."""

from __future__ import annotations

import threading
import time

import pytest
from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore
from django.core.cache import cache
from django.db import connections
from django.http import HttpResponse
from django.test import Client, override_settings

from tests.web.pages import CUSTOMER, url

pytestmark = pytest.mark.django_db(transaction=True)
RACERS = 5
LIMITS = {
    "session": {"QUOTE_REQUEST_LIMIT": 2, "QUOTE_REQUEST_LIMIT_PER_IP": 100},
    "address": {"QUOTE_REQUEST_LIMIT": 100, "QUOTE_REQUEST_LIMIT_PER_IP": 2},
}


@pytest.mark.parametrize("limit", ["session", "address"])
def test_requests_racing_for_the_last_places_cannot_overrun_the_limit(make_config, monkeypatch, limit):
    from web.views import quote as views

    cache.clear()
    configs = [make_config() for _ in range(RACERS)]

    def slow_accept(request, config, form, discount_form):
        time.sleep(0.5)  # every racer is past the limit check before the first is accepted
        return HttpResponse("accepted")

    monkeypatch.setattr(views, "_quote_request", slow_accept)
    clients = [Client() for _ in range(RACERS)]
    sessions = [SessionStore() for _ in range(1 if limit == "session" else RACERS)]
    for session in sessions:
        session.create()
    for n, client in enumerate(clients):  # one browser sending five requests at once, or five browsers
        client.cookies[settings.SESSION_COOKIE_NAME] = sessions[n % len(sessions)].session_key
    barrier = threading.Barrier(RACERS)
    statuses: list[int] = []

    def post(n: int) -> None:
        try:
            barrier.wait(30)
            statuses.append(clients[n].post(url(configs[n], "quote"), CUSTOMER).status_code)
        finally:
            connections.close_all()

    with override_settings(**LIMITS[limit]):
        threads = [threading.Thread(target=post, args=(n,)) for n in range(RACERS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
    assert sorted(statuses) == [200, 200, 429, 429, 429]
    cache.clear()
