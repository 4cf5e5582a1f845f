"""Every output format is one module of outputs/formats/ and one line of outputs/registry.py, served by the one
service every door calls (outputs.services.design_output); the wizard and the offer draw the same pictures."""

from __future__ import annotations

import csv
import importlib
import pkgutil

import pytest

import outputs.formats
from configurator.examples import h200_training_cluster
from configurator.services import configuration_create, design_validate
from outputs.format import OutputFormat, OutputUnavailable
from outputs.registry import FORMATS
from outputs.services import configuration_output, design_output, picture_set, result_pictures


def test_every_format_module_is_registered_under_its_file_name():
    registered = {id(fmt) for fmt in FORMATS.values()}
    for info in pkgutil.iter_modules(outputs.formats.__path__):
        module = importlib.import_module(f"outputs.formats.{info.name}")
        formats = [value for value in vars(module).values() if isinstance(value, OutputFormat)]
        assert formats, f"outputs/formats/{info.name}.py defines no OutputFormat"
        assert all(id(fmt) in registered for fmt in formats), f"outputs/formats/{info.name}.py: not in the registry"
    for name, fmt in FORMATS.items():
        assert name == fmt.name and "." in name and fmt.media_type


@pytest.mark.django_db
def test_every_format_renders_a_cabled_design_and_refuses_what_it_cannot_give(seeded_catalog):
    cabled = design_validate(document={**h200_training_cluster(), "fabric": {"switch": "MQM9700-NS2F"}})
    bare = design_validate(document={**h200_training_cluster(), "fabric": None})
    for name in FORMATS:
        output = design_output(name=name, result=cabled, language="en")
        chunks = list(output.body)
        body = b"".join(chunks) if chunks and isinstance(chunks[0], bytes) else "".join(chunks)
        assert output.name == name and body, name
        if name.endswith(".svg"):
            assert body.startswith("<svg"), name
    rows = list(csv.DictReader(design_output(name="cabling.csv", result=cabled, language="en").body))
    assert rows and rows[0]["network"] == "compute"
    with pytest.raises(OutputUnavailable) as refused:
        design_output(name="cabling.csv", result=bare, language="en")
    assert refused.value.code == "no_fabric_plan"
    with pytest.raises(OutputUnavailable):
        design_output(name="diagram.svg", result=bare, language="en")


@pytest.mark.django_db
def test_a_stored_design_that_cannot_be_validated_has_no_output(seeded_catalog):
    config = configuration_create(document={"schema": "design/v1", "node_groups": "not a list"})
    with pytest.raises(OutputUnavailable) as refused:
        configuration_output(configuration=config, name="cabling.csv")
    assert refused.value.code == "no_fabric_plan"


@pytest.mark.django_db
def test_the_wizard_and_the_offer_draw_the_pictures_of_one_picture_set(seeded_catalog):
    result = design_validate(document={**h200_training_cluster(), "fabric": {"switch": "MQM9700-NS2F"}})
    screen = result_pictures(result=result, language="nl")
    frozen = result.to_json()
    same = picture_set(
        fabric_plan=frozen["fabric_plan"], rack_plan=frozen["rack_plan"], placement=frozen["placement"], language="nl"
    )
    assert screen.diagram() == same.diagram() and screen.elevations() == same.elevations()
    assert [m.svg for m in screen.slot_maps()] == [m.svg for m in same.slot_maps()]
    printed = picture_set(
        fabric_plan=frozen["fabric_plan"],
        rack_plan=frozen["rack_plan"],
        placement=frozen["placement"],
        language="nl",
        printed=True,
    )
    assert printed.diagram() and printed.diagram() != screen.diagram()  # the page's canvas, slimmed
    assert len(printed.elevations()) >= len(screen.elevations()) == 1
    assert screen.rack_count() == printed.rack_count() > 0
