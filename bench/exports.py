"""Benchmark of the hand-over exports of a 2,048-node design against the cabling CSV they are read from: the time
to render (and join) each export of outputs.registry from one validation result. An export of 2,048 nodes should
stream or finish in about the time of the cabling CSV.

    .venv/bin/python bench/exports.py

Prints, for the cabling CSV and each hand-over export, its size and the median over RUNS (5) of the wall and this
process's CPU time, and of the time until its first piece is made (a door streams the pieces as they come: the
cut-sheet's first leaves before its rows are read). Runs in a throw-away SQLite test database with the seed
catalogue (the validation reads it);
BENCH_NODES (2048) sizes the design.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "project.settings.test")
os.environ.pop("DATABASE_URL", None)

import django  # noqa: E402
from _designs import design  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402

RUNS = 5
NODES = int(os.environ.get("BENCH_NODES", "2048"))
ALL = "cabling.csv,netbox.zip,topology.conf,topology.yaml,fabric.topo,cut-sheet.xlsx"
NAMES = tuple(os.environ.get("BENCH_EXPORTS", ALL).split(","))  # BENCH_EXPORTS: a comma-separated choice


def main() -> None:
    from catalog.services import catalog_load_seed
    from configurator.services import design_validate
    from outputs.services import design_output

    connection.creation.create_test_db(verbosity=0)
    catalog_load_seed()
    result = design_validate(document=design(NODES))

    def render(name: str) -> tuple[int, float]:
        """The export's size, and the seconds until its first piece left (what a streaming door sends first)."""
        start = time.perf_counter()
        pieces = iter(design_output(name=name, result=result, language="en").body)
        first = next(pieces, b"")
        first_s = time.perf_counter() - start
        return len(first) + sum(len(c) for c in pieces), first_s

    for name in NAMES:
        size, _first = render(name)  # once before timing
        walls, cpus, firsts = [], [], []
        for _ in range(RUNS):
            wall, cpu = time.perf_counter(), time.process_time()
            firsts.append(render(name)[1])
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
        print(
            f"{NODES}-node {name:15} {size:10,} bytes  {statistics.median(walls) * 1000:8.1f} ms wall "
            f"{statistics.median(cpus) * 1000:8.1f} ms CPU  first piece {statistics.median(firsts) * 1000:7.1f} ms "
            f"(median of {RUNS})"
        )


if __name__ == "__main__":
    main()
