"""An API request reads its client and every throttle count in one cache read and writes the counts in one
write, and counts exactly as before: per client, per scope, never against another client, a refusal by one
scope still counted by the other. On Redis (production's shared cache) that is two commands, on one client."""

from __future__ import annotations

import uuid

import pytest
from django.conf import settings
from django.core.cache import caches
from django.test import override_settings

from api import auth
from tests.web.test_counters import _redis_url

PARTS = "/api/v1/catalog/parts/"
VALIDATE = "/api/v1/designs/validate/"
CONFIGURATIONS = "/api/v1/configurations/"


def _rates(**rates):
    return override_settings(
        REST_FRAMEWORK={
            **settings.REST_FRAMEWORK,
            "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], **rates},
        }
    )


@pytest.fixture
def cache_calls(monkeypatch):
    """The default cache's operations from now on, as (operation, keys); what an operation does through others
    (the local-memory cache's get_many calls its get) is that one operation."""
    backend = caches["default"]
    calls: list[tuple[str, list[str]]] = []
    inside = []

    def spy(name, keys_of):
        real = getattr(backend, name)

        def call(*args, **kwargs):
            if inside:
                return real(*args, **kwargs)
            calls.append((name, keys_of(*args)))
            inside.append(name)
            try:
                return real(*args, **kwargs)
            finally:
                inside.pop()

        monkeypatch.setattr(backend, name, call)

    for name in ("get", "add", "set", "delete", "touch", "incr"):
        spy(name, lambda key, *rest: [key])
    spy("get_many", lambda keys, *rest: list(keys))
    spy("set_many", lambda data, *rest: sorted(data))
    return calls


def _throttle_calls(calls, pk):
    return [(name, [k for k in keys if k.startswith("throttle_") and k.endswith(f"_{pk}")]) for name, keys in calls]


def test_a_validation_costs_one_cache_read_and_one_write(make_client, design, cache_calls):
    client, token, http = make_client("crm", scope="read")
    assert http.post(VALIDATE, design, format="json").status_code == 200  # this process learns the client
    cache_calls.clear()
    response = http.post(VALIDATE, design, format="json")
    assert response.status_code == 200 and response.json()["valid"] is True
    prefix = token.split(".")[0]
    assert cache_calls == [
        ("get_many", [f"api-client:{prefix}", f"throttle_client_{client.pk}"]),
        ("set", [f"throttle_client_{client.pk}"]),
    ]


def test_a_write_reads_both_counts_with_the_client_and_writes_them_together(make_client, design, cache_calls):
    client, _token, http = make_client("crm")
    assert http.get(PARTS).status_code == 200
    cache_calls.clear()
    assert http.post(CONFIGURATIONS, {"document": design}, format="json").status_code == 201
    both = sorted([f"throttle_client_{client.pk}", f"throttle_client_write_{client.pk}"])
    touched = [(name, keys) for name, keys in _throttle_calls(cache_calls, client.pk) if keys]
    assert [(name, sorted(keys)) for name, keys in touched] == [("get_many", both), ("set_many", both)]


def test_a_write_refused_by_its_scope_still_counts_against_the_overall_rate(api, design):
    with _rates(client="3/min", client_write="1/min"):
        assert api.post(CONFIGURATIONS, {"document": design}, format="json").status_code == 201
        assert api.post(CONFIGURATIONS, {"document": design}, format="json").status_code == 429  # write scope
        assert api.get(PARTS).status_code == 200  # the third request of the minute
        assert api.get(PARTS).status_code == 429


def test_each_client_is_counted_on_its_own_even_when_this_process_remembers_a_prefix_wrongly(make_client):
    a, token_a, first = make_client("crm-a")
    b, _token_b, second = make_client("crm-b")
    with _rates(client="2/min"):
        assert first.get(PARTS).status_code == 200
        auth._pk_of_prefix[token_a.split(".")[0]] = b.pk  # as if the prefix had named b
        assert first.get(PARTS).status_code == 200
        assert first.get(PARTS).status_code == 429
        assert [second.get(PARTS).status_code for _ in range(3)] == [200, 200, 429]  # b's own two requests
    assert auth._pk_of_prefix[token_a.split(".")[0]] == a.pk  # the row read corrects what was remembered


@pytest.fixture
def redis_cache():
    """Production's cache backend on Redis, its keys under a prefix of this test's own."""
    url = _redis_url()
    backend = {"BACKEND": "project.cache.SharedClientRedisCache", "LOCATION": url}
    with override_settings(CACHES={"default": {**backend, "KEY_PREFIX": uuid.uuid4().hex}}):
        caches["default"].close()
        try:
            yield caches["default"]  # keys expire with their timeouts; clear() would empty the shared database
        finally:
            caches["default"].close()


def test_the_redis_cache_keeps_one_client_and_stores_what_djangos_own_reads(redis_cache):
    from django.core.cache.backends.redis import RedisCache

    assert redis_cache._cache.get_client() is redis_cache._cache.get_client(write=True)
    djangos = RedisCache(redis_cache._servers, {"KEY_PREFIX": redis_cache.key_prefix})
    redis_cache.set("history", [3.5, 2.25], 30)
    redis_cache.set_many({"a": 1, "b": {"x": None}}, 30)
    assert djangos.get("history") == [3.5, 2.25]
    assert djangos.get_many(["a", "b", "missing"]) == {"a": 1, "b": {"x": None}}
    djangos.set("row", ("client", 7), 30)
    assert redis_cache.get("row") == ("client", 7)
    assert redis_cache.add("row", "other", 30) is False
    redis_cache.delete_many(["history", "a", "b", "row"])
    assert redis_cache.get_many(["history", "a", "b", "row"]) == {}


def test_a_validation_on_redis_is_two_commands(redis_cache, make_client, design, monkeypatch):
    client, _token, http = make_client("crm", scope="read")
    with _rates(client="2/min"):
        assert http.post(VALIDATE, design, format="json").status_code == 200
        shared = redis_cache._cache.get_client()
        commands = []
        real = shared.execute_command
        monkeypatch.setattr(shared, "execute_command", lambda *a, **k: commands.append(a[0]) or real(*a, **k))
        assert http.post(VALIDATE, design, format="json").status_code == 200
        assert commands == ["MGET", "SET"]
        assert http.post(VALIDATE, design, format="json").status_code == 429  # and counted, on Redis
    redis_cache.delete(f"throttle_client_{client.pk}")


def test_the_throttle_cache_writes_at_once_unless_a_batch_is_open(db):
    from django.core.cache import cache

    from api.throttling import ThrottleCache

    direct = ThrottleCache()
    direct.set("throttle_a", [1.0], 60)  # a throttle run outside the views' check_throttles: written at once
    assert cache.get("throttle_a") == [1.0]
    batch = ThrottleCache()
    batch.read_ahead({"throttle_b": None, "throttle_c": [2.0]})
    assert batch.get("throttle_b", []) == [] and batch.get("throttle_c", []) == [2.0]
    batch.begin()
    batch.set("throttle_b", [3.0], 60)
    batch.set("throttle_c", [4.0, 2.0], 60)
    batch.set("throttle_d", [5.0], 3600)
    assert batch.get("throttle_b") == [3.0]  # this request sees its own writes
    assert cache.get_many(["throttle_b", "throttle_c", "throttle_d"]) == {}  # nothing sent yet
    batch.send()
    assert cache.get_many(["throttle_b", "throttle_c", "throttle_d"]) == {
        "throttle_b": [3.0],
        "throttle_c": [4.0, 2.0],
        "throttle_d": [5.0],
    }
