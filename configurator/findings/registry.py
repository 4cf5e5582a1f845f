# ruff: noqa: E501  (message ids and sources are kept whole, one line each, as translators see them)
"""The rule registry: every stable finding code of both engines (node rules and fabric), with its severity,
title, short rationale (explanation), source and the checks that emit it.

The engines take a finding's severity from here (``finding``), never from the call site, so a code can never
change severity by accident. The rule catalogue page, the API and the docs list this registry. Titles and
explanations are English message ids, translated at the service edge (``configurator.messages``); nothing here
imports Django. Source keys such as [CX7-SPEC] are those of the shared hardware reference (reference/hardware.md
§6); "NCS seeds" are the distributor's own articles.
"""

from __future__ import annotations

from dataclasses import dataclass

from .codes import Code
from .fabric_codes import FabricCode
from .finding import Finding, Severity

E, W, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO


def gettext_noop(message: str) -> str:
    """Marks an English message id for translation (makemessages extracts it); translated at the service edge."""
    return message


@dataclass(frozen=True)
class Rule:
    """One registry entry. ``checks`` name the functions (under ``configurator.``) that emit the code."""

    code: str
    severity: Severity
    title: str
    explanation: str
    source: str
    checks: tuple[str, ...]


def _rule(
    code: Code | FabricCode, severity: Severity, title: str, explanation: str, source: str, checks: tuple[str, ...]
) -> Rule:
    return Rule(str(code), severity, title, explanation, source, checks)


