"""The API's own records: clients and their tokens, ownership of what they create, idempotency keys, webhooks.

Ownership lives here, not on the domain models, because the API depends on the apps and never the reverse
(CONVENTIONS: ``api`` → ``configurator`` → ``catalog``). A client owns the configurations it stored; the quotes
of those configurations are its quotes (a quote always belongs to one configuration).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import uuid
from datetime import timedelta

from django.conf import settings
from django.core.validators import RegexValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

TOKEN_PREFIX_BYTES = 4  # 8 hex characters: enough to find the row, useless for guessing the secret
IDEMPOTENCY_TTL = timedelta(hours=24)


RATE_VALIDATOR = RegexValidator(
    r"^\d+/(s|sec|second|m|min|minute|h|hour|d|day)$", _("Use a rate such as 100/min or 5000/day.")
)


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


class ApiClient(models.Model):
    """A CRM (or other machine) that calls the API with its own Bearer token.

    The token is ``<prefix>.<secret>``; only the prefix (for lookup) and the SHA-256 of the secret are stored,
    so the token is shown once, when made, and never again. Scope ``read`` may read and run the stateless
    validation and planning; ``quote`` may also store designs, request and revise quotes and manage webhooks.
    Approving a quote additionally needs the linked Django ``user`` to be active staff with
    ``quotes.approve_quote``: the same rule as in the web app, checked against that user's permissions.
    """

    class Scope(models.TextChoices):
        READ = "read", _("Read and validate")
        QUOTE = "quote", _("Read, validate and quote")

    name = models.CharField(_("name"), max_length=100, unique=True)
    scope = models.CharField(_("scope"), max_length=8, choices=Scope.choices, default=Scope.READ)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="api_clients",
        verbose_name=_("acts as user"),
        help_text=_(
            "Optional. Quotes are recorded as made by this user, and its permissions apply "
            "(approving a quote needs an active staff user with 'Can approve quote')."
        ),
    )
    token_prefix = models.CharField(max_length=16, unique=True, editable=False)
    token_hash = models.CharField(max_length=64, editable=False)
    rate = models.CharField(
        _("rate limit"),
        max_length=20,
        blank=True,
        validators=[RATE_VALIDATOR],
        help_text=_("Optional override such as '100/min'; empty uses the default."),
    )
    is_active = models.BooleanField(_("active"), default=True)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        verbose_name = _("API client")
        verbose_name_plural = _("API clients")
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(condition=models.Q(scope__in=["read", "quote"]), name="api_client_scope_known")
        ]

    def __str__(self) -> str:
        return self.name

    def set_new_token(self) -> str:
        """Give the client a fresh token and return it (the only time it is seen in clear)."""
        prefix = secrets.token_hex(TOKEN_PREFIX_BYTES)
        while ApiClient.objects.filter(token_prefix=prefix).exclude(pk=self.pk).exists():
            prefix = secrets.token_hex(TOKEN_PREFIX_BYTES)
        secret = secrets.token_urlsafe(32)
        self.token_prefix = prefix
        self.token_hash = hash_secret(secret)
        return f"{prefix}.{secret}"

    def check_secret(self, secret: str) -> bool:
        return hmac.compare_digest(self.token_hash, hash_secret(secret))

    @property
    def can_quote(self) -> bool:
        return self.scope == self.Scope.QUOTE

    # DRF and the throttles treat the client as the authenticated principal.
    is_authenticated = True


class ClientConfiguration(models.Model):
    """Which client stored a configuration: clients see only their own, and the quotes made from them."""

    client = models.ForeignKey(ApiClient, on_delete=models.CASCADE, related_name="configurations")
    configuration = models.OneToOneField(
        "configurator.Configuration", on_delete=models.CASCADE, related_name="api_owner"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.client} → configuration {self.configuration_id}"


class IdempotencyRecord(models.Model):
    """The first response to a create request sent with an ``Idempotency-Key``.

    A retry with the same key and the same body gets this response again; the same key with another body is
    refused (422). Keys are per client and live 24 hours. Only successful responses are kept: a rejected
    request changed nothing, so running it again is harmless and gives the same answer.
    """

    client = models.ForeignKey(ApiClient, on_delete=models.CASCADE, related_name="idempotency_records")
    key = models.CharField(max_length=255)
    method = models.CharField(max_length=8)
    path = models.CharField(max_length=500)
    request_hash = models.CharField(max_length=64)
    status_code = models.PositiveSmallIntegerField()
    response_body = models.JSONField(null=True)
    location = models.CharField(max_length=500, blank=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["client", "key"], name="idempotency_key_unique_per_client")]

    def __str__(self) -> str:
        return f"{self.client}: {self.key}"

    @property
    def expired(self) -> bool:
        return self.created_at < timezone.now() - IDEMPOTENCY_TTL


class WebhookEvent(models.TextChoices):
    QUOTE_READY = "quote.ready", "quote.ready"
    QUOTE_FAILED = "quote.failed", "quote.failed"
    QUOTE_APPROVED = "quote.approved", "quote.approved"
    QUOTE_ACCEPTED = "quote.accepted", "quote.accepted"
    QUOTE_DECLINED = "quote.declined", "quote.declined"
    PING = "ping", "ping"


SUBSCRIBABLE_EVENTS = [
    WebhookEvent.QUOTE_READY,
    WebhookEvent.QUOTE_FAILED,
    WebhookEvent.QUOTE_APPROVED,
    WebhookEvent.QUOTE_ACCEPTED,
    WebhookEvent.QUOTE_DECLINED,
]


def all_events() -> list[str]:
    return sorted(str(e) for e in SUBSCRIBABLE_EVENTS)


def new_webhook_secret() -> str:
    return "whsec_" + secrets.token_urlsafe(32)


class Webhook(models.Model):
    """A client's URL for quote events, signed with HMAC-SHA256 under a secret shown once.

    The secret is kept in clear because signing needs it; it is never returned after creation.
    """

    client = models.ForeignKey(ApiClient, on_delete=models.CASCADE, related_name="webhooks")
    url = models.URLField(max_length=500)
    events = models.JSONField(default=all_events)
    description = models.CharField(max_length=200, blank=True)
    secret = models.CharField(max_length=100, default=new_webhook_secret, editable=False)
    is_active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return self.url


class WebhookDelivery(models.Model):
    """One event for one webhook; retried with backoff until delivered or out of attempts.

    ``next_attempt_at`` says when the next attempt is due; ``claimed_at`` marks the attempt in progress, so two
    workers never send the same delivery at once (see ``api.tasks.claim_delivery``).

    ``event_id`` is sent as ``X-Webhook-Id`` and stays the same across retries, so receivers can drop repeats.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        SUCCEEDED = "succeeded", _("Delivered")
        FAILED = "failed", _("Failed")

    webhook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    event = models.CharField(max_length=32, choices=WebhookEvent.choices)
    event_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    payload = models.JSONField()
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.PENDING, db_index=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField(
        null=True,
        blank=True,
        default=timezone.now,
        help_text=_("When the next attempt is due (after a failure: the backoff); empty once finished."),
    )
    claimed_at = models.DateTimeField(
        null=True, blank=True, help_text=_("Set while a worker is making an attempt (a lease, see api.tasks).")
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = _("webhook deliveries")
        indexes = [models.Index(fields=["status", "next_attempt_at"], name="webhook_delivery_due")]

    def __str__(self) -> str:
        return f"{self.event} → {self.webhook}"


class WebhookAttempt(models.Model):
    """One HTTP attempt at a delivery: what came back, or why nothing did."""

    delivery = models.ForeignKey(WebhookDelivery, on_delete=models.CASCADE, related_name="attempt_log")
    number = models.PositiveSmallIntegerField()
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    error = models.TextField(blank=True)
    duration_ms = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["delivery", "number"]

    def __str__(self) -> str:
        return f"#{self.number}: {self.status_code or self.error[:40]}"
