"""Safe retries of create requests: the ``Idempotency-Key`` header.

The first successful response to (client, key) is stored together with a fingerprint of the request (method,
path and canonical JSON body). A retry with the same key and the same request gets the stored response again
(status, body and ``Location``, plus ``Idempotent-Replayed: true``); the same key with a different request gets
422. Keys are per client and expire after 24 hours. The record is written in the same transaction as the work,
so a crash leaves neither; two concurrent requests with one key race on the unique constraint and the loser's
work is rolled back before it replays the winner's response.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response

from .exceptions import ApiError, ApiErrorCode, Conflict, Unprocessable
from .models import IDEMPOTENCY_TTL, IdempotencyRecord
from .permissions import client_of

if TYPE_CHECKING:
    from rest_framework.request import Request
    from rest_framework.views import APIView

    from .models import ApiClient

ViewMethod = Callable[..., Response]  # a view's method: (self, request, *args, **kwargs) -> Response

HEADER = "Idempotency-Key"
_KEY = re.compile(r"^[\x21-\x7e]{1,255}$")  # visible ASCII, as in the IETF draft's examples


class _KeyTaken(Exception):
    pass


def _fingerprint(request: Request) -> str:
    data = request.data
    if not isinstance(data, dict | list):
        data = {}
    elif hasattr(data, "dict"):  # an empty QueryDict when there was no body
        data = data.dict()
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(f"{request.method} {request.path}\n{canonical}".encode()).hexdigest()


def _replay(record: IdempotencyRecord, fingerprint: str) -> Response:
    if record.request_hash != fingerprint:
        raise Unprocessable(
            _("This Idempotency-Key was already used for a different request; use a new key for a new request."),
            code=ApiErrorCode.IDEMPOTENCY_KEY_REUSED,
            fields={HEADER: _("already used with another request body or URL")},
        )
    headers = {"Idempotent-Replayed": "true"}
    if record.location:
        headers["Location"] = record.location
    return Response(record.response_body, status=record.status_code, headers=headers)


def _live_record(client: ApiClient, key: str) -> IdempotencyRecord | None:
    record = IdempotencyRecord.objects.filter(client=client, key=key).first()
    if record is not None and record.expired:
        record.delete()
        return None
    return record


def idempotent(view_method: ViewMethod) -> ViewMethod:
    """Decorate a view method that creates something (POST)."""

    @functools.wraps(view_method)
    def wrapper(self: APIView, request: Request, *args: Any, **kwargs: Any) -> Response:
        key = request.headers.get(HEADER)
        client = client_of(request)
        if key is None or client is None:
            return view_method(self, request, *args, **kwargs)
        key = key.strip()
        if not _KEY.match(key):
            raise ApiError(
                _("Idempotency-Key must be 1 to 255 visible ASCII characters."),
                code=ApiErrorCode.INVALID_IDEMPOTENCY_KEY,
                status_code=400,
                fields={HEADER: _("1 to 255 visible ASCII characters")},
            )
        fingerprint = _fingerprint(request)
        record = _live_record(client, key)
        if record is not None:
            return _replay(record, fingerprint)
        try:
            response = _run_once(self, request, args, kwargs, view_method, client, key, fingerprint)
        except Exception:
            # A concurrent retry with this key may have finished first, so that this one was refused for it (a
            # quote "was just issued" for the same request): the client gets that first answer, not the refusal.
            record = _live_record(client, key)
            if record is not None:
                return _replay(record, fingerprint)
            raise
        if not 200 <= response.status_code < 300 and (record := _live_record(client, key)) is not None:
            return _replay(record, fingerprint)
        return response

    return wrapper


def _run_once(
    self: APIView,
    request: Request,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    view_method: ViewMethod,
    client: ApiClient,
    key: str,
    fingerprint: str,
) -> Response:
    """Run the view and store its successful response under the key, in one transaction (see the module doc)."""
    try:
        with transaction.atomic():
            response = view_method(self, request, *args, **kwargs)
            if 200 <= response.status_code < 300:
                body = json.loads(JSONRenderer().render(response.data) or b"null")
                try:
                    with transaction.atomic():
                        IdempotencyRecord.objects.create(  # type: ignore[misc]  # a request that reached a view has a method
                            client=client,
                            key=key,
                            method=request.method,
                            path=request.path[:500],
                            request_hash=fingerprint,
                            status_code=response.status_code,
                            response_body=body,
                            location=(response.get("Location") or "")[:500],
                        )
                except IntegrityError as exc:
                    raise _KeyTaken from exc
    except _KeyTaken:
        record = _live_record(client, key)
        if record is None:
            raise Conflict(
                _("A request with this Idempotency-Key is in progress; retry shortly."),
                code=ApiErrorCode.IDEMPOTENCY_IN_PROGRESS,
                headers={"Retry-After": "1"},
            ) from None
        return _replay(record, fingerprint)
    IdempotencyRecord.objects.filter(client=client, created_at__lt=timezone.now() - IDEMPOTENCY_TTL).delete()
    return response
