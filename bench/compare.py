"""Time of the comparison pages: a workload's alternatives side by side, and two drafts side by side.

    .venv/bin/python bench/compare.py [runs]

In-process, with the Django test client on a throw-away SQLite test database (the test settings; no server, no
shared database): loads the seed catalogue, then for each goal below times

- the goal step (which links to the alternatives but never computes them),
- the alternatives page cold (every memo emptied first: the recommendation, the alternatives and the validation
  memo, so it validates each candidate design it judges) and warm (the same page again),
- the comparison of two drafts cold and warm,

and prints the median and the maximum of ``runs`` (default 5) per page, in milliseconds.
"""

from __future__ import annotations

import os
import pathlib
import statistics
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ["DJANGO_SETTINGS_MODULE"] = "project.settings.test"
if os.environ.get("DATABASE_URL"):
    sys.exit("bench/compare.py runs on its own SQLite test database: unset DATABASE_URL first.")

import django  # noqa: E402

django.setup()

from django.test import Client  # noqa: E402
from django.test.runner import DiscoverRunner  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

GOALS = [
    ("training", 70),  # one HGX node
    ("training", 405),  # a six-node InfiniBand cluster: the Ethernet variant too
    ("inference", 70),  # PCIe cards in one server
    ("training", 1000),  # fourteen nodes
]


def forget() -> None:
    from configurator import recommend
    from web import selectors

    recommend._cache.clear()
    recommend._alt_cache.clear()
    selectors._validations.clear()


def timed(client: Client, path: str, params: dict | None = None) -> float:
    t0 = time.perf_counter()
    response = client.get(path, params or {})
    elapsed = (time.perf_counter() - t0) * 1000
    if response.status_code != 200:
        raise RuntimeError(f"GET {path} -> {response.status_code}")
    return elapsed


def main(runs: int) -> None:
    setup_test_environment()
    runner = DiscoverRunner(verbosity=0)
    databases = runner.setup_databases()
    try:
        from catalog.services import catalog_load_seed
        from configurator.services import configuration_create

        catalog_load_seed()
        client = Client()
        drafts = []
        timings: dict[str, list[float]] = {}
        for kind, params in GOALS:
            doc = {
                "schema": "design/v1",
                "name": f"{kind} {params}B",
                "workload": {"kind": kind, "model_parameters_billion": params},
                "node_groups": [],
            }
            config = configuration_create(document=doc)
            timed(client, f"/d/{config.token}/goal/")  # the catalogue snapshot and templates loaded once
            for _ in range(runs):
                forget()
                timings.setdefault(f"goal step, {kind} {params}B", []).append(timed(client, f"/d/{config.token}/goal/"))
                forget()
                cold = timed(client, f"/d/{config.token}/alternatives/")
                warm = timed(client, f"/d/{config.token}/alternatives/")
                timings.setdefault(f"alternatives cold, {kind} {params}B", []).append(cold)
                timings.setdefault(f"alternatives warm, {kind} {params}B", []).append(warm)
            drafts.append(configuration_create(document=doc))
        from configurator import comparison
        from web import selectors

        view = selectors.catalog()
        a, b = (  # two drafts holding designs the recommender proposed
            configuration_create(document=comparison.recommendation(d.document, view).document) for d in drafts[:2]
        )
        session = client.session
        session["configurator.drafts"] = [a.token, b.token]
        session.save()
        for _ in range(runs):
            forget()
            timings.setdefault("two drafts cold", []).append(timed(client, "/compare/", {"a": a.token, "b": b.token}))
            timings.setdefault("two drafts warm", []).append(timed(client, "/compare/", {"a": a.token, "b": b.token}))
        width = max(len(k) for k in timings)
        print(f"{'page':<{width}}  median ms     max ms   ({runs} runs, SQLite, in-process)")
        for name, values in timings.items():
            print(f"{name:<{width}}  {statistics.median(values):9.1f}  {max(values):9.1f}")
    finally:
        runner.teardown_databases(databases)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
