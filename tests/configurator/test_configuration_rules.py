"""The configuration services' rules, the same for every door: who may change a design, delete, take over."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied

from configurator.examples import h200_training_cluster
from configurator.models import Configuration
from configurator.services import (
    ConfigurationLocked,
    configuration_create,
    configuration_delete,
    configuration_take_over,
    configuration_update,
)
from outputs.services import OutputUnavailable, configuration_output
from quotes.services import quote_request
from tests.factories import StaffFactory

pytestmark = pytest.mark.django_db

CUSTOMER = {"name": "Ada Lovelace", "company": "", "email": "ada@example.nl", "country": "NL", "vat_number": ""}


def _with_warning() -> dict:
    return {**h200_training_cluster(), "fabric": {"switch": "MQM9790-NS2F"}}  # unmanaged: FABRIC_SM_REQUIRED


def _smaller(document: dict) -> dict:
    return {**document, "node_groups": [{**document["node_groups"][0], "count": 2}]}


def _under_review(channel=Configuration.Channel.WEB) -> Configuration:
    config = configuration_create(document=_with_warning(), channel=channel)
    quote = quote_request(configuration=config, customer=CUSTOMER)
    assert quote.status == "awaiting_review"
    config.refresh_from_db()
    return config


def test_a_customer_cannot_change_a_design_whose_quote_is_requested(seeded_catalog):
    config = _under_review()
    with pytest.raises(ConfigurationLocked) as exc:
        configuration_update(configuration=config, user=None, document=_smaller(config.document))
    assert exc.value.code == "with_sales"
    config.refresh_from_db()
    assert config.document["node_groups"][0]["count"] == 4


def test_a_crm_client_cannot_change_a_design_under_review_but_may_rename_it(seeded_catalog):
    config = _under_review(Configuration.Channel.API)
    with pytest.raises(ConfigurationLocked) as exc:
        configuration_update(configuration=config, user=None, document=_smaller(config.document))
    assert exc.value.code == "quote_open"
    assert configuration_update(configuration=config, user=None, name="Renamed").name == "Renamed"


def test_only_a_sales_engineer_who_may_issue_changes_a_design_under_review(seeded_catalog):
    config = _under_review()
    trainee = StaffFactory(username="trainee")
    with pytest.raises(ConfigurationLocked) as exc:
        configuration_update(configuration=config, user=trainee, document=_smaller(config.document))
    assert exc.value.code == "quote_open"

    reviewer = StaffFactory(username="sven", permissions=("issue_quote",))
    changed = configuration_update(configuration=config, user=reviewer, document=_smaller(config.document))
    assert changed.document["node_groups"][0]["count"] == 2
    assert changed.status == Configuration.Status.QUOTE_REQUESTED


def test_a_sales_engineers_change_keeps_a_quoted_design_quoted(seeded_catalog):
    config = configuration_create(document=h200_training_cluster())
    assert quote_request(configuration=config, customer=CUSTOMER, channel="api").status == "issued"
    config.refresh_from_db()
    assert config.status == Configuration.Status.QUOTED

    sales = StaffFactory(username="sven")
    configuration_update(configuration=config, user=sales, document=_smaller(config.document))
    config.refresh_from_db()
    assert config.status == Configuration.Status.QUOTED  # not a draft the customer could edit again
    with pytest.raises(ConfigurationLocked):
        configuration_update(configuration=config, user=None, document=h200_training_cluster())


def test_a_configuration_with_quotes_is_not_deleted(seeded_catalog):
    config = _under_review(Configuration.Channel.API)
    with pytest.raises(ConfigurationLocked) as exc:
        configuration_delete(configuration=config, user=None)
    assert exc.value.code == "has_quotes"
    assert Configuration.objects.filter(pk=config.pk).exists()

    draft = configuration_create(document=h200_training_cluster())
    configuration_delete(configuration=draft, user=None)
    assert not Configuration.objects.filter(pk=draft.pk).exists()


def test_taking_over_needs_the_permission(seeded_catalog):
    config = configuration_create(document=h200_training_cluster())
    with pytest.raises(PermissionDenied):
        configuration_take_over(configuration=config, user=StaffFactory(username="trainee"))
    config.refresh_from_db()
    assert config.assigned_to is None

    sven = StaffFactory(username="sven", permissions=("take_over_configuration",))
    assert configuration_take_over(configuration=config, user=sven).assigned_to == sven


def test_a_design_without_a_fabric_has_no_cabling_plan(seeded_catalog):
    config = configuration_create(document={**h200_training_cluster(), "fabric": None})
    with pytest.raises(OutputUnavailable) as exc:
        configuration_output(configuration=config, name="cabling.csv")
    assert exc.value.code == "no_fabric_plan"

    cabled = configuration_create(document={**h200_training_cluster(), "fabric": {"switch": "MQM9700-NS2F"}})
    rows = list(configuration_output(configuration=cabled, name="cabling.csv").body)
    assert rows[0].startswith("a_end,a_port,z_end,z_port") and len(rows) > 1
