"""Fault and load tests against a real Redis broker and real Celery worker processes (not eager mode).

They need DATABASE_URL (PostgreSQL) and CELERY_BROKER_URL (Redis). Without them they skip with the reason,
unless the environment variable CI is set: then they fail, so CI can never pass by skipping them.

Workers run ``celery -A project worker -P solo`` with DATABASE_URL pointing at pytest-django's test
database and a dedicated Redis database (QUOTES_TEST_REDIS_DB, default 15), so a developer's own worker on the
default database never takes these tasks.
"""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from datetime import timedelta
from decimal import Decimal as D
from pathlib import Path
from urllib.parse import quote as urlquote
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.db import connection

from tests.factories import design

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def _missing_services() -> str | None:
    missing = [name for name in ("DATABASE_URL", "CELERY_BROKER_URL") if not os.environ.get(name)]
    if missing:
        return f"needs {' and '.join(missing)} (PostgreSQL and Redis) to run real Celery workers"
    if not os.environ["DATABASE_URL"].startswith(("postgres", "postgresql")):
        return "needs DATABASE_URL to point at PostgreSQL"
    if not os.environ["CELERY_BROKER_URL"].startswith("redis"):
        return "needs CELERY_BROKER_URL to point at Redis"
    return None


@pytest.fixture(autouse=True)
def _require_services():
    reason = _missing_services()
    if reason:
        if os.environ.get("CI"):
            pytest.fail(f"CI is set but the worker tests cannot run: {reason}")
        pytest.skip(reason)


def _broker_url() -> str:
    """A Redis database of its own (15, or 14, 13 … per pytest-xdist worker), flushed before each test."""
    db = int(os.environ.get("QUOTES_TEST_REDIS_DB", "15"))
    db -= int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw") or 0)
    parts = urlsplit(os.environ["CELERY_BROKER_URL"])
    return urlunsplit(parts._replace(path=f"/{db}"))


def _test_database_url() -> str:
    s = connection.settings_dict
    auth = urlquote(s["USER"] or "", safe="")
    if s.get("PASSWORD"):
        auth += ":" + urlquote(s["PASSWORD"], safe="")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


def _point_app_at(url: str) -> None:
    """Make this process's Celery app publish to ``url`` (drops pooled connections to the old broker)."""
    from project.celery import app

    # Celery's settings prefer the environment variable over the configured value.
    os.environ["CELERY_BROKER_URL"] = url
    app.conf.broker_url = url
    app.conf.broker_write_url = None
    from kombu import pools

    pools.reset()  # closes and forgets every pooled connection and producer
    app._pool = None
    app.amqp._producer_pool = None