REGISTRY: dict[str, Rule] = {
    rule.code: rule
    for rule in (
        # node rules engine
        _rule(
            Code.PART_UNKNOWN,
            E,
            gettext_noop("Unknown part number"),
            gettext_noop("The design names a part number the catalogue does not hold."),
            "catalogue",
            ("rules.context._unknown",),
        ),
        _rule(
            Code.PART_WRONG_CATEGORY,
            E,
            gettext_noop("Part in the wrong place"),
            gettext_noop(
                "A part is used where another kind belongs, such as a switch given as a server or a server as a component."
            ),
            "contract design/v1",
            ("rules.context._misplaced",),
        ),
        _rule(
            Code.PART_DISCONTINUED,
            W,
            gettext_noop("Discontinued or end-of-life part"),
            gettext_noop(
                "The design names a part its maker has discontinued or declared end-of-life; the finding names the replacement the source gives."
            ),
            "catalogue lifecycle with its source (NVIDIA LinkX 'Copper DAC and LACC Cables Overview' for the splitters)",
            ("findings.lifecycle.retired_finding",),
        ),
        _rule(
            Code.PCIE_SLOTS_UNKNOWN,
            W,
            gettext_noop("Slot list unknown"),
            gettext_noop("No sourced slot list exists for this server, so the placement of cards cannot be verified."),
            "hardware.md §5 (unknown slot lists)",
            ("rules.pcie.placement._slots_unknown",),
        ),
        _rule(
            Code.PCIE_NO_FREE_SLOT,
            E,
            gettext_noop("More cards than slots"),
            gettext_noop(
                "Every add-in card needs a slot it physically fits: a full-height card does not fit a low-profile slot and an OCP card only fits an OCP bay."
            ),
            "PCI-SIG CEM and OCP 3.0 outlines; slot lists hardware.md §1b",
            ("rules.pcie.placement._no_free_slot",),
        ),
        _rule(
            Code.PCIE_NO_FREE_SLOT_UNVERIFIED,
            W,
            gettext_noop("More cards than the known slots"),
            gettext_noop(
                "The server's slot list is sourced but not complete (other positions, such as AIOM/OCP bays or a side NIC position, may exist), so a card without a known slot is not proven impossible: confirm with Supermicro where it goes."
            ),
            "catalog/seed/README.md (completeness flags); hardware.md §1b",
            ("rules.pcie.placement._no_free_slot",),
        ),
        _rule(
            Code.PCIE_CARD_DOES_NOT_FIT,
            E,
            gettext_noop("Card does not fit the chosen slot"),
            gettext_noop("An explicitly chosen slot has a form factor the card does not fit."),
            "PCI-SIG CEM and OCP 3.0 outlines",
            ("rules.pcie.placement._place_explicit",),
        ),
        _rule(
            Code.PCIE_SLOT_USED_TWICE,
            E,
            gettext_noop("Slot used twice"),
            gettext_noop("Two cards are placed in the same slot."),
            "physical constraint",
            ("rules.pcie.placement._place_explicit",),
        ),
        _rule(
            Code.PCIE_UNKNOWN_SLOT,
            E,
            gettext_noop("No such slot"),
            gettext_noop("An explicit placement names a slot the server does not have."),
            "slot lists hardware.md §1b",
            ("rules.pcie.placement._place_explicit",),
        ),
        _rule(
            Code.PCIE_INTEGRATED_NICS,
            E,
            gettext_noop("Compute NICs are built in"),
            gettext_noop(
                "Servers with integrated compute NICs (SYS-822GS-NB3RT: 8x ConnectX-8, one per GPU) have no slots for compute adapters; their few slots are for storage or management."
            ),
            "[DIST-PM], [MLCT-822NB3]",
            ("rules.pcie.placement._integrated_nics",),
        ),
        _rule(
            Code.PCIE_FORM_UNKNOWN,
            W,
            gettext_noop("Card or slot size unknown"),
            gettext_noop("The form factor of a card or slot is not sourced, so the fit cannot be verified."),
            "hardware.md §5",
            ("rules.pcie.slots.form_unknown",),
        ),
        _rule(
            Code.PCIE_LINK_BANDWIDTH,
            W,
            gettext_noop("PCIe link slower than the card"),
            gettext_noop(
                "A card in a slot of a lower PCIe generation or fewer lanes than it needs cannot reach its line rate. One NDR 400 Gb/s port needs about 50 GB/s per direction; PCIe 4.0 x16 gives about 31.5 GB/s."
            ),
            "[CX7-SPEC]; fabric.md §5 (PCIe arithmetic)",
            ("rules.pcie.bandwidth._link_shortfall",),
        ),
        _rule(
            Code.PCIE_GEN6_IN_GEN5,
            W,
            gettext_noop("PCIe Gen6 card in a Gen5 slot"),
            gettext_noop(
                "An 800 Gb/s ConnectX-8 needs about 100 GB/s per direction; PCIe 5.0 x16 gives about 63 GB/s. Full speed on Gen5 hosts needs Socket Direct (2x Gen5 x16)."
            ),
            "[CX8-ID], [DOCA-CX8]; fabric.md §5",
            ("rules.pcie.bandwidth._link_shortfall",),
        ),
        _rule(
            Code.PCIE_LINK_UNKNOWN,
            INFO,
            gettext_noop("PCIe link unknown"),
            gettext_noop(
                "The PCIe generation or lane count of a slot or card is not sourced; the link bandwidth is not checked."
            ),
            "hardware.md §5",
            ("rules.pcie.bandwidth._link_unknown",),
        ),
        _rule(
            Code.PCIE_SWITCH_UPLINK,
            W,
            gettext_noop("PCIe switch uplink oversubscribed"),
            gettext_noop("The cards behind one PCIe switch need more bandwidth than its uplink to the CPU provides."),
            "PCIe arithmetic (fabric.md §5)",
            ("rules.pcie.bandwidth.switch_uplinks",),
        ),
        _rule(
            Code.PCIE_NIC_NOT_GPU_LOCAL,
            W,
            gettext_noop("Compute NIC away from its GPU"),
            gettext_noop(
                "GPUDirect RDMA stays local only when a compute NIC sits behind the same PCIe switch as its GPU; HGX systems take one NIC per GPU, each on its own rail."
            ),
            "[DIST-PM] (8 LP slots for 1:1 GPU-to-NIC); fabric.md §0.1 (rail-optimized)",
            ("rules.pcie.locality.not_gpu_local",),
        ),
        _rule(
            Code.GPU_NOT_ACCEPTED,
            E,
            gettext_noop("GPU not supported by this server"),
            gettext_noop(
                "The server does not take this GPU: its GPU list is definitive (an HGX server, whose sources name the baseboard it takes) and does not name it, or an HGX baseboard is put in a PCIe GPU server, which has slots for GPU cards and no baseboard socket."
            ),
            "hardware.md §1a (GPU column)",
            (
                "rules.gpu.not_accepted",
                "rules.gpu._board_in_pcie_server",
            ),
        ),
        _rule(
            Code.GPU_COMPATIBILITY_UNKNOWN,
            INFO,
            gettext_noop("GPU compatibility unknown"),
            gettext_noop("No sourced list of GPUs exists for this server; check the datasheet."),
            "hardware.md §5",
            ("rules.gpu.not_accepted",),
        ),
        _rule(
            Code.GPU_COMPATIBILITY_UNVERIFIED,
            W,
            gettext_noop("GPU not on the server's partial GPU list"),
            gettext_noop(
                "For PCIe GPU servers the sources name only some of the GPUs the server takes (SYS-421GE-TNRT3: H100, L40S, A100, RTX 6000 Ada). A GPU the list does not name may still fit, but is unverified: confirm it with Supermicro before quoting."
            ),
            "hardware.md §1a (GPU column: partial lists for PCIe GPU servers)",
            ("rules.gpu.not_accepted",),
        ),
        _rule(
            Code.GPU_MIXED_MODELS,
            E,
            gettext_noop("Mixed GPU models in one node"),
            gettext_noop("A node takes one GPU model; NVLink and the NVSwitch domain join identical GPUs only."),
            "[NV-AIE-RA]; NCS seeds",
            ("rules.gpu.mixed_models",),
        ),
        _rule(
            Code.GPU_TOO_MANY,
            E,
            gettext_noop("Too many GPUs for this server"),
            gettext_noop(
                "An HGX server takes one baseboard; a PCIe GPU server takes up to its maximum number of cards."
            ),
            "hardware.md §1a",
            ("rules.gpu.too_many",),
        ),
        _rule(
            Code.GPU_NONE,
            W,
            gettext_noop("GPU server without GPUs"),
            gettext_noop("The node group uses a GPU server but lists no GPU board or card."),
            "hardware.md §1a",
            ("rules.gpu.no_gpu",),
        ),
        _rule(
            Code.NVLINK_BRIDGE_UNSUPPORTED,
            E,
            gettext_noop("NVLink bridge on a GPU without NVLink bridges"),
            gettext_noop(
                "L40S and RTX PRO 6000 have no NVLink; HGX boards connect their GPUs through NVSwitch, not bridges."
            ),
            "[NV-AIE-RA], [NV-DS]",
            ("rules.gpu.bridges",),
        ),
        _rule(
            Code.NVLINK_BRIDGE_SIZE,
            E,
            gettext_noop("NVLink bridge size not supported"),
            gettext_noop("H100 NVL bridges pairs only; H200 NVL bridges pairs or groups of four."),
            "[NV-AIE-RA], [H100NVL-S]",
            ("rules.gpu.bridges",),
        ),
        _rule(
            Code.NVLINK_BRIDGE_TOO_MANY,
            E,
            gettext_noop("More NVLink bridges than GPUs"),
            gettext_noop(
                "Each bridge set joins a fixed number of GPUs; the sets together cannot join more GPUs than the node has."
            ),
            "[NV-AIE-RA]",
            ("rules.gpu.bridges",),
        ),
        _rule(
            Code.NVLINK_BRIDGE_PARTIAL,
            INFO,
            gettext_noop("Some GPUs unbridged"),
            gettext_noop("The bridge sets join fewer GPUs than the node has; the others talk over PCIe only."),
            "[NV-AIE-RA]",
            ("rules.gpu.bridges",),
        ),
        _rule(
            Code.NVLINK_BRIDGE_CROSS_SOCKET,
            W,
            gettext_noop("Bridged GPUs under different CPUs"),
            gettext_noop(
                "NVIDIA advises bridging cards under the same CPU socket; across sockets is acceptable but not recommended."
            ),
            "[NV-AIE-RA]",
            ("rules.gpu.bridge_sockets",),
        ),
        _rule(
            Code.NVLINK_NO_NVSWITCH,
            W,
            gettext_noop("Eight or more GPUs without NVSwitch"),
            gettext_noop(
                "Without NVSwitch only bridged pairs (or fours) talk at NVLink speed; the rest goes over PCIe."
            ),
            'NCS seeds ("zonder NVSwitch kunnen GPU\'s alleen in paren direct communiceren")',
            ("rules.gpu.nvswitch",),
        ),
        _rule(
            Code.NVLINK_NVSWITCH_UNKNOWN,
            INFO,
            gettext_noop("NVSwitch count unknown"),
            gettext_noop("The number of NVSwitch chips on this board is not sourced (HGX B300)."),
            "hardware.md §2, §5",
            ("rules.gpu.nvswitch",),
        ),
        _rule(
            Code.NIC_FEWER_THAN_GPUS,
            W,
            gettext_noop("Fewer compute NICs than GPUs"),
            gettext_noop(
                "Multi-node training uses one compute NIC per GPU; with fewer, GPUs share NICs and inter-node bandwidth per GPU drops."
            ),
            "fabric.md §0.1 (one NIC per GPU); [STH-821]",
            ("rules.workload._fewer_nics",),
        ),
        _rule(
            Code.NIC_NOT_NEEDED,
            INFO,
            gettext_noop("Compute NICs without a fabric"),
            gettext_noop(
                "A single node without a compute fabric needs no compute NICs; NVLink carries the GPU traffic."
            ),
            'NCS seeds ("voor single-node setups ... is InfiniBand niet nodig")',
            ("rules.workload._not_needed",),
        ),
        _rule(
            Code.NIC_MISSING,
            E,
            gettext_noop("GPU nodes without compute NICs"),
            gettext_noop(
                "The design has a compute fabric and compute NICs in some GPU nodes, but one GPU node group has none."
            ),
            "fabric.md §0.1",
            ("rules.workload.nic_findings",),
        ),
        _rule(
            Code.POWER_OVER_CAPACITY,
            E,
            gettext_noop("Peak power above PSU capacity"),
            gettext_noop("Estimated peak draw exceeds the capacity of the N supplies of the N+M configuration."),
            "hardware.md §4 (budget rule); [STH-ASR]",
            ("rules.power.power_findings",),
        ),
        _rule(
            Code.POWER_NEAR_CAPACITY,
            W,
            gettext_noop("Peak power above 80% of PSU capacity"),
            gettext_noop(
                "Estimated peak draw is above about 80% of the N supplies' capacity; there is little headroom."
            ),
            "hardware.md §4 (budget rule)",
            ("rules.power.power_findings",),
        ),
        _rule(
            Code.POWER_CAPACITY_UNKNOWN,
            W,
            gettext_noop("PSU capacity unknown"),
            gettext_noop(
                "The PSU count, wattage or redundancy of this server is not sourced, so the budget cannot be checked."
            ),
            "hardware.md §5",
            ("rules.power.power_findings",),
        ),
        _rule(
            Code.POWER_ESTIMATE_INCOMPLETE,
            INFO,
            gettext_noop("Power estimate incomplete"),
            gettext_noop("A GPU's TDP is unknown, so it is left out of the estimate, which is therefore too low."),
            "hardware.md §2",
            ("rules.power.power_findings",),
        ),
        _rule(
            Code.POWER_ESTIMATE_BASIS,
            INFO,
            gettext_noop("Basis of the power estimate"),
            gettext_noop(
                "The node's peak power is the sum of its parts (GPU TDP, CPUs, memory and drives, adapters, optics, fans) or, for an HGX baseboard, at least the published maximum of NVIDIA's own system on that board (DGX H100/H200 10.2 kW, DGX B200 about 14.3 kW), which includes the baseboard and NVSwitch overhead, fans at full speed and PSU losses."
            ),
            "DGX-H100-PWR, DGX-B200-PWR, NV-DS, DGX-A100-PWR (catalog/seed/README.md, power calibration basis)",
            ("rules.power.power_findings",),
        ),
        _rule(
            Code.POWER_REDUNDANCY_N_PLUS_N,
            INFO,
            gettext_noop("PSU redundancy not sourced; N+N holds"),
            gettext_noop(
                "The PSU count and wattage are known but the redundancy mode is not; the estimated peak fits half the supplies, so it holds with N+N redundancy and without."
            ),
            "hardware.md §4 (budget rule)",
            ("rules.power.power_findings",),
        ),
        _rule(
            Code.POWER_REDUNDANCY_N_PLUS_0,
            W,
            gettext_noop("PSU redundancy not sourced; only N+0 holds"),
            gettext_noop(
                "The PSU count and wattage are known but the redundancy mode is not; the estimated peak needs more than half the supplies, so it holds only without full redundancy (N+0 or a partial N+M)."
            ),
            "hardware.md §4 (budget rule)",
            ("rules.power.power_findings",),
        ),
        _rule(
            Code.COOLING_LIQUID,
            INFO,
            gettext_noop("Liquid cooling needs a CDU or facility water"),
            gettext_noop(
                "Liquid-cooled servers need a coolant distribution unit (CDU) or facility water in the data centre."
            ),
            "hardware.md §1a (cooling column)",
            ("rules.power.cooling_findings",),
        ),
        _rule(
            Code.WORKLOAD_NOT_SIZED,
            INFO,
            gettext_noop("Workload not sized"),
            gettext_noop("The design has no GPU with known memory, so the workload cannot be sized."),
            "sizing.py",
            ("rules.workload.workload_findings",),
        ),
        _rule(
            Code.WORKLOAD_TENSOR_PARALLEL,
            INFO,
            gettext_noop("Model does not fit one GPU"),
            gettext_noop(
                "The model needs more memory than one GPU has; tensor parallelism inside the NVLink domain is required."
            ),
            "NCS seeds; sizing.py (16-20 bytes/param training, 2 bytes + KV margin inference)",
            ("rules.workload.workload_findings",),
        ),
        _rule(
            Code.WORKLOAD_SPANS_NODES,
            INFO,
            gettext_noop("Model spans nodes"),
            gettext_noop("The model needs more memory than one node has; the job spans nodes over the compute fabric."),
            "NCS seeds; sizing.py",
            ("rules.workload.workload_findings",),
        ),
        _rule(
            Code.WORKLOAD_NOT_ENOUGH_GPUS,
            E,
            gettext_noop("Not enough GPU memory for the model"),
            gettext_noop(
                "All GPUs of the design together hold less memory than the model's weights alone (inference, LoRA) or its fully sharded training states (16 bytes per parameter): it cannot run on them."
            ),
            "sizing.py (ZeRO, Rajbhandari et al. 2020, 16 bytes per parameter)",
            ("rules.workload.workload_findings",),
        ),
        _rule(
            Code.WORKLOAD_MEMORY_TIGHT,
            W,
            gettext_noop("GPU memory below the advised size"),
            gettext_noop(
                "The workload can run (its weights, or its fully sharded training states, fit the GPUs' memory), but less memory than advised is left for activations or the KV cache: it needs full sharding with activation checkpointing, or a shorter context or fewer concurrent sequences."
            ),
            "sizing.py (ZeRO, Rajbhandari et al. 2020; QLoRA, Dettmers et al. 2023; Llama 3.1 model cards)",
            ("rules.workload.workload_findings",),
        ),
        _rule(
            Code.WORKLOAD_NEEDS_FABRIC,
            E,
            gettext_noop("Multi-node job without a compute fabric"),
            gettext_noop("A model that spans nodes needs a compute fabric (InfiniBand or Spectrum-X) between them."),
            'NCS seeds ("InfiniBand is de aangewezen technologie zodra je workloads over meerdere nodes verdeelt")',
            ("rules.workload.workload_findings",),
        ),
        _rule(
            Code.WORKLOAD_NVLINK_BANDWIDTH,
            W,
            gettext_noop("NVLink bandwidth low for 70B-class training"),
            gettext_noop(
                "70B-class training needs tensor parallelism over 8 GPUs; H100-class NVLink (900 GB/s) or better is advised over A100 (600 GB/s)."
            ),
            'NCS seeds ("H100-GPU\'s en 900 GB/s NVLink-bandbreedte is een solide minimumvereiste")',
            ("rules.workload._nvlink_bandwidth",),
        ),
        # fabric planner and checks
        # node contents (node_contents.py; NODE_DEFAULTS_ADDED at the service edge, configurator/defaults.py)
        _rule(
            Code.NODE_DEFAULTS_ADDED,
            INFO,
            gettext_noop("Default CPUs, memory or boot drive added"),
            gettext_noop(
                "Where a node group names no CPUs, no memory or no boot drive, the platform's default node set is added, priced on the bill of materials and frozen on the quote, so every quoted node is complete. Name the parts yourself to change them."
            ),
            "Issue #14 (complete nodes); catalogue default node sets (catalog/seed/README.md: MLPerf units, DGX B200 user guide, SYS-CHOICE)",
            ("defaults.complete_design",),
        ),
        _rule(
            Code.NODE_INCOMPLETE,
            INFO,
            gettext_noop("Node without CPUs, memory or boot drive"),
            gettext_noop(
                "A node needs CPUs, memory and a boot drive to start. Where the design names none and the catalogue holds no default set for the server, the quote leaves them out."
            ),
            "catalog/seed/README.md (no node set catalogued for SYS-420GP-TNAR, a DDR4 platform)",
            ("defaults.complete_design",),
        ),
        _rule(
            Code.NODE_CPU_MIXED,
            E,
            gettext_noop("Different CPU models in one node"),
            gettext_noop("Multi-socket Xeon and EPYC systems take identical processors in every socket."),
            "Intel ARK / AMD EPYC specifications (ARK-DS, AMD-DS): 2-socket scalability with identical processors",
            ("rules.node_contents.cpu_mixed",),
        ),
        _rule(
            Code.NODE_CPU_COUNT,
            E,
            gettext_noop("CPU count does not match the sockets"),
            gettext_noop(
                "More CPUs than the server's sockets do not fit. (Fewer boot but lose the lanes and channels of the empty socket: NODE_CPU_SOCKET_EMPTY, a warning.)"
            ),
            "hardware.md §1a (2-socket GPU platforms); ARK-DS, AMD-DS (PCIe lanes and memory channels per socket)",
            ("rules.node_contents.cpu_count",),
        ),
        _rule(
            Code.NODE_CPU_NOT_ACCEPTED,
            E,
            gettext_noop("CPU not taken by the server"),
            gettext_noop(
                "A CPU must fit the board's socket (LGA4677: Xeon 4th/5th Gen; LGA4710: Xeon 6; SP5: EPYC 9004). A CPU of the right socket but a family the server's sources do not name is NODE_CPU_UNVERIFIED, a warning."
            ),
            "Server facts cpu_socket and cpu_families (catalog/seed/README.md); ARK-DS, AMD-DS",
            ("rules.node_contents.cpu_not_accepted",),
        ),
        _rule(
            Code.NODE_CPU_TDP,
            E,
            gettext_noop("CPU TDP above the server's limit"),
            gettext_noop("The server cools and powers CPUs up to a TDP per socket; a hotter CPU is not supported."),
            "Server cpu_tdp_w (SYS-822GS-NBRT 350 W, DIST-PM); ARK-DS, AMD-DS (CPU TDP)",
            ("rules.node_contents.cpu_tdp",),
        ),
        _rule(
            Code.MEMORY_MIXED,
            W,  # best practice: the node boots, bandwidth suffers (issue #20)
            gettext_noop("Different DIMMs in one node"),
            gettext_noop("All DIMMs of a node are identical, so every memory channel is populated alike."),
            "ARK-DS, AMD-DS memory configuration; DGX H100 and MLPerf units use one DIMM model (MLC-NV-DGXH100, MLC-821)",
            ("rules.node_contents.memory_mixed",),
        ),
        _rule(
            Code.MEMORY_TOO_MANY,
            E,
            gettext_noop("More DIMMs than slots"),
            gettext_noop("A node holds at most as many DIMMs as its board has DIMM slots."),
            "hardware.md §1a (DIMM slots per server)",
            ("rules.node_contents.memory_slots",),
        ),
        _rule(
            Code.MEMORY_UNBALANCED,
            W,  # best practice: the node boots, bandwidth suffers (issue #20)
            gettext_noop("DIMMs not balanced over the memory channels"),
            gettext_noop(
                "DIMMs are spread evenly over all channels of every populated socket (one or two per channel); otherwise memory bandwidth is uneven and channels idle."
            ),
            "ARK-DS, AMD-DS (memory channels per socket); DGX and MLPerf units populate every channel alike",
            ("rules.node_contents.memory_balance",),
        ),
        _rule(
            Code.MEMORY_TWO_PER_CHANNEL,
            INFO,
            gettext_noop("Two DIMMs per channel lower the memory speed"),
            gettext_noop(
                "One DIMM per channel runs at the CPU's full memory speed; two per channel run slower (Xeon 4th Gen 4,800 to 4,400 MT/s, Xeon 6 6,400 to 5,200 MT/s)."
            ),
            "ARK-DS (Xeon 4th Gen speeds at 1 and 2 DIMMs per channel); XEON6-CNEWS (Xeon 6: DDR5-6400 at 1 DPC, DDR5-5200 at 2 DPC)",
            ("rules.node_contents.memory_two_per_channel",),
        ),
        _rule(
            Code.MEMORY_BELOW_REFERENCE,
            W,
            gettext_noop("Less system memory than NVIDIA's own systems ship with"),
            gettext_noop(
                "A node carries at least the system memory per GB of GPU memory that NVIDIA's own 8-GPU system on the same GPU ships with (DGX H100: 2 TB for 640 GB; NVIDIA's H200 system: 2 TB for 1,128 GB; DGX B200: 2 TB for 1,440 GB); less leaves little room to stage data, checkpoints and pinned buffers. A GPU without such a system is not compared."
            ),
            "NVIDIA DGX B200 user guide (NV-DGXB200-UG); MLCommons DGX H100 system file (MLC-NV-DGXH100); catalog.services.reference_systems()",
            ("rules.node_contents.memory_against_gpu_memory",),
        ),
        _rule(
            Code.DRIVE_NO_BAY,
            E,
            gettext_noop("More drives than bays of their type"),
            gettext_noop(
                "A drive needs a bay of its form factor and interface: U.2 or U.3 NVMe drives a U.2/U.3 NVMe bay, E1.S drives an E1.S bay."
            ),
            "Server drive bays (STH-821, SR-4125, DS-421TNRT3, DIST-PM)",
            ("rules.node_contents.drive_bays",),
        ),
        _rule(
            Code.DRIVE_M2_SLOTS,
            E,
            gettext_noop("More M.2 drives than M.2 slots"),
            gettext_noop("M.2 boot drives sit in the board's M.2 slots; a node holds no more than it has."),
            "Server M.2 slots (DIST-PM, SR-4125)",
            ("rules.node_contents.drive_m2_slots",),
        ),
        # the distributor's fabric advice (rules/workload.py)
        _rule(
            Code.FABRIC_ADVISED,
            W,
            gettext_noop("Two or more GPU nodes without a compute fabric"),
            gettext_noop(
                "From two GPU nodes on, a compute fabric (InfiniBand, or RoCE on Spectrum Ethernet) is advised: without one the nodes cannot work on one job, and an adapter in every server is not enough without the switches."
            ),
            'NCS seeds ("InfiniBand wordt doorgaans interessant zodra je workloads over twee of meer nodes verdeelt"; '
            '"Een InfiniBand-adapter in elke server is niet voldoende")',
            ("rules.workload.fabric_advice",),
        ),
        _rule(
            Code.FABRIC_OPTIONAL_INDEPENDENT_JOBS,
            INFO,
            gettext_noop("GPU nodes running independent jobs without a fabric"),
            gettext_noop(
                "Nodes that each run their own jobs (inference replicas, separate experiments) exchange no GPU traffic, so they need no compute fabric; add one when a job has to span nodes."
            ),
            'NCS seeds ("Als je workloads meer onafhankelijk van elkaar draaien ... levert NVLink minder extra waarde"; '
            '"InfiniBand is de aangewezen technologie zodra je workloads over meerdere nodes verdeelt")',
            ("rules.workload.fabric_advice",),
        ),
        _rule(
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
            ("rules.workload.fabric_advice",),
        ),
        _rule(
            Code.NVLINK_NOT_NEEDED,
            INFO,
            gettext_noop("NVLink adds little to this workload"),
            gettext_noop(
                "Inference of a model that fits one GPU, or jobs that run independently, exchange little data between GPUs; a PCIe GPU server is often the more cost-efficient choice than an NVLink (HGX) board."
            ),
            'NCS seeds ("Voor inferentie met kleinere modellen of onafhankelijke GPU-taken volstaat een PCIe-setup vaak"; '
            '"een PCIe-gebaseerde multi-GPU-setup vaak kostenefficiënter")',
            ("rules.workload.fabric_advice",),
        ),
        _rule(
            FabricCode.PART_INVALID,
            E,
            gettext_noop("Fabric part unknown or of the wrong kind"),
            gettext_noop("The fabric switch must be a switch in the catalogue and the HCA an adapter."),
            "Design contract design/v1",
            ("fabric.check.check_design_fabric",),
        ),
        _rule(
            FabricCode.NO_RAILS,
            E,
            gettext_noop("Fabric without compute NICs"),
            gettext_noop("A compute fabric needs at least one compute NIC per node to connect."),
            "NVIDIA DGX SuperPOD reference architectures H100 RA-11333-001 / B200 RA-11334-001 (compute fabric)",
            ("fabric.check.check_design_fabric",),
        ),
        _rule(
            FabricCode.SWITCH_PORTS_UNKNOWN,
            E,
            gettext_noop("Switch port count unknown"),
            gettext_noop("The catalogue does not give the switch's cages and ports, so the fabric cannot be sized."),
            "Catalogue data",
            ("fabric.plan.plan_fabric",),
        ),
        _rule(
            FabricCode.SWITCH_IS_MANAGEMENT,
            E,
            gettext_noop("Management switch chosen as fabric switch"),
            gettext_noop(
                "An out-of-band management switch (1 GbE RJ45, such as SN2201) cannot carry the compute fabric."
            ),
            "NVIDIA DGX SuperPOD H100 RA: four separate fabrics (compute, storage, in-band, out-of-band)",
            ("fabric.plan.plan_fabric",),
        ),
        _rule(
            FabricCode.PROTOCOL_MISMATCH,
            E,
            gettext_noop("Adapter and switch speak different protocols"),
            gettext_noop(
                "An InfiniBand-only switch needs InfiniBand or VPI adapters; an Ethernet switch needs Ethernet or VPI."
            ),
            "NVIDIA ConnectX-7 / BlueField-3 port protocols; LinkX cables follow the switch's protocol",
            ("fabric.findings.protocol_finding",),
        ),
        _rule(
            FabricCode.PORTS_EXCEEDED,
            E,
            gettext_noop("More ports needed than three tiers provide"),
            gettext_noop(
                "A 3-tier non-blocking fat tree of k-port switches reaches at most k³/4 endpoints; larger fabrics need a higher-radix switch, more oversubscription or fewer endpoints."
            ),
            "Al-Fares, Loukissas, Vahdat, 'A Scalable, Commodity Data Center Network Architecture', SIGCOMM 2008; Distributor article 'NVLink en InfiniBand' (seeds/000): too few switch ports, wrong cables",
            (
                "fabric.findings.rails_exceeded_finding",
                "fabric.plan._infeasible",
            ),
        ),
        _rule(
            FabricCode.NO_CABLE,
            E,
            gettext_noop("No catalogue cable joins the two connectors"),
            gettext_noop(
                "Switch cages take twin-port finned-top OSFP plugs, ConnectX-7 OSFP cards flat-top OSFP and BlueField-3/QSFP112 cards QSFP112 ends; some catalogue cable or optic set must join both ends at the link speed. Where the catalogue has no media at all for a connector and speed (such as 800 Gb/s XDR OSFP or 100 Gb/s QSFP28), the finding says so: add them or quote the cabling separately."
            ),
            "NVIDIA LinkX documentation (MCP4Y10, MCP7Y00, MCP7Y10, MMA4Z00-NS, MMA4Z00-NS400, MMS4X00-NS, MFP7E10/20/30); Distributor article 'NVLink en InfiniBand' (seeds/000): too few switch ports, wrong cables",
            ("fabric.findings.media_finding",),
        ),
        _rule(
            FabricCode.BEYOND_REACH,
            E,
            gettext_noop("Distance beyond every medium's reach"),
            gettext_noop(
                "Passive DAC reaches 2-3 m, multimode SR optics 50 m (OM4), single-mode DR 100 m or 500 m; a run longer than every matching catalogue medium cannot be built. Every run gets 0.5 m slack; the finding names the length needed and the rack override that shortens the run."
            ),
            "NVIDIA LinkX documentation (MCP4Y10, MCP7Y00, MCP7Y10, MMA4Z00-NS, MMA4Z00-NS400, MMS4X00-NS, MFP7E10/20/30); Distributor article 'NVLink en InfiniBand' (seeds/000): too few switch ports, wrong cables",
            ("fabric.findings.media_finding",),
        ),
        _rule(
            FabricCode.SPEED_MISMATCH,
            W,
            gettext_noop("Adapter and switch port speeds differ"),
            gettext_noop(
                "InfiniBand auto-negotiates to the common speed: NDR adapters on an HDR switch run at 200 Gb/s, and a slower adapter on a full-speed port leaves bandwidth unused."
            ),
            "NVIDIA QM97X0 user manual, Interfaces; Linux mlx-platform commit for MQM97xx ('InfiniBand speed is auto-adjusted')",
            ("fabric.findings.speed_finding",),
        ),
        _rule(
            FabricCode.HDR_FOR_NEW_GPUS,
            W,
            gettext_noop("HDR fabric for Hopper or Blackwell nodes"),
            gettext_noop(
                "For new H100/H200/B200 clusters NDR is the advised fabric; HDR only as a budget option or to extend an existing HDR fabric."
            ),
            "Distributor article 'NVLink en InfiniBand' (seeds/000): NDR for H100/B200, HDR as budget or extension",
            ("fabric.check.check_hdr_for_new_gpus",),
        ),
        _rule(
            FabricCode.FEWER_RAILS_THAN_GPUS,
            W,
            gettext_noop("Fewer rails than GPUs"),
            gettext_noop(
                "A rail-optimized fabric gives each GPU its own compute NIC and rail; with fewer NICs, GPUs share rails and inter-node bandwidth per GPU drops."
            ),
            "NVIDIA DGX SuperPOD reference architectures H100 RA-11333-001 / B200 RA-11334-001 (compute fabric)",
            ("fabric.check.check_rails_per_gpu",),
        ),
        _rule(
            FabricCode.SM_REQUIRED,
            W,
            gettext_noop("Unmanaged InfiniBand switches need a subnet manager"),
            gettext_noop(
                "An InfiniBand fabric needs a subnet manager; unmanaged switches (QM8790, QM9790) run none, so UFM or an SM host attached to a leaf port is required."
            ),
            "NVIDIA DGX SuperPOD reference architectures H100 RA-11333-001 / B200 RA-11334-001 (compute fabric) (UFM on dedicated servers)",
            ("fabric.findings.subnet_manager_finding",),
        ),
        _rule(
            FabricCode.SM_EMBEDDED,
            INFO,
            gettext_noop("Embedded subnet manager on the managed switches"),
            gettext_noop(
                "Managed switches run an embedded SM for fabrics up to 2,048 InfiniBand endpoints (HCA ports and switches), without adaptive routing or SHARP; UFM is recommended for AI training fabrics and above that size."
            ),
            "NVIDIA MLNX-OS user manual, Subnet Manager ('fabrics up to 2048 nodes'; no adaptive routing or SHARP)",
            ("fabric.findings.subnet_manager_finding",),
        ),
        _rule(
            FabricCode.SM_LIMIT,
            W,
            gettext_noop("Fabric larger than the embedded subnet manager handles"),
            gettext_noop(
                "The embedded SM manages fabrics up to 2,048 InfiniBand endpoints (HCA ports and switches); larger fabrics need UFM or SM hosts."
            ),
            "NVIDIA MLNX-OS user manual, Subnet Manager ('fabrics up to 2048 nodes'; no adaptive routing or SHARP)",
            ("fabric.findings.subnet_manager_finding",),
        ),
        _rule(
            FabricCode.SM_UNKNOWN,
            W,
            gettext_noop("Subnet-manager status of the switch unknown"),
            gettext_noop(
                "The sources do not say whether the switch is managed (runs an embedded subnet manager); an InfiniBand fabric needs one, so plan UFM or an SM host until the status is confirmed."
            ),
            "NVIDIA DGX SuperPOD reference architectures H100 RA-11333-001 / B200 RA-11334-001 (compute fabric) (UFM on dedicated servers)",
            ("fabric.findings.subnet_manager_finding",),
        ),
        _rule(
            FabricCode.HCA_ASSUMED,
            INFO,
            gettext_noop("No HCA given: a matching one assumed"),
            gettext_noop(
                "Without an HCA the planner assumes a single-port HCA at the switch's port speed (flat-top OSFP for OSFP switches) to choose node cables."
            ),
            "NVIDIA LinkX documentation (MCP4Y10, MCP7Y00, MCP7Y10, MMA4Z00-NS, MMA4Z00-NS400, MMS4X00-NS, MFP7E10/20/30)",
            ("fabric.plan.plan_fabric",),
        ),
        _rule(
            FabricCode.NO_MGMT_SWITCH,
            INFO,
            gettext_noop("No management switch in the catalogue"),
            gettext_noop(
                "Every node BMC and every fabric switch needs a 1 GbE out-of-band port; no management switch was found to count them on."
            ),
            "NVIDIA DGX SuperPOD H100 RA: out-of-band management network (SN2201)",
            ("fabric.plan._management",),
        ),
        _rule(
            FabricCode.SINGLE_NODE,
            INFO,
            gettext_noop("A single node needs no fabric"),
            gettext_noop("Within one server the GPUs talk over NVLink; a compute fabric only pays off from two nodes."),
            "Distributor article 'NVLink en InfiniBand' (seeds/000): single-node setups do not need InfiniBand",
            ("fabric.check.check_single_node",),
        ),
        _rule(
            FabricCode.ROCE_ALTERNATIVE,
            INFO,
            gettext_noop("RoCE on Spectrum-4 as the Ethernet alternative"),
            gettext_noop(
                "RoCE on 400GbE (Spectrum-4 SN5600) is a serious alternative where Ethernet is preferred; InfiniBand keeps an edge in latency and consistency under high load."
            ),
            "Distributor article 'NVLink en InfiniBand' (seeds/000): RoCE on 400GbE as the alternative",
            ("fabric.check.check_roce_alternative",),
        ),
        _rule(
            FabricCode.PLUG_TOP_UNKNOWN,
            W,
            gettext_noop("Plug top not known"),
            gettext_noop(
                "Switch cages take finned-top plugs and adapter cages with riding heat sinks flat-top plugs; a medium whose plug top, or whose cage's top, the sources do not give is an assumed fit, to confirm before ordering."
            ),
            "NVIDIA LinkX OSFP and XDR pages (finned top for switch cages, flat top for ConnectX-7/8 and BlueField-3 cages)",
            ("fabric.findings.choice_findings",),
        ),
        _rule(
            FabricCode.MEDIA_DISCONTINUED,
            W,
            gettext_noop("Discontinued cable or optic chosen"),
            gettext_noop(
                "The planner chooses a discontinued or end-of-life cable or optic only when no active one reaches; the finding names the replacement the source gives."
            ),
            "NVIDIA LinkX 'Copper DAC and LACC Cables Overview': 1:2 and 1:4 splitters discontinued, use transceivers",
            ("fabric.findings.choice_findings",),
        ),
        _rule(
            FabricCode.GROWTH_RESERVE,
            INFO,
            gettext_noop("Fabric switches held in reserve for growth"),
            gettext_noop(
                "The fabric is sized to the nodes quoted, but a balanced fat tree (every leaf the same number of links to every spine) or whole three-tier pods can need more switches than the links fill; those switches are a reserve for growth, and their cost is stated."
            ),
            "NVIDIA DGX SuperPOD H100 RA-11333-001, Network Fabrics (balanced, full fat tree; full SU recommended); fabric.md section 0 rules 2 and 4",
            ("fabric.findings.growth_reserve_finding",),
        ),
        _rule(
            FabricCode.DISTANCE_ASSUMED,
            W,
            gettext_noop("Default run longer than the longest catalogue medium"),
            gettext_noop(
                "The design gives no distance for this link class and the default layout's run is longer than any catalogue medium that joins the ends; the plan assumes runs within the longest one. Confirm the distance on site."
            ),
            "configurator/fabric/README.md, Rack model (documented default distances)",
            ("fabric.plan._assumed",),
        ),
        _rule(
            FabricCode.DISTANCE_IMPLAUSIBLE,
            W,
            gettext_noop("Implausible distance"),
            gettext_noop(
                "A run inside one rack is a few metres at most (a 42U rack is about 2 m tall), and runs between the rows of one site are not kilometres long; such a distance is most likely a unit mix-up."
            ),
            "EIA-310 rack units (42U = 1.87 m); configurator/fabric/README.md, Rack model",
            ("fabric.findings.distance_findings",),
        ),
        _rule(
            FabricCode.DISTANCE_UNUSED,
            INFO,
            gettext_noop("Distance given for a link the fabric does not have"),
            gettext_noop(
                "The design gives a distance for a link class this fabric does not have (a leaf-to-spine run for a one-switch fabric, a spine-to-core run without core switches); it is not used."
            ),
            "configurator/fabric/README.md, Rack model",
            ("fabric.findings.distance_findings",),
        ),
    )
}


