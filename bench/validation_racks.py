"""What the rack plan adds to validation: a 2,048-node design validated in full, and the rack steps alone.

Run from the project root: ``.venv/bin/python bench/validation_racks.py [runs]``. Uses a throw-away SQLite test
database with the seed catalogue (no PostgreSQL, no Redis). The design is the contract's example (SYS-821GE-TNHR,
HGX-H200-8GPU, 8 x MCX75310AAS-NEAT, MQM9700-NS2F rail-optimized) at 2,048 nodes (and 128 for scale).

The rack steps are what validation does because of the racks (configurator.validation): plan the racks from the
fabric's switch counts, take the distances, choose the fabric's media again with them, and write ``rack_plan``.
"Without the rack plan" is the full time less those steps. Target (issue 14): a few milliseconds at 2,048 nodes.
"""

from __future__ import annotations

import dataclasses
import os
import pathlib
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "configurator.settings.test")
os.environ.pop("DATABASE_URL", None)

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402

from catalog.services import catalog_load_seed  # noqa: E402
from configurator.examples import h200_training_cluster  # noqa: E402
from configurator.rackplan import (  # noqa: E402
    build_rack_plan,
    distances,
    fabric_rack_with_distances,
    rack_plan_dict,
)
from configurator.services import design_validate  # noqa: E402
from configurator.snapshot import catalog_snapshot  # noqa: E402
from configurator.validation import _fabric_inputs  # noqa: E402
from design.parse import parse_design  # noqa: E402
from engines.fabric.check import check_design_fabric  # noqa: E402
from engines.node.engine import validate_nodes  # noqa: E402


def median_ms(fn, runs: int) -> float:
    fn()
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def main(runs: int) -> None:
    connection.creation.create_test_db(verbosity=0)
    catalog_load_seed()
    catalog = catalog_snapshot()
    print(f"median of {runs} runs, ms")
    print(f"{'nodes':>6} {'racks':>6} {'validate':>9} {'rack steps':>11} {'without racks':>14}")
    for nodes in (128, 2048):
        doc = h200_training_cluster()
        doc["node_groups"][0]["count"] = nodes
        design = parse_design(doc)
        node = validate_nodes(design, catalog)
        args = _fabric_inputs(design, catalog)
        _, fabric = check_design_fabric(design=design, catalog=catalog, **args)

        def rack_steps(design=design, node=node, fabric=fabric, args=args) -> int:
            racks, _ = build_rack_plan(design, catalog, node.totals, fabric)
            lengths = distances(racks, design)
            rack = fabric_rack_with_distances(racks, design, lengths)
            laid_out = dataclasses.replace(design, fabric=dataclasses.replace(design.fabric, rack=rack))
            check_design_fabric(design=laid_out, catalog=catalog, **args)
            rack_plan_dict(racks, lengths, design, node.totals)
            return racks.rack_count

        full = median_ms(lambda doc=doc: design_validate(document=doc), runs)
        steps = median_ms(rack_steps, runs)
        print(f"{nodes:>6} {rack_steps():>6} {full:>9.1f} {steps:>11.1f} {full - steps:>14.1f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 15)