class Workers:
    def __init__(self, media: Path, broker: str, log_dir: Path):
        self.media, self.broker, self.log_dir = media, broker, log_dir
        self.procs: list[subprocess.Popen] = []

    def _env(self, *, delay: float, stuck_after: int, lease: int | None) -> dict[str, str]:
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "project.settings.test",
            "DATABASE_URL": _test_database_url(),
            "CELERY_BROKER_URL": self.broker,
            "DJANGO_MEDIA_ROOT": str(self.media),
            "QUOTE_BUILD_DELAY_SECONDS": str(delay),
            "QUOTE_STUCK_AFTER_SECONDS": str(stuck_after),
            "DJANGO_LOG_LEVEL": "WARNING",
        }
        if lease is not None:
            env["QUOTE_BUILD_LEASE_SECONDS"] = str(lease)
        return env

    def start(
        self, *, delay: float = 0.0, stuck_after: int = 2, pool: str = "solo", lease: int | None = None
    ) -> subprocess.Popen:
        name = f"quotes-test-{len(self.procs)}-{uuid.uuid4().hex[:6]}"
        log = self.log_dir / f"{name}.log"
        env = self._env(delay=delay, stuck_after=stuck_after, lease=lease)
        args = [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "project",
            "worker",
            "-P",
            pool,
            "-l",
            "info",
            "-n",
            f"{name}@%h",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ]
        if pool == "prefork":
            args += ["-c", "1"]
        proc = subprocess.Popen(
            args, cwd=ROOT, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT, start_new_session=True
        )
        proc.log = log  # type: ignore[attr-defined]
        self.procs.append(proc)
        deadline = time.monotonic() + 60
        while b" ready." not in log.read_bytes():
            if proc.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"worker did not start:\n{log.read_text()[-3000:]}")
            time.sleep(0.2)
        return proc

    def start_beat(self, *, stuck_after: int) -> subprocess.Popen:
        """celery beat with the product's schedule (settings.CELERY_BEAT_SCHEDULE), sending to the test broker."""
        log = self.log_dir / f"beat-{uuid.uuid4().hex[:6]}.log"
        args = [sys.executable, "-m", "celery", "-A", "project", "beat", "-l", "info"]
        args += ["-s", str(self.log_dir / "celerybeat-schedule"), "--pidfile", ""]
        proc = subprocess.Popen(
            args,
            cwd=ROOT,
            env=self._env(delay=0, stuck_after=stuck_after, lease=None),
            stdout=log.open("wb"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        proc.log = log  # type: ignore[attr-defined]
        self.procs.append(proc)
        return proc

    def kill(self, proc: subprocess.Popen) -> None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)

    def stop_all(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in self.procs:
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(5)

    def logs(self) -> str:
        return "\n".join(f"--- {p.log.name}\n{p.log.read_text()[-2000:]}" for p in self.procs)  # type: ignore


@pytest.fixture
def workers(settings, tmp_path, seeded_catalog):
    import redis

    from project.celery import app

    media = tmp_path / "media"
    media.mkdir()
    settings.MEDIA_ROOT = str(media)
    settings.QUOTE_STUCK_AFTER = timedelta(seconds=2)
    broker = _broker_url()
    redis.Redis.from_url(broker).flushdb()  # the dedicated test database only
    saved = (app.conf.task_always_eager, os.environ["CELERY_BROKER_URL"])
    app.conf.task_always_eager = False
    _point_app_at(broker)
    pool = Workers(media, broker, tmp_path)
    try:
        yield pool
    finally:
        pool.stop_all()
        app.conf.task_always_eager = saved[0]
        _point_app_at(saved[1])


def wait_for(predicate, *, timeout: float, what: str, workers: Workers | None = None):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}\n{workers.logs() if workers else ''}")


def _quote_ready(pk: int):
    from quotes.models import Quote

    quote = Quote.objects.get(pk=pk)
    return quote if quote.doc_status in ("ready", "failed") else None


def _wait_until_building(pk: int, workers: Workers) -> None:
    """Until a slow worker (started with a build delay) has claimed the build and is inside it."""
    from quotes.models import Quote

    wait_for(
        lambda: Quote.objects.filter(pk=pk, doc_status="building", progress=10).exists(),
        timeout=60,
        what="the slow worker to claim the build",
        workers=workers,
    )


def _customer(n: int = 0) -> dict:
    return {"name": f"Customer {n}", "company": "Lab B.V.", "email": f"c{n}@example.nl", "country": "NL"}


def _configuration(document=None):
    from configurator.models import Configuration

    return Configuration.objects.create(document=document or design())


def test_happy_path_worker_builds_pdf_and_xlsx_from_the_snapshot(workers):
    from openpyxl import load_workbook
    from pypdf import PdfReader

    from catalog.models import Part
    from quotes.documents import frozen_lines, xlsx_columns
    from quotes.services import quote_documents_rebuild, quote_request

    workers.start()
    # A CRM request: issued at once at any size (a customer's 4-node request would wait for review).
    quote = quote_request(configuration=_configuration(design(4)), customer=_customer(), channel="api")
    quote = wait_for(lambda: _quote_ready(quote.pk), timeout=60, what="the quote documents", workers=workers)
    assert quote.doc_status == "ready", quote.failure_message

    pdf = quote.pdf.read()
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    for line in quote.frozen["lines"]:
        assert line["part_number"] in text

    columns = [k for k in xlsx_columns(quote.frozen) if k != "section"]

    def cell(value, key):
        if key in ("group", "part_number", "description"):
            return value or ""
        return value if value in (None, "on request") else D(str(value))

    def rows():
        sheet = load_workbook(io.BytesIO(quote.xlsx.open("rb").read())).worksheets[0]
        return [[cell(v, k) for v, k in zip(row[1:], columns)] for row in sheet.iter_rows(min_row=2, values_only=True)][
            :-1
        ]

    expected = [
        [
            cell("on request" if line[k] is None and k in ("unit_price", "list_total", "net") else line[k], k)
            for k in columns
        ]
        for line in frozen_lines(quote.frozen)
    ]
    assert rows() == expected

    # a catalogue price change after issue, then a rebuild by the worker: the same figures
    part = Part.objects.get(part_number="HGX-H200-8GPU")
    part.list_price_eur = D("1.00")
    part.save()
    quote_documents_rebuild(quote=quote)
    quote = wait_for(lambda: _quote_ready(quote.pk), timeout=60, what="the rebuild", workers=workers)
    assert rows() == expected and quote.build_attempts == 2


def test_worker_killed_mid_build_documents_are_ready_within_a_minute(workers, settings):
    """kill -9 of the building worker: its lease (QUOTE_BUILD_LEASE, renewed while it builds) runs out, beat's
    periodic requeue sends the build again and a second worker finishes it once, well before the 300 s
    QUOTE_STUCK_AFTER. Every setting is the production default (the lease, the beat schedule, the stuck timeout)."""
    from quotes.models import Quote, QuoteCounter
    from quotes.services import quote_request

    stuck_after = 300  # the default: recovery must not wait for it
    settings.QUOTE_STUCK_AFTER = timedelta(seconds=stuck_after)
    slow = workers.start(delay=120, stuck_after=stuck_after)
    quote = quote_request(configuration=_configuration(), customer=_customer())
    _wait_until_building(quote.pk, workers)
    workers.kill(slow)  # SIGKILL mid-build: the message is unacked, the row stays "building"
    killed = time.monotonic()

    workers.start(stuck_after=stuck_after)
    workers.start_beat(stuck_after=stuck_after)
    quote = wait_for(lambda: _quote_ready(quote.pk), timeout=75, what="the second worker", workers=workers)
    recovered = time.monotonic() - killed
    print(f"documents ready {recovered:.1f} s after kill -9 of the building worker")

    assert quote.doc_status == "ready" and quote.build_attempts == 2
    assert recovered < 60, workers.logs()
    assert Quote.objects.count() == 1 and QuoteCounter.objects.get().last == 1
    files = sorted(p.name for p in (workers.media / "quotes" / quote.token).iterdir())
    assert files == [f"{quote.number}-bom.xlsx", f"{quote.number}.pdf"]


def test_a_live_worker_keeps_its_lease_past_its_length_and_builds_once(workers, settings):
    """A build longer than the lease is not taken from a worker that is alive: it renews the lease while it
    builds, so the requeue finds nothing to send and the documents are built once."""
    from quotes.services import quote_request, quotes_requeue_stuck

    settings.QUOTE_BUILD_LEASE = timedelta(seconds=3)
    workers.start(delay=10, lease=3)  # builds for 10 s: three leases and more
    quote = quote_request(configuration=_configuration(), customer=_customer())
    _wait_until_building(quote.pk, workers)
    workers.start(lease=3)  # idle, ready to take a requeued build
    requeued, deadline = [], time.monotonic() + 60
    while _quote_ready(quote.pk) is None and time.monotonic() < deadline:
        requeued += quotes_requeue_stuck()
        time.sleep(0.5)
    quote = wait_for(lambda: _quote_ready(quote.pk), timeout=60, what="the slow worker", workers=workers)
    assert quote.doc_status == "ready" and quote.build_attempts == 1 and requeued == []


def test_broker_down_at_request_is_recorded_and_built_once_the_broker_is_back(workers):
    from quotes.models import Quote
    from quotes.services import quote_request, quotes_requeue_stuck

    _point_app_at("redis://127.0.0.1:1/0")  # nothing listens on port 1
    started = time.monotonic()
    quote = quote_request(configuration=_configuration(), customer=_customer())
    assert time.monotonic() - started < 30
    quote.refresh_from_db()
    assert (quote.status, quote.doc_status) == ("issued", "pending")  # recorded, waiting

    _point_app_at(workers.broker)
    workers.start()
    assert quotes_requeue_stuck(older_than=timedelta(0)) == [quote.pk]
    quote = wait_for(lambda: _quote_ready(quote.pk), timeout=60, what="the requeued build", workers=workers)
    assert quote.doc_status == "ready" and quote.build_attempts == 1
    assert Quote.objects.count() == 1


def test_fifty_concurrent_requests_get_fifty_numbers_and_fifty_ready_quotes(workers):
    """Fifty threads request quotes at once (each in its own PostgreSQL transaction); two workers build them."""
    from django.db import connections

    from quotes.models import Quote
    from quotes.services import quote_request

    configurations = [_configuration() for _ in range(50)]
    barrier = threading.Barrier(50)
    numbers, errors = [], []

    def request(n: int) -> None:
        try:
            barrier.wait(30)
            numbers.append(quote_request(configuration=configurations[n], customer=_customer(n)).number)
        except Exception as exc:  # collected and reported below
            errors.append(repr(exc))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=request, args=(n,)) for n in range(50)]
    workers.start()
    workers.start()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert not errors, errors[:3]
    assert len(numbers) == 50 and len(set(numbers)) == 50
    year = numbers[0][2:6]
    assert sorted(numbers) == [f"Q-{year}-{n:05d}" for n in range(1, 51)]
    wait_for(
        lambda: Quote.objects.filter(doc_status="ready").count() == 50,
        timeout=240,
        what="50 ready quotes",
        workers=workers,
    )
    assert not Quote.objects.exclude(doc_status="ready").exists()


