"""Benchmark of the design parser (engines.intake.parse.parse_design): median microseconds per document, for a design of
one node group and one of 100 node groups (the most a design may have), each with a fabric, a workload and the
component mix of an HGX training node; then the same for a document refused for one bad field in every group.

The parser runs on every request (the API, the command line, the wizard's validation), so it must stay far below
the engines' cost (bench/rules.py: under 1 ms per node group).

Run from the project root: ``.venv/bin/python bench/parse.py [runs]`` (default 2,000 runs of the small design,
a tenth of that of the large one). No database, no Django.
"""

from __future__ import annotations

import contextlib
import copy
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from design.model import DesignInputError  # noqa: E402
from engines.intake.parse import parse_design  # noqa: E402


def group(n: int) -> dict:
    return {
        "name": f"gpu-{n}",
        "count": 4 + n % 5,
        "server": "SYS-821GE-TNHR",
        "components": [
            {"part": "HGX-H200-8GPU", "quantity": 1},
            {"part": "MCX75310AAS-NEAT", "quantity": 8, "role": "compute"},
            {"part": "900-9D3D4-00EN-HA0", "quantity": 2, "role": "storage", "ports_used": 1},
            {"part": "P4X-EMR8580-SRMZR", "quantity": 2, "role": "cpu"},
            {"part": "MEM-DR564MC-ER56", "quantity": 32, "role": "memory"},
        ],
    }


def document(groups: int) -> dict:
    return {
        "schema": "design/v1",
        "name": f"{groups} groups",
        "workload": {"kind": "training", "model_parameters_billion": 70, "mode": "pretraining", "precision": "bf16"},
        "node_groups": [group(n) for n in range(groups)],
        "fabric": {"switch": "MQM9700-NS2F", "oversubscription": "1:1", "rack": {"leaf_to_spine_m": 30}},
        "facility": {"rack_units": 42, "cooling": "air"},
    }


def refused(groups: int) -> dict:
    doc = copy.deepcopy(document(groups))
    for g in doc["node_groups"]:
        g["components"][1]["quantity"] = "8"
    return doc


def median_us(doc: dict, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        with contextlib.suppress(DesignInputError):
            parse_design(doc)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 2_000
    for label, doc, n in (
        ("1 group", document(1), runs),
        ("100 groups", document(100), max(runs // 10, 20)),
        ("1 group, refused", refused(1), runs),
        ("100 groups, refused", refused(100), max(runs // 10, 20)),
    ):
        median_us(doc, max(n // 10, 5))  # warm up
        us = median_us(doc, n)
        print(f"parse_design, {label:<20} {us:10.1f} µs per design ({n} runs, median)")


if __name__ == "__main__":
    main()
