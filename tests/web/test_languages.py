"""The wizard speaks the languages of settings.LANGUAGES: its language switcher, the rule catalogue and the
slot map follow the setting, so a third language is its .po file and one entry there (without a .po its texts
fall back to English); and the slot map says everything in the reader's language."""

from __future__ import annotations

import ast
import copy
import html
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import override_settings
from django.urls import reverse
from django.utils import translation

from engines.node.slotmap import render_slot_map_svg
from messages.slotmap import slot_map_labels
from tests.web.pages import H200_CLUSTER, url

pytestmark = pytest.mark.django_db

THREE = [("en", "English"), ("nl", "Dutch"), ("de", "German")]
TOO_MANY_NICS = copy.deepcopy(H200_CLUSTER)
TOO_MANY_NICS["node_groups"][0]["components"][1]["quantity"] = 16  # 8 of them find no slot


def _labels(language: str):
    with translation.override(language):
        return slot_map_labels()


@override_settings(LANGUAGES=THREE)
def test_the_language_switcher_offers_every_language_of_the_setting(client, seeded_catalog):
    body = client.get("/").content.decode()
    options = re.findall(r'<option value="(\w+)" lang="\1"[^>]*>([^<]+)</option>', body)
    assert options == [("en", "English"), ("nl", "Nederlands"), ("de", "Deutsch")]


@override_settings(LANGUAGES=THREE)
def test_switching_to_a_third_language_without_a_catalogue_shows_the_wizard_in_english(client, make_config):
    config = make_config()
    response = client.post(reverse("set_language"), {"language": "de", "next": url(config, "platform")})
    assert response["Location"] == url(config, "platform")
    page = client.get(url(config, "platform"))
    body = page.content.decode()
    assert page.status_code == 200 and '<html lang="de">' in body
    assert "Number of servers (nodes)" in body  # the page's English text, as there is no German catalogue
    review = client.get(url(config, "review")).content.decode()
    assert "embedded subnet manager" in review  # the findings too


@override_settings(LANGUAGES=THREE)
def test_the_rule_catalogue_has_a_column_for_every_language_the_readers_first(client, seeded_catalog):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "nl"
    body = client.get(reverse("configurator:rules")).content.decode()
    columns = re.findall(r'<th scope="col" lang="(\w+)">([^<]+)</th>', body)
    assert columns == [("nl", "Nederlands"), ("en", "English"), ("de", "Deutsch")]
    assert "Regelcatalogus" in body


def test_the_slot_map_on_a_dutch_adapters_step_says_why_a_part_was_not_placed_in_dutch(client, make_config):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "nl"
    body = client.get(url(make_config(TOO_MANY_NICS), "adapters")).content.decode()
    assert "Slotindeling · SYS-821GE-TNHR" in body
    assert "Niet geplaatst: MCX75310AAS-NEAT × 4 (geen vrij slot waarin hij past)" in body
    assert "no free slot it fits" not in body


def _placement_reasons() -> set[str]:
    """The reasons engines.node.pcie.placement gives for a part it cannot place (``_unplaced``'s third
    argument, wherever it is a literal)."""
    source = Path(settings.BASE_DIR, "engines/node/pcie/placement.py").read_text()
    return {
        node.args[2].value
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and getattr(node.func, "id", None) == "_unplaced"
        and len(node.args) == 3
        and isinstance(node.args[2], ast.Constant)
    }


def test_every_placement_reason_and_slot_map_word_is_said_in_dutch():
    english, dutch = _labels("en"), _labels("nl")
    reasons = _placement_reasons()
    assert len(reasons) >= 5
    assert reasons <= set(dict(english.reasons)), reasons - set(dict(english.reasons))
    for reason in reasons:
        assert dutch.reason(reason) != reason, f"no Dutch for the placement reason {reason!r}"
    same = {"per_node", "rail", "gpu", "compute", "reasons"}  # the same word in Dutch ("per node", "rail", "GPU")
    for field in type(english).__dataclass_fields__:
        if field not in same:
            assert getattr(dutch, field) != getattr(english, field), f"slot map word {field!r} left in English"


def test_the_slot_map_in_a_language_without_a_catalogue_is_english():
    with override_settings(LANGUAGES=THREE):
        svg = render_slot_map_svg({"server": "SYS-TEST", "slots": [], "unplaced": []}, _labels("de"))
    assert "Slot map · SYS-TEST" in svg and "No sourced slot list for this server" in svg


@pytest.mark.parametrize(
    ("language", "one", "several"), [("en", "by GPU 0", "GPUs 2, 3"), ("nl", "bij GPU 0", "GPU's 2, 3")]
)
def test_a_slot_by_one_gpu_says_gpu_in_the_singular(language, one, several):
    slots = [
        {"slot": "S1", "form": "FHFL", "usable": True, "gpus": [0], "pcie_switch": "PLX0"},
        {"slot": "S2", "form": "FHFL", "usable": True, "gpus": [2, 3], "pcie_switch": "PLX1"},
    ]
    svg = html.unescape(render_slot_map_svg({"server": "SYS-TEST", "slots": slots, "unplaced": []}, _labels(language)))
    assert one in svg and several in svg
    assert "GPUs 0" not in svg and "GPU's 0" not in svg
