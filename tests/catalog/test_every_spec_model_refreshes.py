"""Saving or deleting any row of the catalogue's specs — every spec model and every row that belongs to a server —
moves the catalogue version and refreshes the engines' snapshot, whichever model it is. The list of models comes
from the catalogue app itself, so a part kind added later is checked without editing this test."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.core.exceptions import ImproperlyConfigured

from catalog.models import SPEC_MODELS, CatalogRelease, Part, Rack
from catalog.signals import owner_field
from configurator.snapshot import catalog_snapshot, catalog_version

pytestmark = pytest.mark.django_db

# Not part of any part's specs: the part itself (its own updated_at moves) and the release log.
NOT_SPECS = {Part, CatalogRelease}
CATALOGUE_MODELS = sorted(
    (m for m in apps.get_app_config("catalog").get_models() if m not in NOT_SPECS), key=lambda m: m.__name__
)


def _row(model):
    row = model.objects.order_by("pk").first()
    assert row is not None, f"the seed catalogue holds no {model.__name__} row to save"
    return row


def _moves(step) -> bool:
    before_view, before = catalog_snapshot(max_age=0), catalog_version()
    step()
    return catalog_version() != before and catalog_snapshot(max_age=0) is not before_view


def test_every_part_kind_has_a_spec_model_in_the_catalogue_list():
    assert set(SPEC_MODELS.values()) <= set(CATALOGUE_MODELS)


@pytest.mark.parametrize("model", CATALOGUE_MODELS, ids=lambda m: m.__name__)
def test_saving_any_catalogue_spec_row_moves_the_version(seeded_catalog, model):
    row = _row(model)
    assert _moves(row.save), f"saving a {model.__name__} row left the catalogue version where it was"


@pytest.mark.parametrize("model", CATALOGUE_MODELS, ids=lambda m: m.__name__)
def test_deleting_any_catalogue_spec_row_moves_the_version(seeded_catalog, model):
    row = _row(model)  # the part stays: only its spec row (or the server's row) goes
    assert _moves(row.delete), f"deleting a {model.__name__} row left the catalogue version where it was"


def test_a_rack_height_edited_in_the_catalogue_reaches_the_engines(seeded_catalog):
    rack = Rack.objects.select_related("part").order_by("pk").first()
    before = catalog_snapshot(max_age=0).get(rack.part.part_number).height_u
    rack.height_u = before + 1
    rack.save()
    assert catalog_snapshot(max_age=0).get(rack.part.part_number).height_u == before + 1


def test_a_catalogue_model_that_belongs_to_no_part_is_refused_at_start():
    with pytest.raises(ImproperlyConfigured, match="CatalogRelease"):
        owner_field(CatalogRelease)


def _admin_post_data(response) -> dict:
    """The change form's current values as the browser would post them: the main form and every inline."""
    data = {}

    def put(form):
        for name in form.fields:
            value = form[name].value()
            key = form.add_prefix(name)
            if value is None:
                continue
            if isinstance(value, (list, tuple)):
                data[key] = [str(v) for v in value]
            elif isinstance(value, bool):
                if value:
                    data[key] = "on"
            else:
                data[key] = str(value)

    put(response.context["adminform"].form)
    for inline in response.context["inline_admin_formsets"]:
        formset = inline.formset
        data.update({formset.management_form.add_prefix(k): v for k, v in formset.management_form.initial.items()})
        for form in formset.forms:
            put(form)
    return data


def test_a_default_part_changed_in_the_admin_moves_the_version_and_reaches_the_engines(admin_client, seeded_catalog):
    from catalog.models import DefaultPart

    default = DefaultPart.objects.select_related("server__part").filter(role="memory").order_by("pk").first()
    server = default.server
    url = f"/admin/catalog/server/{server.pk}/change/"
    response = admin_client.get(url)
    data = _admin_post_data(response)
    quantity = next(
        k
        for k in data
        if k.startswith("default_parts-") and k.endswith("-quantity") and data[k[:-8] + "role"] == "memory"
    )
    data[quantity] = str(default.quantity // 2)
    before_view, before = catalog_snapshot(max_age=0), catalog_version()
    saved = admin_client.post(url, data)
    assert saved.status_code == 302, saved.content.decode()[:2000]
    assert catalog_version() != before
    after = catalog_snapshot(max_age=0)
    assert after is not before_view
    memory = next(d for d in after.get(server.part.part_number).default_parts if d.role == "memory")
    assert memory.quantity == default.quantity // 2
