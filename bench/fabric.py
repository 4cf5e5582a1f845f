"""Benchmark of the fabric planner: median planning time for 64, 2,048 and 16,384 nodes at 8 rails.

Run from the project root: ``.venv/bin/python bench/fabric.py [runs]``. Specs are built in memory (no
database). The planner is pure arithmetic, so time should stay flat while the switch count grows a
thousandfold; the last column (time per switch) shows it.

NDR200 HCAs (ConnectX-7 MCX75310AAS-HEAT) on QM9700 split every port in two (128 x NDR200 per switch),
which is what lets 16,384 x 8 = 131,072 endpoints fit three tiers; with NDR HCAs the same cluster exceeds
64^3/4 = 65,536 ports and the planner answers with an error finding (also timed).
"""

from __future__ import annotations

import pathlib
import statistics
import sys
import time
from decimal import Decimal

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from design.specs import AdapterSpec, MediaEnd, MediaSpec, SwitchSpec
from design.vocabulary import Connector, MediaKind, Protocol, Top  # noqa: E402
from engines.catalog_view import CatalogView
from engines.fabric.cabling import iter_cabling_csv  # noqa: E402
from engines.fabric.plan import plan_fabric  # noqa: E402

OSFP, MPO = Connector.OSFP, Connector.MPO12
TWIN = MediaEnd(connector=OSFP, speed_gbps=400, top=Top.FINNED, twin=True)
FLAT = MediaEnd(connector=OSFP, speed_gbps=400, top=Top.FLAT)
MPO400 = MediaEnd(connector=MPO, speed_gbps=400)

QM9700 = SwitchSpec(
    part_number="MQM9700-NS2F",
    name="QM9700",
    price_eur=Decimal(28000),
    cages=32,
    cage_connector=OSFP,
    logical_ports_per_cage=2,
    port_speed_gbps=400,
    max_split=2,
    managed=True,
    top=Top.FINNED,
    protocol=Protocol.INFINIBAND,
    generation="NDR",
)
SN2201 = SwitchSpec(
    part_number="MSN2201-CB2FC",
    name="SN2201",
    price_eur=Decimal(6000),
    management=True,
    rj45_ports=48,
    protocol=Protocol.ETHERNET,
)
NDR = AdapterSpec(part_number="MCX75310AAS-NEAT", name="CX-7 NDR", speed_gbps=400, connector=OSFP, top=Top.FLAT)
NDR200 = AdapterSpec(part_number="MCX75310AAS-HEAT", name="CX-7 NDR200", speed_gbps=200, connector=OSFP, top=Top.FLAT)


def _media() -> list[MediaSpec]:
    out = [
        MediaSpec(
            part_number="MMA4Z00-NS",
            name="twin SR8",
            price_eur=Decimal(1500),
            kind=MediaKind.TRANSCEIVER,
            end_a=TWIN,
            end_b=MediaEnd(connector=MPO, speed_gbps=400, legs=2),
            reach_m=50,
            fibre="mm",
        ),
        MediaSpec(
            part_number="MMA4Z00-NS400",
            name="SR4",
            price_eur=Decimal(850),
            kind=MediaKind.TRANSCEIVER,
            end_a=FLAT,
            end_b=MPO400,
            reach_m=50,
            fibre="mm",
        ),
        MediaSpec(
            part_number="MMS4X00-NS",
            name="twin DR8",
            price_eur=Decimal(2200),
            kind=MediaKind.TRANSCEIVER,
            end_a=TWIN,
            end_b=MediaEnd(connector=MPO, speed_gbps=400, legs=2),
            reach_m=100,
            fibre="sm",
        ),
    ]
    for m in (1, 1.5, 2, 2.5, 3):
        out.append(
            MediaSpec(
                part_number=f"MCP7Y00-{m}",
                name="DAC 1:2",
                price_eur=Decimal(300 + 50 * m),
                end_a=TWIN,
                end_b=MediaEnd(connector=OSFP, speed_gbps=400, top=Top.FLAT, legs=2),
                length_m=m,
            )
        )
        out.append(
            MediaSpec(
                part_number=f"MCP7Y50-{m}",
                name="DAC 1:4",
                price_eur=Decimal(380 + 50 * m),
                end_a=TWIN,
                end_b=MediaEnd(connector=OSFP, speed_gbps=200, top=Top.FLAT, legs=4),
                length_m=m,
            )
        )
    for m in (3, 5, 10, 15, 20, 30, 50):
        out.append(
            MediaSpec(
                part_number=f"MFP7E10-{m}",
                name="MM fibre",
                price_eur=Decimal(40 + 2 * m),
                kind=MediaKind.FIBRE,
                end_a=MPO400,
                end_b=MPO400,
                length_m=m,
                fibre="mm",
            )
        )
        out.append(
            MediaSpec(
                part_number=f"MFP7E20-{m}",
                name="MM splitter",
                price_eur=Decimal(70 + 3 * m),
                kind=MediaKind.FIBRE,
                end_a=MPO400,
                end_b=MediaEnd(connector=MPO, speed_gbps=200, legs=2),
                length_m=m,
                fibre="mm",
            )
        )
    for m in (10, 30, 50, 70, 100):
        out.append(
            MediaSpec(
                part_number=f"MFP7E30-{m}",
                name="SM fibre",
                price_eur=Decimal(50 + 2 * m),
                kind=MediaKind.FIBRE,
                end_a=MPO400,
                end_b=MPO400,
                length_m=m,
                fibre="sm",
            )
        )
    return out


