"""The platform step asks for the site's rack power, cooling and feeds and stores them in the design's facility."""

from __future__ import annotations

import pytest

from tests.results import validate_json
from tests.web.pages import url

pytestmark = pytest.mark.django_db

BASE = {"nodes": "4", "server": "SYS-821GE-TNHR", "gpu": "HGX-H200-8GPU", "save": "1"}


def test_the_platform_step_shows_the_site_fields(client, make_config):
    body = client.get(url(make_config(), "platform")).content.decode()
    assert 'name="rack_power_kw"' in body and 'name="cooling"' in body and 'name="pdu_feeds"' in body
    assert "Rack power (kW)" in body


def test_rack_power_cooling_and_feeds_are_stored_in_the_facility_and_used_by_the_rack_plan(client, make_config):
    config = make_config()
    client.post(url(config, "platform"), {**BASE, "rack_power_kw": "45", "cooling": "liquid", "pdu_feeds": "A"})
    config.refresh_from_db()
    facility = config.document["facility"]
    assert (facility["rack_power_kw"], facility["cooling"], facility["pdu_feeds"]) == (45.0, "liquid", "A")
    plan = validate_json(document=config.document)["rack_plan"]
    assert plan["rack_power_limit_w"] == 45_000 and plan["pdu_feeds"] == "A"
    page = client.get(url(config, "platform")).content.decode()
    assert 'value="45' in page  # shown again as entered


def test_emptying_the_site_fields_returns_to_the_stated_defaults(client, make_config):
    config = make_config()
    client.post(url(config, "platform"), {**BASE, "rack_power_kw": "45", "cooling": "air", "pdu_feeds": "A"})
    client.post(url(config, "platform"), {**BASE, "rack_power_kw": "", "cooling": "", "pdu_feeds": "A+B"})
    config.refresh_from_db()
    assert config.document.get("facility", {}) in ({}, {"pdu_feeds": "A+B"})


def test_a_bad_rack_power_is_named_and_nothing_is_saved(client, make_config):
    config = make_config()
    before = config.document
    response = client.post(url(config, "platform"), {**BASE, "rack_power_kw": "-3"})
    assert response.status_code == 422
    assert 'id="id_rack_power_kw_error"' in response.content.decode()
    config.refresh_from_db()
    assert config.document == before


def test_the_dutch_page_asks_for_the_site_too(client, make_config):
    body = client.get(url(make_config(), "platform"), headers={"accept-language": "nl"}).content.decode()
    assert "Rackvermogen (kW)" in body
