"""Sales engineers' dashboard and actions on a design: accept a warning, clone, take over; and a customer's own
copy."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from configurator.services import (
    configuration_clone,
    configuration_take_over,
    warning_acknowledge,
)
from quotes import selectors as quote_selectors
from web import selectors, wizard

if TYPE_CHECKING:
    from django.contrib.auth.models import User

from web.forms import (
    AcknowledgeForm,
    DashboardFilterForm,
)
from web.views.common import _config, _remember, staff_required, step_url

# --- dashboard -----------------------------------------------------------------------------------------------

QUOTES_PER_PAGE = 25
DESIGNS_PER_PAGE = 25
SORT_COLUMNS = ("number", "date", "customer", "total", "status")


@staff_required
@require_GET
def dashboard(request: HttpRequest) -> HttpResponse:
    """Quote requests (searchable, sortable by column, filterable by status, owner and date, paginated) and the
    designs (same search and filters). The whole state is in the URL. Four queries for any page: the staff users
    of the owner filter, and a count and a page of each list."""
    form = DashboardFilterForm(request.GET or None, owners=_staff_users())
    filters: dict[str, Any] = {}
    if form.is_bound:
        form.is_valid()  # a field with a bad value (e.g. quote_status=%00) shows its error and filters nothing
        filters = {k: v for k, v in form.cleaned_data.items() if v}
    owner = form.owner_filter(request.user)
    sort = filters.get("sort") or quote_selectors.DEFAULT_QUOTE_SORT
    quotes = quote_selectors.quote_requests(
        status=filters.get("quote_status"),
        search=filters.get("q"),
        owner=owner,
        date_from=filters.get("date_from"),
        date_to=filters.get("date_to"),
        sort=sort,
    ).select_related("decision")  # an accepted quote's purchase order, in the same query
    configs = selectors.configuration_list(
        status=filters.get("status"),
        customer=filters.get("q"),
        date_from=filters.get("date_from"),
        date_to=filters.get("date_to"),
        owner=owner,
    ).defer("document")
    quote_page = Paginator(quotes, QUOTES_PER_PAGE).get_page(request.GET.get("page"))
    design_page = Paginator(configs, DESIGNS_PER_PAGE).get_page(request.GET.get("dpage"))
    return render(
        request,
        "configurator/dashboard.html",
        {
            "form": form,
            "quote_page": quote_page,
            "design_page": design_page,
            "sort": sort,
            "columns": _sort_columns(request, sort),
            "page_url": lambda key, number: _query(request, **{key: number}),
        },
    )


def _staff_users() -> list[tuple[int, str]]:
    """(id, name) of every active staff user, by user name: whom the dashboard filters by as the owner."""
    users = get_user_model().objects.filter(is_staff=True, is_active=True).order_by("username")
    return [(u.pk, u.get_full_name() or u.get_username()) for u in users.only("username", "first_name", "last_name")]


def _query(request: HttpRequest, **changes: Any) -> str:
    """This dashboard URL's query string with ``changes`` (None removes a key)."""
    query = request.GET.copy()
    for key, value in changes.items():
        query.pop(key, None)
        if value is not None:
            query[key] = value
    return "?" + query.urlencode()


def _sort_columns(request: HttpRequest, sort: str) -> dict[str, dict[str, str]]:
    """Per sortable column: the link that sorts by it (ascending first, descending when it already sorts up; back
    to page 1) and its aria-sort state."""
    out = {}
    for key in SORT_COLUMNS:
        state = "ascending" if sort == key else "descending" if sort == f"-{key}" else "none"
        target = f"-{key}" if state == "ascending" else key
        out[key] = {"url": _query(request, sort=target, page=None), "aria_sort": state}
    return out


# --- staff actions -----------------------------------------------------------------------------------------


@staff_required
@require_POST
def acknowledge(request: HttpRequest, token: str) -> HttpResponse:
    """A sales engineer accepts a warning with a reason (printed on the quote)."""
    config = _config(token)
    form = AcknowledgeForm(request.POST)
    sent = request.POST.get("next_step")
    back = sent if sent is not None and sent in wizard.STEP_SLUGS else "review"
    if form.is_valid():
        try:
            warning_acknowledge(
                configuration=config, user=cast("User", request.user), **form.cleaned_data
            )  # staff_required
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
