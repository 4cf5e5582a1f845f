"""Throughput of POST /api/v1/designs/validate/ next to /healthz, on the same gunicorn, on PostgreSQL.

    .venv/bin/python bench/api.py [--requests 400] [--threads 4] [--workers 2] [--timeout 60] [--keep]

What it does, all on loopback and bounded in time:

1. creates its own PostgreSQL database (``bench_api``; dropped afterwards unless ``--keep``) on the server of
   ``BENCH_DATABASE_URL``, else ``DATABASE_URL``, else the local socket as user postgres; migrates it, loads
   the seed catalogue and creates an API client (``manage.py create_api_client``) for its Bearer token;
2. starts gunicorn with the production settings (``--workers`` sync workers, default 2) on a free port, with the
   per-client throttle raised out of the way (this measures the work, not the limiter);
3. after a warm-up, sends ``--requests`` requests to each endpoint from ``--threads`` threads, in two rounds
   that alternate the endpoints (so drift hits both alike); each round stops at ``--timeout`` seconds;
4. prints requests per second, p50 and p95 of both, and the ratio validate / healthz (target: at least 0.5).

The design is the contract's example: 4 x SYS-821GE-TNHR with an HGX-H200-8GPU board and 8 x MCX75310AAS-NEAT
each, on an MQM9700-NS2F rail-optimized fabric. Every answer is checked (200 and, for validate, ``valid: true``).
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import sys
import threading
import time
from pathlib import Path

# bench/ is first on sys.path when run as a script; _server also puts the project root there.
from _server import (
    create_database,
    drop_database,
    env_for,
    free_port,
    manage,
    migrate_and_seed,
    server_url,
    start_gunicorn,
    stop_gunicorn,
    wait_for,
    with_db,
)

from configurator.examples import h200_training_cluster

DB_NAME = "bench_api"
TARGET_RATIO = 0.5
LOG = Path("/tmp/bench-api-gunicorn.log")
DESIGN = h200_training_cluster()


def one_request(port: int, method: str, path: str, body: bytes | None, headers: dict[str, str]) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request(method, path, body=body, headers=headers)
        resp = conn.getresponse()
        return resp.status, resp.read()
    finally:
        conn.close()


def run_phase(port: int, name: str, count: int, threads: int, timeout: float, token: str) -> dict:
    """Send ``count`` requests from ``threads`` threads; stop at ``timeout`` seconds. Returns timings and errors."""
    if name == "validate":
        method, path, body = "POST", "/api/v1/designs/validate/", json.dumps(DESIGN).encode()
        headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json", "Host": "127.0.0.1"}
    else:
        method, path, body, headers = "GET", "/healthz", None, {"Host": "127.0.0.1"}
    lock = threading.Lock()
    remaining = [count]
    latencies: list[float] = []
    errors: list[str] = []
    deadline = time.perf_counter() + timeout

    def worker():
        while time.perf_counter() < deadline:
            with lock:
                if remaining[0] <= 0:
                    return
                remaining[0] -= 1
            t0 = time.perf_counter()
            try:
                status, content = one_request(port, method, path, body, headers)
                # DRF renders compact JSON; a substring check keeps the client's CPU out of the measurement.
                ok = status == 200 and (name != "validate" or b'"valid":true' in content)
                problem = None if ok else f"{status}: {content[:200]!r}"
            except (OSError, http.client.HTTPException) as exc:
                problem = f"{type(exc).__name__}: {exc}"
            elapsed = time.perf_counter() - t0
            with lock:
                latencies.append(elapsed)
                if problem:
                    errors.append(problem)

    started = time.perf_counter()
    pool = [threading.Thread(target=worker) for _ in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    return {"seconds": time.perf_counter() - started, "latencies": latencies, "errors": errors}


def merge(results: list[dict]) -> dict:
    latencies = [x for r in results for x in r["latencies"]]
    done = len(latencies)
    seconds = sum(r["seconds"] for r in results)
    ordered = sorted(latencies) or [0.0]
    return {
        "requests": done,
        "rps": done / seconds if seconds else 0.0,
        "p50_ms": statistics.median(ordered) * 1000,
        "p95_ms": ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))] * 1000,
        "errors": [e for r in results for e in r["errors"]],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=400, help="per endpoint, over both rounds")
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per round and endpoint, at most")
    parser.add_argument("--keep", action="store_true", help="keep the bench database afterwards")
    args = parser.parse_args()

    url = server_url()
    env = env_for(with_db(url, DB_NAME), API_THROTTLE_RATE="100000000/min", API_THROTTLE_WRITE_RATE="100000000/min")
    create_database(url, DB_NAME)
    server = None
    try:
        migrate_and_seed(env)
        token = manage(env, "create_api_client", "bench", "--scope", "read").strip()
        port = free_port()
        server = start_gunicorn(port, args.workers, env, LOG, ["--access-logfile", "-"])
        wait_for(port, time.time() + 60, LOG)
        for name in ("healthz", "validate"):  # warm-up: imports, catalogue snapshot, connections
            run_phase(port, name, 10 * args.workers, args.threads, args.timeout, token)

        rounds: dict[str, list[dict]] = {"healthz": [], "validate": []}
        half = max(1, args.requests // 2)
        for order in (("healthz", "validate"), ("validate", "healthz")):
            for name in order:
                rounds[name].append(run_phase(port, name, half, args.threads, args.timeout, token))
    finally:
        if server is not None:
            stop_gunicorn(server)
        if not args.keep:
            drop_database(url, DB_NAME)

    health, validate = merge(rounds["healthz"]), merge(rounds["validate"])
    ratio = validate["rps"] / health["rps"] if health["rps"] else 0.0
    print(f"gunicorn {args.workers} sync workers, {args.threads} client threads, PostgreSQL, loopback")
    print(f"{'endpoint':<34}{'requests':>9}{'req/s':>9}{'p50 ms':>9}{'p95 ms':>9}{'errors':>8}")
    for label, r in (("GET /healthz", health), ("POST /api/v1/designs/validate/", validate)):
        print(
            f"{label:<34}{r['requests']:>9}{r['rps']:>9.1f}{r['p50_ms']:>9.1f}{r['p95_ms']:>9.1f}{len(r['errors']):>8}"
        )
    verdict = "PASS" if ratio >= TARGET_RATIO else "FAIL"
    print(f"ratio validate/healthz: {ratio:.2f} (target >= {TARGET_RATIO}) -> {verdict}")
    for error in (health["errors"] + validate["errors"])[:5]:
        print(f"error: {error}")
    return 0 if ratio >= TARGET_RATIO and not health["errors"] and not validate["errors"] else 1


if __name__ == "__main__":
    sys.exit(main())
