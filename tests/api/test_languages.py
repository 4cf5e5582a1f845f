"""Every finding in the requested language, through every door (API, CLI), the fabric plan's findings included;
and the languages come from settings.LANGUAGES alone, so a third language needs only its .po file and that
setting (without a .po its texts fall back to English, without errors)."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError
from django.test import override_settings
from pypdf import PdfReader

from quotes.models import Quote
from tests.api.test_cli import run

VALIDATE = "/api/v1/designs/validate/"
PLAN = "/api/v1/fabric-plans/"
PLAN_REQUEST = {"nodes": 100, "rails": 8, "switch": "MQM9700-NS2F", "oversubscription": "2:1"}

THREE = [("en", "English"), ("nl", "Dutch"), ("de", "German")]

# The Dutch of the fabric findings these designs get (locale/nl/LC_MESSAGES/django.po).
DUTCH_SM_EMBEDDED = "draaien een ingebouwde subnet manager"
DUTCH_HCA_ASSUMED = "Geen HCA opgegeven"


def _findings(result: dict) -> list[dict]:
    """Every finding of a validation result or fabric plan: its own and its fabric plan's."""
    return list(result.get("findings", [])) + list((result.get("fabric_plan") or {}).get("findings", []))


def _assert_all_dutch(dutch: dict, english: dict) -> None:
    """The same findings, each message and fix in Dutch: none is its English form (every finding text has a
    Dutch translation: tests/messages/test_finding_translations.py)."""
    nl, en = _findings(dutch), _findings(english)
    assert nl and [f["code"] for f in nl] == [f["code"] for f in en]
    for n, e in zip(nl, en, strict=True):
        assert n["message"] != e["message"], f"{n['code']}: message left in English: {n['message']}"
        assert n["fix"] != e["fix"] or not e["fix"], f"{n['code']}: fix left in English: {n['fix']}"


# --- Dutch through every door -----------------------------------------------------------------------------


@pytest.mark.parametrize("how", ["accept-language", "query"])
def test_a_dutch_validation_gets_the_fabric_plans_findings_in_dutch(api, design, how):
    english = api.post(VALIDATE, design, format="json").json()
    if how == "query":
        dutch = api.post(f"{VALIDATE}?lang=nl", design, format="json").json()
    else:
        dutch = api.post(VALIDATE, design, format="json", HTTP_ACCEPT_LANGUAGE="nl").json()
    plan_findings = dutch["fabric_plan"]["findings"]
    assert any(DUTCH_SM_EMBEDDED in f["message"] for f in plan_findings), plan_findings
    assert "UFM wordt aangeraden" in " ".join(f["fix"] for f in plan_findings)
    _assert_all_dutch(dutch, english)


def test_a_dutch_fabric_plan_gets_every_finding_in_dutch(api):
    english = api.post(PLAN, PLAN_REQUEST, format="json").json()
    dutch = api.post(PLAN, PLAN_REQUEST, format="json", HTTP_ACCEPT_LANGUAGE="nl-NL,nl;q=0.9").json()
    assert any(f["message"].startswith(DUTCH_HCA_ASSUMED) for f in dutch["findings"])
    assert any("reserve voor groei" in f["message"] for f in dutch["findings"])
    _assert_all_dutch(dutch, english)


def test_the_cli_in_dutch_gives_the_fabric_plans_findings_in_dutch(seeded_catalog, design):
    english = json.loads(run("validate_design", "-", stdin=json.dumps(design))[1])
    dutch = json.loads(run("validate_design", "-", "--lang", "nl", stdin=json.dumps(design))[1])
    assert any(DUTCH_SM_EMBEDDED in f["message"] for f in dutch["fabric_plan"]["findings"])
    _assert_all_dutch(dutch, english)
    args = [f"--{k}={v}" for k, v in PLAN_REQUEST.items()]
    plan_en = json.loads(run("plan_fabric", *args)[1])
    plan_nl = json.loads(run("plan_fabric", *args, "--lang", "nl")[1])
    _assert_all_dutch(plan_nl, plan_en)


