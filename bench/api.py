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
import os
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PY = ROOT / ".venv" / "bin" / "python"
GUNICORN = ROOT / ".venv" / "bin" / "gunicorn"
DB_NAME = "bench_api"
TARGET_RATIO = 0.5
LOG = Path("/tmp/bench-api-gunicorn.log")
DESIGN = {
    "schema": "design/v1",
    "name": "4 x HGX H200 training cluster",
    "workload": {"kind": "training", "model_parameters_billion": 70},
    "node_groups": [
        {
            "name": "gpu",
            "count": 4,
            "server": "SYS-821GE-TNHR",
            "components": [
                {"part": "HGX-H200-8GPU", "quantity": 1},
                {"part": "MCX75310AAS-NEAT", "quantity": 8, "role": "compute"},
            ],
        }
    ],
    "fabric": {"switch": "MQM9700-NS2F", "oversubscription": "1:1", "topology": "rail-optimized"},
}


def server_url() -> urllib.parse.ParseResult:
    raw = os.environ.get("BENCH_DATABASE_URL") or os.environ.get("DATABASE_URL") or ""
    if not raw.startswith("postgres"):
        raw = "postgres://postgres@/postgres?host=/var/run/postgresql"
    return urllib.parse.urlparse(raw)


def with_db(url: urllib.parse.ParseResult, name: str) -> str:
    return urllib.parse.urlunparse(url._replace(path=f"/{name}"))


def admin_sql(url: urllib.parse.ParseResult, sql: str) -> None:
    import psycopg

    with psycopg.connect(with_db(url, "postgres"), autocommit=True) as conn:
        conn.execute(sql)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def env_for(database_url: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "configurator.settings.production",
            "DJANGO_SECRET_KEY": secrets.token_urlsafe(60),
            "DATABASE_URL": database_url,
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
            "DJANGO_SECURE_SSL_REDIRECT": "false",
            "DJANGO_LOG_LEVEL": "WARNING",
            "CELERY_BROKER_URL": "",
            "API_THROTTLE_RATE": "100000000/min",
            "API_THROTTLE_WRITE_RATE": "100000000/min",
        }
    )
    return env


def wait_for(port: int, deadline: float) -> None:
    while time.time() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"gunicorn did not come up in time; see {LOG}")


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
    database_url = with_db(url, DB_NAME)
    env = env_for(database_url)
    admin_sql(url, f"DROP DATABASE IF EXISTS {DB_NAME}")
    admin_sql(url, f"CREATE DATABASE {DB_NAME}")
    server = None
    try:
        for command in (["migrate", "--noinput", "-v0"], ["load_catalog"]):
            subprocess.run([PY, "manage.py", *command], cwd=ROOT, env=env, check=True, capture_output=True)
        token = subprocess.run(
            [PY, "manage.py", "create_api_client", "bench", "--scope", "read"],
            cwd=ROOT,
            env=env,
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
        port = free_port()
        with LOG.open("w") as log:
            server = subprocess.Popen(
                [
                    GUNICORN,
                    "configurator.wsgi",
                    "--bind",
                    f"127.0.0.1:{port}",
                    "--workers",
                    str(args.workers),
                    "--access-logfile",
                    "-",
                    "--log-level",
                    "warning",
                ],
                cwd=ROOT,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=log,
                start_new_session=True,
            )
        wait_for(port, time.time() + 60)
        for name in ("healthz", "validate"):  # warm-up: imports, catalogue snapshot, connections
            run_phase(port, name, 10 * args.workers, args.threads, args.timeout, token)

        rounds: dict[str, list[dict]] = {"healthz": [], "validate": []}
        half = max(1, args.requests // 2)
        for order in (("healthz", "validate"), ("validate", "healthz")):
            for name in order:
                rounds[name].append(run_phase(port, name, half, args.threads, args.timeout, token))
    finally:
        if server is not None:
            os.killpg(server.pid, signal.SIGTERM)
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
        if not args.keep:
            try:
                admin_sql(url, f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")
            except Exception as exc:  # noqa: BLE001 - report and go on
                print(f"note: could not drop {DB_NAME}: {exc}", file=sys.stderr)

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
