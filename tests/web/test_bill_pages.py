"""The wizard shows the one bill: the rack plan's management switches, lines on request and an "at least" total;
customers read findings without rule codes and design paths, which staff keep."""

from __future__ import annotations

import copy
import re

import pytest
from django.test import Client

from tests.results import validate_json
from tests.web.pages import H200_CLUSTER, WITH_WARNING, pdu_on_request, url

pytestmark = pytest.mark.django_db


def _flat(response) -> str:
    return " ".join(response.content.decode().split())


def test_the_review_step_shows_the_bill_by_section_with_lines_on_request(client, make_config):
    config = pdu_on_request(make_config)
    result = validate_json(document=config.document)
    page = _flat(client.get(url(config, "review")))
    for section in ('data-section="nodes"', 'data-section="compute_fabric"', 'data-section="oob"'):
        assert section in page
    assert "Out-of-band management network" in page and "Racks and power" in page
    plan = result["rack_plan"]
    switches = sum(
        r["count"] * d["count"] for r in plan["racks"] for d in r["devices"] if d["role"] in ("management", "oob")
    )
    oob = re.search(r'<tbody data-section="oob">.*?</tbody>', page).group(0)
    assert "SN2201" in oob and f'<td class="num qty" data-label="Qty">{switches}</td>' in oob
    assert "Total list price, excl. VAT" in page and "at least €" in page


def test_the_fabric_step_counts_the_management_switches_the_racks_hold(client, make_config):
    doc = copy.deepcopy(H200_CLUSTER)
    doc["node_groups"][0]["count"] = 32
    doc["networks"] = {"oob": {"placement": "per-rack"}}  # one management switch in every rack
    config = make_config(doc)
    result = validate_json(document=config.document)
    racks = result["totals"]["racks"]
    assert racks > result["fabric_plan"]["management_switches"]  # 18 racks, 2 switches by the fabric's ports
    page = _flat(client.get(url(config, "fabric")))
    # every management-network line under its own name: the switches, their patch cords and uplinks
    assert f"<dt>Management network</dt><dd>{racks} × SN2201 <span" in page
    assert "<dt>Management switches</dt>" not in page and "Cat 6 UTP patch cord" in page


def test_customers_read_findings_without_rule_codes_or_paths_and_staff_keep_them(staff_client, make_config):
    config = make_config(WITH_WARNING)
    customer = _flat(Client().get(url(config, "review")))
    assert 'data-code="FABRIC_SM_REQUIRED"' in customer  # the finding is there
    text = re.sub(r"<[^>]+>", " ", customer)
    assert "FABRIC_SM_REQUIRED" not in text and 'class="code small"' not in customer
    staff = _flat(staff_client.get(url(config, "review")))
    assert re.search(r'<p class="code small"><a [^>]*>FABRIC_SM_REQUIRED</a> · <span class="muted">fabric', staff)


def test_the_rack_elevation_of_a_1000_node_draft_fits_the_column_with_readable_labels(client, make_config):
    """542 racks: the page draws each distinct rack once at its own size, two to a line, so the picture is never
    wider than the step's column on a 1,440 px screen (about 740 px) and no label is smaller than 11 px; before,
    6 distinct racks side by side made a 1,800 px picture that scrolled within its column, and before that they
    were shrunk to the page's width."""
    doc = copy.deepcopy(H200_CLUSTER)
    doc["node_groups"][0]["count"] = 1000
    config = make_config(doc)
    page = client.get(url(config, "fabric")).content.decode()
    svg = re.search(r'<div class="svg-wrap elevation"[^>]*>(<svg .*?</svg>)', page, re.S).group(1)
    width, height = (int(v) for v in re.search(r'viewBox="0 0 (\d+) (\d+)"', svg).groups())
    assert f'width="{width}" height="{height}"' in svg  # its own size, never stretched
    assert width <= 2 * 304 < 740  # two racks to a line
    # the distinct racks (the management racks among them) two to a line, each line as tall as a 42U rack
    distinct = svg.count("<g>")
    assert distinct <= 10 and height <= 40 + -(-distinct // 2) * (58 + 42 * 22 + 20)
    assert min(int(size) for size in re.findall(r'font-size="(\d+)"', svg)) >= 11
