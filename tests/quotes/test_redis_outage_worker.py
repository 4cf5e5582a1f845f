"""Redis goes away for 30 s in the middle of a document build, stopped (gone, and back empty) or frozen (SIGSTOP:
connections accepted, nothing answered), with a real worker, beat, PostgreSQL and this test's own redis-server as
broker and cache. The worker survives it; the API answers 503 with Retry-After (never 500) and /healthz answers
within 2 s while Redis is away; the quote being built, one requested during the outage and one requested after it
each end with one number and one set of documents, all ready within 60 s of Redis coming back, without a person.

Needs DATABASE_URL (PostgreSQL) like the other worker tests; the shared Redis is never touched.
"""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.test import Client

from tests.factories import design
from tests.quotes.test_quotes_worker import (
    Workers,
    _customer,
    _point_app_at,
    _quote_ready,
    _require_services,  # noqa: F401  (autouse: PostgreSQL and a broker URL, or skip / fail under CI)
    _wait_until_building,
    wait_for,
)
from tests.redis_server import private_redis  # noqa: F401  (fixture)

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

OUTAGE_SECONDS = 30


class CacheSharingWorkers(Workers):
    """Workers and beat whose cache is the broker's Redis, as .env.example sets production up."""

    def __init__(self, *args, cache_url: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.cache_url = cache_url

    def _env(self, **kwargs) -> dict[str, str]:
        return {**super()._env(**kwargs), "CACHE_URL": self.cache_url, "CELERY_TASK_ALWAYS_EAGER": "false"}


@pytest.fixture
def outage_workers(settings, tmp_path, seeded_catalog, private_redis):  # noqa: F811
    from project.celery import app

    media = tmp_path / "media"
    media.mkdir()
    settings.MEDIA_ROOT = str(media)
    settings.QUOTE_STUCK_AFTER = timedelta(seconds=300)  # the production default: recovery must not wait for it
    settings.CACHES = {
        "default": {
            "BACKEND": "project.cache.SharedClientRedisCache",
            "LOCATION": private_redis.url(1),
            "OPTIONS": {"socket_connect_timeout": 1.0, "socket_timeout": 1.0},
        }
    }
    settings.CELERY_BROKER_URL = private_redis.url(0)
    saved = app.conf.task_always_eager
    import os

    saved_url = os.environ["CELERY_BROKER_URL"]
    app.conf.task_always_eager = False
    _point_app_at(private_redis.url(0))
    pool = CacheSharingWorkers(media, private_redis.url(0), tmp_path, cache_url=private_redis.url(1))
    try:
        yield pool
    finally:
        pool.stop_all()
        app.conf.task_always_eager = saved
        _point_app_at(saved_url)


def _api():
    from rest_framework.test import APIClient

    from api.models import ApiClient

    client = ApiClient(name="crm", scope="quote")
    token = client.set_new_token()
    client.save()
    http = APIClient(raise_request_exception=False)
    http.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return http


def _request_by_api(http, n: int) -> int:
    response = http.post("/api/v1/quotes/", {"design": design(), "customer": _customer(n)}, format="json")
    assert response.status_code == 202, response.content[:500]
    return response.json()["id"]


@pytest.mark.parametrize("outage", ["stopped", "frozen"])
def test_redis_away_for_30_s_mid_build_every_quote_gets_its_documents_within_a_minute(
    outage_workers,
    private_redis,  # noqa: F811
    outage,
):
    from quotes.models import Quote, QuoteCounter
    from quotes.services import quote_request

    workers = outage_workers
    worker = workers.start(delay=8, pool="prefork", stuck_after=300)  # as production runs it: prefork, default lease
    workers.start_beat(stuck_after=300)
    http = _api()
    building = _request_by_api(http, 0)
    _wait_until_building(building, workers)

    private_redis.freeze() if outage == "frozen" else private_redis.stop()
    answers: list[int] = []
    slowest_health = 0.0
    during = None
    cut = time.monotonic()
    while time.monotonic() - cut < OUTAGE_SECONDS:
        answers.append(http.get(f"/api/v1/quotes/{building}/").status_code)
        answers.append(
            http.post("/api/v1/quotes/", {"design": design(), "customer": _customer(9)}, format="json").status_code
        )
        started = time.monotonic()
        answers.append(Client(raise_request_exception=False).get("/healthz").status_code)
        slowest_health = max(slowest_health, time.monotonic() - started)
        if during is None and time.monotonic() - cut > 5:
            # A door whose cache is elsewhere (a sales engineer's request): recorded while the broker is away.
            during = quote_request(configuration=_configuration(), customer=_customer(1), channel="api").pk
        time.sleep(1)
    private_redis.thaw() if outage == "frozen" else private_redis.start()
    back = time.monotonic()
    after = _request_by_api(http, 2)

    for pk in (building, during, after):
        quote = wait_for(
            lambda pk=pk: _quote_ready(pk), timeout=75, what=f"the documents of quote {pk}", workers=workers
        )
        assert quote.doc_status == "ready", quote.failure_message
    recovered = time.monotonic() - back
    print(f"Redis {outage} {OUTAGE_SECONDS} s: every document ready {recovered:.1f} s after it came back")

    assert worker.poll() is None, workers.logs()  # the worker survived the outage
    assert recovered < 60, workers.logs()
    assert 500 not in answers and set(answers) <= {200, 503}, answers
    assert answers.count(503) >= OUTAGE_SECONDS // 2  # the API and /healthz said so while Redis was away
    assert slowest_health < 2.0
    quotes = list(Quote.objects.order_by("pk"))
    assert [q.pk for q in quotes] == [building, during, after]
    assert len({q.number for q in quotes}) == 3 and QuoteCounter.objects.get().last == 3
    for quote in quotes:
        files = sorted(p.name for p in (workers.media / "quotes" / quote.token).iterdir())
        assert files == [f"{quote.number}-bom.xlsx", f"{quote.number}.pdf"]


def _configuration():
    from configurator.models import Configuration

    return Configuration.objects.create(document=design())
