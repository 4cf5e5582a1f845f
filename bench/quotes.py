"""Benchmark of quote documents: PDF build time (1 node, 128-node cluster) and worker throughput.

    .venv/bin/python bench/quotes.py
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test CELERY_BROKER_URL=redis://127.0.0.1:6379/0 \
        .venv/bin/python bench/quotes.py

Targets: PDF ≤ 0.5 s (1 node), ≤ 2 s (128 nodes); ≥ 60 quotes per minute with 2 worker processes.
Runs in a throw-away test database (like the test suite), seeded with the catalogue. The throughput part needs
PostgreSQL (the workers are separate processes) and CELERY_BROKER_URL (Redis; a dedicated database, 15).
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from urllib.parse import quote as urlquote
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "configurator.settings.test")
MEDIA = Path(tempfile.mkdtemp(prefix="quotes-bench-"))
os.environ["DJANGO_MEDIA_ROOT"] = str(MEDIA)

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402


def design(count: int) -> dict:
    return {
        "schema": "design/v1",
        "name": f"{count} x HGX H200",
        "node_groups": [
            {
                "name": "gpu",
                "count": count,
                "server": "SYS-821GE-TNHR",
                "components": [
                    {"part": "HGX-H200-8GPU", "quantity": 1},
                    {"part": "MCX75310AAS-NEAT", "quantity": 8, "role": "compute"},
                ],
            }
        ],
        "fabric": {"switch": "MQM9700-NS2F"} if count > 1 else None,
    }


CUSTOMER = {"name": "Bench", "company": "Bench B.V.", "email": "bench@example.nl", "country": "NL"}


def new_quote(count: int):
    from configurator.models import Configuration
    from quotes import services

    configuration = Configuration.objects.create(document=design(count))
    real, services.issuing.enqueue_build = services.issuing.enqueue_build, lambda pk: False  # no build here
    try:
        # A CRM request (issued at once at any size; a customer's online request above the instant-quote limit would
        # wait for review), with a distinct CRM reference per run: the same request twice within seconds is refused.
        return services.quote_request(
            configuration=configuration, customer=CUSTOMER, channel="api", crm_reference=uuid.uuid4().hex
        )
    finally:
        services.issuing.enqueue_build = real


def time_pdf(frozen: dict, runs: int = 5) -> tuple[float, int]:
    from quotes.documents import render_pdf

    render_pdf(frozen)  # warm: fonts, templates, imports (a worker is warm after its first quote)
    timings, size = [], 0
    for _ in range(runs):
        start = time.perf_counter()
        size = len(render_pdf(frozen))
        timings.append(time.perf_counter() - start)
    return statistics.median(timings), size


def throughput(n: int = 100, workers: int = 2) -> str:
    from django.db.models import Max, Min

    from configurator.celery import app
    from configurator.models import Configuration
    from quotes.models import Quote
    from quotes.services import quote_request

    if not os.environ.get("CELERY_BROKER_URL"):
        return "skipped: set CELERY_BROKER_URL (Redis)"
    if connection.vendor != "postgresql":
        return "skipped: needs DATABASE_URL pointing at PostgreSQL (workers are separate processes)"
    import redis
    from kombu import pools

    broker = urlunsplit(urlsplit(os.environ["CELERY_BROKER_URL"])._replace(path="/15"))
    redis.Redis.from_url(broker).flushdb()
    os.environ["CELERY_BROKER_URL"] = broker  # Celery prefers the environment over its settings
    app.conf.broker_url, app.conf.task_always_eager = broker, False
    pools.reset()
    app._pool = None
    app.amqp._producer_pool = None

    configuration = Configuration.objects.create(document=design(4))
    for i in range(n):  # queued before any worker runs; distinct requests (see above)
        quote_request(configuration=configuration, customer=CUSTOMER, channel="api", crm_reference=f"bench-{i}")
    s = connection.settings_dict
    auth = urlquote(s["USER"] or "", safe="") + (":" + urlquote(s["PASSWORD"], safe="") if s["PASSWORD"] else "")
    database_url = f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"
    env = {**os.environ, "DATABASE_URL": database_url, "CELERY_BROKER_URL": broker, "DJANGO_LOG_LEVEL": "WARNING"}
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "configurator",
                "worker",
                "-P",
                "solo",
                "-l",
                "warning",
                "-n",
                f"bench{i}@%h",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        for i in range(workers)
    ]
    try:
        deadline = time.monotonic() + 600
        while Quote.objects.filter(doc_status="ready").count() < n:
            if time.monotonic() > deadline:
                return f"timed out: {Quote.objects.filter(doc_status='ready').count()} of {n} ready"
            time.sleep(0.5)
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(30)
    span = Quote.objects.aggregate(first=Min("claimed_at"), last=Max("updated_at"))
    seconds = (span["last"] - span["first"]).total_seconds()
    return f"{n} quotes in {seconds:.1f} s with {workers} workers = {n / seconds * 60:.0f} quotes/min (target ≥ 60)"


def main() -> None:
    from catalog.services import catalog_load_seed

    setup_test_environment()
    if connection.vendor == "postgresql":  # never clobber the test suite's test_<name> database
        connection.settings_dict.setdefault("TEST", {})["NAME"] = f"test_quotes_bench_{os.getpid()}"
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        catalog_load_seed()
        for count, target in ((1, 0.5), (128, 2.0)):
            quote = new_quote(count)
            seconds, size = time_pdf(quote.frozen)
            print(
                f"PDF, {count:>3}-node quote ({len(quote.frozen['lines'])} lines, {size / 1024:.0f} KiB): "
                f"{seconds:.3f} s median of 5 (target ≤ {target} s)"
            )
        print("Throughput:", throughput())
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
        shutil.rmtree(MEDIA, ignore_errors=True)


if __name__ == "__main__":
    main()
