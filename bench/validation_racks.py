"""What the rack plan costs in validation, in the result's size, at the command line and on the alternatives page.

Run from the project root: ``.venv/bin/python bench/validation_racks.py [runs]``. Uses a throw-away SQLite test
database with the seed catalogue (no PostgreSQL, no Redis), and for the command line a throw-away SQLite file
migrated and seeded first (not timed). The design is the contract's example (SYS-821GE-TNHR, HGX-H200-8GPU,
8 x MCX75310AAS-NEAT, MQM9700-NS2F rail-optimized) at 128, 2,048 and 100,000 nodes (at 100,000 the fabric has too
few ports, an error finding, and the 50,000 racks stand in 6,250 rows of 8).

1. Rack steps (engines.cluster.pipeline): plan the racks from the fabric's switch counts, take the distances,
   choose the fabric's media again with them, write ``rack_plan``; "without racks" is the full time less those.
   Each validation here plans its racks afresh (the per-process plan memo is cleared first). Target (issue 14): a
   few milliseconds at 2,048 nodes.
2. Result size and serialisation: the result as ``json.dumps`` writes it (the CLI's one-line form) and as the
   API sends it (compact, which the targets hold): at most 100 kB for 2,048 nodes and 1 MB for a valid
   100,000-node design (one MCX75310AAS-NEAT per node on an SN5600 fabric: 51,693 racks, 6 distinct, written
   once each with the ranges of racks holding them); ``json.dumps`` time against the validation's.
3. ``manage.py validate_design`` end to end for a generated 100,000-node design (wall clock, and the process's
   CPU time, which the load of a shared machine changes less), against 4 s.
4. The alternatives page's first view for a 100,000-node draft (training 70B, target 100,000 nodes; the recommender's
   caches and the plan memo empty, as in a fresh worker), against 3 s: the page validates 29 designs, whose racks
   come down to 3 distinct plans, each planned once; what remains per validation is writing a 6,250-row result.
"""

from __future__ import annotations

import json
import os
import pathlib
import resource
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "project.settings.test")
os.environ.pop("DATABASE_URL", None)

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

from catalog.services import catalog_load_seed  # noqa: E402
from configurator import recommend  # noqa: E402
from configurator.examples import h200_training_cluster  # noqa: E402
from configurator.services import configuration_create, design_validate  # noqa: E402
from configurator.snapshot import catalog_snapshot  # noqa: E402
from engines.cluster import rackplan  # noqa: E402
from engines.cluster.pipeline import fabric_inputs  # noqa: E402
from engines.cluster.rackplan import (  # noqa: E402
    build_rack_plan,
    distances,
    fabric_rack_with_distances,
    rack_plan_section,
)
from engines.fabric.check import check_design_fabric  # noqa: E402
from engines.intake.parse import parse_design  # noqa: E402
from engines.node.engine import validate_nodes  # noqa: E402

SIZE_FLOOR = {2048: 100_000, 100_000: 1_000_000}  # bytes, as the API sends the result
CLI_FLOOR_S = 4.0
ALTERNATIVES_FLOOR_S = 3.0


def forget_plans() -> None:
    """Empty the per-process rack plan memo (absent before there was one), so each run plans afresh."""
    clear = getattr(rackplan, "rack_plan_memo_clear", None)
    if clear is not None:
        clear()


def median_ms(fn, runs: int) -> float:
    forget_plans()
    fn()
    times = []
    for _ in range(runs):
        forget_plans()
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def design(nodes: int) -> dict:
    doc = h200_training_cluster()
    doc["node_groups"][0]["count"] = nodes
    return doc


def rack_steps_table(runs: int) -> None:
    catalog = catalog_snapshot()
    print(f"1. rack steps inside validation, median of {runs} runs, ms")
    print(f"{'nodes':>7} {'racks':>6} {'validate':>9} {'rack steps':>11} {'without racks':>14}")
    for nodes in (128, 2048):
        doc = design(nodes)
        parsed = parse_design(doc)
        node = validate_nodes(parsed, catalog)
        args = fabric_inputs(node.groups)
        _, fabric = check_design_fabric(design=parsed, catalog=catalog, **args)

        def rack_steps(parsed=parsed, node=node, fabric=fabric, args=args) -> int:
            racks, _ = build_rack_plan(parsed, catalog, node.totals, fabric)
            lengths = distances(racks, parsed)
            rack = fabric_rack_with_distances(racks, parsed, lengths)
            laid_out = parsed.model_copy(update={"fabric": parsed.fabric.model_copy(update={"rack": rack})})
            check_design_fabric(design=laid_out, catalog=catalog, **args)
            rack_plan_section(racks, lengths, parsed, node.totals).to_json()
            return racks.rack_count

        full = median_ms(lambda doc=doc: design_validate(document=doc).to_json(), runs)
        steps = median_ms(rack_steps, runs)
        print(f"{nodes:>7} {rack_steps():>6} {full:>9.1f} {steps:>11.1f} {full - steps:>14.1f}")


