"""A page of 50 quotes of 100,000 nodes against a page of 50 single-node quotes: time and memory.

    .venv/bin/python bench/quote_pages.py [--runs 30]

The WSGI application called in-process (production settings, its own PostgreSQL database ``bench_quote_pages``,
Redis as the cache when it answers). A client of scope ``quote`` requests two quotes through the API: one of a
single node (SYS-821GE-TNHR with HGX-H200-8GPU, no fabric) and one of a valid 100,000-node design (one
MCX75310AAS-NEAT per node on an SN5600 fabric: 51,693 racks); each is then stored 49 times more under other
numbers (the same row, snapshot included), so each CRM reference names 50 quotes. Then, alternating, ``--runs``
times each: GET /api/v1/quotes/?crm_reference=...&page_size=50, the median wall and CPU time of each page; and
once each, the Python memory a page allocates at its peak (tracemalloc) and this process's resident set growth.

Target: the 100,000-node page at most 3x the single-node page (wall and CPU time), with under 50 MB more memory.
A list reads the quotes' columns, never their frozen snapshots (quotes.selectors, api.views.quotes), so the two
pages should cost the same; the snapshot sizes are printed beside them.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import time
import tracemalloc

from _server import ROOT, create_database, drop_database, env_for, manage, migrate_and_seed, server_url, with_db

sys.path.insert(0, str(ROOT))  # the project's ``api`` and ``quotes`` packages, not bench/api.py and bench/quotes.py

from validate_floor import CUSTOMER, design, large_design, wsgi_caller  # noqa: E402

DB_NAME = os.environ.get("BENCH_DB_NAME", "bench_quote_pages")
COPIES = 49
TARGET_RATIO, TARGET_MORE_MB = 3.0, 50.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--keep", action="store_true", help="keep the bench database afterwards")
    args = parser.parse_args()
    url = server_url()
    env = env_for(with_db(url, DB_NAME), API_THROTTLE_RATE="100000000/min", API_THROTTLE_WRITE_RATE="100000000/min")
    create_database(url, DB_NAME)
    try:
        migrate_and_seed(env)
        token = manage(env, "create_api_client", "bench-crm", "--scope", "quote").strip()
        os.environ.update(env)
        return measure(args, token)
    finally:
        from django.db import connections

        connections.close_all()
        if not args.keep:
            drop_database(url, DB_NAME)


def single_design() -> dict:
    doc = design(1)
    doc.pop("fabric")
    return doc


def request_quotes(call, auth: dict[str, str], reference: str, document: dict) -> int:
    """One quote of ``document`` through the API and COPIES more rows of it; the snapshot's size in bytes."""
    from quotes.models import Quote

    body = json.dumps({"design": document, "customer": CUSTOMER, "crm_reference": reference}).encode()
    status, content = call("POST", "/api/v1/quotes/", body, **auth)
    if not status.startswith("202"):
        raise SystemExit(f"requesting a quote: {status} {content[:300]!r}")
    quote = Quote.objects.get(pk=json.loads(content)["id"])
    copies = []
    for i in range(COPIES):
        row = Quote.objects.get(pk=quote.pk)
        row.pk = row.id = None
        row.number, row.base_number = f"{quote.number}-C{i:02d}", f"{quote.base_number}-C{i:02d}"
        row.token, row.download_id = f"{quote.token[:40]}-{i}", f"{quote.download_id[:20]}-{i}"
        copies.append(row)
    Quote.objects.bulk_create(copies)
    return len(json.dumps(quote.frozen))


def measure(args, token: str) -> int:
    import gc

    from django.core.wsgi import get_wsgi_application

    call = wsgi_caller(get_wsgi_application())
    from django.conf import settings

    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"  # the quotes' e-mails, kept quiet
    auth = {"HTTP_AUTHORIZATION": f"Bearer {token}", "CONTENT_TYPE": "application/json"}
    sizes = {
        "single": request_quotes(call, auth, "single", single_design()),
        "100000": request_quotes(call, auth, "100000", large_design()),
    }
    gc.collect()
    gc.freeze()  # as a web worker's start-up heap (gunicorn.conf.py)

    def page(reference: str) -> None:
        status, content = call("GET", "/api/v1/quotes/", query=f"crm_reference={reference}&page_size=50", **auth)
        if not status.startswith("200") or json.loads(content)["count"] != COPIES + 1:
            raise SystemExit(f"page {reference}: {status} {content[:200]!r}")

    for reference in sizes:
        for _ in range(3):
            page(reference)
    wall: dict[str, list[float]] = {ref: [] for ref in sizes}
    cpu: dict[str, list[float]] = {ref: [] for ref in sizes}
    for _ in range(args.runs):
        for reference in sizes:
            started, started_cpu = time.perf_counter(), time.process_time()
            page(reference)
            wall[reference].append((time.perf_counter() - started) * 1000)
            cpu[reference].append((time.process_time() - started_cpu) * 1000)
    peak: dict[str, float] = {}
    rss: dict[str, float] = {}
    for reference in sizes:
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        tracemalloc.start()
        page(reference)
        peak[reference] = tracemalloc.get_traced_memory()[1] / 1e6
        tracemalloc.stop()
        rss[reference] = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1000
    print(f"GET /api/v1/quotes/?page_size=50, 50 quotes a page, in-process, medians of {args.runs} (ms)")
    print(f"{'quotes of':<16}{'snapshot kB':>12}{'wall':>8}{'CPU':>8}{'peak MB':>9}{'RSS +MB':>9}")
    w = {ref: statistics.median(values) for ref, values in wall.items()}
    c = {ref: statistics.median(values) for ref, values in cpu.items()}
    for ref in sizes:
        label = "1 node" if ref == "single" else "100,000 nodes"
        print(f"{label:<16}{sizes[ref] / 1000:>12.0f}{w[ref]:>8.2f}{c[ref]:>8.2f}{peak[ref]:>9.2f}{rss[ref]:>9.1f}")
    w_ratio, c_ratio = w["100000"] / w["single"], c["100000"] / c["single"]
    more = peak["100000"] - peak["single"]
    ok = w_ratio <= TARGET_RATIO and c_ratio <= TARGET_RATIO and more < TARGET_MORE_MB
    print(
        f"100,000 nodes / 1 node: wall {w['100000']:.2f} / {w['single']:.2f} ms = {w_ratio:.2f}, CPU"
        f" {c['100000']:.2f} / {c['single']:.2f} ms = {c_ratio:.2f} (target <= {TARGET_RATIO}); memory"
        f" {peak['100000']:.2f} - {peak['single']:.2f} MB = {more:+.2f} MB (target < {TARGET_MORE_MB:.0f} MB more)"
        f" -> {'PASS' if ok else 'FAIL'}"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
