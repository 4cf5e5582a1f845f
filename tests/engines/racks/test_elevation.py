"""The rack elevation SVG: well-formed, aggregated, legible without colour, words only from the labels."""

import re
import xml.etree.ElementTree as ET

from engines.racks import Facility, Feeds, plan_racks, render_elevation_svg

from .parts import EN, NL, PDU_22K, air_nodes, cores, leaves, mgmt, spines

SVG = "{http://www.w3.org/2000/svg}"


def plan(nodes, switches=(), **kw):
    kw.setdefault("pdu_options", [PDU_22K])
    return plan_racks(node_groups=[nodes], switches=[mgmt(), *switches], **kw)


def texts(svg: str) -> list[str]:
    return [t.text or "" for t in ET.fromstring(svg).iter(f"{SVG}text")]


def big_plan():
    return plan(air_nodes(2048, su=32), [leaves(512), spines(512), cores(256)], facility=Facility(rack_power_kw=60))


def test_svg_is_well_formed_and_scales_to_its_container():
    root = ET.fromstring(render_elevation_svg(plan(air_nodes(4), [leaves(1)]), EN))
    assert root.tag == f"{SVG}svg"
    assert root.get("width") == "100%" and root.get("height") is None
    assert re.fullmatch(r"0 0 \d+ \d+", root.get("viewBox"))
    assert root.find(f"{SVG}title").text == "Rack elevation"


def test_one_rack_shows_every_device_by_name_and_the_blanking_by_its_size():
    # node U1-U8, leaf U41, management switch U42: 32 free units between them
    words = texts(render_elevation_svg(plan(air_nodes(1), [leaves(1)]), EN))
    assert "Node SYS-821GE-TNHR" in words
    assert "Leaf MQM9700-NS2F" in words
    assert "Management MSN2201-CB2FC" in words
    assert "Blank 32U" in words
    assert "11.4 kW" in words  # 10,200 + 1,000 + 200 W


def test_identical_racks_are_drawn_once_with_their_count():
    p = big_plan()
    svg = render_elevation_svg(p, EN)
    groups = ET.fromstring(svg).findall(f"{SVG}g")
    assert len(groups) < 10 < len(p.racks)
    # 64 SUs x 6 full compute racks of 5 nodes (32 = 6 x 5 + 2), headed by their names, not one name and a count
    assert "R01-01..R01-03 … ×384" in texts(svg)
    headers = [t for t in texts(svg) if re.match(r"R\d\d-\d\d", t)]
    drawn = sum(int(m.group(1)) if (m := re.search(r"×(\d+)$", t)) else 1 for t in headers)
    assert drawn == len(p.racks)


def test_each_drawing_names_every_rack_it_stands_for():
    p = big_plan()
    svg = ET.fromstring(render_elevation_svg(p, EN))
    named = []
    for g in svg.findall(f"{SVG}g"):
        for ranges in g.find(f"{SVG}title").text.split(", "):
            first, _, last = ranges.partition("..")
            named.append((first, last or first))
    every = {r.name for r in p.racks}
    # Every rack name is the start or inside of one range of one drawing: the ranges cover the plan.
    assert {first for first, _last in named} <= every and {last for _first, last in named} <= every
    covered = sum(1 + sorted(every).index(last) - sorted(every).index(first) for first, last in named)
    assert covered == len(every)


def test_the_2048_node_elevation_is_under_200_kb():
    assert len(render_elevation_svg(big_plan(), EN).encode()) < 200_000


def test_every_word_comes_from_the_labels():
    svg = render_elevation_svg(plan(air_nodes(4), [leaves(1)], facility=Facility(rack_power_kw=60)), NL)
    words = " ".join(texts(svg))
    assert "Rackaanzicht" in words and "Server SYS-821GE-TNHR" in words and "Afdekplaat" in words
    for english in ("Node", "Leaf ", "Blank", "Management", "feed", "power"):
        assert english not in words


def test_kilowatts_use_the_callers_number_format():
    svg = render_elevation_svg(plan(air_nodes(1), [leaves(1)]), NL, number=lambda x: f"{x:.1f}".replace(".", ","))
    assert "11,4 kW" in texts(svg)


def test_unknown_power_is_shown_as_a_lower_bound_not_a_number():
    svg = render_elevation_svg(plan(air_nodes(1), [leaves(1, power_w=None)]), EN)
    assert "at least 10.4 kW" in texts(svg)  # node and management switch; the leaf's power is unknown


def test_meaning_does_not_rest_on_colour():
    svg = render_elevation_svg(big_plan(), EN)
    root = ET.fromstring(svg)
    # every filled device rectangle is followed by its text label; blanking also has a hatch pattern
    for g in root.findall(f"{SVG}g"):
        children = list(g)
        for i, el in enumerate(children):
            if el.tag == f"{SVG}rect" and el.get("fill", "").startswith("#") and el.get("width") == "210":
                assert children[i + 1].tag == f"{SVG}text" and children[i + 1].text
    assert root.find(f".//{SVG}pattern[@id='blank']") is not None
    assert all(t.get("fill") is None for t in root.iter(f"{SVG}text"))  # inherits black from the root
    assert root.get("fill") == "#000"


def test_zero_u_pdus_are_drawn_per_feed():
    ab = texts(render_elevation_svg(plan(air_nodes(1), facility=Facility(pdu_feeds=Feeds.AB)), EN))
    a = texts(render_elevation_svg(plan(air_nodes(1), facility=Facility(pdu_feeds=Feeds.A)), EN))
    assert [t for t in ab if t.startswith("PDU")] == ["PDU feed A 1× PDU-3P-32A", "PDU feed B 1× PDU-3P-32A"]
    assert [t for t in a if t.startswith("PDU")] == ["PDU feed A 1× PDU-3P-32A"]


def test_every_device_label_fits_inside_its_outline():
    # The control plane's and the UFM appliances' part numbers are the longest: on two lines in their 2U, and a
    # long one-unit label is set smaller, never past the device's outline.
    from engines.racks.elevation import LABEL_W
    from engines.racks.inputs import SwitchGroup
    from engines.racks.model import SwitchRole
    from engines.svgtext import text_width

    servers = [
        SwitchGroup(role=SwitchRole.CONTROL, part=part, count=1, height_u=2, power_w=None)
        for part in ("HEAD-NODE-BCM", "MGMT-NODE-SLURM-LOGIN")
    ] + [SwitchGroup(role=SwitchRole.UFM, part="UFM-ENTERPRISE-APPLIANCE", count=2, height_u=2, power_w=None)]
    storage = SwitchGroup(role=SwitchRole.STORAGE_LEAF, part="MQM9790-NS2F-LONGER", count=2, height_u=1, power_w=None)
    p = plan(air_nodes(64, su=32), [leaves(16), spines(8), storage, *servers], facility=Facility(rack_power_kw=60))
    for labels in (EN, NL):
        root = ET.fromstring(render_elevation_svg(p, labels))
        said = [
            (t.text or "", float(t.get("font-size"))) for t in root.iter(f"{SVG}text") if t.get("transform") is None
        ]
        if labels is EN:
            assert ("HEAD-NODE-BCM", 13) in said  # "Control-plane server" above, the part number below
        for text, size in said:
            if not text.startswith(tuple("0123456789")):  # unit numbers stand in the gutter
                assert text_width(text, size) <= LABEL_W or size == 9, (text, size)
