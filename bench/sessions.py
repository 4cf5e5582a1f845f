"""Do raw-SQL reads of the session and of the draft's token pay off on a whole wizard request?

    .venv/bin/python bench/sessions.py [--rounds 15] [--requests 20]

Every wizard page reads the visitor's session and looks its draft up by token. Both can be read with one plain
SELECT instead of an ORM query, which saves the query's building. This times whole requests (middleware,
session, token lookup, view, template; Django's test client, in this process) of three wizard pages with:

- ``django``: Django's database session store and an ORM lookup of the token,
- ``raw session``: the session read with one plain SELECT (project.sessions), ORM token lookup,
- ``raw both``: the session and the token both read with plain SELECTs (what the project runs:
  project.sessions and web.selectors.configuration_by_token).

The variants take turns, page by page and round by round, each first in a third of the rounds, so a busy machine
slows all of them alike. It runs on
its own PostgreSQL database (``bench_sessions``; ``BENCH_DB_NAME`` overrides), on the server of
``BENCH_DATABASE_URL``, else ``DATABASE_URL``, else the local socket as user postgres, with the production
settings and no shared cache. It prints the median per page and variant and what the raw reads save.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import urllib.parse
from collections import defaultdict

# bench/ is first on sys.path when run as a script
from _server import ROOT, create_database, drop_database, env_for, migrate_and_seed, server_url, with_db

sys.path.insert(0, str(ROOT))  # before bench/, whose api.py and quotes.py would hide the apps of those names

DB_NAME = os.environ.get("BENCH_DB_NAME", "bench_sessions")
GOAL = {"kind": "training", "params_billion": "70", "nodes": "4"}
DJANGO_ENGINE = "django.contrib.sessions.backends.db"
RAW_ENGINE = "project.sessions"  # the project's store: Django's, read with one plain SELECT


def orm_configuration_by_token(token: str):
    """The draft by token through the ORM (what web.selectors.configuration_by_token saves)."""
    from configurator.models import Configuration

    return Configuration.objects.filter(token=token).first()


def measure(rounds: int, requests: int) -> dict[tuple[str, str], list[float]]:
    import django
    from django.test import Client, override_settings

    django.setup()
    from web import selectors

    raw_lookup = selectors.configuration_by_token
    start = Client(HTTP_HOST="localhost")
    location = start.post("/start/", GOAL)["Location"]
    base = location.rsplit("/goal/", 1)[0]
    start.post(f"{base}/goal/", {**GOAL, "action": "accept"})
    pages = {"goal": f"{base}/goal/", "fabric": f"{base}/fabric/", "review": f"{base}/review/"}
    variants = {
        "django": (DJANGO_ENGINE, orm_configuration_by_token),
        "raw session": (RAW_ENGINE, orm_configuration_by_token),
        "raw both": (RAW_ENGINE, raw_lookup),
    }
    timings: dict[tuple[str, str], list[float]] = defaultdict(list)
    for round_no in range(rounds + 1):  # round 0 warms up
        for page, path in pages.items():
            names = list(variants)
            for variant in names[round_no % 3 :] + names[: round_no % 3]:  # each variant takes each turn
                engine, lookup = variants[variant]
                selectors.configuration_by_token = lookup
                with override_settings(SESSION_ENGINE=engine):
                    client = Client(HTTP_HOST="localhost")  # a new handler loads the session middleware anew
                    client.cookies = start.cookies
                    for _ in range(requests):
                        t0 = time.perf_counter()
                        response = client.get(path)
                        elapsed = (time.perf_counter() - t0) * 1000
                        if response.status_code != 200:
                            raise RuntimeError(f"{variant} {path}: {response.status_code}")
                        if round_no:
                            timings[(page, variant)].append(elapsed)
    selectors.configuration_by_token = raw_lookup
    return timings


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--requests", type=int, default=20, help="requests per page, variant and round")
    ap.add_argument("--keep", action="store_true", help="keep the benchmark database")
    args = ap.parse_args()
    url = server_url()
    database_url = with_db(url, DB_NAME)
    database_url += f"{'&' if urllib.parse.urlparse(database_url).query else '?'}conn_max_age=600"
    env = env_for(database_url, CACHE_URL="", QUOTE_REQUEST_LIMIT="1000000", WIZARD_START_RATE="100000/h")
    create_database(url, DB_NAME)
    try:
        migrate_and_seed(env)
        os.environ.update(env)
        timings = measure(args.rounds, args.requests)
    finally:
        if "django.db" in sys.modules:
            from django.db import connections

            connections.close_all()
        if not args.keep:
            drop_database(url, DB_NAME)
    print(f"{'page':<10}{'variant':<14}{'n':>6}{'median ms':>11}{'p95 ms':>9}{'saves':>16}")
    for page in dict.fromkeys(p for p, _ in timings):
        base = statistics.median(timings[(page, "django")])
        for variant in ("django", "raw session", "raw both"):
            values = sorted(timings[(page, variant)])
            median = statistics.median(values)
            saved = "" if variant == "django" else f"{(base - median) * 1000:+.0f} µs {(base - median) / base:+.1%}"
            print(
                f"{page:<10}{variant:<14}{len(values):>6}{median:>11.2f}"
                f"{values[int(len(values) * 0.95) - 1]:>9.2f}{saved:>16}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
