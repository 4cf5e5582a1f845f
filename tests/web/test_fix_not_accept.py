"""A warning that calls a part of the design wrong (an end-of-life part) offers the sales engineer no "Accept
warning": the review step says to change the design instead, in both languages."""

from __future__ import annotations

import re

import pytest

from tests.factories import design
from tests.web.pages import url

pytestmark = pytest.mark.django_db

EOL = design(1, server="SYS-420GP-TNAR", components=[{"part": "HGX-A100-8GPU", "quantity": 1}])


def test_an_end_of_life_part_is_replaced_not_accepted(staff_client, make_config):
    config = make_config(EOL)
    page = staff_client.get(url(config, "review")).content.decode()
    findings = re.findall(r'<li class="finding warning"[^>]*data-code="([A-Z_]+)">(.*?)</li>', page, re.S)
    wrong = [body for code, body in findings if code == "PART_DISCONTINUED"]
    assert wrong and all("ack-form" not in body for body in wrong)
    assert all("change the design instead of accepting it" in body for body in wrong)
    assert any("ack-form" in body for code, body in findings if code != "PART_DISCONTINUED")  # others still can be
    dutch = staff_client.get(url(config, "review"), HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "pas het ontwerp aan in plaats van haar te accepteren" in dutch
