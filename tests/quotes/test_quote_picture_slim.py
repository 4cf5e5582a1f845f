"""The offer PDF's pictures reach its drawer in fewer SVG elements but draw the same picture: every link, every rack
unit's rectangle in its colour and every label is still there; only rectangles that overlap keep their own order."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from outputs.svgslim import slim

SVG = "{http://www.w3.org/2000/svg}"


def _picture(body: str) -> str:
    return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 400">{body}</svg>'


def test_links_of_one_style_become_one_path_with_every_segment():
    lines = "".join(
        f'<line x1="{i}" y1="0" x2="{i + 5}" y2="50" stroke="#789" stroke-width="1" stroke-opacity="0.6"/>'
        for i in range(40)
    )
    root = ET.fromstring(slim(_picture(f"<g>{lines}</g>")))
    assert not list(root.iter(f"{SVG}line")) and not list(root.iter(f"{SVG}g"))
    [path] = root.iter(f"{SVG}path")
    assert path.get("d").count("M") == 40 and "M39 0L44 50" in path.get("d")
    assert path.get("fill") == "none" and path.get("stroke") == "#789" and path.get("stroke-opacity") == "0.6"


def test_a_racks_units_keep_their_colours_and_labels():
    frame = '<rect x="0" y="0" width="210" height="88" fill="url(#blank)" stroke="#000" stroke-width="2"/>'
    units = "".join(
        f'<rect x="0" y="{22 * u}" width="210" height="22" fill="{"#f6ecd4" if u else "#ebebeb"}" stroke="#000" '
        f'stroke-width="1"/><text x="105" y="{22 * u + 11}" text-anchor="middle">unit {u}</text>'
        for u in range(4)
    )
    root = ET.fromstring(slim(_picture(frame + units)))
    paths = list(root.iter(f"{SVG}path"))
    assert [p.get("fill") for p in paths] == ["url(#blank)", "#ebebeb", "#f6ecd4"]  # the frame below the units
    assert [p.get("d").count("z") for p in paths] == [1, 1, 3]
    assert [t.text for t in root.iter(f"{SVG}text")] == [f"unit {u}" for u in range(4)]
    assert all(p.get("stroke") == "#000" for p in paths)


def test_overlapping_rectangles_drawn_in_their_order_are_left_as_they_are():
    body = (
        '<rect x="0" y="0" width="100" height="100" fill="#aaa"/><text x="5" y="5">a</text>'
        '<rect x="50" y="50" width="100" height="100" fill="#bbb"/><text x="5" y="5">b</text>'
        '<rect x="80" y="80" width="100" height="100" fill="#aaa"/>'
    )
    assert slim(_picture(body)) == _picture(body)
