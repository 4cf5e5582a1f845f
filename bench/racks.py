"""Benchmark of the rack planner: planning time, distances, rack_plan dict, and the elevation SVG's time and size.

Run from the project root: ``.venv/bin/python bench/racks.py [runs]``. Inputs are built in memory (no database):
SYS-821GE-TNHR nodes (8U, air, 6 inlets; 10.2 kW per node as a planning input) in scalable units of 32, one leaf
per rail (8 per SU), spines and cores as NVIDIA's DGX SuperPOD B200 RA table gives them (2,048 nodes: 512 leaves,
512 spines, 256 cores), a 60 kW facility, A+B feeds and 22 kW PDUs. Switch power is unknown in the catalogue
(fabric.md section 3) and stays unknown here, as it would in the product.

Targets (issue 14): planning 2,048 nodes adds at most a few milliseconds; the 2,048-node elevation is < 200 kB.
"""

from __future__ import annotations

import pathlib
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from engines.racks import (  # noqa: E402
    Cooling,
    ElevationLabels,
    Facility,
    NodeGroup,
    PduOption,
    SwitchGroup,
    SwitchRole,
    link_distances,
    plan_racks,
    render_elevation_svg,
)

# English labels, as the service edge would pass them, and a 3-phase 32 A PDU (planning input, not a catalogue fact).
LABELS = ElevationLabels(
    title="Rack elevation",
    node="Node",
    leaf="Leaf",
    spine="Spine",
    core="Core",
    management="Management",
    pdu="PDU",
    storage="Storage switch",
    inband="In-band switch",
    oob="Out-of-band switch",
    control="Control-plane server",
    ufm="UFM appliance",
    blank="Blank",
    count="×{n}",
    power="{kw} kW",
    power_at_least="at least {kw} kW",
    power_unknown="power unknown",
    feed="feed {feed}",
)
PDU = PduOption(part="PDU-3P-32A", rating_w=22_000, outlets=24, cord="IEC 60309 32A 3P+N+E", outlet_type="C19")

# (nodes, leaves, spines, cores): B200 RA-11334-001 component table, 8 rails, SUs of 32 nodes
SIZES = [(1, 8, 0, 0), (4, 8, 0, 0), (32, 8, 0, 0), (128, 32, 16, 0), (2048, 512, 512, 256), (16384, 4096, 4096, 2048)]


def inputs(nodes: int, n_leaf: int, n_spine: int, n_core: int) -> dict:
    group = NodeGroup(
        name="gpu",
        part="SYS-821GE-TNHR",
        count=nodes,
        height_u=8,
        power_w=10_200,
        cooling=Cooling.AIR,
        inlets=6,
        inlet_type="C20",
        su_nodes=32,
    )
    switches = [SwitchGroup(role=SwitchRole.MANAGEMENT, part="MSN2201-CB2FC", count=1, height_u=1, power_w=None)]
    for role, count in ((SwitchRole.LEAF, n_leaf), (SwitchRole.SPINE, n_spine), (SwitchRole.CORE, n_core)):
        if count:
            switches.append(SwitchGroup(role=role, part="MQM9700-NS2F", count=count, height_u=1, power_w=None))
    return {
        "node_groups": [group],
        "switches": switches,
        "facility": Facility(rack_power_kw=60),
        "pdu_options": [PDU],
    }


def median_ms(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    print(f"median of {runs} runs")
    head = ("nodes", 6), ("racks", 6), ("rows", 5), ("plan ms", 8), ("dist ms", 8), ("dict ms", 8), ("svg ms", 7)
    print(" ".join(f"{name:>{width}}" for name, width in head), f"{'svg kB':>7}")
    for nodes, n_leaf, n_spine, n_core in SIZES:
        kw = inputs(nodes, n_leaf, n_spine, n_core)
        plan = plan_racks(**kw)
        t_plan = median_ms(lambda kw=kw: plan_racks(**kw), runs)
        t_dist = median_ms(lambda plan=plan: link_distances(plan), runs)
        t_dict = median_ms(lambda plan=plan: plan.to_dict(), runs)
        t_svg = median_ms(lambda plan=plan: render_elevation_svg(plan, LABELS), runs)
        size = len(render_elevation_svg(plan, LABELS).encode()) / 1000
        print(
            f"{nodes:>6} {len(plan.racks):>6} {len(plan.rows):>5} {t_plan:>8.2f} {t_dist:>8.2f} {t_dict:>8.2f} "
            f"{t_svg:>7.2f} {size:>7.1f}"
        )


if __name__ == "__main__":
    main()
