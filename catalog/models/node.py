"""Node contents: processors, memory modules and drives."""

from __future__ import annotations

from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from .part import Part, SpecBase


class DriveForm(models.TextChoices):
    M2_2280 = "M.2 2280", "M.2 2280"
    M2_22110 = "M.2 22110", "M.2 22110"
    U2 = "U.2", 'U.2 (2.5")'
    U3 = "U.3", 'U.3 (2.5")'
    E1S = "E1.S", "E1.S"
    E3S = "E3.S", "E3.S"
    SATA_25 = "2.5in", '2.5" SATA/SAS'


class DriveInterface(models.TextChoices):
    NVME = "nvme", "NVMe"
    SATA = "sata", "SATA"


M2_FORMS = (DriveForm.M2_2280, DriveForm.M2_22110)


class Cpu(SpecBase):
    """A processor. Memory speeds are the vendor's maximum at one and at two DIMMs per channel."""

    part = models.OneToOneField(Part, on_delete=models.CASCADE, primary_key=True, related_name="cpu")
    vendor = models.CharField(_("vendor"), max_length=16)
    family = models.CharField(_("family"), max_length=64)
    socket = models.CharField(_("socket"), max_length=16, blank=True)
    tdp_w = models.PositiveIntegerField(_("TDP (W)"), null=True, blank=True)
    cores = models.PositiveSmallIntegerField(_("cores"), null=True, blank=True)
    memory_channels = models.PositiveSmallIntegerField(_("memory channels"), null=True, blank=True)
    memory_speed_mts = models.PositiveIntegerField(
        _("max memory speed, 1 DIMM per channel (MT/s)"), null=True, blank=True
    )
    memory_speed_2dpc_mts = models.PositiveIntegerField(
        _("max memory speed, 2 DIMMs per channel (MT/s)"), null=True, blank=True
    )
    pcie_lanes = models.PositiveSmallIntegerField(_("PCIe lanes"), null=True, blank=True)

    class Meta:
        verbose_name = _("CPU specs")
        verbose_name_plural = _("CPU specs")


class Memory(SpecBase):
    """A DDR5 registered DIMM."""

    part = models.OneToOneField(Part, on_delete=models.CASCADE, primary_key=True, related_name="memory")
    memory_type = models.CharField(_("type"), max_length=16, default="DDR5 RDIMM")
    size_gb = models.PositiveIntegerField(_("size (GB)"), validators=[MinValueValidator(1)])
    speed_mts = models.PositiveIntegerField(_("speed (MT/s)"), null=True, blank=True)
    ranks = models.PositiveSmallIntegerField(_("ranks"), null=True, blank=True)

    class Meta:
        verbose_name = _("memory specs")
        verbose_name_plural = _("memory specs")


class Drive(SpecBase):
    """An SSD. ``use`` says whether it is sold as a boot drive (M.2) or a data drive (front bays)."""

    part = models.OneToOneField(Part, on_delete=models.CASCADE, primary_key=True, related_name="drive")
    use = models.CharField(_("use"), max_length=8, choices=[("boot", _("boot")), ("data", _("data"))])
    form_factor = models.CharField(_("form factor"), max_length=12, choices=DriveForm.choices, blank=True)
    capacity_gb = models.PositiveIntegerField(_("capacity (GB)"), null=True, blank=True)
    interface = models.CharField(_("interface"), max_length=8, choices=DriveInterface.choices, blank=True)
    pcie_gen = models.PositiveSmallIntegerField(_("PCIe generation"), null=True, blank=True)
    pcie_lanes = models.PositiveSmallIntegerField(_("PCIe lanes"), null=True, blank=True)

    class Meta:
        verbose_name = _("drive specs")
        verbose_name_plural = _("drive specs")
        constraints = [
            models.CheckConstraint(condition=Q(use__in=["boot", "data"]), name="drive_use_known"),
            models.CheckConstraint(condition=Q(form_factor__in=["", *DriveForm.values]), name="drive_form_known"),
        ]
