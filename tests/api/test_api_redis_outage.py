"""While Redis (the shared cache, the broker) is stopped or frozen the API answers 503 with Retry-After in its one
error body, within seconds, and counts nothing against a client's throttles; /healthz says which is down within
two seconds and keeps one connection per Redis server. Each test runs its own redis-server (tests/redis_server.py).
"""

from __future__ import annotations

import time

import pytest
from django.conf import settings
from django.test import Client, override_settings

from tests.redis_server import private_redis  # noqa: F401  (fixture)

PARTS = "/api/v1/catalog/parts/"
pytestmark = pytest.mark.django_db


@pytest.fixture
def redis_cache(private_redis, settings):  # noqa: F811
    settings.CACHES = {
        "default": {
            "BACKEND": "project.cache.SharedClientRedisCache",
            "LOCATION": private_redis.url(1),
            "OPTIONS": {"socket_connect_timeout": 1.0, "socket_timeout": 1.0},
        }
    }
    settings.CELERY_BROKER_URL = private_redis.url(0)
    return private_redis


def _client_rate(rate: str):
    return override_settings(
        REST_FRAMEWORK={
            **settings.REST_FRAMEWORK,
            "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "client": rate},
        }
    )


def _timed(call):
    started = time.monotonic()
    response = call()
    return response, time.monotonic() - started


def _unavailable(response) -> None:
    assert response.status_code == 503, response.content[:300]
    assert response["Retry-After"] == "30"
    assert response.json() == {
        "error": {
            "code": "service_unavailable",
            "message": "The service is briefly unavailable (its cache cannot be reached); try again in 30 seconds.",
            "fields": [],
        }
    }


@pytest.mark.parametrize("outage", ["stopped", "frozen"])
def test_the_api_answers_503_while_its_cache_is_down_and_charges_nothing(redis_cache, make_client, outage):
    _client, _token, http = make_client("crm")
    http.raise_request_exception = False
    with _client_rate("3/min"):
        assert http.get(PARTS).status_code == 200  # one of three
        if outage == "frozen":
            redis_cache.freeze()
        else:
            redis_cache.stop()
        for _ in range(4):
            response, seconds = _timed(lambda: http.get(PARTS))
            _unavailable(response)
            assert seconds < 2.5
        if outage == "frozen":
            redis_cache.thaw()  # the counts are still there: nothing was added while it was frozen
            assert [http.get(PARTS).status_code for _ in range(3)] == [200, 200, 429]
        else:
            redis_cache.start()  # a fresh, empty Redis on the same port
            assert http.get(PARTS).status_code == 200


def test_the_site_answers_503_in_dutch_while_its_cache_is_down(redis_cache, seeded_catalog):
    """The wizard's rate limits count in the cache as well: its pages say what is down and when to come back."""
    redis_cache.stop()
    browser = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="nl")
    response = browser.post("/start/", {"blank": "1"})
    assert response.status_code == 503 and response["Retry-After"] == "30"
    assert "de cache is niet bereikbaar" in response.content.decode()


@pytest.mark.parametrize("outage", ["stopped", "frozen"])
def test_healthz_says_redis_is_down_within_two_seconds(redis_cache, outage):
    assert Client().get("/healthz").status_code == 200
    if outage == "frozen":
        redis_cache.freeze()
    else:
        redis_cache.stop()
    response, seconds = _timed(lambda: Client().get("/healthz"))
    assert seconds < 2.0
    body = response.json()
    assert response.status_code == 503 and body["status"] == "unavailable"
    assert body["broker"]["ok"] is False and body["cache"]["ok"] is False
    assert body["database"]["ok"] is True
    if outage == "frozen":
        redis_cache.thaw()
    else:
        redis_cache.start()
    assert Client().get("/healthz").status_code == 200


def test_healthz_keeps_its_connection_to_redis(redis_cache):
    import redis

    def connections_received() -> int:
        return redis.Redis.from_url(redis_cache.url()).info("stats")["total_connections_received"]

    Client().get("/healthz")
    before = connections_received()
    for _ in range(20):
        assert Client().get("/healthz").status_code == 200
    assert connections_received() - before <= 1  # the one that read the count


def test_livez_answers_while_the_database_and_redis_are_down(redis_cache):
    from tests.project.test_database_outage import database_down

    redis_cache.stop()
    with database_down():
        response = Client().get("/livez")
    assert response.status_code == 200 and response.content == b"ok"


def test_compose_restarts_every_service_that_exits():
    from pathlib import Path

    import yaml

    compose = yaml.safe_load((Path(__file__).resolve().parents[2] / "docker-compose.yml").read_text())
    assert {name: s.get("restart") for name, s in compose["services"].items()} == dict.fromkeys(
        ("web", "proxy", "worker", "beat", "postgres", "redis"), "unless-stopped"
    )
