"""Validating new designs against the cheapest authenticated read, in the same run; the CPU a validation takes.

    .venv/bin/python bench/validate_floor.py [--requests 240] [--threads 4] [--workers 2] [--cpu-runs 15]

1. Through gunicorn (production settings, ``--workers`` sync workers, its own PostgreSQL database
   ``bench_validate_floor``, Redis as the cache when it answers; throttle rates raised so nothing is refused, the
   throttles still counted), from ``--threads`` client threads, in two rounds that alternate the phases:

   * the floor: the cheapest of four authenticated reads (a catalogue part, a page of one part, a stored
     configuration, a quote), each sent the same number of times; the one with the most requests per second is
     the floor (an authenticated read pays the API's login and throttles, which /healthz does not);
   * POST /api/v1/designs/validate/ of a **new** design every request: the contract's example (SYS-821GE-TNHR,
     HGX-H200-8GPU, 8 x MCX75310AAS-NEAT, MQM9700-NS2F) at 4 and at 2,048 nodes, each request's node group
     named afresh, so no per-process memo of rack plans (engines.cluster.rackplan) is hit.

   Targets: requests per second of a new 4-node design at least 0.8x the floor's, of a new 2,048-node design at
   least 0.33x; both figures of each ratio are printed.

2. CPU time in this process (the WSGI application called in-process, the start-up heap frozen as a web worker's
   is: gunicorn.conf.py), median of ``--cpu-runs`` new designs each: POST validate at 2,048 nodes (target at most
   10 ms) and of a valid 100,000-node design (one MCX75310AAS-NEAT per node on an SN5600 fabric: 51,693 racks;
   target at most 250 ms), with the engine alone (configurator.services.design_validate) beside it and the
   answer's size.

Every answer is checked (200 and, for validate, ``"valid":true``). Prints PASS or FAIL for each target.
"""

from __future__ import annotations

import argparse
import http.client
import io
import itertools
import json
import os
import statistics
import sys
import threading
import time
from pathlib import Path

