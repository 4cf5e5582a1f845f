"""The SVG diagram and the streamed cabling CSV."""

import csv
import io
import itertools
import types
import xml.etree.ElementTree as ET

import pytest

from engines.fabric.cabling import HEADER, iter_cabling_csv
from engines.fabric.diagram import render_svg
from engines.fabric.plan import plan_fabric

from .parts import CATALOG, CX7_NDR, CX7_NDR200, QM9700

SVG = "{http://www.w3.org/2000/svg}"


def plan(nodes, **kw):
    kw.setdefault("hca", CX7_NDR)
    return plan_fabric(nodes=nodes, rails=8, switch=QM9700, catalog=CATALOG, **kw)


def test_diagram_of_two_nodes_is_well_formed_with_title():
    root = ET.fromstring(render_svg(plan(2)))
    assert root.tag == f"{SVG}svg"
    assert "2 nodes x 8 rails" in root.find(f"{SVG}title").text
    texts = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
    assert "16 node-leaf links" in texts


def test_diagram_of_2000_nodes_aggregates_and_stays_small():
    p = plan(2000)
    svg = render_svg(p)
    root = ET.fromstring(svg)
    assert len(svg) < 60_000
    assert len(list(root.iter(f"{SVG}rect"))) <= 4 * 16
    texts = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
    assert "+" in texts and "more" in texts  # 63 SUs capped with a "+N more" box
    assert f"{p.spine_core_links:,} spine-core links" in texts


def test_diagram_escapes_text():
    p = plan(2)
    p = type(p)(**{**p.__dict__, "switch": "<evil & co>"})
    root = ET.fromstring(render_svg(p))
    assert "<evil & co>" in root.find(f"{SVG}title").text


def test_diagram_of_an_unsizeable_plan_still_renders():
    ET.fromstring(render_svg(plan(16384)))


def test_plan_round_trips_through_its_dict_for_diagram_and_cabling():
    for nodes in (4, 128, 520, 600):
        p = plan(nodes)
        q = type(p).from_dict(p.to_dict())
        assert q.to_dict() == {**p.to_dict(), "findings": []}
        assert render_svg(q) == render_svg(p)
        assert list(itertools.islice(iter_cabling_csv(q), 5000)) == list(itertools.islice(iter_cabling_csv(p), 5000))


def test_diagram_shows_the_last_pods_own_spines():
    # 520 nodes: 5 pods, the last holding one SU (8 leaves) on 8 spines; the others 32 each.
    texts = [t.text for t in ET.fromstring(render_svg(plan(520))).iter(f"{SVG}text")]
    assert texts.count("32 spines") == 4 and texts.count("8 spines") == 1


def test_cabling_is_a_generator_and_rows_match_links():
    p = plan(64)
    rows = iter_cabling_csv(p)
    assert isinstance(rows, types.GeneratorType)
    assert next(rows) == HEADER + "\n"
    parsed = list(csv.reader(io.StringIO("".join(rows))))
    assert len(parsed) == p.node_links + p.leaf_spine_links + p.spine_core_links
    assert parsed[0] == [
        "node-0001",
        "nic1",
        "su01-leaf-r1",
        "p1",
        "node-leaf",
        "MMA4Z00-NS + MFP7E10-N020 + MMA4Z00-NS400",
        "20",
    ]
    # NIC 3 of node 34 (second SU, position 2) -> leaf of rail 3 in SU 2, port 2.
    assert ["node-0034", "nic3", "su02-leaf-r3", "p2"] in [r[:4] for r in parsed]
    assert parsed[-1][:4] == ["su02-leaf-r8", "p64", "spine-08", "p64"]


def test_cabling_names_split_ports_and_three_tier_switches():
    rows = list(itertools.islice(iter_cabling_csv(plan(16, hca=CX7_NDR200)), 1, 4))
    assert [r.split(",")[3] for r in rows] == ["p1.1", "p1.2", "p2.1"]
    p = plan(512)
    last = list(
        itertools.islice(iter_cabling_csv(p), p.node_links + p.leaf_spine_links, p.node_links + p.leaf_spine_links + 1)
    )[0]
    assert last.startswith("su16-leaf-r8,p64,pod04-spine-32,p32,leaf-spine")


