"""A Dutch visitor reads Dutch on every page: each wizard step, the quote page and its result, the home page and
the rule catalogue (whose English column is marked lang="en" on purpose), addressed as "je" throughout."""

from __future__ import annotations

import html
import re

import pytest
from django.conf import settings
from django.urls import reverse

from tests.web.pages import B200_IN_H100_SERVER, CUSTOMER, H200_CLUSTER, WITH_WARNING, url

pytestmark = pytest.mark.django_db

STEPS = ("goal", "platform", "adapters", "fabric", "review", "quote")

# English that once showed on Dutch pages: tags from catalogue values, topology choices, the fabric diagram's
# texts, lengths with a decimal point, the English form of address and the Dutch formal one ("u", "uw").
LEAKS = [
    re.compile(r"^(?:air|liquid|end-of-life|infiniband|ethernet|vpi)$", re.MULTILINE),
    re.compile(r"Rail-optimized|rail-optimized|Fat tree|non-blocking"),
    re.compile(r" nodes x |\btier\(s\)| links at |\bof \d+ ports\b|NICs each|\d+ more\b|\bleaves\b|no catalogue"),
    re.compile(r"node-leaf|leaf-spine|spine-core"),
    re.compile(r"\(\d+\.\d+ m\)|\b\d+\.\d+ m\b(?!.*LinkX)"),
    re.compile(r"\d GPUs\b"),
    re.compile(r"The Netherlands|\bYour\b|\bYou\b|\byou\b"),
    re.compile(r"\b(?:U|Uw|uw|u)\b(?! \)|\.\d)"),  # not the U of a U.2 drive bay
]


def _text(body: str) -> str:
    """The page's visible text, one element's text a line, without parts marked as English (lang="en")."""
    body = re.sub(r"(?s)<(script|style)\b.*?</\1>", "", body)
    body = re.sub(r'(?s)<(td|th|p|span|div)\b[^>]*\blang="en"[^>]*>.*?</\1>', "", body)
    lines = (html.unescape(t).strip() for t in re.split(r"<[^>]+>", body))
    return "\n".join(t for t in lines if t)


def _leaks(text: str) -> list[str]:
    found = []
    for pattern in LEAKS:
        for m in pattern.finditer(text):
            line = text[text.rfind("\n", 0, m.start()) + 1 : text.find("\n", m.end()) % (len(text) + 1)]
            if "LinkX" not in line and "Supermicro" not in line:  # part names from the supplier's catalogue
                found.append(f"{m.group(0)!r} in {line[:160]!r}")
    return found


@pytest.fixture
def dutch(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "nl"
    return client


@pytest.mark.parametrize("document", [None, WITH_WARNING, B200_IN_H100_SERVER], ids=["h200", "warning", "error"])
def test_every_wizard_step_is_dutch(dutch, make_config, document):
    config = make_config(document)
    for step in STEPS:
        response = dutch.get(url(config, step))
        assert response.status_code == 200, step
        text = _text(response.content.decode())
        assert not _leaks(text), f"{step}: {_leaks(text)}"


def test_the_fabric_diagram_speaks_dutch(dutch, make_config):
    # One rack, its runs set to 2 m: with the slack, 2.5 m DACs, a length with a decimal comma in Dutch.
    fabric = {**H200_CLUSTER["fabric"], "rack": {"in_rack_m": 2}}
    one_rack = {**H200_CLUSTER, "facility": {"rack_power_kw": 80}, "fabric": fabric}
    body = dutch.get(url(make_config(one_rack), "fabric")).content.decode()
    svg = body[body.index("<svg") : body.index("</svg>")]
    assert "4 nodes × 8 rails, 1 laag" in svg and "32 van 64 poorten" in svg and "elk 8 NIC's" in svg
    assert "node–leaf-verbindingen op 400 Gb/s" in svg and "(2,5 m)" in svg
    assert "Rail-geoptimaliseerd" in body and ">luchtgekoeld<" not in body  # the switch list has protocol tags
    assert "InfiniBand" in body


def test_part_tags_are_words(dutch, make_config):
    body = _text(dutch.get(url(make_config(), "platform")).content.decode())
    assert "luchtgekoeld" in body.splitlines() and "vloeistofgekoeld" in body.splitlines()
    assert "uit productie" in body.splitlines()


def test_the_quote_page_and_its_result_are_dutch_and_say_je(dutch, make_config):
    config = make_config()
    text = _text(dutch.get(url(config, "quote")).content.decode())
    assert "Je gegevens" in text and "ontvang je direct" in text
    assert not _leaks(text), _leaks(text)
    response = dutch.post(url(config, "quote"), CUSTOMER, follow=True)
    text = _text(response.content.decode())
    assert not _leaks(text), _leaks(text)


def test_home_and_rule_catalogue_are_dutch(dutch, seeded_catalog):
    for page in ("/", reverse("configurator:rules")):
        text = _text(dutch.get(page).content.decode())
        assert not _leaks(text), f"{page}: {_leaks(text)}"


def test_the_leak_list_finds_what_it_looks_for():
    """The check itself: each kind of leak it names is found."""
    for sample in ("air", "Rail-optimized", "4 nodes x 8 rails", "32 node-leaf links", "(2.5 m)", "Uw offerte"):
        assert _leaks(sample), sample
    assert not _leaks("Je offerte\nluchtgekoeld\n(2,5 m)\nLinkX NDR splitter DAC, 2.5 m")