# --- a third language is one setting ----------------------------------------------------------------------


@override_settings(LANGUAGES=THREE)
@pytest.mark.parametrize("how", ["accept-language", "query"])
def test_a_third_language_in_settings_is_accepted_and_falls_back_to_english(api, design, how):
    english = api.post(VALIDATE, design, format="json").json()
    if how == "query":
        response = api.post(f"{VALIDATE}?lang=de", design, format="json")
    else:
        response = api.post(VALIDATE, design, format="json", HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9")
    assert response.status_code == 200, response.content
    german = response.json()
    assert german["language"] == "de" and response["Content-Language"] == "de"
    # No German catalogue: every finding reads as its English message id, numbers in German format.
    assert [f["code"] for f in _findings(german)] == [f["code"] for f in _findings(english)]
    sm = next(f for f in german["fabric_plan"]["findings"] if f["code"] == "FABRIC_SM_EMBEDDED")
    assert sm["message"].startswith("The managed MQM9700-NS2F switches run an embedded subnet manager")
    assert "2.048" in sm["message"]  # German groups thousands with a dot
    # Each power assumption is said in every language of the setting.
    assert all({"en", "nl", "de"} <= set(a) for a in german["totals"]["power_assumptions"])


@override_settings(LANGUAGES=THREE)
def test_a_third_language_is_accepted_by_the_fabric_plan_configurations_quotes_and_cli(api, design, customer):
    assert api.post(f"{PLAN}?lang=de", PLAN_REQUEST, format="json").status_code == 200
    created = api.post("/api/v1/configurations/", {"document": design, "language": "de"}, format="json")
    assert created.status_code == 201, created.content
    quote = api.post("/api/v1/quotes/", {"design": design, "customer": customer, "language": "de"}, format="json")
    assert quote.status_code == 202, quote.content
    assert Quote.objects.get(pk=quote.json()["id"]).language == "de"
    code, out, err = run("validate_design", "-", "--lang", "de", stdin=json.dumps(design))
    assert code == 0, err
    assert json.loads(out)["language"] == "de"


@override_settings(LANGUAGES=THREE)
def test_the_quote_document_is_written_in_a_third_language(api, design, customer):
    from quotes.documents import render_pdf

    response = api.post("/api/v1/quotes/", {"design": design, "customer": customer, "language": "de"}, format="json")
    frozen = Quote.objects.get(pk=response.json()["id"]).frozen
    reader = PdfReader(io.BytesIO(render_pdf(frozen)))
    assert reader.trailer["/Root"]["/Lang"] == "de"  # the document's language, as a reader's screen reader takes it
    # no German catalogue: the texts fall back to English, the quote is complete
    text = " ".join("\n".join(page.extract_text() for page in reader.pages).split())
    assert f"Quote {frozen['number']}" in text and "Bill of materials" in text


@override_settings(LANGUAGES=THREE)
def test_a_language_outside_the_setting_is_refused_naming_the_languages(api, design, customer):
    refused = api.post(f"{VALIDATE}?lang=fr", design, format="json")
    assert refused.status_code == 400
    field = refused.json()["error"]["fields"][0]
    assert field["path"] == "lang" and "(de)" in field["message"] and "(nl)" in field["message"]
    quote = api.post("/api/v1/quotes/", {"design": design, "customer": customer, "language": "fr"}, format="json")
    assert quote.status_code == 400 and quote.json()["error"]["fields"][0]["path"] == "language"
    with pytest.raises(CommandError, match="'de'"):  # argparse's "invalid choice", exit 2 from manage.py
        run("validate_design", "-", "--lang", "fr", stdin=json.dumps(design))


def test_without_the_third_language_it_is_refused(api, design):
    """The same request as above without the setting: the list really is the setting."""
    assert api.post(f"{VALIDATE}?lang=de", design, format="json").status_code == 400
