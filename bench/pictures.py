"""Benchmark of the offer's pictures in the PDF: the time to make the flowables (outputs.svgpdf.Picture) of a
2,048-node quote's pictures (its topology diagram, its rack elevation pages and its slot map, as the offer draws
them: outputs.pictures, then outputs.svgslim) and draw them into a ReportLab canvas. Target: well under 15 ms.

    .venv/bin/python bench/pictures.py

Prints, for each picture, its elements and labels, then the median over RUNS (5) of the wall and this process's CPU
time for all of them (make and draw; the PDF's compression and writing is not counted). Runs in a throw-away SQLite
test database with the seed catalogue (the validation reads it); BENCH_NODES (2048) sizes the design.
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


def pictures(count: int) -> list[tuple[str, str]]:
    """The quote's pictures as the offer draws them: (name, SVG)."""
    from configurator.services import design_validate
    from outputs.services import picture_set

    result = design_validate(document=design(count)).to_json()
    pictures = picture_set(
        fabric_plan=result.get("fabric_plan"),
        rack_plan=result.get("rack_plan"),
        placement=result.get("placement"),
        language="en",
        printed=True,
    )
    out = []
    topology = pictures.diagram()
    if topology:
        out.append(("topology", topology))
    for i, svg in enumerate(pictures.elevations()):
        out.append((f"elevation {i + 1}", svg))
    for i, slot_map in enumerate(pictures.slot_maps()):
        out.append((f"slot map {i + 1}", slot_map.svg))
    return out


def draw_all(svgs: list[str]) -> list:
    """Make and draw every picture on a page of a fresh canvas, as the offer lays them out (180 mm wide)."""
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.units import mm
    from reportlab.pdfgen.canvas import Canvas

    from outputs.svgpdf import Picture

    canvas = Canvas(os.devnull, pagesize=A4)
    drawn = []
    for svg in svgs:
        picture = Picture(svg, 180 * mm, 225 * mm)
        _, height = picture.wrap(180 * mm, 225 * mm)
        picture.drawOn(canvas, 15 * mm, A4[1] - 15 * mm - height)
        canvas.showPage()
        drawn.append(picture)
    return drawn


def main() -> None:
    from catalog.services import catalog_load_seed
    from outputs import pdffonts

    connection.creation.create_test_db(verbosity=0)
    catalog_load_seed()
    pdffonts.register()
    named = pictures(NODES)
    svgs = [svg for _, svg in named]
    drawn = draw_all(svgs)  # once before timing: fonts loaded, code warm
    for (name, _), picture in zip(named, drawn, strict=True):
        print(f"{name:14} {picture.elements:5} elements {picture.labels:5} labels")
    print(f"{'all':14} {sum(p.elements for p in drawn):5} elements {sum(p.labels for p in drawn):5} labels")
    walls, cpus = [], []
    for _ in range(RUNS):
        wall, cpu = time.perf_counter(), time.process_time()
        draw_all(svgs)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    print(
        f"{NODES}-node quote's pictures made and drawn: {statistics.median(walls) * 1000:.1f} ms wall, "
        f"{statistics.median(cpus) * 1000:.1f} ms CPU (median of {RUNS})"
    )


if __name__ == "__main__":
    main()
