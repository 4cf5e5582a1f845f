"""Frozen facts the engines reason about.

configurator.snapshot builds these from the catalogue (the only ORM-aware bridge); engine tests build them
directly. ``None`` always means *unknown*: the engines must say so in a finding rather than guess.
Nothing in this module imports Django.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from design.vocabulary import CardForm, Category, Connector, Cooling, MediaKind, MediaPurpose, Protocol, SlotForm, Top


@dataclass(frozen=True, kw_only=True)
class PartBase:
    part_number: str
    name: str
    manufacturer: str = ""
    price_eur: Decimal | None = None  # indicative list price; None = price on request
    lifecycle: str = "active"  # active, preview, discontinued, eol
    replacement: str = ""  # what the source names instead of a discontinued or end-of-life part
    category: Category = Category.OTHER

    @property
    def retired(self) -> bool:
        """Discontinued or end-of-life: never chosen while an active alternative exists; named, it gets a warning."""
        return self.lifecycle in ("discontinued", "eol")


@dataclass(frozen=True, kw_only=True)
class PcieSwitchSpec:
    """A PCIe switch on the server board: its uplink to the CPU and the GPUs that hang off it."""

    name: str
    cpu_socket: int | None = None
    uplink_gen: int | None = None
    uplink_lanes: int | None = None
    gpus: tuple[int, ...] = ()


@dataclass(frozen=True, kw_only=True)
class SlotSpec:
    """One expansion slot. ``gpus`` are the GPU indices local to it (same PCIe switch or root port)."""

    name: str
    form: SlotForm | None = None  # None: unknown
    pcie_gen: int | None = None
    lanes: int | None = None
    cpu_socket: int | None = None
    pcie_switch: str | None = None  # PcieSwitchSpec.name
    gpus: tuple[int, ...] = ()
    for_gpu: bool = False  # a slot meant for a PCIe GPU (the FHFL GPU slots of a PCIe GPU server)


@dataclass(frozen=True, kw_only=True)
class DriveBaySpec:
    """A group of identical drive bays: how many, their form factor (U.2, E1.S, 2.5in...) and interface."""

    count: int
    form_factor: str
    interface: str  # nvme or sata


@dataclass(frozen=True, kw_only=True)
class DefaultPartSpec:
    """One line of the platform's default node set: the part a node gets for ``role`` when it names none."""

    role: str  # cpu, memory or boot
    part_number: str
    quantity: int
    source: str = ""


