"""Issuing and the admin actions need their permissions; four eyes on discounts (not for API quotes)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.core.exceptions import PermissionDenied

from configurator.services import warning_acknowledge
from quotes.models import Quote
from quotes.services import quote_approve, quote_issue, quote_request, quote_revise
from tests.factories import WARNING_DESIGN

pytestmark = pytest.mark.django_db


def perms(user, *codenames):
    user.user_permissions.add(*Permission.objects.filter(content_type__app_label="quotes", codename__in=codenames))
    return type(user).objects.get(pk=user.pk)  # fresh permission cache


def test_staff_without_the_issue_permission_cannot_issue(make_configuration, customer, django_user_model, build):
    quote = build(quote_request, configuration=make_configuration(WARNING_DESIGN), customer=customer)
    engineer = django_user_model.objects.create_user("no-perm", "n@ncs.nl", "pw", is_staff=True)
    with pytest.raises(PermissionDenied):
        quote_issue(quote=quote, user=engineer)
    quote.refresh_from_db()
    assert quote.status == "awaiting_review"


def test_admin_issue_and_rebuild_actions_need_their_permissions(
    make_configuration, customer, django_user_model, client, build, media, django_capture_on_commit_callbacks
):
    configuration = make_configuration(WARNING_DESIGN)
    quote = build(quote_request, configuration=configuration, customer=customer)
    viewer = perms(django_user_model.objects.create_user("viewer", "v@ncs.nl", "pw", is_staff=True), "view_quote")
    client.force_login(viewer)
    changelist = client.get("/admin/quotes/quote/").content.decode()
    assert 'value="issue_selected"' not in changelist and 'value="rebuild_documents"' not in changelist

    warning_acknowledge(
        configuration=configuration,
        code="POWER_CAPACITY_UNKNOWN",
        subject="node_groups[0].server",
        reason="PSU checked",
        user=viewer,
    )
    client.post("/admin/quotes/quote/", {"action": "issue_selected", "_selected_action": [quote.pk]})
    quote.refresh_from_db()
    assert quote.status == "awaiting_review"

    engineer = perms(
        django_user_model.objects.create_user("engineer", "e@ncs.nl", "pw", is_staff=True),
        "view_quote",
        "change_quote",
        "issue_quote",
    )
    client.force_login(engineer)
    changelist = client.get("/admin/quotes/quote/").content.decode()
    assert 'value="issue_selected"' in changelist and 'value="rebuild_documents"' in changelist
    with django_capture_on_commit_callbacks(execute=True):
        client.post("/admin/quotes/quote/", {"action": "issue_selected", "_selected_action": [quote.pk]})
    quote.refresh_from_db()
    assert quote.status == "issued"


@pytest.fixture
def second_approver(django_user_model):
    return perms(django_user_model.objects.create_user("bo", "bo@ncs.nl", "pw", is_staff=True), "approve_quote")


def test_an_approver_cannot_approve_a_discount_they_set(
    configuration, customer, approver, second_approver, build, media
):
    quote = build(quote_request, configuration=configuration, customer=customer, user=approver, discount_percent="20")
    assert quote.status == "awaiting_approval" and quote.created_by == approver
    with pytest.raises(PermissionDenied, match="yourself"):
        quote_approve(quote=quote, user=approver)
    quote.refresh_from_db()
    assert quote.status == "awaiting_approval" and quote.approved_by is None

    quote = build(quote_approve, quote=quote, user=second_approver)
    assert quote.status == "issued" and quote.approved_by == second_approver


def test_four_eyes_follow_whoever_set_the_discount_of_a_revision(
    configuration, customer, staff, approver, second_approver, build, media
):
    first = build(quote_request, configuration=configuration, customer=customer, user=staff, discount_percent="5")
    revised = build(quote_revise, quote=first, user=approver, discount_percent="30")
    assert revised.status == "awaiting_approval"
    with pytest.raises(PermissionDenied):
        quote_approve(quote=revised, user=approver)
    assert build(quote_approve, quote=revised, user=second_approver).status == "issued"


def test_four_eyes_apply_to_api_quotes(seeded_catalog, django_user_model):
    # A CRM client acts through one linked user: that user set the discount, so it cannot approve it as well.
    from django.contrib.auth.models import Permission

    from configurator.examples import h200_training_cluster
    from configurator.services import configuration_create
    from quotes.services import quote_approve, quote_request

    manager = django_user_model.objects.create_user("crm-manager", is_staff=True)
    manager.user_permissions.add(Permission.objects.get(codename="approve_quote"))
    manager = django_user_model.objects.get(pk=manager.pk)
    config = configuration_create(document=h200_training_cluster(), channel="api")
    customer = {"name": "A", "company": "B", "email": "a@example.nl", "country": "NL", "vat_number": ""}
    quote = quote_request(configuration=config, customer=customer, user=manager, channel="api", discount_percent=30)
    assert quote.status == Quote.Status.AWAITING_APPROVAL and quote.discount_set_by == manager
    with pytest.raises(PermissionDenied, match="yourself"):
        quote_approve(quote=quote, user=manager)


def test_four_eyes_hold_for_a_quote_that_came_through_the_api(
    configuration, customer, approver, second_approver, build, media
):
    """An API quote keeps channel "api" through its revisions; an approver who revises it to 70 % (the wizard and
    the admin call the same service) still cannot approve it himself."""
    first = build(quote_request, configuration=configuration, customer=customer, channel="api")
    revised = build(quote_revise, quote=first, user=approver, discount_percent="70")
    assert revised.channel == "api" and revised.discount_set_by == approver
    with pytest.raises(PermissionDenied, match="yourself"):
        quote_approve(quote=revised, user=approver)
    assert build(quote_approve, quote=revised, user=second_approver).status == "issued"


def test_a_revision_that_keeps_the_discount_keeps_who_set_it(
    make_configuration, configuration, customer, approver, second_approver, build, media
):
    """Re-pointing a quote at another design does not make the reviser the one who set its discount, and does not
    let the one who did approve it."""
    first = build(quote_request, configuration=configuration, customer=customer, user=approver, discount_percent="40")
    revised = build(quote_revise, quote=first, user=second_approver, configuration=make_configuration())
    assert revised.discount_set_by == approver
    with pytest.raises(PermissionDenied):
        quote_approve(quote=revised, user=approver)
    with pytest.raises(PermissionDenied):  # the reviser made this revision: he cannot approve it either
        quote_approve(quote=revised, user=second_approver)


def test_the_admin_approve_action_refuses_the_user_who_set_the_discount(
    configuration, customer, approver, client, build, media
):
    quote = build(
        quote_request,
        configuration=configuration,
        customer=customer,
        channel="api",
        user=approver,
        discount_percent="60",
    )
    perms(approver, "view_quote", "change_quote")
    client.force_login(approver)
    client.post("/admin/quotes/quote/", {"action": "approve_selected", "_selected_action": [quote.pk]})
    quote.refresh_from_db()
    assert quote.status == "awaiting_approval" and quote.approved_by is None


def test_the_approve_button_is_offered_to_exactly_those_quote_approve_accepts(
    configuration, customer, staff, approver, second_approver, build, media
):
    from quotes.services import quote_may_approve

    first = build(quote_request, configuration=configuration, customer=customer, user=staff, discount_percent="5")
    revised = build(quote_revise, quote=first, user=approver, discount_percent="30")
    offered = {u.username: quote_may_approve(quote=revised, user=u) for u in (staff, approver, second_approver)}
    assert offered == {staff.username: False, approver.username: False, second_approver.username: True}
    for user in (staff, approver):  # no permission; set the discount (four eyes)
        with pytest.raises(PermissionDenied):
            quote_approve(quote=revised, user=user)
    assert build(quote_approve, quote=revised, user=second_approver).status == "issued"
