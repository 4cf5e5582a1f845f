"""The compute fabric's parts: switches, and the cables and transceivers that link them."""

from __future__ import annotations

from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from design.vocabulary import (
    Connector,
    MediaKind,
    MediaPurpose,
    Protocol,
    Top,
)

from .part import Part, SpecBase, choices_of


class Switch(SpecBase):
    part = models.OneToOneField(Part, on_delete=models.CASCADE, primary_key=True, related_name="switch")
    protocol = models.CharField(max_length=12, choices=choices_of(Protocol))
    generation = models.CharField(max_length=32, blank=True)
    cages = models.PositiveSmallIntegerField(default=0)
    cage_connector = models.CharField(max_length=12, choices=choices_of(Connector), blank=True)
    logical_ports_per_cage = models.PositiveSmallIntegerField(default=1, validators=[MinValueValidator(1)])
    port_speed_gbps = models.PositiveIntegerField(default=0)
    max_split = models.PositiveSmallIntegerField(default=1, validators=[MinValueValidator(1)])
    height_u = models.PositiveSmallIntegerField(null=True, blank=True)
    managed = models.BooleanField(
        _("managed (embedded subnet manager / NOS)"),
        null=True,
        blank=True,
        default=None,
        help_text=_("Empty means not sourced: shown as unknown, never as unmanaged."),
    )
    watts = models.DecimalField(max_digits=7, decimal_places=1, null=True, blank=True)
    management = models.BooleanField(_("out-of-band management switch"), default=False)
    rj45_ports = models.PositiveSmallIntegerField(default=0)
    top = models.CharField(_("plug top"), max_length=8, choices=choices_of(Top), blank=True)
    embedded_sm_max_nodes = models.PositiveIntegerField(
        _("embedded subnet manager limit (nodes)"),
        null=True,
        blank=True,
        help_text=_("InfiniBand nodes the switch's embedded subnet manager handles. Empty means not sourced."),
    )

    class Meta:
        verbose_name_plural = _("switches")
        constraints = [
            models.CheckConstraint(condition=Q(cage_connector__in=["", *Connector]), name="switch_connector_known"),
            models.CheckConstraint(condition=Q(protocol__in=list(Protocol)), name="switch_protocol_known"),
        ]


class Media(SpecBase):
    """A cable, transceiver or fibre. End A is the switch side (or the electrical side of a transceiver)."""

    part = models.OneToOneField(Part, on_delete=models.CASCADE, primary_key=True, related_name="media")
    kind = models.CharField(max_length=12, choices=choices_of(MediaKind))
    a_connector = models.CharField(_("end A connector"), max_length=12, choices=choices_of(Connector))
    a_speed_gbps = models.PositiveIntegerField(_("end A speed per leg (Gb/s)"))
    a_top = models.CharField(_("end A top"), max_length=8, choices=choices_of(Top), blank=True)
    a_legs = models.PositiveSmallIntegerField(default=1, validators=[MinValueValidator(1)])
    a_twin = models.BooleanField(_("end A twin-port"), default=False)
    b_connector = models.CharField(_("end B connector"), max_length=12, choices=choices_of(Connector))
    b_speed_gbps = models.PositiveIntegerField(_("end B speed per leg (Gb/s)"))
    b_top = models.CharField(_("end B top"), max_length=8, choices=choices_of(Top), blank=True)
    b_legs = models.PositiveSmallIntegerField(default=1, validators=[MinValueValidator(1)])
    b_twin = models.BooleanField(_("end B twin-port"), default=False)
    length_m = models.DecimalField(max_digits=7, decimal_places=2, null=True, blank=True)
    reach_m = models.DecimalField(max_digits=8, decimal_places=1, null=True, blank=True)
    fibre = models.CharField(max_length=2, choices=[("mm", "multimode"), ("sm", "single-mode")], blank=True)
    watts = models.DecimalField(max_digits=6, decimal_places=1, null=True, blank=True)
    protocol = models.CharField(max_length=12, choices=choices_of(Protocol), default=Protocol.VPI.value)
    purpose = models.CharField(
        _("purpose"),
        max_length=16,
        choices=choices_of(MediaPurpose),
        blank=True,
        help_text=_("What the source says the cable links: switch to switch, or switch to adapter. Empty: not stated."),
    )

    class Meta:
        verbose_name = _("cable or transceiver specs")
        verbose_name_plural = _("cable and transceiver specs")
        constraints = [
            models.CheckConstraint(condition=Q(a_connector__in=list(Connector)), name="media_a_connector_known"),
            models.CheckConstraint(condition=Q(b_connector__in=list(Connector)), name="media_b_connector_known"),
            models.CheckConstraint(condition=Q(kind__in=list(MediaKind)), name="media_kind_known"),
            models.CheckConstraint(condition=Q(purpose__in=["", *MediaPurpose]), name="media_purpose_known"),
            models.CheckConstraint(
                condition=Q(length_m__isnull=True) | Q(length_m__gt=0), name="media_length_positive"
            ),
        ]
