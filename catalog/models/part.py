"""The orderable part, the base of every kind's typed specs, and the release log of catalogue loads."""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum

from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from design.vocabulary import (
    Category,
)


def choices_of(enum: Iterable[StrEnum]) -> list[tuple[str, str]]:
    return [(m.value, m.value) for m in enum]


CATEGORY_CHOICES = [
    (Category.SERVER.value, _("Server")),
    (Category.GPU.value, _("GPU board or card")),
    (Category.ADAPTER.value, _("Network adapter")),
    (Category.SWITCH.value, _("Switch")),
    (Category.CABLE.value, _("Cable or fibre")),
    (Category.TRANSCEIVER.value, _("Transceiver")),
    (Category.BRIDGE.value, _("NVLink bridge")),
    (Category.OTHER.value, _("Other")),
]

# Node contents and rack-level parts. The engines do not know these categories yet (their snapshot maps them to
# "other"); the catalogue, its API filter and the price list do.
NODE_CATEGORY_CHOICES = [
    ("cpu", _("Processor (CPU)")),
    ("memory", _("Memory module (DIMM)")),
    ("drive", _("Drive (boot or data)")),
    ("rack", _("Rack")),
    ("pdu", _("Power distribution unit (PDU)")),
    ("power_cord", _("Power cord")),
]
CATEGORY_CHOICES += NODE_CATEGORY_CHOICES


class Lifecycle(models.TextChoices):
    ACTIVE = "active", _("Active")
    PREVIEW = "preview", _("Pre-release")
    DISCONTINUED = "discontinued", _("Discontinued")
    EOL = "eol", _("End of life")


class Part(models.Model):
    """An orderable article. The list price is indicative (EUR, excl. VAT); quotes freeze it at issue."""

    part_number = models.CharField(_("part number"), max_length=64, unique=True)
    manufacturer = models.CharField(_("manufacturer"), max_length=64)
    name = models.CharField(_("name"), max_length=200)
    category = models.CharField(_("category"), max_length=16, choices=CATEGORY_CHOICES, db_index=True)
    description = models.TextField(_("description"), blank=True)
    list_price_eur = models.DecimalField(
        _("list price (EUR)"),
        max_digits=12,
        decimal_places=2,
        null=True,
        blank=True,
        validators=[MinValueValidator(0)],
        help_text=_("Empty means price on request."),
    )
    # The distributor's purchase price: staff only (margins, four eyes); never on a customer page, document or API
    # answer to a client that does not act as a staff user. Set by the price-list import (column cost_price_eur).
    cost_price_eur = models.DecimalField(
        _("purchase price (EUR)"),
        max_digits=12,
        decimal_places=2,
        null=True,
        blank=True,
        validators=[MinValueValidator(0)],
        help_text=_("Staff only. Empty means unknown: the margin of its lines is unknown."),
    )
    lead_time_days = models.PositiveIntegerField(_("lead time (days)"), null=True, blank=True)
    lifecycle = models.CharField(_("lifecycle"), max_length=16, choices=Lifecycle.choices, default=Lifecycle.ACTIVE)
    lifecycle_source = models.CharField(
        _("lifecycle source"),
        max_length=32,
        blank=True,
        help_text=_("Source key of the seed catalogue that states the lifecycle. Empty: a commercial assumption."),
    )
    replacement = models.CharField(
        _("replacement"),
        max_length=200,
        blank=True,
        help_text=_("What the source names instead of a discontinued or end-of-life part (part numbers or a type)."),
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["category", "part_number"]
        constraints = [
            models.CheckConstraint(
                condition=Q(list_price_eur__gte=0) | Q(list_price_eur__isnull=True), name="part_price_not_negative"
            ),
            models.CheckConstraint(
                condition=Q(cost_price_eur__gte=0) | Q(cost_price_eur__isnull=True), name="part_cost_not_negative"
            ),
            models.CheckConstraint(
                condition=Q(category__in=[c for c, _ in CATEGORY_CHOICES]), name="part_category_known"
            ),
            models.CheckConstraint(condition=Q(lifecycle__in=Lifecycle.values), name="part_lifecycle_known"),
        ]

    def __str__(self) -> str:
        return f"{self.part_number} — {self.name}"


class SpecBase(models.Model):
    """Typed specs of one part. ``sources`` maps each spec field to a source key of the seed catalogue."""

    sources = models.JSONField(_("sources"), default=dict, blank=True)
    # Each concrete spec model declares its own one-to-one ``part`` (with its own related name).
    part: Part

    class Meta:
        abstract = True

    def __str__(self) -> str:
        return str(self.part)


class CatalogRelease(models.Model):
    """Each load of the seed file or of a price list: the version a quote's receipt refers to."""

    version = models.CharField(max_length=64)
    checksum = models.CharField(max_length=64)
    source = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        get_latest_by = ["created_at", "id"]

    def __str__(self) -> str:
        return self.version
