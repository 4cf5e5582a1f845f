"""How stable the plans are as a cluster grows: the contract's H200 design (HGX H200, eight ConnectX-7, MQM9700,
rail-optimized) validated at the installed size and at the larger one, and the two cabling lists compared
(``engines.fabric.growth``): leaf-spine cables re-terminated (a cable whose spine end, switch or port, changed),
the fewest any wiring must re-terminate, installed devices of the compute cabling list (nodes, leaves, spines,
cores) that stand in another rack or unit, and every racked device of the smaller plan (management switches,
management racks' contents and PDUs too) not found at its rack and unit in the larger one.

Run from the project root: ``.venv/bin/python bench/growth.py [64:96 96:128 ...]``. Uses a throw-away
SQLite test database with the seed catalogue.
"""

from __future__ import annotations

import pathlib
import sys
from collections import Counter

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from bench._designs import design  # noqa: E402
from bench._growths import print_table  # noqa: E402  (sets Django up)
from configurator.services import design_validate  # noqa: E402
from engines.fabric.growth import Action, compare_cabling, minimum_moves, moved_devices, placements  # noqa: E402
from engines.fabric.model import LEAF_SPINE  # noqa: E402
from outputs.links import compute_links  # noqa: E402


def racked(result) -> Counter[tuple[str, str, str, int]]:
    """Every device of the rack plan: (rack, role, part, lowest unit)."""
    return Counter(
        (rack.name, str(d.role), d.part, d.position_u) for rack in result.rack_plan.plan.racks for d in rack.devices
    )


def row(small: int, large: int) -> str:
    before, after = design_validate(document=design(small)), design_validate(document=design(large))
    old, new = compute_links(before), compute_links(after)
    placed = racked(before)
    gone = sum((placed - racked(after)).values())
    delta = compare_cabling(old, new)
    uplinks = sum(1 for c in old if c.link_class == LEAF_SPINE)
    moved = delta.count(Action.MOVE, LEAF_SPINE) + delta.count(Action.REMOVE, LEAF_SPINE)
    devices = moved_devices(old, new)
    rows = sorted({m.old.rack.split("-")[0] for m in devices})
    where = f" (rows {', '.join(rows)})" if devices else ""
    return (
        f"| {small} → {large} | {moved:,} of {uplinks:,} | {minimum_moves(old, new, LEAF_SPINE):,} "
        f"| {len(devices)} of {len(placements(old))}{where} | {gone} of {sum(placed.values())} |"
    )


def main(args: list[str]) -> None:
    print_table(
        args,
        [
            "Growth",
            "Leaf-spine cables re-terminated",
            "Minimum needed",
            "Installed devices moved to other racks",
            "Racked devices not where they were",
        ],
        row,
    )


if __name__ == "__main__":
    main(sys.argv[1:])
