"""Quotes: a numbered, priced offer for one configuration, frozen when issued.

Lifecycle (``status``): a request becomes ``awaiting_review`` when the design has warnings no sales engineer has
accepted yet (or, for a customer's online request, when it is above the instant-quote limit: quotes.policy),
``awaiting_approval`` when its discount exceeds the approval threshold, otherwise ``issued``.
A newer revision of the same number makes the older one ``superseded`` (still readable). Issuing freezes the
lines, totals, VAT, design and validation receipt into ``frozen``; the documents are a pure rendering of it.

Documents (``doc_status``): ``pending`` → ``building`` → ``ready`` | ``failed``, built by a Celery task that
claims the row with a conditional update (see quotes.services.quote_documents_build).
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


def new_token() -> str:
    return secrets.token_urlsafe(32)


def new_download_id() -> str:
    """The opaque id an e-mailed download link signs. Not a credential by itself: only a signed, unexpired link
    (quotes.services.download_link_sign) opens the documents with it."""
    return secrets.token_urlsafe(18)


class QuoteCounter(models.Model):
    """The last quote number handed out in a year. Locked (SELECT … FOR UPDATE) while a number is taken.

    The counter is incremented inside the transaction that creates the quote, so a rolled-back request
    returns its number; a number is never handed out twice. Gaps are tolerated (e.g. a deleted test quote).
    """

    year = models.PositiveSmallIntegerField(primary_key=True)
    last = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.year}: {self.last}"


class Quote(models.Model):
    class Status(models.TextChoices):
        AWAITING_REVIEW = "awaiting_review", _("Awaiting review by a sales engineer")
        AWAITING_APPROVAL = "awaiting_approval", _("Awaiting discount approval")
        ISSUED = "issued", _("Issued")
        SUPERSEDED = "superseded", _("Superseded by a newer revision")

    class ReviewReason(models.TextChoices):
        """Why a customer's online request waits for a sales engineer (quotes.policy); empty otherwise."""

        NONE = "", _("None")
        WARNINGS = "warnings", _("The design has warnings")
        AMOUNT = "amount", _("Above the instant-quote limit")

    class DocStatus(models.TextChoices):
        PENDING = "pending", _("Pending")
        BUILDING = "building", _("Building")
        READY = "ready", _("Ready")
        FAILED = "failed", _("Failed")

    class VatCategory(models.TextChoices):
        DOMESTIC = "domestic", _("Netherlands")
        REVERSE_CHARGE = "reverse_charge", _("EU business, reverse charged")
        EU_CONSUMER = "eu_consumer", _("EU consumer")
        EXPORT = "export", _("Export outside the EU")

    number = models.CharField(_("number"), max_length=32, unique=True)
    base_number = models.CharField(_("base number"), max_length=24, db_index=True)
    revision = models.PositiveSmallIntegerField(_("revision"), default=1)
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, db_index=True)
    review_reason = models.CharField(
        _("review reason"), max_length=10, choices=ReviewReason.choices, default="", blank=True
    )
    token = models.CharField(max_length=64, unique=True, default=new_token, editable=False)
    download_id = models.CharField(max_length=32, unique=True, default=new_download_id, editable=False)
    configuration = models.ForeignKey("configurator.Configuration", on_delete=models.PROTECT, related_name="quotes")
    channel = models.CharField(_("channel"), max_length=8, default="web")
    crm_reference = models.CharField(_("CRM reference"), max_length=100, blank=True, db_index=True)
    language = models.CharField(_("language"), max_length=8, default="en")

    customer_name = models.CharField(_("customer name"), max_length=200)
    customer_company = models.CharField(_("company"), max_length=200, blank=True)
    customer_email = models.EmailField(_("e-mail"))
    customer_country = models.CharField(_("country"), max_length=2)
    customer_vat_number = models.CharField(_("VAT number"), max_length=20, blank=True)
    # The billing address: asked in the wizard, optional in the API (the offer then says it is to be confirmed).
    customer_street = models.CharField(_("street and number"), max_length=200, blank=True)
    customer_postal_code = models.CharField(_("postal code"), max_length=16, blank=True)
    customer_city = models.CharField(_("city"), max_length=100, blank=True)

    currency = models.CharField(max_length=3, default="EUR", editable=False)
    discount_percent = models.DecimalField(_("quote discount (%)"), max_digits=5, decimal_places=2, default=0)
    line_discounts = models.JSONField(
        _("line discounts (%)"), default=dict, blank=True, help_text=_("Part number → discount percentage")
    )
    subtotal = models.DecimalField(_("list value"), max_digits=14, decimal_places=2, default=0)
    discount = models.DecimalField(_("discount"), max_digits=14, decimal_places=2, default=0)
    net = models.DecimalField(_("net, excl. VAT"), max_digits=14, decimal_places=2, default=0)
    vat_category = models.CharField(max_length=16, choices=VatCategory.choices, blank=True)
    vat_rate = models.DecimalField(_("VAT rate (%)"), max_digits=5, decimal_places=2, default=0)
    vat_amount = models.DecimalField(_("VAT"), max_digits=14, decimal_places=2, default=0)
    total = models.DecimalField(_("total, incl. VAT"), max_digits=14, decimal_places=2, default=0)
    vat_notice = models.CharField(_("VAT notice"), max_length=200, blank=True)

    issued_at = models.DateTimeField(_("issued at"), null=True, blank=True)
    valid_until = models.DateField(_("valid until"), null=True, blank=True)
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("approved by"),
    )
    approved_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("created by"),
    )
    # Four eyes: who set this revision's discounts (the staff user, or the user behind the API client). Nobody
    # approves a discount they set themselves, whatever the door (quotes.services.quote_approve).
    discount_set_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("discount set by"),
    )
    # Everything the documents print, frozen at issue (schema "quote/v1"); before issue, a preview. Only the
    # documents read it: lists and reads of quotes leave it in the database (it holds the whole validation result)
    # and show the columns below, copied from it when it is written (quotes.services.freezing).
    frozen = models.JSONField(default=dict, blank=True)
    at_least = models.BooleanField(
        _("at least"), default=False, help_text=_("A line is priced on request: every amount leaves it out.")
    )
    indicative = models.BooleanField(
        _("indicative"), default=False, help_text=_("Issued at once from list prices, without a sales engineer.")
    )
    design_hash = models.CharField(_("design hash"), max_length=64, blank=True, editable=False)

    doc_status = models.CharField(
        _("document status"), max_length=10, choices=DocStatus.choices, default=DocStatus.PENDING, db_index=True
    )
    progress = models.PositiveSmallIntegerField(default=0)
    failure_message = models.TextField(blank=True)
    enqueued_at = models.DateTimeField(null=True, blank=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    # Until when the build claimed at claimed_at is held: the building worker renews it while it works, so a dead
    # worker's claim runs out within settings.QUOTE_BUILD_LEASE (quotes.services.builds).
    lease_until = models.DateTimeField(null=True, blank=True)
    build_attempts = models.PositiveSmallIntegerField(default=0)
    pdf = models.FileField(upload_to="quotes/", max_length=255, blank=True)
    xlsx = models.FileField(upload_to="quotes/", max_length=255, blank=True)
    emailed_at = models.DateTimeField(null=True, blank=True)

    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        permissions = [
            ("approve_quote", "Can approve quotes with a discount above the threshold"),
            ("issue_quote", "Can issue quotes whose design warnings were accepted"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["base_number", "revision"], name="quote_unique_revision"),
            models.CheckConstraint(
                condition=Q(discount_percent__gte=0, discount_percent__lte=100), name="quote_discount_0_100"
            ),
            models.CheckConstraint(condition=Q(progress__lte=100), name="quote_progress_0_100"),
            models.CheckConstraint(condition=Q(revision__gte=1), name="quote_revision_positive"),
            # An issued quote always carries its frozen snapshot and validity.
            models.CheckConstraint(
                condition=~Q(status="issued") | Q(issued_at__isnull=False, valid_until__isnull=False),
                name="quote_issued_has_snapshot",
            ),
        ]

    def __str__(self) -> str:
        return self.number

    @property
    def is_expired(self) -> bool:
        """An offer is binding until the end of ``valid_until`` (Europe/Amsterdam)."""
        return self.valid_until is not None and timezone.localdate() > self.valid_until

    @property
    def is_active(self) -> bool:
        return self.status != self.Status.SUPERSEDED

    @property
    def display_status(self) -> str:
        if self.status == self.Status.ISSUED and self.is_expired:
            return str(_("Expired"))
        return str(self.get_status_display())

    @property
    def lines(self) -> list[dict]:
        return list(self.frozen.get("lines", []))
