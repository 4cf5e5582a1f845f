"""Fixed-window hit counters (quote-request limits, API throttles) count every hit once and expire with their
window, in the local-memory cache and in Redis, production's shared cache (configurator.cache)."""

from __future__ import annotations

import os
import uuid
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.core.cache import caches
from django.test import override_settings

from configurator.counters import count_hit


def _redis_url() -> str:
    broker = os.environ.get("CELERY_BROKER_URL", "")
    if not broker.startswith("redis"):
        reason = "needs CELERY_BROKER_URL to point at Redis"
        if os.environ.get("CI"):
            pytest.fail(f"CI is set but the Redis counter test cannot run: {reason}")
        pytest.skip(reason)
    return urlunsplit(urlsplit(broker)._replace(path="/11"))


def _hits(n: int, ttl: int = 60) -> tuple[str, list[int]]:
    key = f"test-counter:{uuid.uuid4().hex}"
    return key, [count_hit(key, ttl) for _ in range(n)]


def test_the_local_cache_counts_each_hit():
    key, counts = _hits(3)
    assert counts == [1, 2, 3]
    caches["default"].delete(key)
    assert count_hit(key, 60) == 1  # a new window starts from one


def test_redis_counts_each_hit_and_expires_the_window():
    redis_cache = {"default": {"BACKEND": "configurator.cache.RedisCache", "LOCATION": _redis_url()}}
    with override_settings(CACHES=redis_cache):
        caches["default"].close()
        try:
            key, counts = _hits(3, ttl=30)
            assert counts == [1, 2, 3]
            backend = caches["default"]
            real_key = backend.make_and_validate_key(key)
            client = backend._cache.get_client(real_key)
            assert 0 < client.ttl(real_key) <= 30  # set on the first hit, not pushed back by later ones
            assert backend._cache.get_client(real_key) is client  # one client object per connection pool
            assert backend.get(key) == 3 and backend.get_many([key]) == {key: 3}
            backend.delete(key)
        finally:
            caches["default"].close()