def valid_100000() -> dict:
    """A valid 100,000-node design: the example with one MCX75310AAS-NEAT per node on an SN5600 fabric."""
    doc = design(100_000)
    doc["fabric"]["switch"] = "SN5600"
    doc["node_groups"][0]["components"][1]["quantity"] = 1
    doc.pop("workload")
    return doc


def size_table(runs: int) -> None:
    print(f"\n2. result size and serialisation, median of {runs} runs")
    head = f"{'nodes':>7} {'racks':>6} {'entries':>7} {'size kB':>8} {'API kB':>7} {'floor kB':>8}"
    print(head, f"{'validate ms':>11} {'dumps ms':>8}  verdict")
    for nodes, doc in ((2048, design(2048)), (100_000, valid_100000())):
        result = design_validate(document=doc).to_json()
        assert result["valid"], [f["code"] for f in result["findings"] if f["severity"] == "error"]
        size = len(json.dumps(result, ensure_ascii=False, default=str).encode())
        compact = len(json.dumps(result, ensure_ascii=False, separators=(",", ":"), default=str).encode())
        validate = median_ms(lambda doc=doc: design_validate(document=doc).to_json(), runs)
        dumps = median_ms(lambda result=result: json.dumps(result, ensure_ascii=False, default=str), runs)
        floor = SIZE_FLOOR[nodes]
        entries = len(result["rack_plan"]["racks"])
        verdict = "ok" if compact <= floor else "OVER"
        print(
            f"{nodes:>7} {result['totals']['racks']:>6} {entries:>7} {size / 1000:>8.1f} {compact / 1000:>7.1f} "
            f"{floor / 1000:>8.0f} {validate:>11.1f} {dumps:>8.1f}  {verdict}"
        )


def cli_time(runs: int) -> None:
    print(f"\n3. manage.py validate_design, 100,000 nodes, end to end, median of {runs} runs")
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "project.settings.local"}
        env["DATABASE_URL"] = f"sqlite:///{tmp}/cli.sqlite3"
        manage = [sys.executable, str(ROOT / "manage.py")]
        for setup in (["migrate", "-v0"], ["load_catalog"]):
            subprocess.run(manage + setup, env=env, cwd=ROOT, check=True, capture_output=True)
        path = pathlib.Path(tmp) / "design.json"
        path.write_text(json.dumps(design(100_000)))
        walls, cpus, out = [], [], b""
        for _ in range(runs):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t = time.perf_counter()
            done = subprocess.run(manage + ["validate_design", str(path)], env=env, cwd=ROOT, capture_output=True)
            walls.append(time.perf_counter() - t)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
            out = done.stdout
        wall, cpu = statistics.median(walls), statistics.median(cpus)
        verdict = "ok" if wall <= CLI_FLOOR_S else "OVER"
        print(f"wall {wall:.2f} s, CPU {cpu:.2f} s, output {len(out) / 1000:.0f} kB (indent 2); floor {CLI_FLOOR_S} s")
        print(f"exit {done.returncode} (1: the design has errors, as at 100,000 nodes on this fabric)  {verdict}")


def alternatives_time() -> None:
    print("\n4. alternatives page, 100,000-node draft, first view")
    doc = {
        "schema": "design/v1",
        "name": "Training 70B at 100,000 nodes",
        "workload": {"kind": "training", "model_parameters_billion": 70, "target_nodes": 100_000},
        "node_groups": [],
    }
    config = configuration_create(document=doc)
    recommend._cache.clear()
    recommend._alt_cache.clear()
    forget_plans()
    planned = []
    plan_racks = rackplan.plan_racks
    rackplan.plan_racks = lambda **kw: planned.append(1) or plan_racks(**kw)
    t = time.perf_counter()
    response = Client().get(f"/d/{config.token}/alternatives/")
    first = time.perf_counter() - t
    rackplan.plan_racks = plan_racks
    t = time.perf_counter()
    Client().get(f"/d/{config.token}/alternatives/")
    again = time.perf_counter() - t
    verdict = "ok" if first <= ALTERNATIVES_FLOOR_S and response.status_code == 200 else "OVER"
    made = len(planned)
    print(f"status {response.status_code}, first view {first:.2f} s (rack plans made: {made}), again {again:.2f} s")
    print(f"floor {ALTERNATIVES_FLOOR_S} s  {verdict}")


def main(runs: int) -> None:
    setup_test_environment()  # the test client's host, as in the tests
    connection.creation.create_test_db(verbosity=0)
    catalog_load_seed()
    rack_steps_table(runs)
    size_table(max(3, runs // 3))
    alternatives_time()
    cli_time(3)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 15)