@dataclass(frozen=True, kw_only=True)
class ServerSpec(PartBase):
    category: Category = Category.SERVER
    height_u: int | None = None
    cpu_platform: str = ""
    cpu_sockets: int | None = None
    cpu_tdp_w: int | None = None  # per socket, the highest the platform takes; None = unknown
    dimm_slots: int | None = None
    psu_count: int | None = None
    psu_watts: int | None = None
    psu_redundant: int | None = None  # M of N+M; N = psu_count - M
    psu_inlet: str | None = None  # IEC inlet of each supply (C20, C14); None = unknown
    cooling: Cooling | None = None
    accepts: frozenset[str] = frozenset()  # GPU part numbers (boards or cards) this server takes
    # True: ``accepts`` is definitive (the sources name the HGX baseboard socket), so any other GPU is refused.
    # False: the GPUs the sources happen to name (PCIe GPU servers); another GPU is unverified, not refused.
    accepts_complete: bool = False
    max_gpu_cards: int | None = None  # for PCIe GPU servers
    slots_known: bool = False  # False: no sourced slot list at all
    slots_complete: bool = False  # False: the list is sourced but other positions may exist
    slots: tuple[SlotSpec, ...] = ()
    pcie_switches: tuple[PcieSwitchSpec, ...] = ()
    integrated_nics: int = 0  # compute NICs built into the system (SYS-822GS-NB3RT: 8x ConnectX-8)
    integrated_nic_speed_gbps: int | None = None
    integrated_nic_connector: Connector | None = None  # cage of the integrated NICs; None = not sourced
    integrated_nic_top: Top | None = None  # plug top the integrated NICs' cages take; None = not sourced
    integrated_nic_protocol: Protocol | None = None  # of the integrated NICs; None = not sourced
    integrated_nic_ethernet_links: int = 1  # links one integrated NIC runs as on Ethernet (ConnectX-8: 2x 400GbE)
    # GPUs that share one NVLink domain when the system itself says so (a rack-scale NVL72 system: 72, the
    # catalogue's server field); None: the domain follows from the GPUs (an HGX board's GPU count, the NVLink bridge
    # size of PCIe cards)
    nvlink_domain_gpus: int | None = None
    # node contents: what the board takes (empty or None = not sourced, unknown)
    cpu_socket: str = ""
    cpu_families: tuple[str, ...] = ()
    memory_channels_per_socket: int | None = None
    dimms_per_channel: int | None = None
    memory_speed_1dpc_mts: int | None = None
    memory_speed_2dpc_mts: int | None = None
    m2_slots: int | None = None
    drive_bays: tuple[DriveBaySpec, ...] = ()  # empty: bays not sourced
    default_parts: tuple[DefaultPartSpec, ...] = ()
    # A rack-scale NVLink system (GB200/GB300 NVL72): the part is one whole rack, a node group's ``count`` is racks,
    # and the GPUs come built in (``accepts`` names the one GPU set it holds). None or "" = not sourced.
    rack_scale: bool = False
    compute_trays: int | None = None
    gpus_per_tray: int | None = None
    cpus_per_tray: int | None = None
    switch_trays: int | None = None
    compute_nic_model: str = ""
    dpus_per_tray: int | None = None
    dpu_model: str = ""
    dpu_ports: int | None = None  # network ports of one DPU (all on the north-south network)
    tray_drives: str = ""
    power_shelves: int | None = None
    power_shelf_w: int | None = None
    rack_power_w: int | None = None  # the whole rack's maximum draw
    rack_mgmt_switches: int | None = None  # management switches built into the rack
    rack_mgmt_switch_model: str = ""
    cdu_kw: int | None = None
    weight_kg: int | None = None

    @property
    def compute_nics_per_tray(self) -> int | None:
        """Compute NICs of one compute tray (the rack's integrated NICs shared over its trays); None: not known."""
        if not self.rack_scale or not self.compute_trays or not self.integrated_nics:
            return None
        return self.integrated_nics // self.compute_trays

    @property
    def psu_capacity_w(self) -> int | None:
        """Capacity of the N supplies of an N+M configuration (the redundant M do not count)."""
        if self.psu_count is None or self.psu_watts is None or self.psu_redundant is None:
            return None
        return (self.psu_count - self.psu_redundant) * self.psu_watts


@dataclass(frozen=True, kw_only=True)
class GpuSpec(PartBase):
    """An HGX baseboard (``is_board``) or a PCIe GPU card. Per-GPU figures are per GPU, not per board."""

    category: Category = Category.GPU
    gpu_model: str = ""
    generation: str = ""  # Ampere, Hopper, Ada, Blackwell, Blackwell Ultra
    is_board: bool = False
    gpu_count: int = 1
    memory_gb: float | None = None
    nvlink_gen: int | None = None  # None with bridge_sizes empty and not a board: no NVLink
    nvlink_gbps: int | None = None  # GB/s per GPU, bidirectional
    nvswitch_count: int | None = None  # None: unknown; 0: none
    tdp_w: int | None = None  # per GPU
    form: CardForm | None = None  # cards only
    slot_width: int = 2  # cards only: slots wide
    bridge_sizes: frozenset[int] = frozenset()  # NVLink bridge sizes supported (2, 4); empty = none
    host_pcie_gen: int | None = None
    ref_system: str = ""  # NVIDIA's own system on this baseboard (DGX H100 on HGX H100)
    ref_system_max_w: int | None = None  # its published maximum input power; None = not sourced
    # how that system is cooled (air: its maximum includes its fans at full speed); None = not sourced. Filled from
    # the seed's reference_systems row of this board (catalog/seed/README.md "Power calibration basis").
    ref_system_cooling: Cooling | None = None
    advised_fabric_gbps: int | None = None  # compute-fabric port speed advised for this GPU; None = no advice
    bf16_dense_tflops: float | None = None  # tensor-core peak per GPU without sparsity; None = not sourced
    fp8_dense_tflops: float | None = None
    # years of NVIDIA AI Enterprise that come with each GPU (H100 NVL, H200 NVL: five); None: none included
    ai_enterprise_included_years: int | None = None

    @property
    def has_nvlink(self) -> bool:
        return self.nvlink_gen is not None


