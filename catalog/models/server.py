"""A server's specs and the rows that belong to it: PCIe switches, slots, drive bays, power supplies and the
default node set."""

from __future__ import annotations

from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from design.vocabulary import (
    Category,
    Connector,
    Cooling,
    Protocol,
    SlotForm,
    Top,
)

from .node import DriveForm, DriveInterface
from .part import Part, SpecBase, choices_of


class Server(SpecBase):
    part = models.OneToOneField(Part, on_delete=models.CASCADE, primary_key=True, related_name="server")
    height_u = models.PositiveSmallIntegerField(_("height (U)"), null=True, blank=True)
    cpu_platform = models.CharField(_("CPU platform"), max_length=120, blank=True)
    cpu_sockets = models.PositiveSmallIntegerField(_("CPU sockets"), null=True, blank=True)
    cpu_tdp_w = models.PositiveIntegerField(_("max CPU TDP per socket (W)"), null=True, blank=True)
    dimm_slots = models.PositiveSmallIntegerField(_("DIMM slots"), null=True, blank=True)
    psu_count = models.PositiveSmallIntegerField(_("power supplies"), null=True, blank=True)
    psu_watts = models.PositiveIntegerField(_("watts per supply"), null=True, blank=True)
    psu_redundant = models.PositiveSmallIntegerField(_("redundant supplies (M of N+M)"), null=True, blank=True)
    # The IEC inlet of each supply (C20, C14): which power cord the rack plan puts on the bill. Blank: unknown, the
    # bill names the cord as a need priced on request.
    psu_inlet = models.CharField(_("supply inlet"), max_length=8, blank=True)
    cooling = models.CharField(_("cooling"), max_length=8, choices=choices_of(Cooling), blank=True)
    max_gpu_cards = models.PositiveSmallIntegerField(_("max PCIe GPU cards"), null=True, blank=True)
    slots_known = models.BooleanField(_("slot list sourced"), default=False)
    slots_complete = models.BooleanField(_("slot list complete"), default=False)
    accepts_complete = models.BooleanField(
        _("GPU list complete"),
        default=False,
        help_text=_(
            "True when the sources name the GPU baseboard socket (HGX servers), so a GPU not in the list is "
            "refused. False: the list holds the GPUs the sources happen to name; others are unverified, not refused."
        ),
    )
    integrated_nics = models.PositiveSmallIntegerField(_("integrated compute NICs"), default=0)
    integrated_nic_speed_gbps = models.PositiveIntegerField(_("integrated NIC speed (Gb/s)"), null=True, blank=True)
    integrated_nic_connector = models.CharField(
        _("integrated NIC connector"),
        max_length=12,
        choices=choices_of(Connector),
        blank=True,
        help_text=_("Cage of the integrated compute NICs. Empty means not sourced: the planner picks no cable."),
    )
    integrated_nic_top = models.CharField(
        _("integrated NIC plug top"),
        max_length=8,
        choices=choices_of(Top),
        blank=True,
        help_text=_("Plug top the integrated NICs' cages take (flat or finned). Empty means not sourced."),
    )
    integrated_nic_protocol = models.CharField(
        _("integrated NIC protocol"),
        max_length=12,
        choices=choices_of(Protocol),
        blank=True,
        help_text=_("InfiniBand, Ethernet or VPI (either per port). Empty means not sourced: no protocol check."),
    )
    integrated_nic_ethernet_links = models.PositiveSmallIntegerField(
        _("integrated NIC links on Ethernet"),
        default=1,
        validators=[MinValueValidator(1)],
        help_text=_("How many Ethernet links one integrated NIC runs as (ConnectX-8: 2x 400GbE); 1 = one link."),
    )
    accepts = models.ManyToManyField(
        Part,
        related_name="accepted_by",
        blank=True,
        limit_choices_to={"category": Category.GPU.value},
        verbose_name=_("accepts GPUs"),
    )
    # Node contents: what the board takes. Empty or null means not sourced, shown as unknown.
    cpu_socket = models.CharField(_("CPU socket"), max_length=16, blank=True, help_text=_("e.g. LGA4677, LGA4710, SP5"))
    cpu_families = models.JSONField(
        _("supported CPU families"), default=list, blank=True, help_text=_("CPU family names as the CPUs carry them")
    )
    memory_channels_per_socket = models.PositiveSmallIntegerField(
        _("memory channels per socket"), null=True, blank=True
    )
    dimms_per_channel = models.PositiveSmallIntegerField(_("DIMM slots per channel"), null=True, blank=True)
    memory_speed_1dpc_mts = models.PositiveIntegerField(
        _("memory speed, 1 DIMM per channel (MT/s)"), null=True, blank=True
    )
    memory_speed_2dpc_mts = models.PositiveIntegerField(
        _("memory speed, 2 DIMMs per channel (MT/s)"), null=True, blank=True
    )
    m2_slots = models.PositiveSmallIntegerField(_("M.2 slots"), null=True, blank=True)
    # Rack-scale NVLink systems (GB200/GB300 NVL72): one part is one whole rack; a node group's count is racks.
    # Null or empty means not sourced, shown as unknown.
    rack_scale = models.BooleanField(
        _("rack-scale NVLink system"),
        default=False,
        help_text=_("One part is one rack with its compute trays, NVLink switch trays and power shelves."),
    )
    nvlink_domain_gpus = models.PositiveSmallIntegerField(_("GPUs in one NVLink domain"), null=True, blank=True)
    compute_trays = models.PositiveSmallIntegerField(_("compute trays"), null=True, blank=True)
    gpus_per_tray = models.PositiveSmallIntegerField(_("GPUs per compute tray"), null=True, blank=True)
    cpus_per_tray = models.PositiveSmallIntegerField(_("CPUs per compute tray"), null=True, blank=True)
    switch_trays = models.PositiveSmallIntegerField(_("NVLink switch trays"), null=True, blank=True)
    compute_nic_model = models.CharField(_("compute NIC model"), max_length=40, blank=True)
    dpus_per_tray = models.PositiveSmallIntegerField(_("BlueField-3 DPUs per compute tray"), null=True, blank=True)
    dpu_model = models.CharField(_("DPU model"), max_length=40, blank=True)
    dpu_ports = models.PositiveSmallIntegerField(_("network ports per DPU"), null=True, blank=True)
    tray_drives = models.CharField(_("drives per compute tray"), max_length=80, blank=True)
    power_shelves = models.PositiveSmallIntegerField(_("power shelves"), null=True, blank=True)
    power_shelf_w = models.PositiveIntegerField(_("watts per power shelf"), null=True, blank=True)
    rack_power_w = models.PositiveIntegerField(_("rack power (W)"), null=True, blank=True)
    rack_mgmt_switches = models.PositiveSmallIntegerField(_("in-rack management switches"), null=True, blank=True)
    rack_mgmt_switch_model = models.CharField(_("in-rack management switch model"), max_length=40, blank=True)
    cdu_kw = models.PositiveIntegerField(_("in-rack CDU capacity (kW)"), null=True, blank=True)
    weight_kg = models.PositiveIntegerField(_("weight (kg)"), null=True, blank=True)

    class Meta:
        verbose_name = _("server specs")
        verbose_name_plural = _("server specs")
        constraints = [
            models.CheckConstraint(
                condition=Q(psu_redundant__isnull=True)
                | Q(psu_count__isnull=True)
                | Q(psu_redundant__lt=models.F("psu_count")),
                name="server_redundancy_below_count",
            ),
            models.CheckConstraint(condition=Q(cooling__in=["", *Cooling]), name="server_cooling_known"),
            models.CheckConstraint(
                condition=Q(integrated_nic_connector__in=["", *Connector]), name="server_nic_connector_known"
            ),
            models.CheckConstraint(condition=Q(integrated_nic_top__in=["", *Top]), name="server_nic_top_known"),
            models.CheckConstraint(
                condition=Q(integrated_nic_protocol__in=["", *Protocol]), name="server_nic_protocol_known"
            ),
        ]


