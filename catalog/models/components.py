"""Cards and boards that go into a server: GPUs and HGX baseboards, NVLink bridges, network adapters."""

from __future__ import annotations

from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from design.vocabulary import (
    CardForm,
    Connector,
    Protocol,
    Top,
)

from .part import Part, SpecBase, choices_of


class Gpu(SpecBase):
    part = models.OneToOneField(Part, on_delete=models.CASCADE, primary_key=True, related_name="gpu")
    gpu_model = models.CharField(max_length=64)
    generation = models.CharField(max_length=32, blank=True)
    is_board = models.BooleanField(_("HGX baseboard"), default=False)
    gpu_count = models.PositiveSmallIntegerField(default=1, validators=[MinValueValidator(1)])
    memory_gb = models.DecimalField(_("memory per GPU (GB)"), max_digits=7, decimal_places=1, null=True, blank=True)
    nvlink_gen = models.PositiveSmallIntegerField(_("NVLink generation"), null=True, blank=True)
    nvlink_gbps = models.PositiveIntegerField(_("NVLink GB/s per GPU"), null=True, blank=True)
    nvswitch_count = models.PositiveSmallIntegerField(_("NVSwitch chips"), null=True, blank=True)
    tdp_w = models.PositiveIntegerField(_("TDP per GPU (W)"), null=True, blank=True)
    form = models.CharField(_("form factor"), max_length=8, choices=choices_of(CardForm), blank=True)
    slot_width = models.PositiveSmallIntegerField(default=2)
    bridge_sizes = models.JSONField(_("NVLink bridge sizes"), default=list, blank=True)
    host_pcie_gen = models.PositiveSmallIntegerField(null=True, blank=True)
    ref_system = models.CharField(
        _("reference system"),
        max_length=64,
        blank=True,
        help_text=_("NVIDIA's own system built on this baseboard, whose published maximum power calibrates estimates."),
    )
    ref_system_max_w = models.PositiveIntegerField(
        _("reference system maximum power (W)"),
        null=True,
        blank=True,
        help_text=_("Published maximum input power of the reference system. Empty means not sourced."),
    )
    advised_fabric_gbps = models.PositiveIntegerField(
        _("advised fabric speed (Gb/s per port)"),
        null=True,
        blank=True,
        help_text=_("The compute-fabric port speed advised for clusters of this GPU. Empty means no advice sourced."),
    )
    bf16_dense_tflops = models.DecimalField(
        _("peak dense BF16 TFLOPS per GPU"),
        max_digits=7,
        decimal_places=1,
        null=True,
        blank=True,
        help_text=_("Tensor-core peak without sparsity, from NVIDIA's figures; the training-time estimate uses it."),
    )
    fp8_dense_tflops = models.DecimalField(
        _("peak dense FP8 TFLOPS per GPU"),
        max_digits=7,
        decimal_places=1,
        null=True,
        blank=True,
        help_text=_("Tensor-core peak without sparsity, from NVIDIA's figures. Empty means not sourced."),
    )
    ai_enterprise_included_years = models.PositiveSmallIntegerField(
        _("NVIDIA AI Enterprise included (years)"),
        null=True,
        blank=True,
        help_text=_(
            "Years of NVIDIA AI Enterprise subscription that come with each GPU; the offer bills only the years beyond"
            " them. Empty means none included (or not sourced)."
        ),
    )

    class Meta:
        verbose_name = _("GPU specs")
        verbose_name_plural = _("GPU specs")


class Bridge(SpecBase):
    part = models.OneToOneField(Part, on_delete=models.CASCADE, primary_key=True, related_name="bridge")
    ways = models.PositiveSmallIntegerField(validators=[MinValueValidator(2)])


class Adapter(SpecBase):
    part = models.OneToOneField(Part, on_delete=models.CASCADE, primary_key=True, related_name="adapter")
    family = models.CharField(max_length=64)
    ports = models.PositiveSmallIntegerField(default=1, validators=[MinValueValidator(1)])
    speed_gbps = models.PositiveIntegerField(_("speed per port (Gb/s)"), null=True, blank=True)
    connector = models.CharField(max_length=12, choices=choices_of(Connector), blank=True)
    protocol = models.CharField(max_length=12, choices=choices_of(Protocol))
    host_pcie_gen = models.SmallIntegerField(null=True, blank=True)
    host_lanes = models.SmallIntegerField(null=True, blank=True)
    form = models.CharField(_("form factor"), max_length=8, choices=choices_of(CardForm), blank=True)
    slot_width = models.PositiveSmallIntegerField(default=1)
    watts = models.DecimalField(max_digits=6, decimal_places=1, null=True, blank=True)
    top = models.CharField(_("plug top"), max_length=8, choices=choices_of(Top), blank=True)
    is_dpu = models.BooleanField(default=False)
    socket_direct = models.BooleanField(default=False)
    ethernet_links = models.PositiveSmallIntegerField(
        _("links per port on Ethernet"),
        default=1,
        validators=[MinValueValidator(1)],
        help_text=_("How many Ethernet links one port runs as (ConnectX-8: 2x 400GbE); 1 = one link at its speed."),
    )

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(connector__in=["", *Connector]), name="adapter_connector_known"),
            models.CheckConstraint(condition=Q(protocol__in=list(Protocol)), name="adapter_protocol_known"),
            models.CheckConstraint(
                condition=Q(host_lanes__isnull=True) | Q(host_lanes__gt=0), name="adapter_lanes_positive"
            ),
        ]
