"""Benchmark of the node rules engine: engine-only median time for 1 and for 50 distinct node groups.

Run from the project root: ``.venv/bin/python bench/rules.py [runs]``. Specs are built in memory from the test
factory (tests/rules/parts.py, no database). The target is at most 1 ms per node group, and the cost must grow
with distinct node groups, not with ``count``: the last lines time the same design at count 1 and 10,000.
"""

from __future__ import annotations

import pathlib
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from configurator.rules.design import DesignIn  # noqa: E402
from configurator.rules.engine import validate_nodes  # noqa: E402
from tests.rules.parts import (  # noqa: E402
    BF3_B3220,
    CATALOG,
    CX6_HDR,
    CX7_2X200,
    CX7_NDR,
    CX7_NDR200,
    CX8_C8180,
    H100_NVL,
    HGX_B200,
    HGX_B300,
    HGX_H100,
    HGX_H200,
    L40S,
    NVL2_BRIDGE,
    SYS_421GE_TNRT3,
    SYS_422GS_NBRT_LCC,
    SYS_821GE_TNHR,
    SYS_822GS_NB3RT,
    SYS_822GS_NBRT,
    SYS_A21GE_NBRT,
    comp,
    design,
    group,
    hgx_node,
)


def fifty_groups() -> list:
    """50 distinct node groups over every server kind, each with a different component mix."""
    shapes = [  # k = n // 7 varies the quantities so that no two groups are alike
        lambda n, k: group(
            SYS_821GE_TNHR, comp(HGX_H200 if k % 2 else HGX_H100), comp(CX7_NDR, 1 + k, "compute"), name=f"g{n}"
        ),
        lambda n, k: group(
            SYS_822GS_NBRT,
            comp(HGX_B200),
            comp(CX8_C8180 if k % 2 else CX7_NDR, 1 + k, "compute"),
            comp(BF3_B3220, 1 + k % 3, "storage"),
            name=f"g{n}",
        ),
        lambda n, k: group(SYS_822GS_NB3RT, comp(HGX_B300), comp(CX7_2X200, 1 + k, "storage"), name=f"g{n}"),
        lambda n, k: group(
            SYS_421GE_TNRT3, comp(H100_NVL, 1 + k), comp(NVL2_BRIDGE, 1 + k // 2), comp(CX6_HDR, 1), name=f"g{n}"
        ),
        lambda n, k: group(SYS_421GE_TNRT3, comp(L40S, 1 + k), name=f"g{n}"),
        lambda n, k: group(
            SYS_422GS_NBRT_LCC,
            comp(HGX_B200),
            comp(CX7_NDR200, 1 + k, "compute", slots=[f"NIC{i + 1}" for i in range(1 + k)]),
            name=f"g{n}",
        ),
        lambda n, k: group(SYS_A21GE_NBRT, comp(HGX_B200), comp(CX7_NDR, 1 + k, "compute"), name=f"g{n}"),
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
