"""The review step asks what the site already has (``facility.supplied``) and which services the offer carries
(``services``); the answer changes the bill, and the page says what the offer leaves out."""

from __future__ import annotations

import copy

import pytest

from tests.web.pages import H200_CLUSTER, url

pytestmark = pytest.mark.django_db

SERVICES = {"support_years": "3", "installation": "on", "ai_enterprise": "on"}


def _one_server() -> dict:
    doc = copy.deepcopy(H200_CLUSTER)
    doc["node_groups"][0]["count"] = 1
    doc["fabric"] = None
    return doc


def test_one_server_is_offered_without_rack_and_the_page_says_so(client, make_config):
    body = client.get(url(make_config(_one_server()), "review")).content.decode()
    assert 'data-section="racks_power"' not in body and 'data-section="oob"' not in body
    assert 'id="left-out"' in body and "PDUs and power cords" in body
    # the boxes of what the site has are ticked for the size's default
    for item in ("racks", "power", "oob"):
        assert f'value="{item}" checked' in body or f'checked value="{item}"' in body or _checked(body, item)


def _checked(body: str, item: str) -> bool:
    start = body.find(f'value="{item}"')
    tag = body[body.rfind("<input", 0, start) : body.find(">", start)]
    return "checked" in tag


def test_asking_for_a_rack_puts_rack_and_power_on_the_bill(client, make_config):
    config = make_config(_one_server())
    response = client.post(url(config, "review"), {**SERVICES, "supplied": ["oob", "control_plane"]})
    assert response.status_code == 302
    config.refresh_from_db()
    assert config.document["facility"]["supplied"] == ["oob", "control_plane"]
    body = client.get(url(config, "review")).content.decode()
    assert 'data-section="racks_power"' in body and "RACK-42U" in body
    assert not _checked(body, "racks") and _checked(body, "oob")


def test_the_size_default_is_not_written_so_the_design_keeps_following_its_size(client, make_config):
    config = make_config(_one_server())
    client.post(url(config, "review"), {**SERVICES, "supplied": ["racks", "power", "oob", "control_plane"]})
    config.refresh_from_db()
    assert "supplied" not in (config.document.get("facility") or {})
    assert "services" not in config.document  # the contract's defaults, unchanged


def test_three_nodes_get_no_control_plane_until_the_buyer_asks(client, make_config):
    doc = copy.deepcopy(H200_CLUSTER)
    doc["node_groups"][0]["count"] = 3
    config = make_config(doc)
    body = client.get(url(config, "review")).content.decode()
    assert 'data-section="control_plane"' not in body and _checked(body, "control_plane")
    client.post(url(config, "review"), {**SERVICES, "supplied": []})
    body = client.get(url(config, "review")).content.decode()
    assert 'data-section="control_plane"' in body and "HEAD-NODE-BCM" in body


def test_declined_services_leave_the_bill(client, make_config):
    config = make_config()
    client.post(url(config, "review"), {"support_years": "0", "installation": "on"})
    config.refresh_from_db()
    assert config.document["services"] == {"support_years": 0, "installation": True, "ai_enterprise": False}
    body = client.get(url(config, "review")).content.decode()
    assert "SVC-INSTALL-RACK" in body and "SVC-SUPPORT-NODE-YEAR" not in body and "NVAIE-GPU-YEAR" not in body


def test_a_bad_answer_is_refused_naming_the_field_and_nothing_is_saved(client, make_config):
    config = make_config()
    before = copy.deepcopy(config.document)
    response = client.post(url(config, "review"), {"support_years": "9", "supplied": ["rack"]})
    assert response.status_code == 422
    body = response.content.decode()
    assert 'id="id_support_years_error"' in body and 'id="id_supplied_error"' in body
    # the error summary above the step, each error linked to its field
    summary = body.index('id="error-summary"')
    assert summary < body.index('id="step-body"') and "2 answers need a change" in body
    assert body.index('href="#id_support_years"', summary) < body.index('id="step-body"')
    config.refresh_from_db()
    assert config.document == before


def test_the_dutch_review_asks_the_same(client, make_config):
    body = client.get(url(make_config(_one_server()), "review"), headers={"accept-language": "nl"}).content.decode()
    assert "Wat de locatie al heeft" in body and "Niet in deze offerte:" in body
