"""Benchmark of quote documents: PDF build time against WeasyPrint's floor, a burst of requests, and throughput.

    .venv/bin/python bench/quotes.py
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test CELERY_BROKER_URL=redis://127.0.0.1:6379/5 \
        .venv/bin/python bench/quotes.py

* PDF: the median build of a 1-node, 128-node and 2,048-node quote (and of the same PDF without its pictures: the
  topology diagram, rack elevation and slot maps), beside the floor: the time WeasyPrint needs
  for a one-page table (FLOOR_ROWS rows of a name and an amount, in the offer's font), measured in the same
  run, in a process prepared as a worker prepares itself (quotes.tasks.warm_worker). Target (issue 23, item 7): the
  2,048-node PDF within 5x the floor. Wall time and this process's CPU time (the machine may be shared: the CPU
  time ratio is the steadier figure).
* Burst: BURST concurrent quote requests (one configuration each, as many CRM clients at once) with 2 worker
  processes running; request-to-documents is from the call of quote_request to the quote's documents being ready.
  Target: p95 <= 5 s for 50 requests. The workers' CPU time per quote gives the p95 the burst would have with a
  free core per worker, beside the measured one.
* Throughput: 100 quotes queued before 2 workers start. Target >= 60 quotes per minute.

BENCH_BURST (50), BENCH_BURST_NODES (1,128; empty skips the bursts; a CRM request for the 2,048-node design waits
for review, its warnings not yet accepted, so it has no documents to time) and BENCH_THROUGHPUT (100; 0 skips) size it.

Figures on two shared CPUs. With the offer laid out by WeasyPrint: floor 0.043 s; 1 node 6.2x, 128 nodes 9.0x,
2,048 nodes 9.8x the floor; burst of 50 x 1 node p95 8.6 s. With the offer laid out by ReportLab (quotes/offerpdf/)
and its pictures drawn straight into the page (outputs/svgpdf/): floor 0.025 s; 1 node 0.036 s = 1.4x, 128 nodes
0.050 s = 2.0x, 2,048 nodes 0.060 s = 2.4x; bursts of 50 x 1 node p95 2.8 s and 50 x 128 nodes p95 3.3 s (0.06 and
0.08 s of worker CPU a quote); throughput 1,500 quotes a minute.

Runs in a throw-away test database (like the test suite), seeded with the catalogue. The burst and throughput parts
need PostgreSQL (the workers are separate processes) and CELERY_BROKER_URL (Redis, a database of its own: it is
flushed; without a database number in the URL, or with 0, database 15 is used).
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from urllib.parse import quote as urlquote
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "project.settings.test")
MEDIA = Path(tempfile.mkdtemp(prefix="quotes-bench-"))
os.environ["DJANGO_MEDIA_ROOT"] = str(MEDIA)

import django  # noqa: E402
from _designs import design  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

BURST = int(os.environ.get("BENCH_BURST", "50"))
THROUGHPUT = int(os.environ.get("BENCH_THROUGHPUT", "100"))  # quotes; 0 skips
BURST_NODES = tuple(int(n) for n in os.environ.get("BENCH_BURST_NODES", "1,128").split(",") if n)
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


FLOOR_ROWS = 20


def floor_html() -> str:
    """The floor of issue 23: one page holding a small table (FLOOR_ROWS rows of a name and an amount), in the
    offer's font. Against it the quote PDFs measured 13x (1 node) to 37x (2,048 nodes) before the pictures' labels
    were laid out whole."""
    rows = "".join(f"<tr><td>row {i}</td><td>{i * 3.14:.2f}</td></tr>" for i in range(FLOOR_ROWS))
    return (
        "<!doctype html><html><head><meta charset='utf-8'><style>"
        'html { font-family: "DejaVu Sans", sans-serif; font-size: 8.5pt }</style></head><body>'
        f"<table>{rows}</table></body></html>"
    )


def timed(build, runs: int = 5) -> tuple[float, float, int]:
    """Median wall and CPU seconds of ``build()`` after one warm-up call (a worker is warm after its first quote),
    and the size of what it returned."""
    build()
    walls, cpus, size = [], [], 0
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        size = len(build())
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus), size


def text_runs(pdf: bytes) -> int:
    """How many text-showing operations (Tj, TJ: a line of a paragraph, a cell, a picture label) the PDF's pages
    hold: the text laid out on the pages and in the pictures."""
    import io
    import re

    from pypdf import PdfReader

    return sum(
        len(re.findall(rb"(?:\)|\])\s*T[jJ]\b", page.get_contents().get_data()))
        for page in PdfReader(io.BytesIO(pdf)).pages
        if page.get_contents() is not None
    )


def time_pdf(frozen: dict, runs: int = 5) -> tuple[float, float, int]:
    from quotes.documents import render_pdf

    return timed(lambda: render_pdf(frozen), runs)


def time_pdf_without_pictures(frozen: dict, runs: int = 5) -> tuple[float, float, int]:
    """The same PDF with its pictures left out: what the offer's text, tables and pages cost on their own."""
    from outputs.services import picture_set
    from quotes import documents

    def no_pictures(validation: dict, language: str) -> dict:
        racks = picture_set(fabric_plan=None, rack_plan=validation.get("rack_plan"), placement=None, language=language)
        return {"topology": None, "slot_maps": [], "elevations": [], "rack_count": racks.rack_count()}

    saved = documents._pictures
    documents._pictures = no_pictures
    try:
        return timed(lambda: documents.render_pdf(frozen), runs)
    finally:
        documents._pictures = saved