CATALOG = CatalogView(version="bench", parts={p.part_number: p for p in [QM9700, SN2201, NDR, NDR200, *_media()]})


def median_ms(runs: int, **kw) -> tuple[float, object]:
    times = []
    plan = None
    for _ in range(runs):
        start = time.perf_counter()
        plan = plan_fabric(catalog=CATALOG, switch=QM9700, rails=8, **kw)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), plan


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    print(f"fabric planner, QM9700, 8 rails, median of {runs} runs (time.perf_counter)")
    print(
        f"{'nodes':>7} {'HCA':>8} {'tiers':>5} {'leaf':>6} {'spine':>6} {'core':>6} {'switches':>8} "
        f"{'median ms':>10} {'us/switch':>10}"
    )
    for hca, label in ((NDR200, "NDR200"), (NDR, "NDR")):
        for nodes in (64, 2048, 16384):
            ms, plan = median_ms(runs, nodes=nodes, hca=hca)
            per = f"{ms * 1000 / plan.switches:10.3f}" if plan.switches else f"{'-':>10}"
            note = "" if plan.tiers else "  (beyond 3 tiers: " + ", ".join(f.code for f in plan.findings) + ")"
            print(
                f"{nodes:>7} {label:>8} {plan.tiers:>5} {plan.leaf_switches:>6} {plan.spine_switches:>6} "
                f"{plan.core_switches:>6} {plan.switches:>8} {ms:10.3f} {per}{note}"
            )
    # Two tiers try every whole-cage down/up split of the leaves for the fewest switches (the worst case of that
    # search is an oversubscribed fabric just below the three-tier boundary).
    for nodes, ratio in ((16, (1, 1)), (48, (2, 1)), (250, (2, 1)), (250, (5, 3))):
        ms, plan = median_ms(runs, nodes=nodes, hca=NDR, oversubscription=ratio)
        print(
            f"{nodes:>7} {'NDR ' + ':'.join(map(str, ratio)):>8} {plan.tiers:>5} {plan.leaf_switches:>6} "
            f"{plan.spine_switches:>6} {plan.core_switches:>6} {plan.switches:>8} {ms:10.3f} "
            f"{ms * 1000 / plan.switches:10.3f}  (two-tier split search)"
        )
    # The cabling CSV is the one part that is linear in links (one row each), streamed.
    _, plan = median_ms(1, nodes=2048, hca=NDR)
    start = time.perf_counter()
    rows = sum(1 for _ in iter_cabling_csv(plan))
    print(f"cabling CSV, 2,048 nodes NDR: {rows - 1:,} rows streamed in {(time.perf_counter() - start) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
