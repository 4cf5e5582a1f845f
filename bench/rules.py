"""Benchmark of the node rules engine: engine-only median time for 1 and for 50 distinct node groups.

Run from the project root: ``.venv/bin/python bench/rules.py [runs]``. Specs are the seed catalogue's, built in
memory by the snapshot's conversion (bench/_seed.py, no database). The target is at most 1 ms per node group, and
the cost must grow with distinct node groups, not with ``count``: the last lines time the same design at count 1
and 10,000.
"""

from __future__ import annotations

import statistics
import sys
import time

# bench/ is first on sys.path when run as a script
from _seed import CATALOG, comp, design, group, hgx_node

from design.model import DesignIn
from engines.node.engine import validate_nodes

CX7_NDR, CX7_NDR200, CX7_2X200 = "MCX75310AAS-NEAT", "MCX75310AAS-HEAT", "MCX755106AS-HEAT"
CX8_C8180, CX6_HDR, BF3_B3140H = "900-9X81E-00EX-ST0", "MCX653105A-HDAT", "900-9D3D4-00EN-HA0"


def fifty_groups() -> list:
    """50 distinct node groups over seven server kinds, each with a different component mix."""
    shapes = [  # k = n // 7 varies the quantities so that no two groups are alike
        lambda n, k: group(
            "SYS-821GE-TNHR",
            comp("HGX-H200-8GPU" if k % 2 else "HGX-H100-8GPU"),
            comp(CX7_NDR, 1 + k, "compute"),
            name=f"g{n}",
        ),
        lambda n, k: group(
            "SYS-822GS-NBRT",
            comp("HGX-B200-8GPU"),
            comp(CX8_C8180 if k % 2 else CX7_NDR, 1 + k, "compute"),
            comp(BF3_B3140H, 1 + k % 3, "storage"),
            name=f"g{n}",
        ),
        lambda n, k: group("SYS-822GS-NB3RT", comp("HGX-B300-8GPU"), comp(CX7_2X200, 1 + k, "storage"), name=f"g{n}"),
        lambda n, k: group(
            "SYS-521GE-TNRT",
            comp("H200-NVL", 1 + k),
            comp("NVLINK-BRIDGE-2WAY", 1 + k // 2),
            comp(CX6_HDR, 1),
            name=f"g{n}",
        ),
        lambda n, k: group("SYS-421GE-TNRT3", comp("L40S", 1 + k), name=f"g{n}"),
        lambda n, k: group(
            "SYS-422GS-NBRT-LCC",
            comp("HGX-B200-8GPU"),
            comp(CX7_NDR200, 1 + k, "compute", slots=[f"LP{i + 1}" for i in range(1 + k)]),
            name=f"g{n}",
        ),
        lambda n, k: group("AS-8125GS-TNHR", comp("HGX-H100-8GPU"), comp(CX7_NDR, 1 + k, "compute"), name=f"g{n}"),
    ]
    return [shapes[n % len(shapes)](n, n // len(shapes)) for n in range(50)]


def median_ms(d: DesignIn, runs: int) -> float:
    validate_nodes(d, CATALOG)  # warm-up
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        validate_nodes(d, CATALOG)
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    one = design(hgx_node(count=4), workload=("training", 70), fabric=True)
    groups = fifty_groups()
    fifty = DesignIn(name="bench", node_groups=tuple(groups), fabric=design(fabric=True).fabric)
    assert len({(g.server, g.components) for g in groups}) == 50, "the 50 groups must be distinct"

    t1 = median_ms(one, runs)
    t50 = median_ms(fifty, max(runs // 10, 50))
    print(f"node rules engine, median of {runs} runs (50 groups: {max(runs // 10, 50)} runs), engine only")
    print(f"{'design':<42}{'groups':>7}{'ms':>10}{'ms/group':>10}")
    print(f"{'1 group (821GE + HGX H200 + 8x CX-7, 70B)':<42}{1:>7}{t1:>10.3f}{t1:>10.3f}")
    print(f"{'50 distinct groups (7 server kinds)':<42}{50:>7}{t50:>10.3f}{t50 / 50:>10.3f}")
    c1 = median_ms(design(hgx_node(count=1), fabric=True), runs)
    c10k = median_ms(design(hgx_node(count=10_000), fabric=True), runs)
    print(f"{'count = 1':<42}{1:>7}{c1:>10.3f}{c1:>10.3f}")
    print(f"{'count = 10,000 (same group)':<42}{1:>7}{c10k:>10.3f}{c10k:>10.3f}")
    print(
        f"count 10,000 / count 1 = {c10k / c1:.2f}x; target <= 1 ms per node group: "
        f"{'met' if max(t1, t50 / 50) <= 1.0 else 'NOT met'}"
    )


if __name__ == "__main__":
    main()
