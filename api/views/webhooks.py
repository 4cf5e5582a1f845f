"""A client's webhooks: register (secret shown once), change, delete, see deliveries, send a test ping."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from ..events import deliveries_enqueue
from ..idempotency import idempotent
from ..models import Webhook, WebhookDelivery
from ..serializers.common import IDEMPOTENCY_PARAMETER, errors
from ..serializers.webhooks import (
    PingResultSerializer,
    WebhookCreatedSerializer,
    WebhookDeliverySerializer,
    WebhookSerializer,
)
from .base import ApiViewMixin
from .configurations import ID_PATTERN


@extend_schema_view(
    list=extend_schema(
        summary="List this client's webhooks", responses={200: WebhookSerializer(many=True), **errors(400, 404)}
    ),
    retrieve=extend_schema(summary="One webhook", responses={200: WebhookSerializer, **errors(404)}),
    create=extend_schema(
        summary="Register a webhook",
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={201: WebhookCreatedSerializer, **errors(400, 403, 415, 422)},
        description="Events: `quote.ready`, `quote.failed`, `quote.approved`, `quote.accepted` and "
        "`quote.declined` (`events`; all of them when not given). Each is `{id, event, created_at, data: {quote}}`; "
        "`quote.accepted` and `quote.declined` add `data.decision` (`outcome`, `channel`, `name`, `position`, "
        "`email`, `po_number`, `reason`, `decided_at`, and for an acceptance `order_confirmation_url`). "
        "Events are POSTed as JSON with `X-Webhook-Event`, `X-Webhook-Id` (same on every retry), "
        "`X-Webhook-Timestamp` and `X-Webhook-Signature: sha256=<hex>`, the HMAC-SHA256 under the "
        "secret of `<timestamp>.<raw body>`. Answer 2xx; anything else is retried with backoff.",
    ),
    update=extend_schema(summary="Change a webhook", responses={200: WebhookSerializer, **errors(400, 403, 404, 415)}),
    partial_update=extend_schema(
        summary="Change some fields of a webhook", responses={200: WebhookSerializer, **errors(400, 403, 404, 415)}
    ),
    destroy=extend_schema(summary="Delete a webhook", responses={204: None, **errors(403, 404)}),
)
class WebhookViewSet(ApiViewMixin, viewsets.ModelViewSet):
    serializer_class = WebhookSerializer
    lookup_value_regex = ID_PATTERN
    queryset = Webhook.objects.none()
    filterset_class = None

    def get_queryset(self) -> QuerySet[Webhook]:
        return Webhook.objects.filter(client=self.client).order_by("id")

    @idempotent
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        serializer = WebhookSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        webhook = serializer.save(client=self.client)
        return Response(WebhookCreatedSerializer(webhook).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="Deliveries of this webhook (newest first)",
        responses={200: WebhookDeliverySerializer(many=True), **errors(404)},
    )
    @action(detail=True, methods=["get"])
    def deliveries(self, request: Request, pk: str | None = None) -> Response:
        webhook = self.get_object()
        queryset = WebhookDelivery.objects.filter(webhook=webhook).prefetch_related("attempt_log")
        page = self.paginate_queryset(queryset)
        return self.get_paginated_response(WebhookDeliverySerializer(page, many=True).data)

    @extend_schema(
        summary="Send a test event",
        request=None,
        responses={202: PingResultSerializer, **errors(403, 404)},
        description="Sends a signed `ping` event to this webhook, to check the receiver.",
    )
    @action(detail=True, methods=["post"])
    def ping(self, request: Request, pk: str | None = None) -> Response:
        webhook = self.get_object()
        with transaction.atomic():
            ids = deliveries_enqueue(
                client=self.client,
                event="ping",
                webhooks=[webhook],
                data={"webhook": webhook.pk, "sent_at": timezone.now().isoformat()},
            )
        return Response({"deliveries": ids}, status=status.HTTP_202_ACCEPTED)