# Rack planner (configurator.racks; codes in configurator.racks.model.RackCode, named here as strings because the
# rules sit below the racks engine). Facts the catalogue lacks (switch power, PDU models, node inlets) are info:
# the plan states what it could not size; only a rack the hardware cannot work in is an error.
_RA_POWER = "configurator/racks/plan.py: air ~25-30 kW per rack (The Register 2023; NVIDIA DGX SuperPOD B200 RA-11334-001, B300 RA); liquid 8 x 4U HGX per rack (Supermicro, xAI Colossus)"
_RA_LAYOUT = "NVIDIA DGX SuperPOD reference architectures (one SU per row; networking switches in racks of their own); EIA-310 rack units"
_RACK_RULES = (
    (
        "RACK_POWER_DEFAULT",
        INFO,
        gettext_noop("Rack power limit assumed"),
        gettext_noop(
            "The design names no rack power, so the plan uses the default for its cooling type: about 30 kW per air-cooled rack and 80 kW per liquid-cooled rack."
        ),
        _RA_POWER,
    ),
    (
        "RACK_COOLING_DEFAULT",
        INFO,
        gettext_noop("Facility cooling assumed"),
        gettext_noop(
            "The design names no cooling, so the plan takes liquid cooling if any server is liquid-cooled, else air."
        ),
        _RA_POWER,
    ),
    (
        "RACK_NODE_TOO_TALL",
        E,
        gettext_noop("Server taller than the rack"),
        gettext_noop(
            "A server needs more units than a rack has left after its management switch, leaf switches and PDUs."
        ),
        _RA_LAYOUT,
    ),
    (
        "RACK_NODE_OVER_POWER",
        E,
        gettext_noop("One server draws more than a rack may"),
        gettext_noop("The estimated peak draw of one server is above the facility's power per rack."),
        _RA_POWER,
    ),
    (
        "RACK_NODE_POWER_UNKNOWN",
        INFO,
        gettext_noop("Server power unknown to the rack plan"),
        gettext_noop("Without a power estimate the racks are filled by units only, and their power is unknown."),
        "hardware.md §4 (power budget rule)",
    ),
    (
        "RACK_SWITCH_POWER_UNKNOWN",
        INFO,
        gettext_noop("Switch power unknown"),
        gettext_noop("The sources do not give the switch's power; rack and facility power leave it out."),
        "catalogue (switch watts not sourced)",
    ),
    (
        "RACK_SWITCH_HEIGHT_UNKNOWN",
        INFO,
        gettext_noop("Switch height unknown"),
        gettext_noop("The sources do not give the switch's height; the plan reserves one unit for it."),
        "catalogue (switch height not sourced)",
    ),
    (
        "RACK_AIR_DENSITY",
        W,
        gettext_noop("Air cooling cannot carry the rack"),
        gettext_noop(
            "Racks above about 30 kW need containment, rear-door heat exchangers or liquid cooling; room air alone does not carry them."
        ),
        _RA_POWER,
    ),
    (
        "RACK_LIQUID_NODE_IN_AIR",
        E,
        gettext_noop("Liquid-cooled server in an air-cooled facility"),
        gettext_noop(
            "A liquid-cooled server has no heat sinks to run on air; it needs a facility with liquid cooling."
        ),
        "Supermicro -LCC system pages (direct liquid cooling)",
    ),
    (
        "RACK_NO_PDU",
        INFO,
        gettext_noop("No PDU in the catalogue"),
        gettext_noop(
            "The catalogue holds no PDU with a sourced rating, so the racks' PDUs are stated as a need and not priced."
        ),
        "catalog/seed/README.md (no PDU seeded)",
    ),
    (
        "RACK_PDU_KNOWN_LOAD_ONLY",
        INFO,
        gettext_noop("PDUs sized for the known load only"),
        gettext_noop("Part of a rack's load is unknown, so its PDUs cover the known load only."),
        "configurator/racks/plan.py (PDU sizing)",
    ),
    (
        "RACK_PDU_OUTLETS_UNKNOWN",
        INFO,
        gettext_noop("PDU outlets not checked"),
        gettext_noop("The PDU's outlets or the servers' power inlets are unknown, so PDUs are sized by power only."),
        "configurator/racks/plan.py (PDU sizing)",
    ),
    (
        "RACK_NODE_INLET_UNKNOWN",
        INFO,
        gettext_noop("Server power inlets unknown"),
        gettext_noop("The server's power supply count is unknown, so its power cords are not counted."),
        "catalogue (PSU count not sourced)",
    ),
    (
        "RACK_NODE_HEIGHT_UNKNOWN",
        INFO,
        gettext_noop("Server height unknown"),
        gettext_noop("The sources do not give the server's height, so its nodes are left out of the rack plan."),
        "catalogue (server height not sourced)",
    ),
    (
        "RACK_NO_MANAGEMENT_SWITCH",
        INFO,
        gettext_noop("No management switch in the racks"),
        gettext_noop("No management switch was found, so none is placed and no unit is reserved for it."),
        "NVIDIA DGX SuperPOD H100 RA: out-of-band management network (SN2201)",
    ),
    (
        "RACK_MANAGEMENT_SWITCH_COUNT",
        INFO,
        gettext_noop("One management switch per rack"),
        gettext_noop(
            "The rack plan puts a management switch at the top of every rack; the fabric plan counts them by ports only."
        ),
        "NVIDIA DGX SuperPOD H100 RA: out-of-band management network (SN2201)",
    ),
)
_RACK_CHECKS = {"RACK_NODE_HEIGHT_UNKNOWN": "rackplan.build_rack_plan"}
REGISTRY.update(
    {
        code: Rule(code, severity, title, explanation, source, (_RACK_CHECKS.get(code, "racks.plan.plan_racks"),))
        for code, severity, title, explanation, source in _RACK_RULES
    }
)


