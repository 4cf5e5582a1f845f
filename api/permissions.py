"""Who may do what through the API.

Scopes: ``read`` may use safe methods and the stateless computations (validate a design, plan a fabric);
``quote`` may also create, change and delete. Approving a quote follows the rule the web app uses: the client
must have scope ``quote`` and act as an active staff user holding ``quotes.approve_quote``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext_lazy as _
from rest_framework import permissions

from .models import ApiClient

if TYPE_CHECKING:
    from rest_framework.request import Request
    from rest_framework.views import APIView

APPROVE_PERMISSION = "quotes.approve_quote"


def client_of(request: Request) -> ApiClient | None:
    return request.auth if isinstance(request.auth, ApiClient) else None


class ClientScopePermission(permissions.BasePermission):
    """Authenticated API client; writes need scope ``quote`` unless the view marks the action read-only."""

    message = _("This API client has scope 'read'; this request needs scope 'quote'.")

    def has_permission(self, request: Request, view: APIView) -> bool:
        client = client_of(request)
        if client is None:
            return False
        if request.method in permissions.SAFE_METHODS:
            return True
        if getattr(view, "stateless", False):
            return True
        return client.can_quote


class CanApproveQuotes(permissions.BasePermission):
    message = _(
        "Approving quotes needs an API client with scope 'quote' that acts as an active staff user "
        "with the permission 'Can approve quote'."
    )

    def has_permission(self, request: Request, view: APIView) -> bool:
        client = client_of(request)
        user = request.user
        return bool(
            client is not None
            and client.can_quote
            and user is not None
            and user.is_authenticated
            and user.is_active
            and user.is_staff
            and user.has_perm(APPROVE_PERMISSION)
        )