class PcieSwitch(models.Model):
    """A PCIe switch on a server board: its uplink to a CPU socket and the GPUs behind it."""

    server = models.ForeignKey(Server, on_delete=models.CASCADE, related_name="pcie_switches")
    name = models.CharField(max_length=32)
    cpu_socket = models.PositiveSmallIntegerField(null=True, blank=True)
    uplink_gen = models.PositiveSmallIntegerField(null=True, blank=True)
    uplink_lanes = models.PositiveSmallIntegerField(null=True, blank=True)
    gpus = models.JSONField(default=list, blank=True, help_text=_("GPU indices behind this switch"))
    source = models.CharField(max_length=32, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["server", "name"], name="pcie_switch_unique_name")]

    def __str__(self) -> str:
        return self.name


class ServerSlot(models.Model):
    """One expansion slot. Empty generation and lanes mean unknown, never assumed."""

    server = models.ForeignKey(Server, on_delete=models.CASCADE, related_name="slots")
    position = models.PositiveSmallIntegerField(default=0)
    name = models.CharField(max_length=32)
    form = models.CharField(_("form factor"), max_length=12, choices=choices_of(SlotForm), blank=True)
    pcie_gen = models.SmallIntegerField(_("PCIe generation"), null=True, blank=True)
    lanes = models.SmallIntegerField(_("lanes"), null=True, blank=True)
    cpu_socket = models.PositiveSmallIntegerField(_("CPU socket"), null=True, blank=True)
    pcie_switch = models.ForeignKey(PcieSwitch, on_delete=models.SET_NULL, null=True, blank=True, related_name="slots")
    gpus = models.JSONField(default=list, blank=True, help_text=_("GPU indices local to this slot"))
    for_gpu = models.BooleanField(_("GPU slot"), default=False)
    source = models.CharField(max_length=32, blank=True)

    class Meta:
        ordering = ["server", "position", "name"]
        constraints = [
            models.UniqueConstraint(fields=["server", "name"], name="slot_unique_name"),
            models.CheckConstraint(
                condition=Q(lanes__isnull=True) | Q(lanes__in=[1, 2, 4, 8, 16, 32]), name="slot_lanes_valid"
            ),
            models.CheckConstraint(
                condition=Q(pcie_gen__isnull=True) | Q(pcie_gen__gte=1, pcie_gen__lte=7), name="slot_gen_valid"
            ),
            models.CheckConstraint(condition=Q(form__in=["", *SlotForm]), name="slot_form_known"),
        ]

    def __str__(self) -> str:
        return self.name