def time_floor(runs: int = 5) -> tuple[float, float]:
    import logging

    # a line per layout step otherwise, from its first import (its own stylesheets) on
    logging.getLogger("weasyprint.progress").setLevel(logging.WARNING)
    from weasyprint import HTML

    html = floor_html()
    wall, cpu, _ = timed(lambda: HTML(string=html).write_pdf(), runs)
    return wall, cpu, text_runs(HTML(string=html).write_pdf())


def workers_unavailable() -> str:
    if not os.environ.get("CELERY_BROKER_URL"):
        return "skipped: set CELERY_BROKER_URL (Redis)"
    if connection.vendor != "postgresql":
        return "skipped: needs DATABASE_URL pointing at PostgreSQL (workers are separate processes)"
    return ""


def use_broker() -> str:
    """Send tasks to the bench's own Redis database (flushed): the URL's, or 15 when it names none or 0."""
    import redis
    from kombu import pools

    from project.celery import app

    url = urlsplit(os.environ["CELERY_BROKER_URL"])
    broker = urlunsplit(url._replace(path="/15")) if url.path.strip("/") in ("", "0") else urlunsplit(url)
    redis.Redis.from_url(broker).flushdb()
    if app.conf.broker_url != broker or app.conf.task_always_eager:  # once: later calls keep the pools in use
        os.environ["CELERY_BROKER_URL"] = broker  # Celery prefers the environment over its settings
        app.conf.broker_url, app.conf.task_always_eager = broker, False
        app.conf.broker_pool_limit = None  # a burst's requests each take a producer at once, as web processes do
        pools.reset()
        app._pool = None
        app.amqp._producer_pool = None
    return broker


