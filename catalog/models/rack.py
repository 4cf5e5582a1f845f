"""Rack-level parts: racks, power distribution units and power cords."""

from __future__ import annotations

from django.core.validators import MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from .part import Part, SpecBase


class Rack(SpecBase):
    part = models.OneToOneField(Part, on_delete=models.CASCADE, primary_key=True, related_name="rack")
    height_u = models.PositiveSmallIntegerField(_("height (U)"), validators=[MinValueValidator(1)])
    width_mm = models.PositiveIntegerField(_("width (mm)"), null=True, blank=True)
    depth_mm = models.PositiveIntegerField(_("depth (mm)"), null=True, blank=True)
    static_load_kg = models.PositiveIntegerField(_("static load (kg)"), null=True, blank=True)


class Pdu(SpecBase):
    """A rack power distribution unit: its feed (phases, amps, volts) and outlets."""

    part = models.OneToOneField(Part, on_delete=models.CASCADE, primary_key=True, related_name="pdu")
    phases = models.PositiveSmallIntegerField(_("phases"), null=True, blank=True)
    current_a = models.PositiveSmallIntegerField(_("input current per phase (A)"), null=True, blank=True)
    voltage_v = models.PositiveSmallIntegerField(_("input voltage (V)"), null=True, blank=True)
    power_kw = models.DecimalField(_("rated power (kW)"), max_digits=6, decimal_places=2, null=True, blank=True)
    outlets_c13 = models.PositiveSmallIntegerField(_("C13 outlets"), null=True, blank=True)
    outlets_c19 = models.PositiveSmallIntegerField(_("C19 outlets"), null=True, blank=True)
    height_u = models.PositiveSmallIntegerField(_("height (U), 0 for vertical"), null=True, blank=True)

    class Meta:
        verbose_name = _("PDU specs")
        verbose_name_plural = _("PDU specs")


class PowerCord(SpecBase):
    """A power cord: the connector at the PDU (end A) and at the device (end B)."""

    part = models.OneToOneField(Part, on_delete=models.CASCADE, primary_key=True, related_name="power_cord")
    a_connector = models.CharField(_("end A connector"), max_length=8)
    b_connector = models.CharField(_("end B connector"), max_length=8)
    current_a = models.PositiveSmallIntegerField(_("rated current (A)"), null=True, blank=True)
    length_m = models.DecimalField(_("length (m)"), max_digits=5, decimal_places=2, null=True, blank=True)

    class Meta:
        verbose_name = _("power cord specs")
        verbose_name_plural = _("power cord specs")
