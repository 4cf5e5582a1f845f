"""Wizard details a visitor notices: the heading follows a live update, each verdict names its design, a favicon,
and on a phone a compact summary at the top and a bill of materials that says it scrolls."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders

from tests.web.pages import B200_IN_H100_SERVER, PRICED, list_total, url

pytestmark = pytest.mark.django_db


def test_the_design_heading_follows_a_live_update(client, make_config):
    config = make_config()
    page = client.get(url(config, "platform")).content.decode()
    assert '<h1 id="design-name">4 × SYS-821GE-TNHR, HGX-H200-8GPU</h1>' in page
    change = {"nodes": "2", "server": "SYS-821GE-TNHR", "gpu": "HGX-H200-8GPU", "gpu_quantity": "1"}
    body = client.post(url(config, "platform"), change, HTTP_HX_REQUEST="true").content.decode()
    assert '<h1 id="design-name" hx-swap-oob="true">2 × SYS-821GE-TNHR, HGX-H200-8GPU</h1>' in body


def test_the_goal_step_names_the_design_of_each_verdict(client, make_config):
    config = make_config(B200_IN_H100_SERVER)  # the current design has an error; the recommendation has none
    body = client.post(
        url(config, "goal"), {"kind": "training", "params_billion": "70", "nodes": "2"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    verdicts = re.findall(r'<p class="verdict (?:ok|warn|bad)">(.*?)</p>', body, re.S)
    assert len(verdicts) == 2
    recommended = next(v for v in verdicts if "Passes every" in v)
    current = next(v for v in verdicts if "blocks quoting" in v)
    assert recommended.startswith('<span class="verdict-of">Recommended design:</span>')
    assert current.startswith('<span class="verdict-of">Your current design:</span>')


def test_other_steps_keep_the_plain_verdict(client, make_config):
    body = client.get(url(make_config(PRICED), "review")).content.decode()
    assert '<p class="verdict ok" id="quote-route">Ready to quote: ' in body  # no "Your current design:" before it


def test_every_page_has_a_self_hosted_favicon(client, make_config):
    body = client.get(url(make_config(), "goal")).content.decode()
    href = re.search(r'<link rel="icon" href="([^"]+)" type="image/svg\+xml">', body).group(1)
    assert href.startswith("/static/") and href.endswith(".svg")  # same origin: the CSP allows only self
    path = finders.find("favicon.svg")
    assert path and Path(path).read_text().startswith("<svg")


def test_a_compact_summary_at_the_top_follows_live_updates(client, make_config):
    config = make_config(PRICED)
    page = client.get(url(config, "platform")).content.decode()
    compact = page.index('id="compact-summary"')
    assert compact < page.index('id="step-body"')  # above the step, not below a long page
    price = f"€ {list_total(config):,.2f}"  # the design's list total as the BOM service computes it
    assert price in page[compact : compact + 400] and "Ready to quote" in page[compact : compact + 600]
    change = {"nodes": "2", "server": "SYS-821GE-TNHR", "gpu": "HGX-B200-8GPU", "gpu_quantity": "1"}
    body = client.post(url(config, "platform"), change, HTTP_HX_REQUEST="true").content.decode()
    oob = re.search(r'<p id="compact-summary" class="compact-summary" hx-swap-oob="true">(.*?)</p>', body, re.S)
    assert oob and "1 error blocks quoting." in oob.group(1)


def test_the_bill_of_materials_is_a_keyboard_reachable_region_named_apart_from_its_section(client, make_config):
    body = client.get(url(make_config(), "review")).content.decode()
    # a phone stacks its lines instead (the browser tests), so no "scroll sideways" cue
    assert "scroll the table sideways" not in body
    assert '<div class="table-wrap scrolls bom-wrap" tabindex="0" role="region" aria-label="Parts and prices"' in body
    assert '<section aria-labelledby="bom-title" class="panel">' in body  # the section's own name: its heading