def start_workers(broker: str, workers: int) -> list[subprocess.Popen]:
    s = connection.settings_dict
    auth = urlquote(s["USER"] or "", safe="") + (":" + urlquote(s["PASSWORD"], safe="") if s["PASSWORD"] else "")
    database_url = f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"
    env = {**os.environ, "DATABASE_URL": database_url, "CELERY_BROKER_URL": broker, "DJANGO_LOG_LEVEL": "WARNING"}
    return [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "project",
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


def wait_workers(workers: int, seconds: float = 120) -> None:
    from project.celery import app

    deadline = time.monotonic() + seconds
    while len(app.control.ping(timeout=1.0) or []) < workers and time.monotonic() < deadline:
        time.sleep(0.5)


def cpu_seconds(procs: list[subprocess.Popen]) -> float | None:
    """CPU time the worker processes have used so far (Linux /proc), or None where it cannot be read."""
    try:
        total = 0
        for proc in procs:
            with open(f"/proc/{proc.pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime
        return total / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def stop_workers(procs: list[subprocess.Popen]) -> None:
    for proc in procs:
        proc.terminate()
    for proc in procs:
        proc.wait(30)


def wait_ready(quotes, n: int, seconds: float = 600) -> str:
    deadline = time.monotonic() + seconds
    while (ready := quotes.filter(doc_status="ready").count()) < n:
        if time.monotonic() > deadline:
            return f"timed out: {ready} of {n} ready"
        time.sleep(0.2)
    return ""


def burst(count: int, n: int = 50, workers: int = 2) -> str:
    """``n`` quote requests at once (a configuration each) with ``workers`` workers already waiting: the
    request-to-documents time of each, as percentiles."""
    from django.db import connections
    from django.utils import timezone

    from configurator.models import Configuration
    from quotes.models import Quote
    from quotes.services import quote_request

    if why := workers_unavailable():
        return why
    procs = start_workers(use_broker(), workers)
    try:
        configurations = [Configuration.objects.create(document=design(count)) for _ in range(n)]
        wait_workers(workers)  # started (imports, connections) before the burst, as running workers would be
        cpu_before = cpu_seconds(procs)
        started: dict[int, tuple[object, object]] = {}
        errors: list[str] = []
        go = threading.Barrier(n)

        def request(i: int) -> None:
            go.wait()
            try:
                at = timezone.now()
                quote = quote_request(
                    configuration=configurations[i],
                    customer=CUSTOMER,
                    channel="api",
                    crm_reference=f"burst-{count}-{i}",
                )
                started[quote.pk] = (at, timezone.now())
            except Exception as exc:  # noqa: BLE001 - reported below
                errors.append(f"{type(exc).__name__}: {exc}")
            finally:
                connections.close_all()

        threads = [threading.Thread(target=request, args=(i,)) for i in range(n)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        if errors:
            return f"{len(errors)} of {n} requests failed, e.g. {errors[0]}"
        quotes = Quote.objects.filter(pk__in=started)
        if waiting := quotes.filter(issued_at__isnull=True).count():
            return f"{waiting} of {n} requests wait for a sales engineer's review (warnings): no documents to time"
        if why := wait_ready(quotes, n):
            return why
        cpu_after = cpu_seconds(procs)
    finally:
        stop_workers(procs)
    per_quote = (cpu_after - cpu_before) / n if cpu_before is not None and cpu_after is not None else None
    # With a core each and nothing else running, the 95th percentile quote is ready after its worker built its
    # share of the first 95 % of the burst.
    alone = (
        f"; workers' CPU {per_quote:.2f} s per quote, so p95 ≈ {per_quote * round(0.95 * n) / workers:.1f} s "
        f"with {workers} free cores"
        if per_quote
        else ""
    )
    seconds = sorted((q.updated_at - started[q.pk][0]).total_seconds() for q in quotes)
    answered = max(done for _, done in started.values()) - min(at for at, _ in started.values())
    p50, p95 = statistics.median(seconds), seconds[max(0, round(0.95 * n) - 1)]
    return (
        f"{n} concurrent {count}-node requests, {workers} workers: all answered in {answered.total_seconds():.1f} s; "
        f"request-to-documents p50 {p50:.1f} s, p95 {p95:.1f} s, max {seconds[-1]:.1f} s (target p95 ≤ 5 s){alone}"
    )


def throughput(n: int = 100, workers: int = 2) -> str:
    from django.db.models import Max, Min

    from configurator.models import Configuration
    from quotes.models import Quote
    from quotes.services import quote_request

    if why := workers_unavailable():
        return why
    broker = use_broker()
    configuration = Configuration.objects.create(document=design(4))
    for i in range(n):  # queued before any worker runs; distinct requests (see above)
        quote_request(configuration=configuration, customer=CUSTOMER, channel="api", crm_reference=f"bench-{i}")
    procs = start_workers(broker, workers)
    try:
        if why := wait_ready(Quote.objects.filter(crm_reference__startswith="bench-"), n):
            return why
    finally:
        stop_workers(procs)
    span = Quote.objects.filter(crm_reference__startswith="bench-").aggregate(
        first=Min("claimed_at"), last=Max("updated_at")
    )
    seconds = (span["last"] - span["first"]).total_seconds()
    return f"{n} quotes in {seconds:.1f} s with {workers} workers = {n / seconds * 60:.0f} quotes/min (target ≥ 60)"


def main() -> None:
    from catalog.services import catalog_load_seed
    from quotes import tasks

    setup_test_environment()
    if connection.vendor == "postgresql":  # never clobber the test suite's test_<name> database
        connection.settings_dict.setdefault("TEST", {})["NAME"] = f"test_quotes_bench_{os.getpid()}"
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        catalog_load_seed()
        if hasattr(tasks, "warm_worker"):
            tasks.warm_worker()  # as a worker is at its first quote: ReportLab loaded, the start-up heap frozen
        floor_wall, floor_cpu, floor_runs = time_floor()
        print(
            f"Floor, WeasyPrint one-page table ({FLOOR_ROWS} rows, {floor_runs} text runs): {floor_wall:.3f} s wall, "
            f"{floor_cpu:.3f} s CPU (median of 5)"
        )
        for count in (1, 128, 2048):
            from quotes.documents import render_pdf

            quote = new_quote(count)
            wall, cpu, size = time_pdf(quote.frozen)
            runs = text_runs(render_pdf(quote.frozen))
            target = " (target ≤ 5x)" if count == 2048 else ""
            print(
                f"PDF, {count:>4}-node quote ({len(quote.frozen['lines'])} lines, {size / 1024:.0f} KiB, {runs} text "
                f"runs = {runs / floor_runs:.1f}x floor): {wall:.3f} s wall = {wall / floor_wall:.1f}x floor, "
                f"{cpu:.3f} s CPU = {cpu / floor_cpu:.1f}x floor{target}"
            )
            bare_wall, bare_cpu, _ = time_pdf_without_pictures(quote.frozen)
            print(
                f"     without its pictures: {bare_wall:.3f} s wall = {bare_wall / floor_wall:.1f}x floor, "
                f"{bare_cpu:.3f} s CPU = {bare_cpu / floor_cpu:.1f}x floor"
            )
        for count in BURST_NODES:
            print("Burst:", burst(count, BURST))
        if THROUGHPUT:
            print("Throughput:", throughput(THROUGHPUT))
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
        shutil.rmtree(MEDIA, ignore_errors=True)


if __name__ == "__main__":
    main()
