# ruff: noqa: E501  (message ids and sources are kept whole, one line each, as translators see them)
"""Rule registry entries of the node contents (CPUs, memory, drives: engines/node/node_contents.py) and of
the distributor's fabric advice (engines/node/workload.py)."""

from __future__ import annotations

from .codes import Code
from .rule import INFO, E, Rule, W, gettext_noop, rule

RULES: tuple[Rule, ...] = (
    # node contents (node_contents.py; NODE_DEFAULTS_ADDED before the node rules, engines/cluster/defaults.py)
    rule(
        Code.NODE_DEFAULTS_ADDED,
        INFO,
        gettext_noop("Default CPUs, memory or boot drive added"),
        gettext_noop(
            "Where a node group names no CPUs, no memory or no boot drive, the platform's default node set is added, priced on the bill of materials and frozen on the quote, so every quoted node is complete. Name the parts yourself to change them."
        ),
        "Issue #14 (complete nodes); catalogue default node sets (catalog/seed/README.md: MLPerf units, DGX B200 user guide, SYS-CHOICE)",
        ("engines.cluster.defaults.complete_design",),
    ),
    rule(
        Code.NODE_INCOMPLETE,
        INFO,
        gettext_noop("Node without CPUs, memory or boot drive"),
        gettext_noop(
            "A node needs CPUs, memory and a boot drive to start. Where the design names none and the catalogue holds no default set for the server, the quote leaves them out."
        ),
        "catalog/seed/README.md (no node set catalogued for SYS-420GP-TNAR, a DDR4 platform)",
        ("engines.cluster.defaults.complete_design",),
    ),
    rule(
        Code.NODE_CPU_MIXED,
        E,
        gettext_noop("Different CPU models in one node"),
        gettext_noop("Multi-socket Xeon and EPYC systems take identical processors in every socket."),
        "Intel ARK / AMD EPYC specifications (ARK-DS, AMD-DS): 2-socket scalability with identical processors",
        ("engines.node.node_contents.cpu_mixed",),
    ),
    rule(
        Code.NODE_CPU_COUNT,
        E,
        gettext_noop("CPU count does not match the sockets"),
        gettext_noop(
            "More CPUs than the server's sockets do not fit. (Fewer boot but lose the lanes and channels of the empty socket: NODE_CPU_SOCKET_EMPTY, a warning.)"
        ),
        "hardware.md §1a (2-socket GPU platforms); ARK-DS, AMD-DS (PCIe lanes and memory channels per socket)",
        ("engines.node.node_contents.cpu_count",),
    ),
    rule(
        Code.NODE_CPU_NOT_ACCEPTED,
        E,
        gettext_noop("CPU not taken by the server"),
        gettext_noop(
            "A CPU must fit the board's socket (LGA4677: Xeon 4th/5th Gen; LGA4710: Xeon 6; SP5: EPYC 9004). A CPU of the right socket but a family the server's sources do not name is NODE_CPU_UNVERIFIED, a warning."
        ),
        "Server facts cpu_socket and cpu_families (catalog/seed/README.md); ARK-DS, AMD-DS",
        ("engines.node.node_contents.cpu_not_accepted",),
    ),
    rule(
        Code.NODE_CPU_TDP,
        E,
        gettext_noop("CPU TDP above the server's limit"),
        gettext_noop("The server cools and powers CPUs up to a TDP per socket; a hotter CPU is not supported."),
        "Server cpu_tdp_w (SYS-822GS-NBRT 350 W, DIST-PM); ARK-DS, AMD-DS (CPU TDP)",
        ("engines.node.node_contents.cpu_tdp",),
    ),
    rule(
        Code.MEMORY_MIXED,
        W,  # best practice: the node boots, bandwidth suffers
        gettext_noop("Different DIMMs in one node"),
        gettext_noop("All DIMMs of a node are identical, so every memory channel is populated alike."),
        "ARK-DS, AMD-DS memory configuration; DGX H100 and MLPerf units use one DIMM model (MLC-NV-DGXH100, MLC-821)",
        ("engines.node.node_contents.memory_mixed",),
    ),
    rule(
        Code.MEMORY_TOO_MANY,
        E,
        gettext_noop("More DIMMs than slots"),
        gettext_noop("A node holds at most as many DIMMs as its board has DIMM slots."),
        "hardware.md §1a (DIMM slots per server)",
        ("engines.node.node_contents.memory_slots",),
    ),
    rule(
        Code.MEMORY_UNBALANCED,
        W,  # best practice: the node boots, bandwidth suffers
        gettext_noop("DIMMs not balanced over the memory channels"),
        gettext_noop(
            "DIMMs are spread evenly over all channels of every populated socket (one or two per channel); otherwise memory bandwidth is uneven and channels idle."
        ),
        "ARK-DS, AMD-DS (memory channels per socket); DGX and MLPerf units populate every channel alike",
        ("engines.node.node_contents.memory_balance",),
    ),
    rule(
        Code.MEMORY_TWO_PER_CHANNEL,
        INFO,
        gettext_noop("Two DIMMs per channel lower the memory speed"),
        gettext_noop(
            "One DIMM per channel runs at the CPU's full memory speed; two per channel run slower (Xeon 4th Gen 4,800 to 4,400 MT/s, Xeon 6 6,400 to 5,200 MT/s)."
        ),
        "ARK-DS (Xeon 4th Gen speeds at 1 and 2 DIMMs per channel); XEON6-CNEWS (Xeon 6: DDR5-6400 at 1 DPC, DDR5-5200 at 2 DPC)",
        ("engines.node.node_contents.memory_two_per_channel",),
    ),
    rule(
        Code.MEMORY_BELOW_REFERENCE,
        W,
        gettext_noop("Less system memory than NVIDIA's own systems ship with"),
        gettext_noop(
            "A node carries at least the system memory per GB of GPU memory that NVIDIA's own 8-GPU system on the same GPU ships with (DGX H100: 2 TB for 640 GB; NVIDIA's H200 system: 2 TB for 1,128 GB; DGX B200: 2 TB for 1,440 GB); less leaves little room to stage data, checkpoints and pinned buffers. A GPU without such a system is not compared."
        ),
        "NVIDIA DGX B200 user guide (NV-DGXB200-UG); MLCommons DGX H100 system file (MLC-NV-DGXH100); catalog.services.reference_systems()",
        ("engines.node.node_contents.memory_against_gpu_memory",),
    ),
    rule(
        Code.DRIVE_NO_BAY,
        E,
        gettext_noop("More drives than bays of their type"),
        gettext_noop(
            "A drive needs a bay of its form factor and interface: U.2 or U.3 NVMe drives a U.2/U.3 NVMe bay, E1.S drives an E1.S bay."
        ),
        "Server drive bays (STH-821, SR-4125, DS-421TNRT3, DIST-PM)",
        ("engines.node.node_contents.drive_bays",),
    ),
    rule(
        Code.DRIVE_M2_SLOTS,
        E,
        gettext_noop("More M.2 drives than M.2 slots"),
        gettext_noop("M.2 boot drives sit in the board's M.2 slots; a node holds no more than it has."),
        "Server M.2 slots (DIST-PM, SR-4125)",
        ("engines.node.node_contents.drive_m2_slots",),
    ),
    # the distributor's fabric advice (rules/workload.py)
    rule(
        Code.FABRIC_ADVISED,
        W,
        gettext_noop("Two or more GPU nodes without a compute fabric"),
        gettext_noop(
            "From two GPU nodes on, a compute fabric (InfiniBand, or RoCE on Spectrum Ethernet) is advised: without one the nodes cannot work on one job, and an adapter in every server is not enough without the switches."
        ),
        'NCS seeds ("InfiniBand wordt doorgaans interessant zodra je workloads over twee of meer nodes verdeelt"; '
        '"Een InfiniBand-adapter in elke server is niet voldoende")',
        ("engines.node.workload.fabric_advice",),
    ),
    rule(
        Code.FABRIC_NOT_NEEDED_REPLICAS,
        INFO,
        gettext_noop("Inference replicas need no compute fabric"),
        gettext_noop(
            "An inference model that fits one NVLink domain inside a node is served by independent replicas: the nodes exchange no GPU traffic, so no compute fabric is advised between them."
        ),
        'training.py (plan_inference); NCS seeds ("Als je workloads meer onafhankelijk van elkaar draaien ... levert '
        'NVLink minder extra waarde")',
        ("engines.node.workload.fabric_advice",),
    ),
    rule(
        Code.FABRIC_OPTIONAL_INDEPENDENT_JOBS,
        INFO,
        gettext_noop("GPU nodes running independent jobs without a fabric"),
        gettext_noop(
            "Nodes that each run their own jobs (inference replicas, separate experiments) exchange no GPU traffic, so they need no compute fabric; add one when a job has to span nodes."
        ),
        'NCS seeds ("Als je workloads meer onafhankelijk van elkaar draaien ... levert NVLink minder extra waarde"; '
        '"InfiniBand is de aangewezen technologie zodra je workloads over meerdere nodes verdeelt")',
        ("engines.node.workload.fabric_advice",),
    ),
    rule(
        Code.ROCE_LOSSLESS,
        INFO,
        gettext_noop("RoCE needs a lossless Ethernet fabric"),
        gettext_noop(
            "RoCE relies on priority flow control (PFC) and explicit congestion notification (ECN): both are set on every switch and NIC for the RoCE traffic. Spectrum-X, NVIDIA's Ethernet for AI, pairs Spectrum switches with BlueField-3 SuperNICs, ConnectX-7 NICs or ConnectX-8 SuperNICs; its hardware plane load balancing needs ConnectX-8 SuperNICs."
        ),
        "NV-CL-ROCE (NVIDIA Cumulus Linux, RDMA over Converged Ethernet: RoCE relies on ECN and PFC); "
        "NV-NETOP-SPCX (NVIDIA Network Operator, Spectrum-X: Spectrum switches with BlueField-3 SuperNIC, "
        "ConnectX-7 NIC and ConnectX-8 SuperNIC for lossless RoCE; hwplb needs ConnectX-8/9 SuperNIC); "
        "NCS seeds (RoCE on 400GbE as the alternative)",
        ("engines.node.workload.fabric_advice",),
    ),
    rule(
        Code.NVLINK_NOT_NEEDED,
        INFO,
        gettext_noop("NVLink adds little to this workload"),
        gettext_noop(
            "Inference of a model that fits one GPU, or jobs that run independently, exchange little data between GPUs; a PCIe GPU server is often the more cost-efficient choice than an NVLink (HGX) board."
        ),
        'NCS seeds ("Voor inferentie met kleinere modellen of onafhankelijke GPU-taken volstaat een PCIe-setup vaak"; '
        '"een PCIe-gebaseerde multi-GPU-setup vaak kostenefficiënter")',
        ("engines.node.workload.fabric_advice",),
    ),
    rule(
        Code.NODE_CPU_UNVERIFIED,
        W,
        gettext_noop("CPU family not confirmed for this server"),
        gettext_noop(
            "The CPU fits the board's socket, but the server's sources name other CPU families (sometimes only the CPU of one benchmarked unit): confirm BIOS support with the vendor."
        ),
        "server cpu_socket and cpu_families with their sources (seed README); ARK-DS / AMD-DS",
        ("engines.node.node_contents.cpu_not_accepted",),
    ),
    rule(
        Code.NODE_CPU_SOCKET_EMPTY,
        W,
        gettext_noop("A CPU socket is left empty"),
        gettext_noop(
            "The node boots with fewer CPUs than sockets, but loses the PCIe lanes and memory channels of the empty socket, and the slots wired to it."
        ),
        "hardware.md §1a (dual-socket GPU platforms); ARK-DS / AMD-DS (lanes and channels per socket)",
        ("engines.node.node_contents.cpu_count",),
    ),
    rule(
        Code.NODE_CPU_SOCKET_EMPTY_HGX,
        E,
        gettext_noop("A CPU socket of an HGX 8-GPU host is left empty"),
        gettext_noop(
            "An HGX 8-GPU board reaches its host through both CPUs: four GPUs and the four compute NICs beside them hang off each socket. With a socket empty, half the GPUs and their NICs have no host, so the node cannot run as designed."
        ),
        "NV-DGXH100-UG §1.2.3 Network Modules, Table 6 (ConnectX-7 of GPUs 0-3 on CPU 0, of GPUs 4-7 on CPU 1; the interposer connects the CPUs to the GPU tray)",
        ("engines.node.node_contents.cpu_count",),
    ),
    rule(
        Code.NODE_CPU_TDP_UNKNOWN,
        INFO,
        gettext_noop("CPU TDP unknown against the server's limit"),
        gettext_noop(
            "The server publishes a per-socket TDP limit, but the CPU's TDP is not sourced, so the limit cannot be checked."
        ),
        "server cpu_tdp_w (DIST-PM); CPU TDP (ARK-DS, AMD-DS) where sourced",
        ("engines.node.node_contents.cpu_tdp_unknown",),
    ),
    rule(
        Code.MEMORY_DOWNCLOCKED,
        INFO,
        gettext_noop("DIMMs run below their rated speed"),
        gettext_noop(
            "DIMMs rated faster than the memory speed the CPU supports run at the CPU's speed; the faster DIMMs bring nothing."
        ),
        "ARK-DS, XEON6-CNEWS, AMD-DS (CPU memory speeds); RS-MICRON, SO-CWM (DIMM speeds)",
        ("engines.node.node_contents.memory_downclocked",),
    ),
)
