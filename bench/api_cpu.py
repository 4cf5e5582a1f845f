"""CPU time of one /healthz and one POST /api/v1/designs/validate/ in one process, and where the validation's goes.

    .venv/bin/python bench/api_cpu.py [--batches 40] [--size 25] [--profile]

bench/api.py measures the ratio through gunicorn, where other work on the machine moves it; this calls the WSGI
application in-process (production settings, its own PostgreSQL database ``bench_api_cpu`` as bench/api.py makes
it, Redis as the cache when it answers) and counts CPU time of this process only, so a busy machine moves it
less. It prints, per request, the tenth percentile of ``--batches`` batches of ``--size`` (the quiet moments):

* GET /healthz and POST validate (the contract's example, as bench/api.py sends it: a new design each request,
  its node group named afresh, so no per-process rack plan memo is hit);
* the same validate answering a result validated once before: the request around the engine (DRF, the token
  and throttle cache round trips, parsing, rendering the answer);
* the engine alone (configurator.services.design_validate, in the request's language);
* GET /api/v1/configurations/ (the first page, 50 of 116 stored, every other one quoted, as bench/api.py stores
  them, for a client of scope ``quote``) and POST validate of the example at 2,048 nodes, and their ratio (target
  at most 1, as bench/api.py's through gunicorn).

``--profile`` then prints cProfile's 40 most expensive functions of 300 validations (cumulative time), or of 300
list pages with ``--profile-list``.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import sys
import time

from _server import ROOT, create_database, drop_database, env_for, manage, migrate_and_seed, server_url, with_db

sys.path.insert(0, str(ROOT))  # the project's ``api`` package, not bench/api.py beside this script

DB_NAME = os.environ.get("BENCH_DB_NAME", "bench_api_cpu")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--batches", type=int, default=40)
    parser.add_argument("--size", type=int, default=25)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--profile-list", action="store_true")
    parser.add_argument("--profile-around", action="store_true", help="profile validate with the engine's answer kept")
    parser.add_argument("--sort", default="cumulative", help="cProfile's order: cumulative or tottime")
    args = parser.parse_args()

    url = server_url()
    env = env_for(with_db(url, DB_NAME), API_THROTTLE_RATE="100000000/min", API_THROTTLE_WRITE_RATE="100000000/min")
    create_database(url, DB_NAME)
    try:
        migrate_and_seed(env)
        token = manage(env, "create_api_client", "bench", "--scope", "read").strip()
        args.crm_token = manage(env, "create_api_client", "bench-crm", "--scope", "quote").strip()
        os.environ.update(env)
        return measure(token, args)
    finally:
        from django.db import connections

        connections.close_all()
        drop_database(url, DB_NAME)


def measure(token: str, args) -> int:
    from django.core.wsgi import get_wsgi_application

    return measure_in(get_wsgi_application(), token, args)  # Django is set up with the production settings


def measure_in(application, token: str, args) -> int:
    import api.views.designs as designs
    from configurator.examples import h200_training_cluster
    from configurator.services import design_validate

    document = h200_training_cluster()
    calls = 20 + args.batches * args.size + 300  # warm-up, batches, a profile
    # A new design every validation (its node group named afresh): no per-process rack plan memo is hit.
    documents = iter(_fresh(document, 4, calls))
    bodies = iter(json.dumps(d).encode() for d in _fresh(document, 4, calls))
    large_bodies = iter(json.dumps(d).encode() for d in _fresh(document, 2048, calls))

    def call(method: str, path: str, payload: bytes = b"", expect: str = "200", **headers: str) -> bytes:
        environ = {
            "REQUEST_METHOD": method,
            "PATH_INFO": path,
            "QUERY_STRING": "",
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
        status = []
        response = application(environ, lambda s, h, *exc: status.append(s))
        try:
            content = b"".join(response)
        finally:
            response.close()  # as gunicorn does: request_finished runs
        if not status[0].startswith(expect):
            raise SystemExit(f"{method} {path}: {status[0]} {content[:200]!r}")
        return content

    def healthz() -> None:
        call("GET", "/healthz")

    def validate() -> None:
        content = call(
            "POST",
            "/api/v1/designs/validate/",
            next(bodies),
            CONTENT_TYPE="application/json",
            HTTP_AUTHORIZATION=f"Bearer {token}",
        )
        if b'"valid":true' not in content:
            raise SystemExit(f"validate: not valid: {content[:200]!r}")

    def engine() -> None:
        design_validate(document=next(documents), language="en")

    crm = {"HTTP_AUTHORIZATION": f"Bearer {args.crm_token}"}
    store_configurations(call, crm, document)

    def listing() -> None:
        call("GET", "/api/v1/configurations/", **crm)

    def validate_large() -> None:
        call("POST", "/api/v1/designs/validate/", next(large_bodies), CONTENT_TYPE="application/json", **crm)

    validated = design_validate(document=document, language="en")
    real = designs.design_validate

    def around() -> None:
        designs.design_validate = lambda **kwargs: validated
        try:
            validate()
        finally:
            designs.design_validate = real

    cases = {
        "GET /healthz": healthz,
        "POST validate": validate,
        "  around the engine": around,
        "  engine": engine,
        "GET configurations": listing,
        "POST validate 2,048": validate_large,
    }
    for fn in cases.values():
        for _ in range(20):
            fn()
    times: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(args.batches):
        for name, fn in cases.items():
            started = time.process_time()
            for _ in range(args.size):
                fn()
            times[name].append((time.process_time() - started) / args.size * 1000)
    print(f"CPU ms per request, in-process (tenth percentile, median of {args.batches} batches of {args.size}):")
    p10 = {}
    for name, values in times.items():
        values.sort()
        p10[name] = values[len(values) // 10]
        print(f"{name:<24}{p10[name]:>8.3f}{values[len(values) // 2]:>8.3f}")
    print(f"ratio healthz/validate: {p10['GET /healthz'] / p10['POST validate']:.2f}")
    list_ratio = p10["GET configurations"] / p10["POST validate 2,048"]
    print(f"ratio list/validate 2,048 nodes: {list_ratio:.2f} (target <= 1)")
    if args.profile or args.profile_list or args.profile_around:
        profile = cProfile.Profile()
        profile.enable()
        for _ in range(300):
            listing() if args.profile_list else around() if args.profile_around else validate()
        profile.disable()
        pstats.Stats(profile).sort_stats(args.sort).print_stats(40)
    return 0


def _fresh(document: dict, nodes: int, count: int) -> list[dict]:
    """``count`` new designs: ``document`` at ``nodes`` nodes, each with its node group named afresh."""
    group = document["node_groups"][0]
    return [{**document, "node_groups": [{**group, "count": nodes, "name": f"gpu-{i}"}]} for i in range(count)]


def store_configurations(call, crm: dict[str, str], document: dict) -> None:
    """bench/api.py's 116 configurations, every other one with a quote that waits for review (an unmanaged
    switch: no document is built)."""
    customer = {"name": "Ada Lovelace", "company": "Analytical Engines BV", "email": "ada@example.nl", "country": "NL"}
    unmanaged = {"fabric": {**document["fabric"], "switch": "MQM9790-NS2F"}}
    for i in range(116):
        design = {**document, "name": f"Opportunity {i}", **(unmanaged if i % 2 else {})}
        body = json.dumps({"document": design}).encode()
        answer = call("POST", "/api/v1/configurations/", body, "201", CONTENT_TYPE="application/json", **crm)
        stored = json.loads(answer)
        if i % 2:
            quote = json.dumps({"configuration": stored["id"], "customer": customer}).encode()
            call("POST", "/api/v1/quotes/", quote, "202", CONTENT_TYPE="application/json", **crm)


if __name__ == "__main__":
    sys.exit(main())
