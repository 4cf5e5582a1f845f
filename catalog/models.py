"""What can be sold: parts, their typed technical specs with a source per spec, and prices.

Compatibility is data: which GPUs a server takes, which slot sits behind which PCIe switch, which
connector and plug top each cable end has. A nullable spec field means *unknown* and is shown as such.
The enums are the shared hardware vocabulary (design.vocabulary), so the catalogue and the engines speak one
language without the catalogue importing an engine.
"""

from __future__ import annotations

from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from design.vocabulary import (
    CardForm,
    Category,
    Connector,
    Cooling,
    MediaKind,
    MediaPurpose,
    Protocol,
    SlotForm,
    Top,
)


def _choices(enum) -> list[tuple[str, str]]:
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
                condition=Q(category__in=[c for c, _ in CATEGORY_CHOICES]), name="part_category_known"
            ),
            models.CheckConstraint(condition=Q(lifecycle__in=Lifecycle.values), name="part_lifecycle_known"),
        ]

    def __str__(self) -> str:
        return f"{self.part_number} — {self.name}"


class SpecBase(models.Model):
    """Typed specs of one part. ``sources`` maps each spec field to a source key of the seed catalogue."""

    sources = models.JSONField(_("sources"), default=dict, blank=True)

    class Meta:
        abstract = True

    def __str__(self) -> str:
        return str(self.part)


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
    cooling = models.CharField(_("cooling"), max_length=8, choices=_choices(Cooling), blank=True)
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
        choices=_choices(Connector),
        blank=True,
        help_text=_("Cage of the integrated compute NICs. Empty means not sourced: the planner picks no cable."),
    )
    integrated_nic_protocol = models.CharField(
        _("integrated NIC protocol"),
        max_length=12,
        choices=_choices(Protocol),
        blank=True,
        help_text=_("InfiniBand, Ethernet or VPI (either per port). Empty means not sourced: no protocol check."),
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
    form = models.CharField(_("form factor"), max_length=12, choices=_choices(SlotForm), blank=True)
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
    form = models.CharField(_("form factor"), max_length=8, choices=_choices(CardForm), blank=True)
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
    connector = models.CharField(max_length=12, choices=_choices(Connector), blank=True)
    protocol = models.CharField(max_length=12, choices=_choices(Protocol))
    host_pcie_gen = models.SmallIntegerField(null=True, blank=True)
    host_lanes = models.SmallIntegerField(null=True, blank=True)
    form = models.CharField(_("form factor"), max_length=8, choices=_choices(CardForm), blank=True)
    slot_width = models.PositiveSmallIntegerField(default=1)
    watts = models.DecimalField(max_digits=6, decimal_places=1, null=True, blank=True)
    top = models.CharField(_("plug top"), max_length=8, choices=_choices(Top), blank=True)
    is_dpu = models.BooleanField(default=False)
    socket_direct = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(connector__in=["", *Connector]), name="adapter_connector_known"),
            models.CheckConstraint(condition=Q(protocol__in=list(Protocol)), name="adapter_protocol_known"),
            models.CheckConstraint(
                condition=Q(host_lanes__isnull=True) | Q(host_lanes__gt=0), name="adapter_lanes_positive"
            ),
        ]


class Switch(SpecBase):
    part = models.OneToOneField(Part, on_delete=models.CASCADE, primary_key=True, related_name="switch")
    protocol = models.CharField(max_length=12, choices=_choices(Protocol))
    generation = models.CharField(max_length=32, blank=True)
    cages = models.PositiveSmallIntegerField(default=0)
    cage_connector = models.CharField(max_length=12, choices=_choices(Connector), blank=True)
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
    top = models.CharField(_("plug top"), max_length=8, choices=_choices(Top), blank=True)
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
    kind = models.CharField(max_length=12, choices=_choices(MediaKind))
    a_connector = models.CharField(_("end A connector"), max_length=12, choices=_choices(Connector))
    a_speed_gbps = models.PositiveIntegerField(_("end A speed per leg (Gb/s)"))
    a_top = models.CharField(_("end A top"), max_length=8, choices=_choices(Top), blank=True)
    a_legs = models.PositiveSmallIntegerField(default=1, validators=[MinValueValidator(1)])
    a_twin = models.BooleanField(_("end A twin-port"), default=False)
    b_connector = models.CharField(_("end B connector"), max_length=12, choices=_choices(Connector))
    b_speed_gbps = models.PositiveIntegerField(_("end B speed per leg (Gb/s)"))
    b_top = models.CharField(_("end B top"), max_length=8, choices=_choices(Top), blank=True)
    b_legs = models.PositiveSmallIntegerField(default=1, validators=[MinValueValidator(1)])
    b_twin = models.BooleanField(_("end B twin-port"), default=False)
    length_m = models.DecimalField(max_digits=7, decimal_places=2, null=True, blank=True)
    reach_m = models.DecimalField(max_digits=8, decimal_places=1, null=True, blank=True)
    fibre = models.CharField(max_length=2, choices=[("mm", "multimode"), ("sm", "single-mode")], blank=True)
    watts = models.DecimalField(max_digits=6, decimal_places=1, null=True, blank=True)
    protocol = models.CharField(max_length=12, choices=_choices(Protocol), default=Protocol.VPI.value)
    purpose = models.CharField(
        _("purpose"),
        max_length=16,
        choices=_choices(MediaPurpose),
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


SPEC_MODELS: dict[str, type[SpecBase]] = {
    Category.SERVER.value: Server,
    Category.GPU.value: Gpu,
    Category.BRIDGE.value: Bridge,
    Category.ADAPTER.value: Adapter,
    Category.SWITCH.value: Switch,
    Category.CABLE.value: Media,
    Category.TRANSCEIVER.value: Media,
}
SPEC_RELATED = ["server", "gpu", "bridge", "adapter", "switch", "media"]
# Node contents and rack-level parts, kept apart from the entries above.
SPEC_MODELS.update({"cpu": Cpu, "memory": Memory, "drive": Drive, "rack": Rack, "pdu": Pdu, "power_cord": PowerCord})
SPEC_RELATED += ["cpu", "memory", "drive", "rack", "pdu", "power_cord"]
