"""The wizard shows the one bill: the rack plan's management switches, lines on request and an "at least" total;
customers read findings without rule codes and design paths, which staff keep."""

from __future__ import annotations

import copy
import re

import pytest
from django.test import Client

from configurator.services import design_validate
from tests.web.pages import H200_CLUSTER, WITH_WARNING, url

pytestmark = pytest.mark.django_db


def _flat(response) -> str:
    return " ".join(response.content.decode().split())


def test_the_review_step_shows_the_bill_by_section_with_lines_on_request(client, make_config):
    config = make_config()
    result = design_validate(document=config.document)
    page = _flat(client.get(url(config, "review")))
    for section in ('data-section="nodes"', 'data-section="compute_fabric"', 'data-section="oob"'):
        assert section in page
    assert "Out-of-band management network" in page and "Racks and power" in page
    racks = result["totals"]["racks"]
    oob = re.search(r'<tbody data-section="oob">.*?</tbody>', page).group(0)
    assert "SN2201" in oob and f'<td class="num">{racks}</td>' in oob
    assert "Total list price, excl. VAT" in page and "at least €" in page


def test_the_fabric_step_counts_the_management_switches_the_racks_hold(client, make_config):
    doc = copy.deepcopy(H200_CLUSTER)
    doc["node_groups"][0]["count"] = 32
    config = make_config(doc)
    result = design_validate(document=config.document)
    racks = result["totals"]["racks"]
    assert racks > result["fabric_plan"]["management_switches"]  # 18 racks, 2 switches by the fabric's ports
    page = _flat(client.get(url(config, "fabric")))
    assert f"<dt>Management switches</dt><dd>{racks} × SN2201</dd>" in page


def test_customers_read_findings_without_rule_codes_or_paths_and_staff_keep_them(staff_client, make_config):
    config = make_config(WITH_WARNING)
    customer = _flat(Client().get(url(config, "review")))
    assert 'data-code="FABRIC_SM_REQUIRED"' in customer  # the finding is there
    text = re.sub(r"<[^>]+>", " ", customer)
    assert "FABRIC_SM_REQUIRED" not in text and 'class="code small"' not in customer
    staff = _flat(staff_client.get(url(config, "review")))
    assert re.search(r'<p class="code small"><a [^>]*>FABRIC_SM_REQUIRED</a> · <span class="muted">fabric', staff)