@dataclass(frozen=True, kw_only=True)
class BridgeSpec(PartBase):
    category: Category = Category.BRIDGE
    ways: int = 2  # GPUs joined by one bridge set


@dataclass(frozen=True, kw_only=True)
class AdapterSpec(PartBase):
    category: Category = Category.ADAPTER
    family: str = ""
    ports: int = 1
    speed_gbps: int | None = None  # per port
    connector: Connector | None = None
    protocol: Protocol | None = Protocol.VPI  # None: not sourced (a server's integrated NIC without a source)
    host_pcie_gen: int | None = None
    host_lanes: int | None = None
    form: CardForm | None = None  # None: unknown
    slot_width: int = 1
    watts: float | None = None  # typical; None = unknown
    top: Top | None = None  # plug top the cage needs (flat at ConnectX-7 OSFP)
    is_dpu: bool = False
    socket_direct: bool = False  # can take a second x16 through an extension (Socket Direct)
    # Links one port runs as on an Ethernet switch: ConnectX-8's 800 Gb/s cage is "2x 400GbE" on Ethernet (one
    # link to each of two planes in NVIDIA's Spectrum-X designs); 1 = the port is one link at ``speed_gbps``.
    ethernet_links: int = 1


@dataclass(frozen=True, kw_only=True)
class SwitchSpec(PartBase):
    category: Category = Category.SWITCH
    protocol: Protocol = Protocol.INFINIBAND
    generation: str = ""  # HDR, NDR, XDR, Spectrum-3, Spectrum-4, ...
    cages: int = 0
    cage_connector: Connector | None = None
    logical_ports_per_cage: int = 1
    port_speed_gbps: int = 0  # per logical port
    max_split: int = 1  # a logical port can split into this many slower ports (NDR -> 2x NDR200)
    height_u: int | None = None
    managed: bool | None = None  # runs an embedded subnet manager / NOS; None: not sourced (unknown)
    watts: float | None = None
    management: bool = False  # an out-of-band (BMC) management switch such as SN2201
    rj45_ports: int = 0  # 1 GbE copper ports (management switches)
    top: Top | None = None  # plug top of its cages
    embedded_sm_max_nodes: int | None = None  # InfiniBand nodes its embedded subnet manager handles; None = unknown

    @property
    def logical_ports(self) -> int:
        return self.cages * self.logical_ports_per_cage


@dataclass(frozen=True, kw_only=True)
class MediaEnd:
    """One end of a cable, or the electrical side of a transceiver. ``legs`` > 1 for a splitter end."""

    connector: Connector
    speed_gbps: int  # per leg
    top: Top | None = None
    legs: int = 1
    twin: bool = False  # a twin-port plug (2 logical ports in one cage)