@pytest.mark.parametrize("channel", ["web", "api"])
def test_two_concurrent_requests_for_one_configuration_make_one_quote(seeded_catalog, monkeypatch, channel):
    """A double click: two threads (two PostgreSQL transactions) request a quote for one configuration at once.
    The configuration row lock queues the second behind the first, which then sees the first quote: a customer's
    online request gets that quote back (quotes.policy), a CRM's is refused.
    (No worker needed: the design waits for review, so nothing is enqueued.)"""
    from django.db import connections

    from quotes import services
    from quotes.models import Quote, QuoteCounter
    from quotes.services import requesting
    from tests.factories import WARNING_DESIGN

    configuration = _configuration(WARNING_DESIGN)
    real_next = requesting.next_base_number

    def slow_next_base_number():
        time.sleep(0.5)  # widen the window between the duplicate check and the insert
        return real_next()

    monkeypatch.setattr(requesting, "next_base_number", slow_next_base_number)
    barrier = threading.Barrier(2)
    numbers, refused, errors = [], [], []

    def request() -> None:
        try:
            barrier.wait(30)
            quote = services.quote_request(configuration=configuration, customer=_customer(), channel=channel)
            numbers.append(quote.number)
        except services.QuoteError as exc:
            refused.append(exc.errors)
        except Exception as exc:  # reported below
            errors.append(repr(exc))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=request) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors, errors
    if channel == "web":
        assert len(numbers) == 2 and len(set(numbers)) == 1 and not refused, (numbers, refused)
    else:
        assert len(numbers) == 1 and len(refused) == 1 and "quote" in refused[0], (numbers, refused)
    assert Quote.objects.count() == 1 and QuoteCounter.objects.get().last == 1
