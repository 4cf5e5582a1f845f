"""Hardware facts the fabric rules rest on, in one sourced table (issue #12 item 7: facts are data, not branches).

Adding next year's GPU generation, a switch generation or a changed limit is an edit here (with its source), not a
change to a rule. Each value names its source; the source keys are those of the shared references
(reference/fabric.md, reference/hardware.md) and the distributor's articles (seeds/).
"""

from __future__ import annotations

from configurator.vocabulary import Protocol

# GpuSpec.generation prefixes for which NDR (400 Gb/s) is the advised fabric; HDR only as a budget option or to
# extend an existing HDR fabric. Source: distributor article 'NVLink en InfiniBand' (seeds/000).
NDR_ADVISED_GPU_GENERATIONS: tuple[str, ...] = ("hopper", "blackwell")
NDR_GBPS = 400  # InfiniBand NDR line rate per port (fabric.md §3)

# The embedded subnet manager of managed Quantum switches handles "fabrics up to 2048 nodes" (MLNX-OS user manual,
# Subnet Manager), counted as InfiniBand endpoints: HCA ports and switches.
EMBEDDED_SM_MAX_NODES = 2048

# InfiniBand generation and switch family per adapter speed, for fix texts (fabric.md §3 and §6).
IB_SWITCH_FOR_SPEED: dict[int, tuple[str, str]] = {
    200: ("HDR", "Quantum QM8700"),
    400: ("NDR", "Quantum-2 QM9700"),
    800: ("XDR", "Quantum-X800 Q3400"),
}

# The compute NICs built into a server (SYS-822GS-NB3RT: ConnectX-8 SuperNICs) speak InfiniBand or Ethernet per
# port (hardware.md, adapters: ConnectX-7/8 and BlueField-3 are VPI).
INTEGRATED_NIC_PROTOCOL = Protocol.VPI
