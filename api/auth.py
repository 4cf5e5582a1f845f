"""Bearer-token authentication for API clients.

``Authorization: Bearer <prefix>.<secret>``: the prefix finds the client, the SHA-256 of the secret is compared
in constant time. ``request.auth`` is the ApiClient; ``request.user`` is the Django user the client acts as
(or anonymous when none is linked), so services record who did what and permission checks use that user.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, NoReturn

from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from django.utils import timezone
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext_lazy as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions

from .models import ApiClient
from .throttling import BadTokenThrottle, planned_keys, throttle_cache

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django_stubs_ext import StrOrPromise
    from drf_spectacular.openapi import AutoSchema
    from rest_framework.request import Request

LAST_USED_RESOLUTION_SECONDS = 60  # write last_used_at at most once a minute per client
# A client row is cached this long (Django's default cache) so a request costs no query for it. Saving or deleting
# the client (revoking, rotating, changing its scope) takes effect at once on every process that shares the cache:
# after the change commits, the entry is replaced by a marker that lives this long, and lookups only ever *add*
# to the cache. A request that read the row before the change committed can therefore never put the old row back
# (its add finds the marker); while the marker lives, lookups read the database. With a per-process cache, other
# processes see a change within this many seconds: use a shared cache (Redis) in production.
CLIENT_CACHE_SECONDS = 10
_CHANGED = "changed"


# The client a token prefix named when this process last read it. A prefix names one client for good (a rotated
# token gets a new prefix), so this only tells which throttle counts to read with the client's row, in the same
# round trip (api.throttling.planned_keys); the row read decides, and counts read for another pk are not used.
_pk_of_prefix: dict[str, int] = {}


def _cache_key(prefix: str) -> str:
    return f"api-client:{prefix}"


def _lookup(prefix: str, request: Request) -> ApiClient | None:
    key = _cache_key(prefix)
    pk = _pk_of_prefix.get(prefix)
    view = (getattr(request, "parser_context", None) or {}).get("view")
    ahead = planned_keys(request, view, pk) if pk is not None and view is not None else []
    if ahead:
        values = cache.get_many([key, *ahead])
        cached = values.get(key)
    else:
        cached = cache.get(key)
    if isinstance(cached, ApiClient):
        _pk_of_prefix[prefix] = cached.pk
        if ahead and cached.pk == pk:
            throttle_cache(request).read_ahead({k: values.get(k) for k in ahead})
        return cached
    client = ApiClient.objects.filter(token_prefix=prefix).first()
    if client is not None:
        _pk_of_prefix[prefix] = client.pk
        if cached is None:
            cache.add(key, client, CLIENT_CACHE_SECONDS)  # never overwrites a change marker
    return client


def forget_client(prefix: str) -> None:
    """Drop the cached row of ``prefix`` now and once more after the current transaction commits, and keep
    lookups from caching it again for CLIENT_CACHE_SECONDS (see above)."""
    key = _cache_key(prefix)
    cache.set(key, _CHANGED, CLIENT_CACHE_SECONDS)
    transaction.on_commit(lambda: cache.set(key, _CHANGED, CLIENT_CACHE_SECONDS))


@receiver([post_save, post_delete], sender=ApiClient, dispatch_uid="api.auth.forget_client")
def _forget_client(sender: type[ApiClient], instance: ApiClient, created: bool = False, **kwargs: object) -> None:
    if not created:  # a new client's prefix was never cached
        forget_client(instance.token_prefix)


_noted: dict[int, float] = {}  # client pk -> when this process last noted a use (monotonic seconds)


def _note_use(client: ApiClient) -> None:
    """Record ``last_used_at`` at most once a minute per client: this process asks the shared cache only when it
    has not noted the client within the minute itself, and the cache lets one process write the row."""
    now = time.monotonic()
    if now - _noted.get(client.pk, -LAST_USED_RESOLUTION_SECONDS) < LAST_USED_RESOLUTION_SECONDS:
        return
    _noted[client.pk] = now
    if cache.add(f"api-client-used:{client.pk}", 1, LAST_USED_RESOLUTION_SECONDS):
        ApiClient.objects.filter(pk=client.pk).update(last_used_at=timezone.now())


def _acting_user(client: ApiClient) -> User | AnonymousUser:
    user = client.user if client.user_id is not None else None
    return user if user is not None and user.is_active else AnonymousUser()


def _refuse(request: Request, message: StrOrPromise) -> NoReturn:
    """401 for a bad token, or 429 once this address sent more bad tokens than the ``bad_token`` rate allows."""
    throttle = BadTokenThrottle()
    if not throttle.allow_request(request, None):  # type: ignore[arg-type]  # this throttle reads no view
        raise exceptions.Throttled(throttle.wait())
    raise exceptions.AuthenticationFailed(message)


class BearerTokenAuthentication(authentication.BaseAuthentication):
    keyword = "Bearer"

    def authenticate(self, request: Request) -> tuple[SimpleLazyObject, ApiClient] | None:
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].lower() != self.keyword.lower().encode():
            return None
        if len(header) != 2:
            _refuse(request, _("Malformed Authorization header: use 'Bearer <token>'."))
        try:
            token = header[1].decode("ascii")
        except UnicodeDecodeError:
            _refuse(request, _("Invalid token."))
        prefix, _sep, secret = token.partition(".")
        if not prefix or not secret or len(prefix) > 16 or "\x00" in token:
            _refuse(request, _("Invalid token."))
        client = _lookup(prefix, request)
        if client is None or not client.check_secret(secret):
            _refuse(request, _("Invalid token."))
        if not client.is_active:
            _refuse(request, _("This token has been revoked."))
        _note_use(client)
        # The user is loaded only when a view needs it (quotes record it; approving checks its permissions).
        return SimpleLazyObject(lambda: _acting_user(client)), client

    def authenticate_header(self, request: Request) -> str:
        # Makes DRF answer 401 (not 403) to a missing or bad token.
        return 'Bearer realm="api"'


class BearerTokenScheme(OpenApiAuthenticationExtension):
    target_class = "api.auth.BearerTokenAuthentication"
    name = "bearerAuth"

    def get_security_definition(self, auto_schema: AutoSchema) -> dict[str, str]:
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "A per-client API token, `<prefix>.<secret>`, from `manage.py create_api_client` "
            "or the admin. Shown once when created.",
        }