from _server import (
    ROOT,
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

sys.path.insert(0, str(ROOT))  # the project's ``api`` and ``quotes`` packages, not bench/api.py and bench/quotes.py

from configurator.examples import h200_training_cluster  # noqa: E402

DB_NAME = os.environ.get("BENCH_DB_NAME", "bench_validate_floor")
LOG = Path("/tmp/bench-validate-floor-gunicorn.log")
TARGET_SMALL, TARGET_LARGE = 0.8, 0.33  # validate / floor, requests per second
TARGET_CPU_MS = {2048: 10.0, 100_000: 250.0}
CUSTOMER = {"name": "Ada Lovelace", "company": "Analytical Engines BV", "email": "ada@example.nl", "country": "NL"}
_fresh = itertools.count()


def design(nodes: int, *, switch: str | None = None, nics: int | None = None) -> dict:
    """The contract's example at ``nodes`` nodes, its node group named afresh each call (a new design)."""
    doc = h200_training_cluster()
    doc.pop("workload")  # sized for any node count
    group = doc["node_groups"][0]
    group["count"], group["name"] = nodes, f"gpu-{next(_fresh)}"
    if switch:
        doc["fabric"]["switch"] = switch
    if nics:
        group["components"][1]["quantity"] = nics
    return doc


def large_design() -> dict:
    """A valid 100,000-node design: one compute adapter per node, on an SN5600 fabric."""
    return design(100_000, switch="SN5600", nics=1)


def one_request(port: int, method: str, path: str, body: bytes | None, headers: dict[str, str]) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request(method, path, body=body, headers=headers)
        resp = conn.getresponse()
        return resp.status, resp.read()
    finally:
        conn.close()


def run_phase(port: int, requests: list[tuple[str, str, bytes | None]], headers: dict, threads: int) -> dict:
    """Send the prepared ``requests`` (method, path, body) from ``threads`` threads; requests per second, errors."""
    lock = threading.Lock()
    queue = list(reversed(requests))
    errors: list[str] = []
    done = [0]

    def worker() -> None:
        while True:
            with lock:
                if not queue:
                    return
                method, path, body = queue.pop()
            try:
                status, content = one_request(port, method, path, body, headers)
                ok = status == 200 and (method == "GET" or b'"valid":true' in content)
                problem = None if ok else f"{method} {path}: {status} {content[:160]!r}"
            except (OSError, http.client.HTTPException) as exc:
                problem = f"{type(exc).__name__}: {exc}"
            with lock:
                done[0] += 1
                if problem:
                    errors.append(problem)

    started = time.perf_counter()
    pool = [threading.Thread(target=worker) for _ in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    return {"seconds": time.perf_counter() - started, "requests": done[0], "errors": errors}


def validations(nodes: int, count: int) -> list[tuple[str, str, bytes | None]]:
    return [("POST", "/api/v1/designs/validate/", json.dumps(design(nodes)).encode()) for _ in range(count)]


def through_gunicorn(args, env: dict[str, str], token: str) -> int:
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json", "Host": "127.0.0.1"}
    port = free_port()
    server = start_gunicorn(port, args.workers, env, LOG)
    try:
        wait_for(port, time.time() + 60, LOG)
        ids = store(port, headers)
        reads = {
            "GET catalogue part": f"/api/v1/catalog/parts/{ids['part']}/",
            "GET parts, page of 1": "/api/v1/catalog/parts/?page_size=1",
            "GET configuration": f"/api/v1/configurations/{ids['configuration']}/",
            "GET quote": f"/api/v1/quotes/{ids['quote']}/",
        }
        phases: dict[str, list[dict]] = {name: [] for name in [*reads, "validate 4, new", "validate 2,048, new"]}
        half = max(1, args.requests // 2)
        for path in reads.values():  # warm-up: imports, the catalogue snapshot, connections
            run_phase(port, [("GET", path, None)] * 4 * args.workers, headers, args.threads)
        run_phase(port, validations(4, 4 * args.workers) + validations(2048, 4), headers, args.threads)
        for order in (list(phases), list(reversed(phases))):
            for name in order:
                if name in reads:
                    batch = [("GET", reads[name], None)] * half
                else:
                    batch = validations(4 if name.startswith("validate 4") else 2048, half)
                phases[name].append(run_phase(port, batch, headers, args.threads))
    finally:
        stop_gunicorn(server)
    rps = {name: sum(r["requests"] for r in rs) / sum(r["seconds"] for r in rs) for name, rs in phases.items()}
    errors = [e for rs in phases.values() for r in rs for e in r["errors"]]
    floor_name = max(reads, key=lambda name: rps[name])
    floor = rps[floor_name]
    print(f"1. gunicorn {args.workers} sync workers, {args.threads} client threads, PostgreSQL, loopback;")
    print(f"   {2 * half} requests a phase in two rounds, alternating")
    for name, value in rps.items():
        print(f"   {name:<24}{value:>8.1f} req/s{'   <- the floor' if name == floor_name else ''}")
    failed = 0
    for name, target in (("validate 4, new", TARGET_SMALL), ("validate 2,048, new", TARGET_LARGE)):
        ratio = rps[name] / floor
        verdict = "PASS" if ratio >= target else "FAIL"
        failed += verdict == "FAIL"
        print(f"   {name} / floor: {rps[name]:.1f} / {floor:.1f} req/s = {ratio:.2f} (target >= {target}) -> {verdict}")
    for error in errors[:5]:
        print(f"   error: {error}")
    return failed + bool(errors)


def store(port: int, headers: dict[str, str]) -> dict[str, object]:
    """A configuration and a quote of the client (the example at 4 nodes), and a part to read."""
    body = json.dumps({"document": design(4)}).encode()
    status, content = one_request(port, "POST", "/api/v1/configurations/", body, headers)
    if status != 201:
        raise SystemExit(f"storing a configuration: {status} {content[:200]!r}")
    configuration = json.loads(content)["id"]
    body = json.dumps({"configuration": configuration, "customer": CUSTOMER}).encode()
    status, content = one_request(port, "POST", "/api/v1/quotes/", body, headers)
    if status != 202:
        raise SystemExit(f"requesting a quote: {status} {content[:200]!r}")
    return {"configuration": configuration, "quote": json.loads(content)["id"], "part": "MQM9700-NS2F"}


def wsgi_caller(application):
    def call(method: str, path: str, payload: bytes = b"", query: str = "", **headers: str) -> tuple[str, bytes]:
        environ = {
            "REQUEST_METHOD": method,
            "PATH_INFO": path,
            "QUERY_STRING": query,
            "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": "8000",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "HTTP_HOST": "127.0.0.1",
            "REMOTE_ADDR": "127.0.0.1",
            "CONTENT_LENGTH": str(len(payload)),
            "wsgi.input": io.BytesIO(payload),
            "wsgi.url_scheme": "http",
            "wsgi.errors": sys.stderr,
            **headers,
        }
        status: list[str] = []
        response = application(environ, lambda s, h, *exc: status.append(s))
        try:
            content = b"".join(response)
        finally:
            response.close()
        return status[0], content

    return call


def in_process(args, token: str) -> int:
    import gc

    from django.core.wsgi import get_wsgi_application

    call = wsgi_caller(get_wsgi_application())  # sets Django up

    from configurator.services import design_validate

    auth = {"HTTP_AUTHORIZATION": f"Bearer {token}", "CONTENT_TYPE": "application/json"}
    call("GET", "/healthz")
    gc.collect()
    gc.freeze()  # as gunicorn.conf.py's post_worker_init does for every web worker

    def request(doc: dict) -> int:
        status, content = call("POST", "/api/v1/designs/validate/", json.dumps(doc).encode(), **auth)
        if not status.startswith("200") or b'"valid":true' not in content:
            raise SystemExit(f"validate: {status} {content[:200]!r}")
        return len(content)

    failed = 0
    print(f"2. CPU ms in this process, median of {args.cpu_runs} new designs each (the start-up heap frozen)")
    for nodes, make, runs in ((2048, lambda: design(2048), args.cpu_runs), (100_000, large_design, args.cpu_runs)):
        request(make())  # warm: this size's first request
        cpu, engine, size = [], [], 0
        for _ in range(runs):
            doc = make()
            started = time.process_time()
            size = request(doc)
            cpu.append((time.process_time() - started) * 1000)
            doc = make()
            started = time.process_time()
            design_validate(document=doc, language="en")
            engine.append((time.process_time() - started) * 1000)
        request_ms, engine_ms = statistics.median(cpu), statistics.median(engine)
        verdict = "PASS" if request_ms <= TARGET_CPU_MS[nodes] else "FAIL"
        failed += verdict == "FAIL"
        print(
            f"   POST validate, {nodes:>7,} nodes: {request_ms:7.1f} ms (engine alone {engine_ms:.1f} ms, answer "
            f"{size / 1000:.0f} kB); target <= {TARGET_CPU_MS[nodes]:.0f} ms -> {verdict}"
        )
    if args.profile:
        import cProfile
        import pstats

        docs = [design(args.profile) for _ in range(20)]
        profile = cProfile.Profile()
        profile.enable()
        for doc in docs:
            request(doc)
        profile.disable()
        pstats.Stats(profile).sort_stats("tottime").print_stats(35)
    return failed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=240, help="per phase, over both rounds")
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--cpu-runs", type=int, default=15)
    parser.add_argument("--keep", action="store_true", help="keep the bench database afterwards")
    parser.add_argument("--cpu-only", action="store_true", help="only part 2, the CPU time in this process")
    parser.add_argument("--profile", type=int, default=0, metavar="NODES", help="then profile 20 requests of NODES")
    args = parser.parse_args()

    url = server_url()
    env = env_for(with_db(url, DB_NAME), API_THROTTLE_RATE="100000000/min", API_THROTTLE_WRITE_RATE="100000000/min")
    create_database(url, DB_NAME)
    try:
        migrate_and_seed(env)
        token = manage(env, "create_api_client", "bench-crm", "--scope", "quote").strip()
        failed = 0 if args.cpu_only else through_gunicorn(args, env, token)
        os.environ.update(env)
        failed += in_process(args, token)
    finally:
        from django.db import connections

        connections.close_all()
        if not args.keep:
            drop_database(url, DB_NAME)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
