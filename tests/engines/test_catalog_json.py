"""A catalogue view written as JSON (what a quote keeps of its catalogue) reads back fact for fact: every part's
spec equal and of its class, in the view's order, so a design validated against it is validated as it was."""

from __future__ import annotations

import json

import pytest

from configurator.snapshot import seed_view
from design.specs import SwitchSpec
from engines.catalog_json import catalog_digest, catalog_from_json, catalog_json


def test_the_seed_catalogue_reads_back_fact_for_fact():
    view = seed_view()
    data = json.loads(json.dumps(catalog_json(view)))  # as the database keeps it
    back = catalog_from_json(data)
    assert back.version == view.version
    assert list(back.parts) == list(view.parts)
    for number, spec in view.parts.items():
        assert type(back.parts[number]) is type(spec) and back.parts[number] == spec, number
    assert back.reference_systems == view.reference_systems
    assert catalog_digest(catalog_json(back)) == catalog_digest(data)


def test_a_changed_fact_is_another_digest_and_an_unknown_spec_is_refused():
    data = catalog_json(seed_view())
    switch = next(p for p in data["parts"] if p["spec"] == SwitchSpec.__name__)
    before = catalog_digest(data)
    switch["fields"]["cages"] += 1
    assert catalog_digest(data) != before
    switch["spec"] = "TeleporterSpec"
    with pytest.raises(ValueError, match="TeleporterSpec"):
        catalog_from_json(data)
