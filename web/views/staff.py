"""Sales engineers' actions on a design: accept a warning, clone, take over; and a customer's own copy."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from configurator.services import (
    configuration_clone,
    configuration_take_over,
    warning_acknowledge,
)
from web import wizard
from web.forms import (
    AcknowledgeForm,
)
from web.views.common import _config, _remember, staff_required, step_url

# --- staff actions -----------------------------------------------------------------------------------------


@staff_required
@require_POST
def acknowledge(request: HttpRequest, token: str) -> HttpResponse:
    """A sales engineer accepts a warning with a reason (printed on the quote)."""
    config = _config(token)
    form = AcknowledgeForm(request.POST)
    back = request.POST.get("next_step") if request.POST.get("next_step") in wizard.STEP_SLUGS else "review"
    if form.is_valid():
        try:
            warning_acknowledge(configuration=config, user=request.user, **form.cleaned_data)
        except ValidationError as exc:
            messages.error(request, " ".join(exc.messages))
        else:
            messages.success(request, _("Warning %(code)s accepted.") % {"code": form.cleaned_data["code"]})
    else:
        messages.error(request, _("Give a reason for accepting this warning."))
    # Post/redirect/get, with htmx too: the browser follows the redirect with the htmx headers, so the GET
    # answers with the step's body for #step-body.
    return redirect(step_url(config, back) + "#findings")


@staff_required
@require_POST
def clone(request: HttpRequest, token: str) -> HttpResponse:
    config = _config(token)
    copy = configuration_clone(configuration=config, user=request.user)
    messages.success(request, _("This is a copy of “%(name)s”.") % {"name": config.name or config.token[:8]})
    return redirect(step_url(copy, "platform"))


@require_POST
def customer_copy(request: HttpRequest, token: str) -> HttpResponse:
    """A customer whose draft is with sales makes their own editable copy (same token rules: a new secret link)."""
    config = _config(token)
    copy = configuration_clone(configuration=config, user=None)
    _remember(request, copy)
    return redirect(step_url(copy, "platform"))


@staff_required
@require_POST
def take_over(request: HttpRequest, token: str) -> HttpResponse:
    config = _config(token)
    try:
        configuration_take_over(configuration=config, user=request.user)
    except PermissionDenied as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("You now handle this request."))
    return redirect(step_url(config, "review"))
