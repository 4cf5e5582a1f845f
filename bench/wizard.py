"""Load benchmark of the web wizard: N concurrent browsers-without-a-browser against gunicorn on PostgreSQL.

    .venv/bin/python bench/wizard.py [--clients 20] [--duration 20] [--workers 2] [--think 0]

What it does, all on loopback and bounded in time:

1. creates its own PostgreSQL database (``bench_wizard``; dropped afterwards unless ``--keep``) on the server of
   ``BENCH_DATABASE_URL``, else ``DATABASE_URL``, else the local socket as user postgres; migrates it and
   loads the seed catalogue;
2. starts gunicorn with the production settings (``--workers`` sync workers, default 2) on a free port, with the
   shared Redis cache (sessions, rate limits) as production runs it, when Redis answers on 127.0.0.1:6379
   (``BENCH_CACHE_URL`` overrides; empty for none). All its clients come from one address and each starts a new
   draft on every round, hundreds an hour, so this server of its own gets a per-address draft limit
   (WIZARD_START_RATE) and a quote-request limit that the load cannot reach: the limits are still counted on every
   request, as in production, only not refused (production keeps its defaults, 30 drafts an hour per address);
3. runs ``--clients`` threads (stdlib http.client, one cookie jar each) that walk the wizard like a customer:
   home → start (goal form) → goal → accept the recommendation → platform → an htmx change → adapters → an htmx
   change → fabric → an htmx change → review → quote page, again and again, for ``--duration`` seconds after a
   warm-up round; ``--think`` is a person's mean pause before each click (0: closed loop, the harshest case:
   every client fires its next request the moment the last one returns);
4. prints p50, p95 and max per step, the request rate, and whether the p95 target (100 ms) held.

Quote *requests* are not part of the loop: they are rate-limited per client by design and build a PDF.
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import re
import resource
import statistics
import threading
import time
import urllib.parse
from collections import defaultdict
from pathlib import Path

# bench/ is first on sys.path when run as a script
from _server import (
    create_database,
    drop_database,
    env_for,
    free_port,
    migrate_and_seed,
    server_url,
    start_gunicorn,
    stop_gunicorn,
    wait_for,
    with_db,
)

DB_NAME = os.environ.get("BENCH_DB_NAME", "bench_wizard")  # another name lets two runs share a server
TARGET_P95_MS = 100.0
LOG = Path("/tmp/bench-wizard-gunicorn.log")  # the server's own output, for when a run reports errors
GOALS = [  # a few customers with different goals, so the recommendation cache sees several keys
    {"kind": "training", "params_billion": "70", "nodes": "4"},
    {"kind": "training", "params_billion": "405", "nodes": ""},
    {"kind": "inference", "params_billion": "70", "nodes": ""},
    {"kind": "inference", "params_billion": "8", "nodes": ""},
]
CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


# --- one simulated customer --------------------------------------------------------------------------------


class Browser:
    """Cookies and CSRF like a browser; a new connection when gunicorn's sync worker closes the old one."""

    def __init__(self, port: int):
        self.port = port
        self.cookies: dict[str, str] = {}
        self.conn: http.client.HTTPConnection | None = None

    def request(self, method: str, path: str, form: dict | None = None, htmx: bool = False) -> tuple[int, str, str]:
        headers = {"Host": "127.0.0.1", "Accept-Language": "en"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["X-CSRFToken"] = self.cookies.get("csrftoken", "")
        if htmx:
            headers["HX-Request"] = "true"
        for attempt in (1, 2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            try:
                self.conn.request(method, path, body=body, headers=headers)
                resp = self.conn.getresponse()
                text = resp.read().decode("utf-8", "replace")
                break
            except (http.client.HTTPException, OSError):
                self.conn.close()
                self.conn = None
                if attempt == 2:
                    raise
        for header in resp.msg.get_all("Set-Cookie") or []:
            name, _, rest = header.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]
        if resp.getheader("Connection", "").lower() == "close":
            self.conn.close()
            self.conn = None
        return resp.status, resp.getheader("Location") or "", text


def walk(
    browser: Browser,
    goal: dict,
    timings: dict[str, list[float]],
    record: bool,
    think: float = 0.0,
    rng: random.Random | None = None,
) -> None:
    def timed(step: str, method: str, path: str, form=None, htmx=False, expect=(200,)):
        if think:  # a person reads the page before the next click: 0.5x to 1.5x the mean, so clients drift apart
            time.sleep(think * (0.5 + (rng or random).random()))
        t0 = time.perf_counter()
        status, location, text = browser.request(method, path, form, htmx)
        elapsed = (time.perf_counter() - t0) * 1000
        if status not in expect:
            raise RuntimeError(f"{step}: {method} {path} -> {status}")
        if record:
            timings[step].append(elapsed)
        return location, text

    _, home = timed("home", "GET", "/")
    token = CSRF_INPUT.search(home).group(1)
    location, _ = timed("start (POST)", "POST", "/start/", {"csrfmiddlewaretoken": token, **goal}, expect=(302,))
    base = location.rsplit("/goal/", 1)[0]
    timed("goal", "GET", f"{base}/goal/")
    location, _ = timed("goal accept (POST)", "POST", f"{base}/goal/", {**goal, "action": "accept"}, expect=(302,))
    _, platform = timed("platform", "GET", f"{base}/platform/")
    server = re.search(r'name="server" value="([^"]+)"[^>]*checked', platform).group(1)
    gpu_match = re.search(r'name="gpu" value="([^"]+)"[^>]*checked', platform)
    gpu = gpu_match.group(1) if gpu_match else ""
    timed(
        "platform change (htmx)",
        "POST",
        f"{base}/platform/",
        {"nodes": "2", "server": server, "gpu": gpu, "gpu_quantity": "1"},
        htmx=True,
    )
    _, adapters = timed("adapters", "GET", f"{base}/adapters/")
    timed(
        "adapters change (htmx)",
        "POST",
        f"{base}/adapters/",
        {
            "compute_adapter": "MCX75310AAS-NEAT",
            "compute_quantity": "8",
            "storage_adapter": "",
            "storage_quantity": "0",
        },
        htmx=True,
    )
    timed("fabric", "GET", f"{base}/fabric/")
    timed(
        "fabric change (htmx)",
        "POST",
        f"{base}/fabric/",
        {"switch": "MQM9700-NS2F", "oversubscription": "2:1", "topology": "rail-optimized"},
        htmx=True,
    )
    timed("review", "GET", f"{base}/review/")
    timed("quote", "GET", f"{base}/quote/")


def client_loop(
    port: int,
    index: int,
    until: float,
    warm_until: float,
    think: float,
    timings: dict[str, list[float]],
    errors: list[str],
    lock: threading.Lock,
) -> None:
    local: dict[str, list[float]] = defaultdict(list)
    browser = Browser(port)
    goal = GOALS[index % len(GOALS)]
    rng = random.Random(index)
    while time.time() < until:
        record = time.time() >= warm_until
        try:
            walk(browser, goal, local, record, think, rng)
        except Exception as exc:  # noqa: BLE001 - counted and printed; the run goes on
            errors.append(f"client {index}: {exc}")
            browser = Browser(port)
    with lock:
        for k, v in local.items():
            timings[k].extend(v)


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    if not values:
        return float("nan")
    k = max(0, min(len(values) - 1, round(p / 100 * len(values) + 0.5) - 1))
    return values[k]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--clients", type=int, default=20)
    ap.add_argument("--duration", type=float, default=20.0, help="seconds measured, after the warm-up")
    ap.add_argument("--warmup", type=float, default=5.0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--think", type=float, default=0.0, help="mean seconds a client waits before each request")
    ap.add_argument("--keep", action="store_true", help="keep the benchmark database")
    ap.add_argument(
        "--gunicorn-arg",
        dest="gunicorn_args",
        action="append",
        default=[],
        help="extra gunicorn argument, repeatable (e.g. --gunicorn-arg=--threads=2)",
    )
    ap.add_argument(
        "--no-persistent-connections",
        dest="persistent_connections",
        action="store_false",
        help="open a database connection per request (CONN_MAX_AGE=0, the settings' default)",
    )
    args = ap.parse_args()

    url = server_url()
    database_url = with_db(url, DB_NAME)
    if args.persistent_connections:  # django-environ reads CONN_MAX_AGE from the URL; production should set it too
        sep = "&" if urllib.parse.urlparse(database_url).query else "?"
        database_url += f"{sep}conn_max_age=600&conn_health_checks=true"
    env = env_for(database_url, QUOTE_REQUEST_LIMIT="1000000", WIZARD_START_RATE="1000000/h")
    print(
        f"database: {DB_NAME} on {url.hostname or url.query or 'local socket'} "
        f"({'persistent' if args.persistent_connections else 'per-request'} connections); "
        f"cache {env['CACHE_URL'] or 'per process (no Redis)'}; gunicorn {args.workers} workers; "
        f"{args.clients} clients; {args.duration:.0f} s after {args.warmup:.0f} s warm-up; think {args.think} s"
    )
    create_database(url, DB_NAME)
    gunicorn = None
    try:
        migrate_and_seed(env)
        port = free_port()
        gunicorn = start_gunicorn(port, args.workers, env, LOG, ["--timeout", "60", *args.gunicorn_args])
        wait_for(port, time.time() + 60, LOG, ok=(200, 503))
        timings: dict[str, list[float]] = defaultdict(list)
        errors: list[str] = []
        lock = threading.Lock()
        cpu0 = resource.getrusage(resource.RUSAGE_SELF)
        start = time.time()
        warm_until, until = start + args.warmup, start + args.warmup + args.duration
        threads = [
            threading.Thread(
                target=client_loop, args=(port, i, until, warm_until, args.think, timings, errors, lock), daemon=True
            )
            for i in range(args.clients)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=args.warmup + args.duration + 120)
        cpu1 = resource.getrusage(resource.RUSAGE_SELF)
        report(timings, errors, args)
        sent = sum(len(v) for v in timings.values()) * (args.warmup + args.duration) / args.duration
        client_cpu = (cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime)
        print(
            f"load generator's own CPU: {client_cpu / max(sent, 1) * 1000:.1f} ms per request (it shares the cores "
            f"with the server); load average now {os.getloadavg()[0]:.2f}"
        )
        worst = max((pct(v, 95) for v in timings.values() if v), default=float("nan"))
        return 0 if worst <= TARGET_P95_MS and not errors else 1
    finally:
        if gunicorn is not None:
            stop_gunicorn(gunicorn)
        if not args.keep:
            drop_database(url, DB_NAME)


def report(timings: dict[str, list[float]], errors: list[str], args) -> None:
    total = sum(len(v) for v in timings.values())
    print(f"\n{'step':<26}{'n':>7}{'p50 ms':>10}{'p95 ms':>10}{'max ms':>10}")
    for step, values in timings.items():
        print(
            f"{step:<26}{len(values):>7}{statistics.median(values):>10.1f}{pct(values, 95):>10.1f}{max(values):>10.1f}"
        )
    every = [x for v in timings.values() for x in v]
    if every:
        print(
            f"{'all requests':<26}{len(every):>7}{statistics.median(every):>10.1f}{pct(every, 95):>10.1f}"
            f"{max(every):>10.1f}"
        )
    print(f"\n{total / args.duration:.0f} requests/s measured; errors: {len(errors)}")
    for e in errors[:5]:
        print("  ", e)
    if errors:
        print(f"   server log: {LOG}")
    worst = max((pct(v, 95) for v in timings.values() if v), default=float("nan"))
    verdict = "met" if worst <= TARGET_P95_MS else "NOT met"
    print(f"target p95 <= {TARGET_P95_MS:.0f} ms on every step: {verdict} (worst step p95 {worst:.1f} ms)")


if __name__ == "__main__":
    raise SystemExit(main())
