"""Dutch throughout (UI, findings, amounts), the rule catalogue, and the slot map picture."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from engines.node.slotmap import render_slot_map_svg
from messages.slotmap import slot_map_labels
from tests.web.pages import B200_IN_H100_SERVER, url

pytestmark = pytest.mark.django_db


@pytest.fixture
def dutch(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "nl"
    return client


def test_dutch_ui_findings_and_fixes(dutch, make_config):
    body = dutch.get(url(make_config(B200_IN_H100_SERVER), "review")).content.decode()
    assert '<html lang="nl">' in body
    assert "Bevindingen" in body and "Stuklijst" in body
    assert "SYS-821GE-TNHR ondersteunt HGX-B200-8GPU niet" in body  # the engine's Dutch message
    assert "Kies een van HGX-H100-8GPU, HGX-H200-8GPU" in body  # and its Dutch fix


def test_amounts_are_formatted_per_locale(dutch, make_config):
    from django.test import Client

    from tests.web.pages import list_total

    config = make_config()
    english = f"€ {list_total(config):,.2f}"  # e.g. € 1,164,440.00
    dutch_amount = english.replace(",", "_").replace(".", ",").replace("_", ".")  # € 1.164.440,00
    assert english in Client().get(url(config, "review")).content.decode()
    assert dutch_amount in dutch.get(url(config, "review")).content.decode()


def test_switching_language_through_the_switcher_keeps_the_page(client, make_config):
    config = make_config()
    response = client.post(reverse("set_language"), {"language": "nl", "next": url(config, "platform")})
    assert response["Location"] == url(config, "platform")
    assert "Aantal servers (nodes)" in client.get(url(config, "platform")).content.decode()


def test_the_message_catalogue_is_compiled():
    from pathlib import Path

    mo = Path(settings.BASE_DIR) / "locale" / "nl" / "LC_MESSAGES" / "django.mo"
    po = mo.with_suffix(".po")
    assert mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime - 1


def test_rule_catalogue_lists_every_code_in_both_languages(dutch, seeded_catalog):
    from django.test import Client

    from messages import rule_entries

    body = Client().get(reverse("configurator:rules")).content.decode()
    rules = {e["code"]: e for e in rule_entries()}
    for code in rules:
        assert f'id="{code}"' in body
    gpu = rules["GPU_NOT_ACCEPTED"]
    assert gpu["title"]["en"] in body and gpu["title"]["nl"] in body and gpu["source"] in body
    fabric = rules["FABRIC_SM_REQUIRED"]
    assert fabric["explanation"]["en"] in body and fabric["explanation"]["nl"] in body
    assert 'lang="nl"' in body and 'lang="en"' in body  # both languages side by side
    nl = dutch.get(reverse("configurator:rules")).content.decode()
    assert "Regelcatalogus" in nl


def test_rule_catalogue_explains_the_time_to_train_and_replica_estimates_with_their_sources(seeded_catalog):
    import html

    from django.test import Client

    from messages import rule_entries

    body = html.unescape(Client().get(reverse("configurator:rules")).content.decode())
    rules = {e["code"]: e for e in rule_entries()}
    time = rules["WORKLOAD_TRAINING_TIME"]
    for language in ("en", "nl"):
        assert time["explanation"][language] in body
        assert rules["WORKLOAD_REPLICAS"]["explanation"][language] in body
    assert "7.0 M H100 GPU-hours" in time["explanation"]["en"] and "30.84 M" in time["explanation"]["en"]
    assert "Dubey et al. 2024" in time["source"] and "Llama 3.1 model card" in time["source"]
    assert time["source"] in body
    replicas = rules["WORKLOAD_REPLICAS"]
    assert "NIM" in replicas["explanation"]["en"] and "under a second" in replicas["explanation"]["en"]
    assert "NV-NIM-PERF" in replicas["source"] and replicas["source"] in body


def test_findings_link_to_their_rule(client, make_config):
    body = client.get(url(make_config(B200_IN_H100_SERVER), "review")).content.decode()
    assert 'href="/rules/#GPU_NOT_ACCEPTED"' in body


# --- slot map ---------------------------------------------------------------------------------------------

PLACEMENT = {
    "group": "gpu",
    "node_group": 0,
    "server": "SYS-TEST",
    "slots_known": True,
    "slots_complete": True,
    "integrated_nics": 0,
    "slots": [
        {
            "slot": "LP1",
            "part": "MCX75310AAS-NEAT",
            "role": "compute",
            "rail": 0,
            "form": "LP",
            "pcie_gen": 5,
            "lanes": 16,
            "gpus": [0, 1],
            "pcie_switch": "SW1",
            "usable": True,
        },
        {
            "slot": "LP2",
            "part": None,
            "role": None,
            "rail": None,
            "form": "LP",
            "pcie_gen": 5,
            "lanes": 16,
            "gpus": [0, 1],
            "pcie_switch": "SW1",
            "usable": True,
        },
        {
            "slot": "X1",
            "part": None,
            "role": None,
            "rail": None,
            "form": None,
            "pcie_gen": None,
            "lanes": None,
            "gpus": [],
            "pcie_switch": None,
            "usable": True,
        },
        {
            "slot": "NIC0",
            "part": None,
            "role": None,
            "rail": None,
            "form": "INTEGRATED",
            "pcie_gen": 5,
            "lanes": 16,
            "gpus": [],
            "pcie_switch": None,
            "usable": False,
        },
    ],
    "unplaced": [{"part": "MCX755106AS-HEAT", "quantity": 1, "reason": "no free slot it fits"}],
}


def _labels(language: str = "en"):
    with translation.override(language):
        return slot_map_labels()


def test_slot_map_draws_cards_switch_groups_empty_unknown_and_unusable_slots():
    svg = render_slot_map_svg(PLACEMENT, _labels())
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert "MCX75310AAS-NEAT (compute · rail 0)" in svg
    assert "PCIe switch SW1 · shared by GPUs 0, 1" in svg
    assert svg.count(">empty<") == 2
    assert "PCIe unknown" in svg and ">unknown<" in svg  # the slot whose form and link are not sourced
    assert ">unusable<" in svg
    assert "Not placed: MCX755106AS-HEAT × 1 (no free slot it fits)" in svg


def test_slot_map_without_a_slot_list_says_so_instead_of_guessing():
    svg = render_slot_map_svg(
        {"server": "AS-8125GS-TNHR", "slots": [], "unplaced": [], "slots_known": False}, _labels("nl")
    )
    assert "Geen bronvermelde slotlijst" in svg


def test_slot_map_escapes_text():
    svg = render_slot_map_svg({**PLACEMENT, "server": "<script>alert(1)</script>"}, _labels())
    assert "<script>" not in svg and "&lt;script&gt;" in svg


def test_the_no_script_language_button_is_dutch_in_dutch(dutch, seeded_catalog):
    body = dutch.get("/").content.decode()
    assert '<noscript><button type="submit">Wisselen</button></noscript>' in body


@pytest.mark.parametrize("language", ["en", "nl"])
def test_slot_map_columns_leave_room_for_a_riser_name_and_an_unknown_form(language):
    """A riser slot's name (RISER0-1, bold monospace) and an unsourced form ("unknown", "onbekend") do not run into
    the next column, as they did in the quote PDF ("RISER0-1 unknownPCIe Gen5 x16")."""
    import re

    slot = {"slot": "RISER0-1", "form": None, "pcie_gen": 5, "lanes": 16, "usable": True}
    svg = render_slot_map_svg({"server": "SYS-821GE-TNHR", "slots": [slot], "unplaced": []}, _labels(language))
    row = [(float(x), text) for x, text in re.findall(r'<text[^>]* x="([\d.]+)"[^>]*>([^<]*)</text>', svg)]
    name, form, link = (
        next(item for item in row if item[1] == want)
        for want in ("RISER0-1", _labels(language).unknown, "PCIe Gen5 x16")
    )
    mono_bold, sans = 12 * 0.62, 12 * 0.6  # generous average advance at 12 px: DejaVu Sans Mono bold, DejaVu Sans
    assert name[0] + len(name[1]) * mono_bold + 4 <= form[0]
    assert form[0] + len(form[1]) * sans + 4 <= link[0]
