"""What can be sold: parts, their typed technical specs with a source per spec, and prices.

Compatibility is data: which GPUs a server takes, which slot sits behind which PCIe switch, which
connector and plug top each cable end has. A nullable spec field means *unknown* and is shown as such.
The enums are the shared hardware vocabulary (configurator.vocabulary), so the catalogue and the engines speak one
language without the catalogue importing an engine.
"""

from __future__ import annotations

from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from configurator.vocabulary import CardForm, Category, Connector, Cooling, MediaKind, Protocol, SlotForm, Top


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


class Lifecycle(models.TextChoices):
    ACTIVE = "active", _("Active")
    PREVIEW = "preview", _("Pre-release")
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
    accepts = models.ManyToManyField(
        Part,
        related_name="accepted_by",
        blank=True,
        limit_choices_to={"category": Category.GPU.value},
        verbose_name=_("accepts GPUs"),
    )

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

    class Meta:
        verbose_name = _("cable or transceiver specs")
        verbose_name_plural = _("cable and transceiver specs")
        constraints = [
            models.CheckConstraint(condition=Q(a_connector__in=list(Connector)), name="media_a_connector_known"),
            models.CheckConstraint(condition=Q(b_connector__in=list(Connector)), name="media_b_connector_known"),
            models.CheckConstraint(condition=Q(kind__in=list(MediaKind)), name="media_kind_known"),
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
