# ruff: noqa: E501  (message ids and sources are kept whole, one line each, as translators see them)
"""Rule registry entries of the node rules engine (engines.node): parts, PCIe placement, GPUs, NVLink,
network adapters, power, cooling and workload sizing."""

from __future__ import annotations

from .codes import Code
from .rule import INFO, E, Rule, W, gettext_noop, rule

RULES: tuple[Rule, ...] = (
    rule(
        Code.PART_UNKNOWN,
        E,
        gettext_noop("Unknown part number"),
        gettext_noop("The design names a part number the catalogue does not hold."),
        "catalogue",
        ("engines.node.context._unknown",),
    ),
    rule(
        Code.PART_WRONG_CATEGORY,
        E,
        gettext_noop("Part in the wrong place"),
        gettext_noop(
            "A part is used where another kind belongs, such as a switch given as a server or a server as a component."
        ),
        "contract design/v1",
        ("engines.node.context._misplaced",),
    ),
    rule(
        Code.PART_DISCONTINUED,
        W,
        gettext_noop("Discontinued or end-of-life part"),
        gettext_noop(
            "The design names a part its maker has discontinued or declared end-of-life; the finding names the replacement the source gives."
        ),
        "catalogue lifecycle with its source (NVIDIA LinkX 'Copper DAC and LACC Cables Overview' for the splitters)",
        ("engines.findings.lifecycle.retired_finding",),
    ),
    rule(
        Code.PCIE_SLOTS_UNKNOWN,
        W,
        gettext_noop("Slot list unknown"),
        gettext_noop("No sourced slot list exists for this server, so the placement of cards cannot be verified."),
        "hardware.md §5 (unknown slot lists)",
        ("engines.node.pcie.placement._slots_unknown",),
    ),
    rule(
        Code.PCIE_NO_FREE_SLOT,
        E,
        gettext_noop("More cards than slots"),
        gettext_noop(
            "Every add-in card needs a slot it physically fits: a full-height card does not fit a low-profile slot and an OCP card only fits an OCP bay."
        ),
        "PCI-SIG CEM and OCP 3.0 outlines; slot lists hardware.md §1b",
        ("engines.node.pcie.placement._no_free_slot",),
    ),
    rule(
        Code.PCIE_NO_FREE_SLOT_UNVERIFIED,
        W,
        gettext_noop("More cards than the known slots"),
        gettext_noop(
            "The server's slot list is sourced but not complete (other positions, such as AIOM/OCP bays or a side NIC position, may exist), so a card without a known slot is not proven impossible: confirm with Supermicro where it goes."
        ),
        "catalog/seed/README.md (completeness flags); hardware.md §1b",
        ("engines.node.pcie.placement._no_free_slot",),
    ),
    rule(
        Code.PCIE_CARD_DOES_NOT_FIT,
        E,
        gettext_noop("Card does not fit the chosen slot"),
        gettext_noop("An explicitly chosen slot has a form factor the card does not fit."),
        "PCI-SIG CEM and OCP 3.0 outlines",
        ("engines.node.pcie.placement._place_explicit",),
    ),
    rule(
        Code.PCIE_SLOT_USED_TWICE,
        E,
        gettext_noop("Slot used twice"),
        gettext_noop("Two cards are placed in the same slot."),
        "physical constraint",
        ("engines.node.pcie.placement._place_explicit",),
    ),
    rule(
        Code.PCIE_UNKNOWN_SLOT,
        E,
        gettext_noop("No such slot"),
        gettext_noop("An explicit placement names a slot the server does not have."),
        "slot lists hardware.md §1b",
        ("engines.node.pcie.placement._place_explicit",),
    ),
    rule(
        Code.PCIE_INTEGRATED_NICS,
        E,
        gettext_noop("Compute NICs are built in"),
        gettext_noop(
            "Servers with integrated compute NICs (SYS-822GS-NB3RT: 8x ConnectX-8, one per GPU) have no slots for compute adapters; their few slots are for storage or management."
        ),
        "[DIST-PM], [MLCT-822NB3]",
        ("engines.node.pcie.placement._integrated_nics",),
    ),
    rule(
        Code.PCIE_FORM_UNKNOWN,
        W,
        gettext_noop("Card or slot size unknown"),
        gettext_noop("The form factor of a card or slot is not sourced, so the fit cannot be verified."),
        "hardware.md §5",
        ("engines.node.pcie.slots.form_unknown",),
    ),
    rule(
        Code.PCIE_LINK_BANDWIDTH,
        W,
        gettext_noop("PCIe link slower than the card"),
        gettext_noop(
            "A card in a slot of a lower PCIe generation or fewer lanes than it needs cannot reach its line rate. One NDR 400 Gb/s port needs about 50 GB/s per direction; PCIe 4.0 x16 gives about 31.5 GB/s."
        ),
        "[CX7-SPEC]; fabric.md §5 (PCIe arithmetic)",
        ("engines.node.pcie.bandwidth._link_shortfall",),
    ),
    rule(
        Code.PCIE_GEN6_IN_GEN5,
        W,
        gettext_noop("PCIe Gen6 card in a Gen5 slot"),
        gettext_noop(
            "An 800 Gb/s ConnectX-8 needs about 100 GB/s per direction; PCIe 5.0 x16 gives about 63 GB/s. Full speed on Gen5 hosts needs Socket Direct (2x Gen5 x16)."
        ),
        "[CX8-ID], [DOCA-CX8]; fabric.md §5",
        ("engines.node.pcie.bandwidth._link_shortfall",),
    ),
    rule(
        Code.PCIE_LINK_UNKNOWN,
        INFO,
        gettext_noop("PCIe link unknown"),
        gettext_noop(
            "The PCIe generation or lane count of a slot or card is not sourced; the link bandwidth is not checked."
        ),
        "hardware.md §5",
        ("engines.node.pcie.bandwidth._link_unknown",),
    ),
    rule(
        Code.PCIE_SWITCH_UPLINK,
        W,
        gettext_noop("PCIe switch uplink oversubscribed"),
        gettext_noop("The cards behind one PCIe switch need more bandwidth than its uplink to the CPU provides."),
        "PCIe arithmetic (fabric.md §5)",
        ("engines.node.pcie.bandwidth.switch_uplinks",),
    ),
    rule(
        Code.PCIE_NIC_NOT_GPU_LOCAL,
        W,
        gettext_noop("Compute NIC away from its GPU"),
        gettext_noop(
            "GPUDirect RDMA stays local only when a compute NIC sits behind the same PCIe switch as its GPU; HGX systems take one NIC per GPU, each on its own rail."
        ),
        "[DIST-PM] (8 LP slots for 1:1 GPU-to-NIC); fabric.md §0.1 (rail-optimized)",
        ("engines.node.pcie.locality.not_gpu_local",),
    ),
    rule(
        Code.GPU_NOT_ACCEPTED,
        E,
        gettext_noop("GPU not supported by this server"),
        gettext_noop(
            "The server does not take this GPU: its GPU list is definitive (an HGX server, whose sources name the baseboard it takes) and does not name it, or an HGX baseboard is put in a PCIe GPU server, which has slots for GPU cards and no baseboard socket."
        ),
        "hardware.md §1a (GPU column)",
        (
            "engines.node.gpu.not_accepted",
            "engines.node.gpu._board_in_pcie_server",
        ),
    ),
    rule(
        Code.GPU_COMPATIBILITY_UNKNOWN,
        INFO,
        gettext_noop("GPU compatibility unknown"),
        gettext_noop("No sourced list of GPUs exists for this server; check the datasheet."),
        "hardware.md §5",
        ("engines.node.gpu.not_accepted",),
    ),
    rule(
        Code.GPU_COMPATIBILITY_UNVERIFIED,
        W,
        gettext_noop("GPU not on the server's partial GPU list"),
        gettext_noop(
            "For PCIe GPU servers the sources name only some of the GPUs the server takes (SYS-421GE-TNRT3: H100, L40S, A100, RTX 6000 Ada). A GPU the list does not name may still fit, but is unverified: confirm it with Supermicro before quoting."
        ),
        "hardware.md §1a (GPU column: partial lists for PCIe GPU servers)",
        ("engines.node.gpu.not_accepted",),
    ),
    rule(
        Code.GPU_MIXED_MODELS,
        E,
        gettext_noop("Mixed GPU models in one node"),
        gettext_noop("A node takes one GPU model; NVLink and the NVSwitch domain join identical GPUs only."),
        "[NV-AIE-RA]; NCS seeds",
        ("engines.node.gpu.mixed_models",),
    ),
    rule(
        Code.GPU_TOO_MANY,
        E,
        gettext_noop("Too many GPUs for this server"),
        gettext_noop("An HGX server takes one baseboard; a PCIe GPU server takes up to its maximum number of cards."),
        "hardware.md §1a",
        ("engines.node.gpu.too_many",),
    ),
    rule(
        Code.GPU_NONE,
        W,
        gettext_noop("GPU server without GPUs"),
        gettext_noop("The node group uses a GPU server but lists no GPU board or card."),
        "hardware.md §1a",
        ("engines.node.gpu.no_gpu",),
    ),
    rule(
        Code.NVLINK_BRIDGE_UNSUPPORTED,
        E,
        gettext_noop("NVLink bridge on a GPU without NVLink bridges"),
        gettext_noop(
            "L40S and RTX PRO 6000 have no NVLink; HGX boards connect their GPUs through NVSwitch, not bridges."
        ),
        "[NV-AIE-RA], [NV-DS]",
        ("engines.node.gpu.bridges",),
    ),
    rule(
        Code.NVLINK_BRIDGE_SIZE,
        E,
        gettext_noop("NVLink bridge size not supported"),
        gettext_noop("H100 NVL bridges pairs only; H200 NVL bridges pairs or groups of four."),
        "[NV-AIE-RA], [H100NVL-S]",
        ("engines.node.gpu.bridges",),
    ),
    rule(
        Code.NVLINK_BRIDGE_TOO_MANY,
        E,
        gettext_noop("More NVLink bridges than GPUs"),
        gettext_noop(
            "Each bridge set joins a fixed number of GPUs; the sets together cannot join more GPUs than the node has."
        ),
        "[NV-AIE-RA]",
        ("engines.node.gpu.bridges",),
    ),
    rule(
        Code.NVLINK_BRIDGE_PARTIAL,
        INFO,
        gettext_noop("Some GPUs unbridged"),
        gettext_noop("The bridge sets join fewer GPUs than the node has; the others talk over PCIe only."),
        "[NV-AIE-RA]",
        ("engines.node.gpu.bridges",),
    ),
    rule(
        Code.NVLINK_BRIDGE_CROSS_SOCKET,
        W,
        gettext_noop("Bridged GPUs under different CPUs"),
        gettext_noop(
            "NVIDIA advises bridging cards under the same CPU socket; across sockets is acceptable but not recommended."
        ),
        "[NV-AIE-RA]",
        ("engines.node.gpu.bridge_sockets",),
    ),
    rule(
        Code.NVLINK_NO_NVSWITCH,
        W,
        gettext_noop("Eight or more GPUs without NVSwitch"),
        gettext_noop("Without NVSwitch only bridged pairs (or fours) talk at NVLink speed; the rest goes over PCIe."),
        'NCS seeds ("zonder NVSwitch kunnen GPU\'s alleen in paren direct communiceren")',
        ("engines.node.gpu.nvswitch",),
    ),
    rule(
        Code.NVLINK_NVSWITCH_UNKNOWN,
        INFO,
        gettext_noop("NVSwitch count unknown"),
        gettext_noop("The number of NVSwitch chips on this board is not sourced (HGX B300)."),
        "hardware.md §2, §5",
        ("engines.node.gpu.nvswitch",),
    ),
    rule(
        Code.NIC_FEWER_THAN_GPUS,
        W,
        gettext_noop("Fewer compute NICs than GPUs"),
        gettext_noop(
            "Multi-node training uses one compute NIC per GPU; with fewer, GPUs share NICs and inter-node bandwidth per GPU drops."
        ),
        "fabric.md §0.1 (one NIC per GPU); [STH-821]",
        ("engines.node.workload._fewer_nics",),
    ),
    rule(
        Code.NIC_NOT_NEEDED,
        INFO,
        gettext_noop("Compute NICs without a fabric"),
        gettext_noop("A single node without a compute fabric needs no compute NICs; NVLink carries the GPU traffic."),
        'NCS seeds ("voor single-node setups ... is InfiniBand niet nodig")',
        ("engines.node.workload._not_needed",),
    ),
    rule(
        Code.NIC_MISSING,
        E,
        gettext_noop("GPU nodes without compute NICs"),
        gettext_noop(
            "The design has a compute fabric and compute NICs in some GPU nodes, but one GPU node group has none."
        ),
        "fabric.md §0.1",
        ("engines.node.workload.nic_findings",),
    ),
    rule(
        Code.POWER_OVER_CAPACITY,
        E,
        gettext_noop("Peak power above PSU capacity"),
        gettext_noop("Estimated peak draw exceeds the capacity of the N supplies of the N+M configuration."),
        "hardware.md §4 (budget rule); [STH-ASR]",
        ("engines.node.power.power_findings",),
    ),
    rule(
        Code.POWER_NEAR_CAPACITY,
        W,
        gettext_noop("Peak power above 80% of PSU capacity"),
        gettext_noop("Estimated peak draw is above about 80% of the N supplies' capacity; there is little headroom."),
        "hardware.md §4 (budget rule)",
        ("engines.node.power.power_findings",),
    ),
    rule(
        Code.POWER_CAPACITY_UNKNOWN,
        W,
        gettext_noop("PSU capacity unknown"),
        gettext_noop(
            "The PSU count, wattage or redundancy of this server is not sourced, so the budget cannot be checked."
        ),
        "hardware.md §5",
        ("engines.node.power.power_findings",),
    ),
    rule(
        Code.POWER_ESTIMATE_INCOMPLETE,
        INFO,
        gettext_noop("Power estimate incomplete"),
        gettext_noop("A GPU's TDP is unknown, so it is left out of the estimate, which is therefore too low."),
        "hardware.md §2",
        ("engines.node.power.power_findings",),
    ),
    rule(
        Code.POWER_ESTIMATE_BASIS,
        INFO,
        gettext_noop("Basis of the power estimate"),
        gettext_noop(
            "The node's peak power is the sum of its parts (GPU TDP, CPUs, memory and drives, adapters, optics, fans) or, for an HGX baseboard, at least the published maximum of NVIDIA's own system on that board (DGX H100/H200 10.2 kW, DGX B200 about 14.3 kW), which includes the baseboard and NVSwitch overhead, fans at full speed and PSU losses."
        ),
        "DGX-H100-PWR, DGX-B200-PWR, NV-DS, DGX-A100-PWR (catalog/seed/README.md, power calibration basis)",
        ("engines.node.power.power_findings",),
    ),
    rule(
        Code.POWER_REDUNDANCY_N_PLUS_N,
        INFO,
        gettext_noop("PSU redundancy not sourced; N+N holds"),
        gettext_noop(
            "The PSU count and wattage are known but the redundancy mode is not; the estimated peak fits half the supplies, so it holds with N+N redundancy and without."
        ),
        "hardware.md §4 (budget rule)",
        ("engines.node.power.power_findings",),
    ),
    rule(
        Code.POWER_REDUNDANCY_N_PLUS_0,
        W,
        gettext_noop("PSU redundancy not sourced; only N+0 holds"),
        gettext_noop(
            "The PSU count and wattage are known but the redundancy mode is not; the estimated peak needs more than half the supplies, so it holds only without full redundancy (N+0 or a partial N+M)."
        ),
        "hardware.md §4 (budget rule)",
        ("engines.node.power.power_findings",),
    ),
    rule(
        Code.COOLING_LIQUID,
        INFO,
        gettext_noop("Liquid cooling needs a CDU or facility water"),
        gettext_noop(
            "Liquid-cooled servers need a coolant distribution unit (CDU) or facility water in the data centre."
        ),
        "hardware.md §1a (cooling column)",
        ("engines.node.power.cooling_findings",),
    ),
    rule(
        Code.WORKLOAD_NOT_SIZED,
        INFO,
        gettext_noop("Workload not sized"),
        gettext_noop("The design has no GPU with known memory, so the workload cannot be sized."),
        "sizing.py",
        ("engines.node.workload.workload_findings",),
    ),
    rule(
        Code.WORKLOAD_TENSOR_PARALLEL,
        INFO,
        gettext_noop("Model does not fit one GPU"),
        gettext_noop(
            "The model needs more memory than one GPU has. The parallelism plan splits it: tensor parallelism inside one NVLink domain (8 GPUs on an HGX board, 72 in an NVL72 rack, 2 or 4 bridged PCIe cards, none without NVLink), pipeline stages across domains, data parallelism (with sharded training states where memory needs it) for the rest. The degrees multiply to the GPUs used; the smallest tensor degree that fits is taken, then the fewest pipeline stages."
        ),
        "NCS seeds; sizing.py (16-20 bytes/param training, 2 bytes + KV margin inference); training.py (Megatron-LM, "
        "Narayanan et al. 2021: tensor parallelism within a server, pipeline across servers; ZeRO, Rajbhandari et al. "
        "2020)",
        ("engines.node.workload.workload_findings",),
    ),
    rule(
        Code.WORKLOAD_SPANS_NODES,
        INFO,
        gettext_noop("Model spans nodes"),
        gettext_noop("The model needs more memory than one node has; the job spans nodes over the compute fabric."),
        "NCS seeds; sizing.py",
        ("engines.node.workload.workload_findings",),
    ),
    rule(
        Code.WORKLOAD_NOT_ENOUGH_GPUS,
        E,
        gettext_noop("Not enough GPU memory for the model"),
        gettext_noop(
            "All GPUs of the design together hold less memory than the model's weights alone (inference, LoRA) or its fully sharded training states (16 bytes per parameter): it cannot run on them."
        ),
        "sizing.py (ZeRO, Rajbhandari et al. 2020, 16 bytes per parameter)",
        ("engines.node.workload.workload_findings",),
    ),
    rule(
        Code.WORKLOAD_MEMORY_TIGHT,
        W,
        gettext_noop("GPU memory below the advised size"),
        gettext_noop(
            "The workload can run (its weights, or its fully sharded training states, fit the GPUs' memory), but less memory than advised is left for activations or the KV cache: it needs full sharding with activation checkpointing, or a shorter context or fewer concurrent sequences."
        ),
        "sizing.py (ZeRO, Rajbhandari et al. 2020; QLoRA, Dettmers et al. 2023; Llama 3.1 model cards)",
        ("engines.node.workload.workload_findings",),
    ),
    rule(
        Code.WORKLOAD_NEEDS_FABRIC,
        E,
        gettext_noop("Multi-node job without a compute fabric"),
        gettext_noop("A model that spans nodes needs a compute fabric (InfiniBand or Spectrum-X) between them."),
        'NCS seeds ("InfiniBand is de aangewezen technologie zodra je workloads over meerdere nodes verdeelt")',
        ("engines.node.workload.workload_findings",),
    ),
    rule(
        Code.WORKLOAD_NVLINK_BANDWIDTH,
        W,
        gettext_noop("NVLink bandwidth low for 70B-class training"),
        gettext_noop(
            "70B-class training splits the model over the GPUs of an NVLink domain; H100-class NVLink (900 GB/s) or better is advised over A100 (600 GB/s)."
        ),
        'NCS seeds ("H100-GPU\'s en 900 GB/s NVLink-bandbreedte is een solide minimumvereiste")',
        ("engines.node.workload._nvlink_bandwidth",),
    ),
    rule(
        Code.WORKLOAD_ACTIVATION_CHECKPOINTING,
        W,
        gettext_noop("Training fits only with activation checkpointing"),
        gettext_noop(
            "Besides the training states, every GPU holds the activations of the layers in flight: 34 x sequence x hidden bytes per layer, divided by the tensor degree (with sequence parallelism and fused attention), for a sequence of 8,192 tokens and one sequence per micro-batch. Where states and activations together exceed the usable memory, the run fits only with full activation checkpointing, which keeps each layer's input and recomputes the rest: the forward pass runs twice, about a third more compute, which the time estimate counts."
        ),
        "training.py (Korthikanti et al. 2022, Reducing Activation Recomputation in Large Transformer Models; "
        "ZeRO, Rajbhandari et al. 2020)",
        ("engines.node.workload.workload_findings",),
    ),
    rule(
        Code.WORKLOAD_TRAINING_TIME,
        INFO,
        gettext_noop("Estimated time to train"),
        gettext_noop(
            "Time to train = tokens x model FLOPs per token / (GPUs x peak dense throughput x model-FLOPs utilisation). FLOPs per token: 6 per parameter, plus the attention term 12 x layers x hidden x sequence (LoRA: 4 per parameter and two thirds of the attention term), a third more with activation checkpointing. Peak: NVIDIA's dense tensor-core figure per GPU from the catalogue, FP8 where the workload's precision is FP8 and the GPU has an FP8 peak, else BF16 (the A100 has no FP8). Utilisation in BF16: 35 %, uncertain between 30 and 43 %: Meta measured 38 to 43 % BF16 MFU pre-training Llama 3 405B on 8,192 to 16,384 H100 GPUs, and its whole published runs come to 30 % (70B: 7.0 M H100 GPU-hours) and 37 % (405B: 30.84 M GPU-hours) on about 15.6 T tokens; on the A100 45 % (40 to 52 %), as LLaMA, BLOOM and OPT measured. In FP8: 40 % of the FP8 peak (32 to 50 %), as NVIDIA's Llama 3 FP8 benchmarks on H100, B200, GB200 and GB300 and MLPerf Training runs on H200 and B300 measured. The estimate gives the range over that band; it lands within x0.67 to x1.5 of a published run on every GPU family it sells. A run under two days is said in hours."
        ),
        "training.py (Kaplan et al. 2020; Chowdhery et al. 2022, PaLM, Appendix B; Dubey et al. 2024, The Llama 3 "
        "Herd of Models, Table 4; Llama 3.1 model card; Touvron et al. 2023, LLaMA; NVIDIA Megatron-Bridge performance "
        "summary; MLPerf Training v6.0; peaks: NV-A100-PAGE, GK-H100, GK-B200, GK-B300 in catalog/seed)",
        ("engines.node.workload._time",),
    ),
    rule(
        Code.WORKLOAD_TIME_NOT_ESTIMATED,
        INFO,
        gettext_noop("Time to train not estimated"),
        gettext_noop(
            "The time to train needs the tokens the run trains on (workload.training_tokens_billion) and a sourced peak dense throughput of the design's GPU; without either it is not estimated, and a target in days cannot be checked."
        ),
        "training.py",
        ("engines.node.workload._time",),
    ),
    rule(
        Code.WORKLOAD_DEADLINE_MISSED,
        W,
        gettext_noop("Training takes longer than the target"),
        gettext_noop(
            "The estimated time to train exceeds workload.target_days; the finding names the GPUs and whole nodes that would meet it at the same estimate (re-planned at that size, so checkpointing drops out where the memory allows)."
        ),
        "training.py (the time estimate's sources)",
        ("engines.node.workload._time",),
    ),
    rule(
        Code.WORKLOAD_REPLICAS,
        INFO,
        gettext_noop("Inference served by replicas"),
        gettext_noop(
            "An inference model that fits one NVLink domain is served by replicas of that domain, which exchange nothing. With a concurrency, the replicas are sized from a measured serving benchmark where the design matches one exactly: NVIDIA's NIM benchmark of Llama 3.3 70B in FP8 on replicas of 2 H100 80 GB GPUs (tensor parallel 2), requests of 5,000 input and 500 output tokens. One replica serves the last measured concurrency whose time to first token stays under a second (50 requests, 0.83 s; at 100 it is 8 s, and the throughput hardly grows); the concurrency asked, divided by it and rounded up, gives the replicas and their GPUs, and the measured tokens per second at their load (linear between measured levels) gives the throughput, stated as an estimate. It applies only to that GPU, precision and model size (within 5 %) and to contexts no longer than 5,500 tokens. For other GPUs, precisions, model sizes or longer contexts no measured figure exists; the replicas and tokens per second are then derived by rule and said to be: decode bound by memory bandwidth, prefill by compute, the batch what the KV cache holds, its three efficiencies fitted on TensorRT-LLM's measured H100 FP8 rows and checked on the rows held back (H200, and the NIM point itself) at a median error of 16 %. A GPU whose memory bandwidth or peak is not sourced gets no estimate: the throughput stays unknown."
        ),
        "serving.py (NV-NIM-PERF in catalog/seed: NVIDIA NIM LLM benchmarking, Performance, Llama-3.3-70b-instruct, "
        "NIM 1.8.0, 2 x H100 80G, fp8 TP2; TRTLLM-PERF: TensorRT-LLM Performance Overview); training.py "
        "(plan_inference); bench/serving_error.py",
        ("engines.node.workload._throughput",),
    ),
    rule(
        Code.WORKLOAD_REPLICAS_SHORT,
        W,
        gettext_noop("Too few GPUs for the concurrency"),
        gettext_noop(
            "Where the replica estimate applies (see Inference served by replicas), the design's GPUs hold fewer replicas than the concurrency needs with a time to first token under a second: requests queue and wait seconds for their first token. The finding names the GPUs and whole nodes that would serve the concurrency."
        ),
        "serving.py (NV-NIM-PERF in catalog/seed)",
        ("engines.node.workload._throughput",),
    ),
    rule(
        Code.POWER_ESTIMATE_ABOVE_SUPPLIES,
        W,
        gettext_noop("Estimate above the vendor's own supplies: confirm with the vendor"),
        gettext_noop(
            "The estimated peak exceeds the supplies that carry the load, but the server, its GPU and its supplies are the vendor's own shipping configuration, so an estimate does not refuse it: confirm the power budget with the vendor."
        ),
        "Supermicro product pages as catalogued (accepts, PSU options); hardware.md §4 budget rule",
        ("engines.node.power.power_findings",),
    ),
)
