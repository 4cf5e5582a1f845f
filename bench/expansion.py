"""The expansion quote on the contract's H200 design (HGX H200, eight ConnectX-7, MQM9700, rail-optimized): the
installed size grown to the larger one through the one service (quotes.services.expansion), and what it says:
compute cables kept, moved, added and removed, the same over every network, installed devices moved, the labour
line's cables and the switches and servers to buy.

Run from the project root: ``.venv/bin/python bench/expansion.py [--networks] [64:96 96:128 128:256 ...]``
(``--networks``: every node with a BlueField-3 for the storage network and a ConnectX-7 for in-band management,
so the management racks hold storage, in-band and central out-of-band switches beside the control plane). Uses
a throw-away SQLite test database with the seed catalogue.
"""

from __future__ import annotations

import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from bench._designs import design  # noqa: E402
from bench._growths import print_table  # noqa: E402  (sets Django up)
from engines.fabric.growth import Action  # noqa: E402
from quotes.services.expansion import Growth, expansion_plan  # noqa: E402

NETWORKS = "--networks" in sys.argv[1:]  # every node with a storage and an in-band adapter too


def row(small: int, large: int) -> str:
    start = time.perf_counter()
    e = expansion_plan(installed=design(small, networks=NETWORKS), growth=Growth(node_group="gpu", add=large - small))
    seconds = time.perf_counter() - start
    c = e.cabling
    compute = "/".join(f"{c.count(a, 'compute'):,}" for a in Action)
    every = "/".join(f"{c.count(a):,}" for a in Action)
    bought = {line.part_number: line.quantity for line in e.bill.delta}
    found = ", ".join(f.code for f in e.findings) or "none"
    return (
        f"| {small} → {large} | {compute} | {every} | {len(c.moved)} | {c.labour_cables:,} "
        f"| {bought.get('SYS-821GE-TNHR', 0)} / {bought.get('MQM9700-NS2F', 0)} | {found} | {seconds:.1f} s |"
    )


def main(args: list[str]) -> None:
    print_table(
        args,
        [
            "Growth",
            "Compute cables kept/moved/added/removed",
            "All networks",
            "Devices moved",
            "Labour cables",
            "Servers / QM9700 to buy",
            "Findings",
            "Time",
        ],
        row,
    )


if __name__ == "__main__":
    main([a for a in sys.argv[1:] if a != "--networks"])
