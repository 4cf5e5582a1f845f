"""Installed devices moved by growth, per fabric kind: twin-plane Spectrum-X fabrics (HGX B300 with ConnectX-8,
GB300 NVL72 racks, both on SN5600), the single-plane rail-optimized ones (HGX H200 and GB200 NVL72 on QM9700) and
an HGX H200 fat-tree. Each row: the growth, the devices ``expansion_plan`` says moved, whether
EXPANSION_DEVICES_MOVED was found, and the grown design's racks.

Run from the project root: ``.venv/bin/python bench/expansion_kinds.py [kind ...]``.
"""

from __future__ import annotations

import pathlib
import re
import sys
import time
from collections import Counter

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from bench._designs import design as h200  # noqa: E402
from bench._growths import catalog_load_seed, connection  # noqa: E402  (sets Django up)
from quotes.services.expansion import Growth, expansion_plan  # noqa: E402


def _doc(server: str, count: int, switch: str, components: list[dict], topology: str | None = None) -> dict:
    fabric: dict = {"switch": switch}
    if topology:
        fabric["topology"] = topology
    return {
        "schema": "design/v1",
        "name": f"{count} x {server}",
        "node_groups": [{"name": "gpu", "count": count, "server": server, "components": components}],
        "fabric": fabric,
    }


def b300(count: int) -> dict:
    return _doc("SYS-822GS-NB3RT", count, "SN5600", [{"part": "HGX-B300-8GPU", "quantity": 1}])


def gb300(racks: int) -> dict:
    return _doc("SRS-GB300-NVL72", racks, "SN5600", [])


def gb200(racks: int) -> dict:
    return _doc("SRS-GB200-NVL72", racks, "MQM9700-NS2F", [])


def b300_fat_tree(count: int) -> dict:
    doc = b300(count)
    doc["fabric"]["topology"] = "fat-tree"
    return doc


def h200_fat_tree(count: int) -> dict:
    doc = h200(count)
    doc["fabric"]["topology"] = "fat-tree"
    return doc


KINDS = {
    "b300-sn5600": (b300, [(8, 16), (16, 32), (32, 64), (64, 128), (64, 96), (100, 200)]),
    "gb300-sn5600": (gb300, [(1, 2), (2, 4), (4, 8), (8, 16), (3, 7), (16, 32)]),
    "h200-fat-tree": (
        h200_fat_tree,
        [(2, 3), (4, 6), (8, 24), (20, 40), (24, 32), (32, 64), (40, 100), (64, 96), (96, 128), (128, 256)],
    ),
    "b300-fat-tree": (b300_fat_tree, [(8, 16), (16, 40), (40, 100), (64, 128)]),
    "h200-rail": (h200, [(8, 24), (32, 64), (64, 128)]),
    "gb200-qm9700": (gb200, [(8, 16), (16, 32)]),
}


def row(make, small: int, large: int) -> str:
    start = time.perf_counter()
    e = expansion_plan(installed=make(small), growth=Growth(node_group="gpu", add=large - small))
    moved = Counter(re.sub(r"\d+", "#", d.device) for d in e.cabling.moved)
    found = "EXPANSION_DEVICES_MOVED" in {f.code for f in e.findings}
    racks = e.result.rack_plan.rack_count
    fp = e.result.fabric_plan.plan if e.result.fabric_plan else None
    switches = f"{fp.leaf_switches}/{fp.spine_switches}/{fp.core_switches}" if fp else "-"
    return (
        f"| {small} → {large} | {len(e.cabling.moved)} | {dict(moved) or ''} | {found} | {racks} | {switches} "
        f"| {time.perf_counter() - start:.1f} s |"
    )


def main(kinds: list[str]) -> None:
    connection.creation.create_test_db(verbosity=0)
    catalog_load_seed()
    for kind in kinds or list(KINDS):
        make, growths = KINDS[kind]
        print(f"\n{kind}\n\n| Growth | Moved | By kind | Finding | Racks | Leaf/spine/core | Time |")
        print("|---|---|---|---|---|---|---|")
        for small, large in growths:
            print(row(make, small, large), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