# Issue #20: catalogue gaps are warnings, refusals only on evidence, power calibrated per chassis and cooling.
# One small entry per code, so each merges on its own.
REGISTRY[str(FabricCode.MEDIA_NOT_CATALOGUED)] = _rule(
    FabricCode.MEDIA_NOT_CATALOGUED,
    W,
    gettext_noop("The catalogue has no medium for these links yet"),
    gettext_noop(
        "The link is valid hardware, but the catalogue holds no cable or optic for this connector and speed (or the connector is not known from the sources). The bill of materials leaves these links out and is marked incomplete; the cabling is quoted separately."
    ),
    "catalogue coverage (LinkX media per connector and speed); NVIDIA XDR LinkX page (NV-XDR-LX)",
    ("fabric.findings.media_finding",),
)
REGISTRY[str(FabricCode.REACH_NOT_CATALOGUED)] = _rule(
    FabricCode.REACH_NOT_CATALOGUED,
    W,
    gettext_noop("No catalogued medium reaches this run yet"),
    gettext_noop(
        "The run is longer than every catalogued cable that joins these ports, and the catalogue holds no optics for them at all, so a longer medium (AOC or optics) is missing from the catalogue rather than impossible. The bill of materials leaves these links out and is marked incomplete; the longer medium is quoted separately."
    ),
    "catalogue coverage (LinkX media per connector and speed); NVIDIA cable management guide: AOCs 'from 3 meters to about 100 meters'",
    ("fabric.findings.media_finding",),
)
REGISTRY[str(Code.POWER_ESTIMATE_ABOVE_SUPPLIES)] = _rule(
    Code.POWER_ESTIMATE_ABOVE_SUPPLIES,
    W,
    gettext_noop("Estimate above the vendor's own supplies: confirm with the vendor"),
    gettext_noop(
        "The estimated peak exceeds the supplies that carry the load, but the server, its GPU and its supplies are the vendor's own shipping configuration, so an estimate does not refuse it: confirm the power budget with the vendor."
    ),
    "Supermicro product pages as catalogued (accepts, PSU options); hardware.md §4 budget rule",
    ("rules.power.power_findings",),
)
REGISTRY[str(Code.NODE_CPU_UNVERIFIED)] = _rule(
    Code.NODE_CPU_UNVERIFIED,
    W,
    gettext_noop("CPU family not confirmed for this server"),
    gettext_noop(
        "The CPU fits the board's socket, but the server's sources name other CPU families (sometimes only the CPU of one benchmarked unit): confirm BIOS support with the vendor."
    ),
    "server cpu_socket and cpu_families with their sources (seed README); ARK-DS / AMD-DS",
    ("rules.node_contents.cpu_not_accepted",),
)
REGISTRY[str(Code.NODE_CPU_SOCKET_EMPTY)] = _rule(
    Code.NODE_CPU_SOCKET_EMPTY,
    W,
    gettext_noop("A CPU socket is left empty"),
    gettext_noop(
        "The node boots with fewer CPUs than sockets, but loses the PCIe lanes and memory channels of the empty socket, and the slots wired to it."
    ),
    "hardware.md §1a (dual-socket GPU platforms); ARK-DS / AMD-DS (lanes and channels per socket)",
    ("rules.node_contents.cpu_count",),
)
REGISTRY[str(Code.NODE_CPU_TDP_UNKNOWN)] = _rule(
    Code.NODE_CPU_TDP_UNKNOWN,
    INFO,
    gettext_noop("CPU TDP unknown against the server's limit"),
    gettext_noop(
        "The server publishes a per-socket TDP limit, but the CPU's TDP is not sourced, so the limit cannot be checked."
    ),
    "server cpu_tdp_w (DIST-PM); CPU TDP (ARK-DS, AMD-DS) where sourced",
    ("rules.node_contents.cpu_tdp_unknown",),
)
REGISTRY[str(Code.MEMORY_DOWNCLOCKED)] = _rule(
    Code.MEMORY_DOWNCLOCKED,
    INFO,
    gettext_noop("DIMMs run below their rated speed"),
    gettext_noop(
        "DIMMs rated faster than the memory speed the CPU supports run at the CPU's speed; the faster DIMMs bring nothing."
    ),
    "ARK-DS, XEON6-CNEWS, AMD-DS (CPU memory speeds); RS-MICRON, SO-CWM (DIMM speeds)",
    ("rules.node_contents.memory_downclocked",),
)


def finding(code: Code | FabricCode | str, subject: str, **params: object) -> Finding:
    """A finding whose severity comes from the registry. ``params`` are plain values (numbers, part numbers,
    enum values, lists) from which the service edge renders the message and the fix."""
    return Finding(code=str(code), severity=REGISTRY[str(code)].severity, subject=subject, params=params)
