"""Configuration services: warning acknowledgements hold for one design; a save validates once."""

from unittest import mock

import pytest

from catalog.models import Server
from configurator import services
from configurator.examples import h200_training_cluster
from configurator.models import WarningAcknowledgement
from configurator.services import (
    acknowledgements_in_force,
    configuration_create,
    configuration_update,
    design_validate,
    unacknowledged_warnings,
    warning_acknowledge,
)
from engines.intake.parse import design_hash
from tests.results import validate_json

pytestmark = pytest.mark.django_db


def _four_nics_design(count=4):
    doc = h200_training_cluster()
    doc["node_groups"][0]["count"] = count
    doc["node_groups"][0]["components"][1]["quantity"] = 4  # 4 NICs for 8 GPUs: NIC_FEWER_THAN_GPUS
    return doc


def _warning(result):
    return next(f for f in result.findings if f.code == "NIC_FEWER_THAN_GPUS")


def test_an_acknowledgement_holds_for_its_design_only(seeded_catalog, admin_user):
    config = configuration_create(document=_four_nics_design())
    result = design_validate(document=config.document)
    warning = _warning(result)
    assert unacknowledged_warnings(configuration=config, result=result) == [warning]

    ack = warning_acknowledge(
        configuration=config, code=warning.code, subject=warning.subject, reason="customer adds NICs", user=None
    )
    assert ack.design_hash == design_hash(config.document) == result.design_hash
    assert unacknowledged_warnings(configuration=config, result=result) == []
    assert acknowledgements_in_force(configuration=config, result=result) == [ack]

    # Another design (3 nodes) with the same warning code and subject: the acknowledgement does not carry over.
    configuration_update(configuration=config, document=_four_nics_design(count=3))
    changed = design_validate(document=config.document)
    assert (_warning(changed).code, _warning(changed).subject) == (warning.code, warning.subject)
    assert unacknowledged_warnings(configuration=config, result=changed) == [_warning(changed)]
    assert acknowledgements_in_force(configuration=config, result=changed) == []

    # Accepting it again for the new design keeps the first one for the old design.
    again = warning_acknowledge(
        configuration=config, code=warning.code, subject=warning.subject, reason="still fine", user=None
    )
    assert acknowledgements_in_force(configuration=config, result=changed) == [again]
    assert acknowledgements_in_force(configuration=config, result=result) == [ack]


def test_legacy_acknowledgements_without_a_design_hash_match_no_design(seeded_catalog):
    config = configuration_create(document=_four_nics_design())
    result = design_validate(document=config.document)
    warning = _warning(result)
    WarningAcknowledgement.objects.create(
        configuration=config, code=warning.code, subject=warning.subject, reason="before hashes"
    )
    assert unacknowledged_warnings(configuration=config, result=result) == [warning]
    assert acknowledgements_in_force(configuration=config, result=result) == []


def test_an_acknowledgement_of_a_warning_that_went_away_is_not_in_force(seeded_catalog):
    config = configuration_create(document=_four_nics_design())
    warning_acknowledge(
        configuration=config, code="NIC_FEWER_THAN_GPUS", subject="node_groups[9]", reason="stale", user=None
    )
    result = design_validate(document=config.document)
    assert acknowledgements_in_force(configuration=config, result=result) == []


def test_a_save_that_passes_its_validation_along_runs_the_engine_once(seeded_catalog):
    config = configuration_create(document=h200_training_cluster())
    doc = _four_nics_design()
    with mock.patch.object(services, "run_validation", wraps=services.run_validation) as engine:
        outcome = services.design_evaluate(document=doc)
        configuration_update(configuration=config, document=doc, outcome=outcome)
    assert engine.call_count == 1
    config.refresh_from_db()
    assert (config.valid, config.error_count, config.warning_count) == outcome.verdict == (True, 0, 1)


def test_each_validation_is_the_callers_own(seeded_catalog):
    first = validate_json(document=h200_training_cluster())
    first["findings"].append({"code": "X"})
    first["totals"]["gpus"] = -1
    second = validate_json(document=h200_training_cluster())
    assert {"code": "X"} not in second["findings"] and second["totals"]["gpus"] == 32


def test_a_catalogue_change_changes_the_next_validation(seeded_catalog):
    doc = h200_training_cluster()
    before = validate_json(document=doc)
    server = Server.objects.get(part__part_number="SYS-821GE-TNHR")
    server.psu_watts = (server.psu_watts or 0) + 1
    server.save()
    assert validate_json(document=doc)["catalog_version"] != before["catalog_version"]
