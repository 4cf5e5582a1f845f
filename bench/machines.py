"""The quote burst on separate machines: its p95 with one worker machine and with two.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python bench/machines.py

Two web machines and one, then two, worker machines (bench/_machines.py: own ports and media directories, the
production settings; one PostgreSQL database of the bench's own, one redis-server and one S3 object store of its own)
take a burst of BENCH_BURST (default 20) concurrent quote requests of 4 nodes each, sent alternately to the two web
machines through the API as CRM clients send them. Each request is timed from its POST to its quote's documents
being ready (polled every 0.2 s through the web machine it was sent to). Prints the p50 and p95 with one worker and
with two, and how many documents each worker built. On one host the machines share its cores: the figures show the
queue draining faster with a second worker only as far as the host has a free core for it.
"""

from __future__ import annotations

import http.client
import json
import statistics
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _server  # noqa: E402
from _designs import design  # noqa: E402
from _machines import Machines, ObjectStore, RedisServer  # noqa: E402

BURST = int(__import__("os").environ.get("BENCH_BURST", "20"))


def call(port: int, token: str, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        headers = {"Host": "127.0.0.1", "Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        response = conn.getresponse()
        return response.status, json.loads(response.read() or b"{}")
    finally:
        conn.close()


def burst(web: list[int], token: str, label: str) -> list[float]:
    """BURST concurrent requests; seconds from each POST to its documents being ready."""
    barrier = threading.Barrier(BURST)
    times: list[float] = []
    errors: list[str] = []

    def one(n: int) -> None:
        port = web[n % len(web)]
        customer = {"name": f"{label} {n}", "company": "Lab B.V.", "email": f"c{n}@example.nl", "country": "NL"}
        barrier.wait(60)
        started = time.monotonic()
        status, body = call(port, token, "POST", "/api/v1/quotes/", {"design": design(4), "customer": customer})
        if status != 202:
            errors.append(f"{status} {body}")
            return
        while time.monotonic() - started < 300:
            status, quote = call(port, token, "GET", f"/api/v1/quotes/{body['id']}/")
            if quote.get("doc_status") in ("ready", "failed"):
                if quote["doc_status"] == "ready":
                    times.append(time.monotonic() - started)
                else:
                    errors.append(f"quote {body['id']} failed")
                return
            time.sleep(0.2)
        errors.append(f"quote {body['id']} not ready after 300 s")

    threads = [threading.Thread(target=one, args=(n,)) for n in range(BURST)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise SystemExit(f"{label}: {len(errors)} failed requests, e.g. {errors[:3]}")
    return times


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20, method="inclusive")[-1]


def main() -> None:
    work = Path(tempfile.mkdtemp(prefix="machines-bench-"))
    url = _server.server_url()
    name = f"bench_machines_{uuid.uuid4().hex[:8]}"
    _server.create_database(url, name)
    (work / "redis").mkdir()
    redis = RedisServer(work / "redis")
    redis.start()
    store = ObjectStore(work / "s3.log")
    machines = Machines(work, _server.with_db(url, name), redis, store)
    try:
        setup = machines.env("setup")
        _server.migrate_and_seed(setup)
        token = _server.manage(setup, "create_api_client", "crm", "--scope", "quote").strip()
        web = [machines.web("web-a"), machines.web("web-b")]
        machines.worker("worker-a")
        call(web[0], token, "GET", "/api/v1/quotes/")  # first requests of each process out of the way
        results = {}
        one = burst(web, token, "one worker")
        results["one worker"] = (one, {"worker-a": machines.built_by("worker-a")})
        machines.worker("worker-b")
        before = {"worker-a": machines.built_by("worker-a"), "worker-b": 0}
        two = burst(web, token, "two workers")
        results["two workers"] = (
            two,
            {w: machines.built_by(w) - before[w] for w in ("worker-a", "worker-b")},
        )
        print(f"quote burst: {BURST} concurrent requests of 4 nodes through 2 web machines (POST to documents ready)")
        for label, (times, built) in results.items():
            shares = ", ".join(f"{w} built {n}" for w, n in built.items())
            print(f"  {label:12s} p50 {statistics.median(times):5.2f} s  p95 {p95(times):5.2f} s  ({shares})")
        print(f"  p95 two workers / one worker: {p95(two) / p95(one):.2f}")
    finally:
        machines.stop_all()
        store.stop()
        redis.stop()
        _server.drop_database(url, name)


if __name__ == "__main__":
    main()
