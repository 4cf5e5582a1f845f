"""Rendered finding messages are kept per (code, parameters, language) and never said stale: another language,
other values, a changed setting, a recompiled catalogue or a catalogue change each give the text they should."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from django.test import override_settings
from django.utils import translation
from django.utils.autoreload import file_changed

import messages
from catalog.models import Part, Switch
from configurator.examples import h200_training_cluster
from engines.findings.fabric_codes import FabricCode
from engines.findings.finding import Finding, Severity
from engines.findings.params.fabric import FabricSmEmbedded
from tests.results import validate_json

CODE = str(FabricCode.SM_EMBEDDED)  # "The managed %(switch)s switches ... %(limit)s ..."
PARAMS = {"switch": "MQM9700-NS2F", "ib_nodes": 1200, "sm_limit": 2048}


@dataclass(frozen=True, slots=True, kw_only=True)
class _Probe(FabricSmEmbedded):
    """CODE's parameters and two more values, to see how a value is keyed (no CODE of its own: not a code's)."""

    x: object = None
    extra: object = None


@pytest.fixture
def counted(monkeypatch):
    """The renderer of CODE, counting its calls (a new renderer: nothing of it is kept yet)."""
    real = messages.RENDERERS[CODE]
    calls = []

    def renderer(params):
        calls.append(params)
        return real(params)

    monkeypatch.setitem(messages.RENDERERS, CODE, renderer)
    return calls


def _finding(**params) -> Finding:
    return Finding(code=CODE, severity=Severity.INFO, subject="fabric", params=_Probe(**{**PARAMS, **params}))


def test_the_same_finding_in_the_same_language_is_rendered_once(counted):
    first = messages.finding_dicts([_finding(), _finding()], "en")
    again = messages.finding_dict(_finding(), "en")
    assert len(counted) == 1
    assert first[0] == first[1] == again
    assert "2,048" in again["message"] and "1,200" in again["message"]


def test_each_language_is_rendered_in_its_own_words(counted):
    english = messages.finding_dict(_finding(), "en")["message"]
    dutch = messages.finding_dict(_finding(), "nl")["message"]
    assert len(counted) == 2
    assert english != dutch
    assert "2,048" in english and "2.048" in dutch  # each language's own number format
    assert messages.both(_finding()).message.nl == dutch  # and both() says the same as the doors
    assert len(counted) == 2


def test_other_values_are_other_messages(counted):
    assert "4,096" in messages.finding_dict(_finding(sm_limit=4096), "en")["message"]
    assert "2,048" in messages.finding_dict(_finding(), "en")["message"]
    assert len(counted) == 2


def test_values_equal_in_python_but_of_another_type_are_kept_apart(monkeypatch):
    monkeypatch.setitem(messages.RENDERERS, CODE, lambda p: (repr(p.x), ""))
    said = [messages.finding_dict(_finding(x=x), "en")["message"] for x in (1, 1.0, True, "1", [1], (1,))]
    assert said == ["1", "1.0", "True", "'1'", "[1]", "(1,)"]


def test_parameters_that_are_not_plain_values_are_rendered_every_time(counted):
    messages.finding_dict(_finding(extra={"a", "b"}), "en")
    messages.finding_dict(_finding(extra={"a", "b"}), "en")
    assert len(counted) == 2


def test_a_changed_setting_drops_the_kept_messages(counted):
    assert "2,048" in messages.finding_dict(_finding(), "en")["message"]
    with override_settings(USE_THOUSAND_SEPARATOR=False):
        assert len(counted) == 1
        messages.finding_dict(_finding(), "en")
        assert len(counted) == 2  # rendered anew under the new setting
    messages.finding_dict(_finding(), "en")
    assert len(counted) == 3  # and again once the setting is back


def test_a_recompiled_catalogue_drops_the_kept_messages(counted):
    messages.finding_dict(_finding(), "nl")
    file_changed.send(sender=None, file_path=Path("locale/nl/LC_MESSAGES/django.py"))
    messages.finding_dict(_finding(), "nl")
    assert len(counted) == 1  # not a translation file: kept
    file_changed.send(sender=None, file_path=Path("locale/nl/LC_MESSAGES/django.mo"))
    messages.finding_dict(_finding(), "nl")
    assert len(counted) == 2


def test_the_kept_messages_are_bounded(counted, monkeypatch):
    monkeypatch.setattr(messages, "RENDERED_MAX", 3)
    for limit in range(10):
        messages.finding_dict(_finding(sm_limit=limit), "en")
        assert len(messages._rendered) <= 3
    messages.finding_dict(_finding(sm_limit=9), "en")  # the newest is still kept
    assert len(counted) == 10


def test_the_active_language_of_the_caller_is_kept(counted):
    with translation.override("nl"):
        messages.finding_dicts([_finding()], "en")
        assert translation.get_language() == "nl"


@pytest.mark.django_db
def test_a_catalogue_change_is_said_at_once_by_the_next_validation(seeded_catalog):
    def sm_message():
        result = validate_json(document=h200_training_cluster(), language="en")
        return result["catalog_version"], next(f["message"] for f in result["findings"] if f["code"] == CODE)

    version, before = sm_message()
    assert "2,048" in before
    Switch.objects.filter(part__part_number="MQM9700-NS2F").update(embedded_sm_max_nodes=1024)
    Part.objects.get(part_number="MQM9700-NS2F").save()  # bumps updated_at, as the admin does
    new_version, after = sm_message()  # the test settings check the catalogue's freshness on every call
    assert new_version != version
    assert "1,024" in after and "2,048" not in after
