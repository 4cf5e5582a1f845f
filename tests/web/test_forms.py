"""Wizard and quote forms: shape checks only, the engine judges the design."""

import pytest

from configurator.snapshot import catalog_snapshot
from design import contract
from web import forms

pytestmark = pytest.mark.django_db


def test_an_hgx_board_quantity_stays_as_entered_for_the_engine_to_judge(seeded_catalog):
    data = {"nodes": "1", "server": "SYS-821GE-TNHR", "gpu": "HGX-H200-8GPU", "gpu_quantity": "2"}
    form = forms.PlatformForm(data, catalog=catalog_snapshot())
    assert form.is_valid(), form.errors
    assert form.cleaned_data["gpu_quantity"] == 2  # two boards: GPU_TOO_MANY says so, with its fix
    empty = forms.PlatformForm({**data, "gpu_quantity": ""}, catalog=catalog_snapshot())
    assert empty.is_valid() and empty.cleaned_data["gpu_quantity"] is None  # the view defaults it to one board


def test_the_node_bound_is_the_contracts(seeded_catalog):
    assert forms.MAX_NODES is contract.MAX_NODES
    field = forms.PlatformForm(catalog=catalog_snapshot()).fields["nodes"]
    assert field.max_value == contract.MAX_NODES


def test_a_ratio_outside_the_list_stays_selected_and_is_kept_on_save(seeded_catalog):
    view = catalog_snapshot()
    unbound = forms.FabricForm(initial={"switch": "MQM9700-NS2F", "oversubscription": "8:1"}, catalog=view)
    assert ("8:1", "8:1") in unbound.fields["oversubscription"].choices
    assert 'value="8:1" selected' in str(unbound["oversubscription"])
    bound = forms.FabricForm(
        {"switch": "MQM9700-NS2F", "oversubscription": "8:1", "topology": "rail-optimized"}, catalog=view
    )
    assert bound.is_valid(), bound.errors
    assert bound.cleaned_data["oversubscription"] == "8:1"
    # Only ratios the engine accepts are added.
    bad = forms.FabricForm({"switch": "MQM9700-NS2F", "oversubscription": "1:2", "topology": "fat-tree"}, catalog=view)
    assert not bad.is_valid() and "oversubscription" in bad.errors
    default = forms.FabricForm(initial={"oversubscription": "2:1"}, catalog=view)
    assert [c for c, _ in default.fields["oversubscription"].choices] == list(forms.OVERSUBSCRIPTIONS)


def test_the_quote_email_fits_an_address(seeded_catalog):
    local = "a" * 64
    email = f"{local}@{'b' * 63}.{'c' * 63}.{'d' * 59}.nl"
    assert len(email) == 255
    form = forms.QuoteRequestForm({"name": "N", "company": "C", "email": email, "country": "NL"})
    assert not form.is_valid() and "email" in form.errors
