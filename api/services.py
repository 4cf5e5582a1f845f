"""Services of the API app: making and revoking client tokens."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from .models import ApiClient


@transaction.atomic
def api_client_create(*, name: str, scope: str = ApiClient.Scope.READ, user=None) -> tuple[ApiClient, str]:
    """A new API client and its token. The token is returned once; only its hash is stored."""
    client = ApiClient(name=name, scope=scope, user=user)
    token = client.set_new_token()
    client.full_clean()
    client.save()
    return client, token


@transaction.atomic
def api_client_rotate(*, client: ApiClient) -> str:
    """Replace a client's token (the old one stops working at once) and re-activate it; returns the new token."""
    from .auth import forget_client

    forget_client(client.token_prefix)  # the old token must stop working now, not when the cache expires
    token = client.set_new_token()
    client.is_active, client.revoked_at = True, None
    client.save(update_fields=["token_prefix", "token_hash", "is_active", "revoked_at"])
    return token


@transaction.atomic
def api_client_revoke(*, client: ApiClient) -> ApiClient:
    """Stop a client's token working. Its configurations, quotes and webhooks stay (webhooks stop firing)."""
    client.is_active, client.revoked_at = False, timezone.now()
    client.save(update_fields=["is_active", "revoked_at"])
    return client
