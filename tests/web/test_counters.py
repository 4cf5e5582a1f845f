"""Rate limits count in Django's default cache: the wizard's limits (django-ratelimit) and the API throttles (DRF)
count every hit once per window, in the local-memory cache and in Redis, production's shared cache."""

from __future__ import annotations

import os
import uuid
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.core.cache import caches
from django.test import RequestFactory, override_settings

from project import ratelimits


def _redis_url() -> str:
    cache_url = os.environ.get("CACHE_URL", "")
    if cache_url.startswith("redis"):
        return cache_url
    broker = os.environ.get("CELERY_BROKER_URL", "")
    if not broker.startswith("redis"):
        reason = "needs CELERY_BROKER_URL (or CACHE_URL) to point at Redis"
        if os.environ.get("CI"):
            pytest.fail(f"CI is set but the Redis rate-limit test cannot run: {reason}")
        pytest.skip(reason)
    return urlunsplit(urlsplit(broker)._replace(path="/11"))


def _hits(n: int, rate=(2, 60)) -> list[bool]:
    request = RequestFactory().post("/", REMOTE_ADDR="198.51.100.1")
    group = f"test-limit:{uuid.uuid4().hex}"
    return [ratelimits.hit(request, group=group, rate=rate) for _ in range(n)]


def _redis():
    return override_settings(
        CACHES={"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": _redis_url()}}
    )


def test_the_local_cache_counts_each_hit():
    assert _hits(3) == [False, False, True]


def test_redis_counts_each_hit_of_a_wizard_limit():
    with _redis():
        caches["default"].close()
        try:
            assert _hits(4) == [False, False, True, True]
        finally:
            caches["default"].close()


def test_redis_counts_the_api_throttle_of_one_client(make_api_client):
    from rest_framework.test import APIClient

    with _redis():
        caches["default"].close()
        try:
            client, token = make_api_client(rate="2/min")
            http = APIClient()
            http.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
            codes = [http.get("/api/v1/catalog/parts/").status_code for _ in range(3)]
            assert codes == [200, 200, 429]
            caches["default"].delete(f"throttle_client_{client.pk}")
        finally:
            caches["default"].close()


@pytest.fixture
def make_api_client(seeded_catalog):
    from api.models import ApiClient

    def make(rate: str):
        client = ApiClient(name=f"crm-{uuid.uuid4().hex[:8]}", scope="read", rate=rate)
        token = client.set_new_token()
        client.save()
        return client, token

    return make
