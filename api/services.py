"""Services of the API app: making and revoking client tokens, and storing a client's designs."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from django.db import transaction
from django.utils import timezone

from configurator.models import Configuration
from configurator.services import configuration_create

from .models import ApiClient, ClientConfiguration

if TYPE_CHECKING:
    from django.contrib.auth.models import User


@transaction.atomic
def api_client_create(
    *, name: str, scope: str = ApiClient.Scope.READ, user: User | None = None
) -> tuple[ApiClient, str]:
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


@transaction.atomic
def client_configuration_create(
    *,
    client: ApiClient,
    document: dict,
    user: User | None = None,
    name: str = "",
    crm_reference: str = "",
    language: str | None = None,
) -> Configuration:
    """Store a design as a configuration of ``client`` (channel ``api``; ``user``: the user the client acts as),
    which only that client sees through the API."""
    configuration = configuration_create(
        document=document,
        name=name,
        user=user,
        channel=Configuration.Channel.API,
        crm_reference=crm_reference,
        language=language,
    )
    ClientConfiguration.objects.create(client=client, configuration=configuration)
    return configuration


Q = TypeVar("Q")


def client_expansion_quote(
    *,
    client: ApiClient,
    grown: dict,
    user: User | None,
    name: str,
    crm_reference: str,
    language: str,
    request: Callable[[Configuration], Q],
) -> Q:
    """Store a grown design as a configuration of ``client`` and request its expansion quote (``request``, given the
    stored configuration), in one transaction: a refused request leaves no configuration behind."""
    with transaction.atomic():
        configuration = client_configuration_create(
            client=client, document=grown, user=user, name=name, crm_reference=crm_reference, language=language
        )
        return request(configuration)
