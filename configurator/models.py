"""The configuration domain: stored designs (drafts) and acknowledged warnings.

A configuration holds a design document (contract design/v1) exactly as the wizard, the API and the quote
task see it. Customers reach their draft through an unguessable token; staff see every draft.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from .errors import ConfigurationLocked


def new_token() -> str:
    return secrets.token_urlsafe(24)


class Configuration(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        QUOTE_REQUESTED = "quote_requested", _("Quote requested")
        QUOTED = "quoted", _("Quoted")

    class Channel(models.TextChoices):
        WEB = "web", _("Online customer")
        STAFF = "staff", _("Sales engineer")
        API = "api", _("CRM (API)")

    token = models.CharField(max_length=64, unique=True, default=new_token, editable=False)
    name = models.CharField(_("name"), max_length=200, blank=True)
    document = models.JSONField(_("design document"), default=dict)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.DRAFT, db_index=True)
    channel = models.CharField(max_length=8, choices=Channel.choices, default=Channel.WEB)
    language = models.CharField(max_length=8, default="en")
    crm_reference = models.CharField(_("CRM reference"), max_length=100, blank=True, db_index=True)
    customer_name = models.CharField(max_length=200, blank=True)
    customer_company = models.CharField(max_length=200, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    assigned_to = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="assigned_configurations",
        verbose_name=_("sales engineer"),
    )
    # Set when the design was built as it stands (configurator.services.configuration_mark_built): the stored design
    # is then the installed cluster's record, which expansions start from, and it is not changed any more.
    built_at = models.DateTimeField(_("built"), null=True, blank=True)
    # The last validation verdict, kept for lists and dashboards; the validation service is the authority.
    valid = models.BooleanField(null=True, blank=True)
    error_count = models.PositiveIntegerField(default=0)
    warning_count = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)

    # Remembered on the object for the rest of a request by the wizard's views (web.views.common), never stored.
    _edit_refusal: ConfigurationLocked | None
    _step_url_prefix: str

    class Meta:
        ordering = ["-updated_at", "-id"]
        permissions = [("take_over_configuration", "Can take over a customer's configuration")]

    def __str__(self) -> str:
        return self.name or f"Configuration {self.pk}"


class WarningAcknowledgement(models.Model):
    """A sales engineer accepts a warning with a reason; the reason is printed on the quote.

    An acknowledgement holds for the design it was given for (``design_hash``, configurator.validation): once
    the design changes, the same warning must be accepted again. Rows from before the hash was kept have an
    empty hash and match no design (the engineer's reason was about a design nobody can tell any more).
    """

    configuration = models.ForeignKey(Configuration, on_delete=models.CASCADE, related_name="acknowledgements")
    code = models.CharField(max_length=64)
    subject = models.CharField(max_length=200)
    design_hash = models.CharField(
        max_length=64, blank=True, default="", help_text=_("Hash of the design the warning was accepted for.")
    )
    reason = models.TextField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["configuration", "code", "subject", "design_hash"], name="ack_unique_per_finding_and_design"
            ),
            models.CheckConstraint(condition=~models.Q(reason=""), name="ack_reason_required"),
        ]

    def __str__(self) -> str:
        return f"{self.code} @ {self.subject}"