class DriveBay(models.Model):
    """A group of identical drive bays in a server."""

    server = models.ForeignKey(Server, on_delete=models.CASCADE, related_name="drive_bays")
    count = models.PositiveSmallIntegerField(_("bays"), validators=[MinValueValidator(1)])
    form_factor = models.CharField(_("form factor"), max_length=12, choices=DriveForm.choices)
    interface = models.CharField(_("interface"), max_length=8, choices=DriveInterface.choices)
    shares_slot_lanes = models.BooleanField(
        _("shares PCIe lanes with the slots"),
        null=True,
        blank=True,
        default=None,
        help_text=_("Empty means not sourced: the lanes of these bays are not known to be separate or shared."),
    )
    source = models.CharField(max_length=32, blank=True)

    class Meta:
        ordering = ["server", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(form_factor__in=DriveForm.values), name="bay_form_known"),
            models.CheckConstraint(condition=Q(interface__in=DriveInterface.values), name="bay_interface_known"),
        ]

    def __str__(self) -> str:
        return f"{self.count}x {self.form_factor} {self.interface}"


class PsuOption(models.Model):
    """A power-supply configuration a server ships with: count, watts each, redundancy as published (``3+3``)."""

    server = models.ForeignKey(Server, on_delete=models.CASCADE, related_name="psu_options")
    count = models.PositiveSmallIntegerField(_("power supplies"), validators=[MinValueValidator(1)])
    watts = models.PositiveIntegerField(_("watts per supply"), null=True, blank=True)
    redundancy = models.CharField(_("redundancy"), max_length=8, blank=True, help_text=_("as published, e.g. 3+3"))
    default = models.BooleanField(_("standard configuration"), default=False)
    source = models.CharField(max_length=32, blank=True)

    class Meta:
        ordering = ["server", "-default", "count"]

    def __str__(self) -> str:
        return f"{self.count}x {self.watts or '?'} W {self.redundancy}".strip()


class DefaultPart(models.Model):
    """The platform's sensible default node set: parts added to a node that names none of its role."""

    ROLES = [("cpu", "cpu"), ("memory", "memory"), ("boot", "boot")]

    server = models.ForeignKey(Server, on_delete=models.CASCADE, related_name="default_parts")
    part = models.ForeignKey(Part, on_delete=models.CASCADE, related_name="+")
    quantity = models.PositiveSmallIntegerField(validators=[MinValueValidator(1)])
    role = models.CharField(max_length=8, choices=ROLES)
    source = models.CharField(max_length=32, blank=True)

    class Meta:
        ordering = ["server", "role"]
        constraints = [
            models.UniqueConstraint(fields=["server", "role"], name="default_part_one_per_role"),
            models.CheckConstraint(condition=Q(role__in=["cpu", "memory", "boot"]), name="default_part_role_known"),
        ]

    def __str__(self) -> str:
        return f"{self.quantity}x {self.part.part_number}"