def test_cabling_streams_a_large_plan_lazily():
    p = plan(2048)
    first = list(itertools.islice(iter_cabling_csv(p), 3))
    assert len(first) == 3  # no full list is built to get here


def test_cabling_writes_formula_like_part_labels_as_text():
    data = plan(4).to_dict()
    label = '=HYPERLINK("http://evil.example/","MCP4Y10-N002")'
    for link in data["links"]:
        link["cable_part"] = label
    rows = list(csv.reader(io.StringIO("".join(iter_cabling_csv(type(plan(4)).from_dict(data))))))
    parts = {row[rows[0].index("cable_part")] for row in rows[1:]}
    assert parts == {"'" + label}


def _crosses(line, y: float) -> float | None:
    """Where an edge crosses the height ``y`` (None when it does not reach it)."""
    x1, y1, x2, y2 = (float(line.get(k)) for k in ("x1", "y1", "x2", "y2"))
    if not min(y1, y2) <= y <= max(y1, y2) or y1 == y2:
        return None
    return x1 + (x2 - x1) * (y - y1) / (y2 - y1)


@pytest.mark.parametrize("nodes", [2, 64, 2000])
def test_every_link_label_lies_on_the_links_it_names(nodes):
    """One, two and three tiers: each "… links at … Gb/s" label is crossed by one of the edges it describes,
    within the label's own band (before, each sat at the left margin, off its lines)."""
    root = ET.fromstring(render_svg(plan(nodes)))
    lines = list(root.iter(f"{SVG}line"))
    labels = [t for t in root.iter(f"{SVG}text") if " links at " in (t.text or "")]
    assert labels
    for text in labels:
        x, y, half = float(text.get("x")), float(text.get("y")) - 4, (7 * len(text.text) + 8) / 2
        assert text.get("text-anchor") == "middle"
        assert any((at := _crosses(line, y)) is not None and x - half <= at <= x + half for line in lines), text.text


@pytest.mark.parametrize(("leaves", "spines"), [(2, 0), (16, 8), (32, 16), (64, 26)])
def test_the_rack_order_of_two_planes_keeps_each_units_leaves_together_and_grows_at_the_end(leaves, spines):
    # Two identical planes of 8 rails (twin-planar Spectrum-X): the rack plan's leaves are unit by unit, a unit's
    # leaves of plane 1 then of plane 2; spines alternate plane by plane. A larger fabric's switches of either plane
    # come after every switch of a smaller one, so growth leaves the installed switches where they are.
    import dataclasses

    from engines.fabric.cabling import switch_name

    two = dataclasses.replace(plan(64), fabric_planes=2, leaf_switches=leaves, spine_switches=spines)
    one = dataclasses.replace(two, tiers=2 if spines else 1)
    names = [switch_name(one, "leaf", i) for i in range(leaves)]
    assert len(set(names)) == leaves
    if spines:
        assert names[:16] == [f"pl{p}-su01-leaf-r{r}" for p in (1, 2) for r in range(1, 9)]
        assert names[16:18] == (["pl1-su02-leaf-r1", "pl1-su02-leaf-r2"] if leaves > 16 else [])
        assert [switch_name(one, "spine", i) for i in range(4)] == [
            "pl1-spine-01", "pl2-spine-01", "pl1-spine-02", "pl2-spine-02",
        ]  # fmt: skip
    else:
        assert names == ["pl1-switch-01", "pl2-switch-01"]


@pytest.mark.parametrize("nodes", [64, 128, 2000])
def test_every_link_label_stays_on_the_printed_page(nodes):
    # The printed diagram is half as wide as the screen's: a label of the links, their pairs and their three-part
    # medium would run past its left edge (it read "af-spine links…"); it is broken at a " · " into two lines.
    from engines.fabric.diagram import PRINT
    from engines.svgtext import text_width

    root = ET.fromstring(render_svg(plan(nodes), canvas=PRINT))
    width = float(root.get("width"))
    labels = [t for t in root.iter(f"{SVG}text") if t.get("text-anchor") == "middle" and t.get("class") == "edge"]
    assert any(" links at " in (t.text or "") for t in labels)
    for text in labels:
        half = text_width(text.text or "", 12) / 2
        assert float(text.get("x")) - half >= 0 and float(text.get("x")) + half <= width, text.text