@dataclass(frozen=True, kw_only=True)
class MediaSpec(PartBase):
    """A cable, a transceiver or a fibre. Cables and fibres have a length; transceivers a reach."""

    category: Category = Category.CABLE
    kind: MediaKind = MediaKind.DAC
    end_a: MediaEnd
    end_b: MediaEnd
    length_m: float | None = None
    reach_m: float | None = None
    fibre: str | None = None  # "mm" or "sm"
    watts: float | None = None
    protocol: Protocol = Protocol.VPI
    purpose: MediaPurpose | None = None  # None: the source does not say


@dataclass(frozen=True, kw_only=True)
class CpuSpec(PartBase):
    """A processor. Memory speeds are the vendor's maximum at one and at two DIMMs per channel."""

    category: Category = Category.CPU
    vendor: str = ""
    family: str = ""
    socket: str = ""
    tdp_w: int | None = None
    cores: int | None = None
    memory_channels: int | None = None
    memory_speed_mts: int | None = None  # one DIMM per channel
    memory_speed_2dpc_mts: int | None = None
    pcie_lanes: int | None = None


@dataclass(frozen=True, kw_only=True)
class MemorySpec(PartBase):
    """A DDR5 registered DIMM."""

    category: Category = Category.MEMORY
    memory_type: str = "DDR5 RDIMM"
    size_gb: int | None = None
    speed_mts: int | None = None
    ranks: int | None = None


M2_FORMS = frozenset({"M.2 2280", "M.2 22110"})


@dataclass(frozen=True, kw_only=True)
class DriveSpec(PartBase):
    """An SSD; ``use`` says whether it is sold as a boot drive (M.2) or a data drive (front bays)."""

    category: Category = Category.DRIVE
    use: str = "data"  # boot or data
    form_factor: str = ""  # "" = unknown
    capacity_gb: int | None = None
    interface: str = ""  # nvme or sata; "" = unknown
    pcie_gen: int | None = None
    pcie_lanes: int | None = None

    @property
    def is_m2(self) -> bool:
        return self.form_factor in M2_FORMS


@dataclass(frozen=True, kw_only=True)
class ReferenceSystemSpec:
    """NVIDIA's own 8-GPU system as it ships: the yardstick of the system-memory rule."""

    system: str
    gpu_memory_gb: float
    system_memory_gb: float
    source: str
    board: str = ""  # the HGX baseboard the system is built on (HGX-H100-8GPU); empty: not tied to a board
    cooling: Cooling | None = None  # air or liquid; None: not sourced

    @property
    def memory_ratio(self) -> float:
        return self.system_memory_gb / self.gpu_memory_gb


PartSpec = (
    ServerSpec | GpuSpec | CpuSpec | MemorySpec | DriveSpec | BridgeSpec | AdapterSpec | SwitchSpec | MediaSpec
) | PartBase

# The kinds of part that are no node component and belong in another field: a server in the node group's
# ``server``, a switch in ``fabric.switch``; cables and optics come from the fabric plan (engines.intake.references says
# which, the node rules leave such a part out).
NOT_COMPONENTS: tuple[type, ...] = (ServerSpec, SwitchSpec, MediaSpec)


@dataclass(frozen=True, kw_only=True)
class RackPartSpec(PartBase):
    """A rack enclosure (catalogue category ``rack``)."""

    height_u: int | None = None


@dataclass(frozen=True, kw_only=True)
class PduSpec(PartBase):
    """A rack PDU (catalogue category ``pdu``). ``power_kw``: the rated power of one PDU; None: unknown."""

    power_kw: float | None = None
    outlets_c13: int | None = None
    outlets_c19: int | None = None
    height_u: int | None = None  # 0: vertical (zero-U)
    phases: int | None = None
    current_a: int | None = None
    voltage_v: int | None = None


@dataclass(frozen=True, kw_only=True)
class PowerCordSpec(PartBase):
    """A power cord (catalogue category ``power_cord``): end A plugs into the PDU, end B into the device."""

    a_connector: str = ""
    b_connector: str = ""
    length_m: float | None = None
    current_a: int | None = None  # rated current (IEC 60320: C13 10 A, C19 16 A); None: unknown
