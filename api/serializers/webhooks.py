"""Webhook registrations and their delivery log."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import serializers

from ..models import SUBSCRIBABLE_EVENTS, Webhook, WebhookAttempt, WebhookDelivery, all_events
from ..webhooks import check_webhook_url


class StrictCharField(serializers.CharField):
    """A JSON string only: a number or a boolean is refused, not turned into text (the schema says string)."""

    def to_internal_value(self, data: object) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class WebhookSerializer(serializers.ModelSerializer):
    url = serializers.URLField(
        max_length=500,
        help_text="http(s) URL that receives signed POSTs. Private, loopback and link-local addresses are refused.",
    )
    events = serializers.ListField(
        child=serializers.ChoiceField(choices=[str(e) for e in SUBSCRIBABLE_EVENTS]),
        required=False,
        allow_empty=False,
        min_length=1,
        max_length=len(SUBSCRIBABLE_EVENTS),
        help_text="Default: every event.",
    )
    description = StrictCharField(max_length=200, required=False, allow_blank=True)

    class Meta:
        model = Webhook
        fields = ["id", "url", "events", "description", "is_active", "created_at"]
        read_only_fields = ["id", "created_at"]

    def validate_url(self, value: str) -> str:
        try:
            check_webhook_url(value)
        except DjangoValidationError as exc:
            raise serializers.ValidationError(exc.messages) from None
        return value

    def validate_events(self, value: list[str]) -> list[str]:
        return sorted(set(value))

    def create(self, validated_data: dict[str, Any]) -> Webhook:
        validated_data.setdefault("events", all_events())
        return super().create(validated_data)


class WebhookCreatedSerializer(WebhookSerializer):
    secret = serializers.CharField(
        read_only=True, help_text="Signs every delivery (HMAC-SHA256). Shown only in this response: store it now."
    )

    class Meta(WebhookSerializer.Meta):
        fields = [*WebhookSerializer.Meta.fields, "secret"]


class WebhookAttemptSerializer(serializers.ModelSerializer):
    class Meta:
        model = WebhookAttempt
        fields = ["number", "status_code", "error", "duration_ms", "created_at"]


class WebhookDeliverySerializer(serializers.ModelSerializer):
    attempt_log = WebhookAttemptSerializer(many=True, read_only=True)

    class Meta:
        model = WebhookDelivery
        fields = [
            "id",
            "event",
            "event_id",
            "status",
            "attempts",
            "payload",
            "created_at",
            "finished_at",
            "attempt_log",
        ]


class PingResultSerializer(serializers.Serializer):
    deliveries = serializers.ListField(child=serializers.IntegerField())
