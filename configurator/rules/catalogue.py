"""The rule catalogue: every stable finding code of the node rules engine, with what it means.

Users read this (the API and the docs list it), so each rule carries a title and an explanation in English and
Dutch, its severity and its source. Source keys such as [CX7-SPEC] are those of the shared hardware reference
(reference/hardware.md §6); "NCS seeds" are the distributor's own articles.

The fabric planner keeps its own codes in its own module; ``all_rules(fabric_rules)`` merges them into one
catalogue for the docs and the API.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from .findings import Finding, Severity, Text

E, W, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO


class Code(StrEnum):
    # parts
    PART_UNKNOWN = "PART_UNKNOWN"
    PART_WRONG_CATEGORY = "PART_WRONG_CATEGORY"
    # PCIe placement
    PCIE_SLOTS_UNKNOWN = "PCIE_SLOTS_UNKNOWN"
    PCIE_NO_FREE_SLOT = "PCIE_NO_FREE_SLOT"
    PCIE_CARD_DOES_NOT_FIT = "PCIE_CARD_DOES_NOT_FIT"
    PCIE_SLOT_USED_TWICE = "PCIE_SLOT_USED_TWICE"
    PCIE_UNKNOWN_SLOT = "PCIE_UNKNOWN_SLOT"
    PCIE_INTEGRATED_NICS = "PCIE_INTEGRATED_NICS"
    PCIE_FORM_UNKNOWN = "PCIE_FORM_UNKNOWN"
    PCIE_LINK_BANDWIDTH = "PCIE_LINK_BANDWIDTH"
    PCIE_GEN6_IN_GEN5 = "PCIE_GEN6_IN_GEN5"
    PCIE_LINK_UNKNOWN = "PCIE_LINK_UNKNOWN"
    PCIE_SWITCH_UPLINK = "PCIE_SWITCH_UPLINK"
    PCIE_NIC_NOT_GPU_LOCAL = "PCIE_NIC_NOT_GPU_LOCAL"
    # GPUs and NVLink
    GPU_NOT_ACCEPTED = "GPU_NOT_ACCEPTED"
    GPU_COMPATIBILITY_UNKNOWN = "GPU_COMPATIBILITY_UNKNOWN"
    GPU_COMPATIBILITY_UNVERIFIED = "GPU_COMPATIBILITY_UNVERIFIED"
    GPU_MIXED_MODELS = "GPU_MIXED_MODELS"
    GPU_TOO_MANY = "GPU_TOO_MANY"
    GPU_NONE = "GPU_NONE"
    NVLINK_BRIDGE_UNSUPPORTED = "NVLINK_BRIDGE_UNSUPPORTED"
    NVLINK_BRIDGE_SIZE = "NVLINK_BRIDGE_SIZE"
    NVLINK_BRIDGE_TOO_MANY = "NVLINK_BRIDGE_TOO_MANY"
    NVLINK_BRIDGE_PARTIAL = "NVLINK_BRIDGE_PARTIAL"
    NVLINK_BRIDGE_CROSS_SOCKET = "NVLINK_BRIDGE_CROSS_SOCKET"
    NVLINK_NO_NVSWITCH = "NVLINK_NO_NVSWITCH"
    NVLINK_NVSWITCH_UNKNOWN = "NVLINK_NVSWITCH_UNKNOWN"
    # GPU-NIC ratio
    NIC_FEWER_THAN_GPUS = "NIC_FEWER_THAN_GPUS"
    NIC_NOT_NEEDED = "NIC_NOT_NEEDED"
    NIC_MISSING = "NIC_MISSING"
    # power and cooling
    POWER_OVER_CAPACITY = "POWER_OVER_CAPACITY"
    POWER_NEAR_CAPACITY = "POWER_NEAR_CAPACITY"
    POWER_CAPACITY_UNKNOWN = "POWER_CAPACITY_UNKNOWN"
    POWER_ESTIMATE_INCOMPLETE = "POWER_ESTIMATE_INCOMPLETE"
    COOLING_LIQUID = "COOLING_LIQUID"
    # workload sizing
    WORKLOAD_NOT_SIZED = "WORKLOAD_NOT_SIZED"
    WORKLOAD_TENSOR_PARALLEL = "WORKLOAD_TENSOR_PARALLEL"
    WORKLOAD_SPANS_NODES = "WORKLOAD_SPANS_NODES"
    WORKLOAD_NOT_ENOUGH_GPUS = "WORKLOAD_NOT_ENOUGH_GPUS"
    WORKLOAD_NEEDS_FABRIC = "WORKLOAD_NEEDS_FABRIC"
    WORKLOAD_NVLINK_BANDWIDTH = "WORKLOAD_NVLINK_BANDWIDTH"


@dataclass(frozen=True, kw_only=True)
class RuleInfo:
    """One catalogue entry: what a finding code means, how serious it is, and where the rule comes from."""

    severity: Severity
    title: Text
    explanation: Text
    source: str

    def to_dict(self, code: str, language: str = "en") -> dict:
        return {
            "code": str(code),
            "severity": str(self.severity),
            "title": self.title.get(language),
            "explanation": self.explanation.get(language),
            "source": self.source,
        }


def _r(severity: Severity, title_en: str, title_nl: str, expl_en: str, expl_nl: str, source: str) -> RuleInfo:
    return RuleInfo(
        severity=severity, title=Text(title_en, title_nl), explanation=Text(expl_en, expl_nl), source=source
    )


RULES: dict[Code, RuleInfo] = {
    Code.PART_UNKNOWN: _r(
        E,
        "Unknown part number",
        "Onbekend artikelnummer",
        "The design names a part number the catalogue does not hold.",
        "Het ontwerp noemt een artikelnummer dat niet in de catalogus staat.",
        "catalogue",
    ),
    Code.PART_WRONG_CATEGORY: _r(
        E,
        "Part in the wrong place",
        "Onderdeel op de verkeerde plek",
        "A part is used where another kind belongs, such as a switch given as a server or a server as a component.",
        "Een onderdeel staat op een plek waar iets anders hoort, zoals een switch als server of een server als "
        "component.",
        "contract design/v1",
    ),
    Code.PCIE_SLOTS_UNKNOWN: _r(
        W,
        "Slot list unknown",
        "Slotindeling onbekend",
        "No sourced slot list exists for this server, so the placement of cards cannot be verified.",
        "Voor deze server is geen gedocumenteerde slotindeling bekend; de plaatsing van kaarten is niet te "
        "controleren.",
        "hardware.md §5 (unknown slot lists)",
    ),
    Code.PCIE_NO_FREE_SLOT: _r(
        E,
        "More cards than slots",
        "Meer kaarten dan slots",
        "Every add-in card needs a slot it physically fits: a full-height card does not fit a low-profile slot and "
        "an OCP card only fits an OCP bay.",
        "Elke insteekkaart heeft een slot nodig waar hij fysiek in past: een full-height kaart past niet in een "
        "low-profile slot en een OCP-kaart alleen in een OCP-bay.",
        "PCI-SIG CEM and OCP 3.0 outlines; slot lists hardware.md §1b",
    ),
    Code.PCIE_CARD_DOES_NOT_FIT: _r(
        E,
        "Card does not fit the chosen slot",
        "Kaart past niet in het gekozen slot",
        "An explicitly chosen slot has a form factor the card does not fit.",
        "Een expliciet gekozen slot heeft een vormfactor waar de kaart niet in past.",
        "PCI-SIG CEM and OCP 3.0 outlines",
    ),
    Code.PCIE_SLOT_USED_TWICE: _r(
        E,
        "Slot used twice",
        "Slot dubbel gebruikt",
        "Two cards are placed in the same slot.",
        "Twee kaarten staan in hetzelfde slot.",
        "physical constraint",
    ),
    Code.PCIE_UNKNOWN_SLOT: _r(
        E,
        "No such slot",
        "Slot bestaat niet",
        "An explicit placement names a slot the server does not have.",
        "Een expliciete plaatsing noemt een slot dat de server niet heeft.",
        "slot lists hardware.md §1b",
    ),
    Code.PCIE_INTEGRATED_NICS: _r(
        E,
        "Compute NICs are built in",
        "Compute-NIC's zijn ingebouwd",
        "Servers with integrated compute NICs (SYS-822GS-NB3RT: 8x ConnectX-8, one per GPU) have no slots for "
        "compute adapters; their few slots are for storage or management.",
        "Servers met ingebouwde compute-NIC's (SYS-822GS-NB3RT: 8x ConnectX-8, één per GPU) hebben geen slots "
        "voor compute-adapters; de paar slots zijn voor storage of beheer.",
        "[DIST-PM], [MLCT-822NB3]",
    ),
    Code.PCIE_FORM_UNKNOWN: _r(
        W,
        "Card or slot size unknown",
        "Kaart- of slotformaat onbekend",
        "The form factor of a card or slot is not sourced, so the fit cannot be verified.",
        "De vormfactor van een kaart of slot is niet gedocumenteerd; of hij past, is niet te controleren.",
        "hardware.md §5",
    ),
    Code.PCIE_LINK_BANDWIDTH: _r(
        W,
        "PCIe link slower than the card",
        "PCIe-link trager dan de kaart",
        "A card in a slot of a lower PCIe generation or fewer lanes than it needs cannot reach its line rate. "
        "One NDR 400 Gb/s port needs about 50 GB/s per direction; PCIe 4.0 x16 gives about 31.5 GB/s.",
        "Een kaart in een slot met een lagere PCIe-generatie of minder lanes dan nodig haalt zijn lijnsnelheid "
        "niet. Eén NDR-poort van 400 Gb/s vraagt zo'n 50 GB/s per richting; PCIe 4.0 x16 levert ongeveer 31,5 GB/s.",
        "[CX7-SPEC]; fabric.md §5 (PCIe arithmetic)",
    ),
    Code.PCIE_GEN6_IN_GEN5: _r(
        W,
        "PCIe Gen6 card in a Gen5 slot",
        "PCIe Gen6-kaart in een Gen5-slot",
        "An 800 Gb/s ConnectX-8 needs about 100 GB/s per direction; PCIe 5.0 x16 gives about 63 GB/s. Full speed "
        "on Gen5 hosts needs Socket Direct (2x Gen5 x16).",
        "Een ConnectX-8 van 800 Gb/s vraagt zo'n 100 GB/s per richting; PCIe 5.0 x16 levert ongeveer 63 GB/s. "
        "Volle snelheid op Gen5-hosts vraagt Socket Direct (2x Gen5 x16).",
        "[CX8-ID], [DOCA-CX8]; fabric.md §5",
    ),
    Code.PCIE_LINK_UNKNOWN: _r(
        INFO,
        "PCIe link unknown",
        "PCIe-link onbekend",
        "The PCIe generation or lane count of a slot or card is not sourced; the link bandwidth is not checked.",
        "De PCIe-generatie of het aantal lanes van een slot of kaart is niet gedocumenteerd; de bandbreedte is "
        "niet gecontroleerd.",
        "hardware.md §5",
    ),
    Code.PCIE_SWITCH_UPLINK: _r(
        W,
        "PCIe switch uplink oversubscribed",
        "PCIe-switch-uplink overboekt",
        "The cards behind one PCIe switch need more bandwidth than its uplink to the CPU provides.",
        "De kaarten achter één PCIe-switch vragen meer bandbreedte dan de uplink naar de CPU levert.",
        "PCIe arithmetic (fabric.md §5)",
    ),
    Code.PCIE_NIC_NOT_GPU_LOCAL: _r(
        W,
        "Compute NIC away from its GPU",
        "Compute-NIC niet bij zijn GPU",
        "GPUDirect RDMA stays local only when a compute NIC sits behind the same PCIe switch as its GPU; HGX "
        "systems take one NIC per GPU, each on its own rail.",
        "GPUDirect RDMA blijft alleen lokaal als een compute-NIC achter dezelfde PCIe-switch zit als zijn GPU; "
        "HGX-systemen krijgen één NIC per GPU, elk op een eigen rail.",
        "[DIST-PM] (8 LP slots for 1:1 GPU-to-NIC); fabric.md §0.1 (rail-optimized)",
    ),
    Code.GPU_NOT_ACCEPTED: _r(
        E,
        "GPU not supported by this server",
        "GPU niet ondersteund door deze server",
        "The server does not take this GPU: its GPU list is definitive (an HGX server, whose sources name the "
        "baseboard it takes) and does not name it, or an HGX baseboard is put in a PCIe GPU server, which has "
        "slots for GPU cards and no baseboard socket.",
        "De server ondersteunt deze GPU niet: de GPU-lijst is definitief (een HGX-server, waarvan de bronnen het "
        "baseboard noemen) en noemt hem niet, of een HGX-baseboard staat in een PCIe-GPU-server, die slots voor "
        "GPU-kaarten heeft en geen baseboard-aansluiting.",
        "hardware.md §1a (GPU column)",
    ),
    Code.GPU_COMPATIBILITY_UNKNOWN: _r(
        INFO,
        "GPU compatibility unknown",
        "GPU-compatibiliteit onbekend",
        "No sourced list of GPUs exists for this server; check the datasheet.",
        "Voor deze server is geen gedocumenteerde lijst van GPU's bekend; controleer de datasheet.",
        "hardware.md §5",
    ),
    Code.GPU_COMPATIBILITY_UNVERIFIED: _r(
        W,
        "GPU not on the server's partial GPU list",
        "GPU niet op de onvolledige GPU-lijst van de server",
        "For PCIe GPU servers the sources name only some of the GPUs the server takes (SYS-421GE-TNRT3: H100, "
        "L40S, A100, RTX 6000 Ada). A GPU the list does not name may still fit, but is unverified: confirm it with "
        "Supermicro before quoting.",
        "Voor PCIe-GPU-servers noemen de bronnen maar een deel van de GPU's die de server neemt (SYS-421GE-TNRT3: "
        "H100, L40S, A100, RTX 6000 Ada). Een GPU die de lijst niet noemt, kan toch passen, maar is niet "
        "gecontroleerd: laat Supermicro het bevestigen voordat je offreert.",
        "hardware.md §1a (GPU column: partial lists for PCIe GPU servers)",
    ),
    Code.GPU_MIXED_MODELS: _r(
        E,
        "Mixed GPU models in one node",
        "Verschillende GPU-modellen in één node",
        "A node takes one GPU model; NVLink and the NVSwitch domain join identical GPUs only.",
        "Een node krijgt één GPU-model; NVLink en het NVSwitch-domein verbinden alleen identieke GPU's.",
        "[NV-AIE-RA]; NCS seeds",
    ),
    Code.GPU_TOO_MANY: _r(
        E,
        "Too many GPUs for this server",
        "Te veel GPU's voor deze server",
        "An HGX server takes one baseboard; a PCIe GPU server takes up to its maximum number of cards.",
        "Een HGX-server neemt één baseboard; een PCIe-GPU-server maximaal zijn aantal GPU-kaarten.",
        "hardware.md §1a",
    ),
    Code.GPU_NONE: _r(
        W,
        "GPU server without GPUs",
        "GPU-server zonder GPU's",
        "The node group uses a GPU server but lists no GPU board or card.",
        "De nodegroep gebruikt een GPU-server maar noemt geen GPU-board of -kaart.",
        "hardware.md §1a",
    ),
    Code.NVLINK_BRIDGE_UNSUPPORTED: _r(
        E,
        "NVLink bridge on a GPU without NVLink bridges",
        "NVLink-brug op een GPU zonder brugondersteuning",
        "L40S and RTX PRO 6000 have no NVLink; HGX boards connect their GPUs through NVSwitch, not bridges.",
        "L40S en RTX PRO 6000 hebben geen NVLink; HGX-boards verbinden hun GPU's via NVSwitch, niet met bruggen.",
        "[NV-AIE-RA], [NV-DS]",
    ),
    Code.NVLINK_BRIDGE_SIZE: _r(
        E,
        "NVLink bridge size not supported",
        "NVLink-brugmaat niet ondersteund",
        "H100 NVL bridges pairs only; H200 NVL bridges pairs or groups of four.",
        "H100 NVL verbindt alleen paren; H200 NVL paren of groepen van vier.",
        "[NV-AIE-RA], [H100NVL-S]",
    ),
    Code.NVLINK_BRIDGE_TOO_MANY: _r(
        E,
        "More NVLink bridges than GPUs",
        "Meer NVLink-bruggen dan GPU's",
        "Each bridge set joins a fixed number of GPUs; the sets together cannot join more GPUs than the node has.",
        "Elke brugset verbindt een vast aantal GPU's; samen kunnen de sets niet meer GPU's verbinden dan de node "
        "heeft.",
        "[NV-AIE-RA]",
    ),
    Code.NVLINK_BRIDGE_PARTIAL: _r(
        INFO,
        "Some GPUs unbridged",
        "Niet alle GPU's overbrugd",
        "The bridge sets join fewer GPUs than the node has; the others talk over PCIe only.",
        "De brugsets verbinden minder GPU's dan de node heeft; de rest communiceert alleen via PCIe.",
        "[NV-AIE-RA]",
    ),
    Code.NVLINK_BRIDGE_CROSS_SOCKET: _r(
        W,
        "Bridged GPUs under different CPUs",
        "Overbrugde GPU's onder verschillende CPU's",
        "NVIDIA advises bridging cards under the same CPU socket; across sockets is acceptable but not recommended.",
        "NVIDIA adviseert kaarten onder dezelfde CPU-socket te overbruggen; over sockets heen is acceptabel maar "
        "niet aanbevolen.",
        "[NV-AIE-RA]",
    ),
    Code.NVLINK_NO_NVSWITCH: _r(
        W,
        "Eight or more GPUs without NVSwitch",
        "Acht of meer GPU's zonder NVSwitch",
        "Without NVSwitch only bridged pairs (or fours) talk at NVLink speed; the rest goes over PCIe.",
        "Zonder NVSwitch praten alleen overbrugde paren (of viertallen) op NVLink-snelheid; de rest gaat via PCIe.",
        'NCS seeds ("zonder NVSwitch kunnen GPU\'s alleen in paren direct communiceren")',
    ),
    Code.NVLINK_NVSWITCH_UNKNOWN: _r(
        INFO,
        "NVSwitch count unknown",
        "Aantal NVSwitches onbekend",
        "The number of NVSwitch chips on this board is not sourced (HGX B300).",
        "Het aantal NVSwitch-chips op dit board is niet gedocumenteerd (HGX B300).",
        "hardware.md §2, §5",
    ),
    Code.NIC_FEWER_THAN_GPUS: _r(
        W,
        "Fewer compute NICs than GPUs",
        "Minder compute-NIC's dan GPU's",
        "Multi-node training uses one compute NIC per GPU; with fewer, GPUs share NICs and inter-node bandwidth "
        "per GPU drops.",
        "Training over meerdere nodes gebruikt één compute-NIC per GPU; met minder delen GPU's een NIC en daalt "
        "de bandbreedte per GPU tussen nodes.",
        "fabric.md §0.1 (one NIC per GPU); [STH-821]",
    ),
    Code.NIC_NOT_NEEDED: _r(
        INFO,
        "Compute NICs without a fabric",
        "Compute-NIC's zonder fabric",
        "A single node without a compute fabric needs no compute NICs; NVLink carries the GPU traffic.",
        "Eén node zonder compute-fabric heeft geen compute-NIC's nodig; NVLink draagt het GPU-verkeer.",
        'NCS seeds ("voor single-node setups ... is InfiniBand niet nodig")',
    ),
    Code.NIC_MISSING: _r(
        E,
        "GPU nodes without compute NICs",
        "GPU-nodes zonder compute-NIC's",
        "The design has a compute fabric and compute NICs in some GPU nodes, but one GPU node group has none.",
        "Het ontwerp heeft een compute-fabric en compute-NIC's in een deel van de GPU-nodes, maar één GPU-nodegroep "
        "heeft er geen.",
        "fabric.md §0.1",
    ),
    Code.POWER_OVER_CAPACITY: _r(
        E,
        "Peak power above PSU capacity",
        "Piekvermogen boven de voedingscapaciteit",
        "Estimated peak draw exceeds the capacity of the N supplies of the N+M configuration.",
        "Het geschatte piekverbruik is hoger dan de capaciteit van de N voedingen in de N+M-opstelling.",
        "hardware.md §4 (budget rule); [STH-ASR]",
    ),
    Code.POWER_NEAR_CAPACITY: _r(
        W,
        "Peak power above 80% of PSU capacity",
        "Piekvermogen boven 80% van de voedingscapaciteit",
        "Estimated peak draw is above about 80% of the N supplies' capacity; there is little headroom.",
        "Het geschatte piekverbruik ligt boven ongeveer 80% van de capaciteit van de N voedingen; er is weinig marge.",
        "hardware.md §4 (budget rule)",
    ),
    Code.POWER_CAPACITY_UNKNOWN: _r(
        W,
        "PSU capacity unknown",
        "Voedingscapaciteit onbekend",
        "The PSU count, wattage or redundancy of this server is not sourced, so the budget cannot be checked.",
        "Aantal, vermogen of redundantie van de voedingen is niet gedocumenteerd; het budget is niet te controleren.",
        "hardware.md §5",
    ),
    Code.POWER_ESTIMATE_INCOMPLETE: _r(
        INFO,
        "Power estimate incomplete",
        "Vermogensschatting onvolledig",
        "A GPU's TDP is unknown, so it is left out of the estimate, which is therefore too low.",
        "De TDP van een GPU is onbekend en telt niet mee; de schatting is daardoor te laag.",
        "hardware.md §2",
    ),
    Code.COOLING_LIQUID: _r(
        INFO,
        "Liquid cooling needs a CDU or facility water",
        "Vloeistofkoeling vraagt een CDU of facilitair water",
        "Liquid-cooled servers need a coolant distribution unit (CDU) or facility water in the data centre.",
        "Vloeistofgekoelde servers hebben een coolant distribution unit (CDU) of facilitair koelwater nodig.",
        "hardware.md §1a (cooling column)",
    ),
    Code.WORKLOAD_NOT_SIZED: _r(
        INFO,
        "Workload not sized",
        "Workload niet gedimensioneerd",
        "The design has no GPU with known memory, so the workload cannot be sized.",
        "Het ontwerp heeft geen GPU met bekend geheugen; de workload is niet te dimensioneren.",
        "sizing.py",
    ),
    Code.WORKLOAD_TENSOR_PARALLEL: _r(
        INFO,
        "Model does not fit one GPU",
        "Model past niet op één GPU",
        "The model needs more memory than one GPU has; tensor parallelism inside the NVLink domain is required.",
        "Het model vraagt meer geheugen dan één GPU heeft; tensor parallelism binnen het NVLink-domein is nodig.",
        "NCS seeds; sizing.py (16-20 bytes/param training, 2 bytes + KV margin inference)",
    ),
    Code.WORKLOAD_SPANS_NODES: _r(
        INFO,
        "Model spans nodes",
        "Model beslaat meerdere nodes",
        "The model needs more memory than one node has; the job spans nodes over the compute fabric.",
        "Het model vraagt meer geheugen dan één node heeft; de job loopt over meerdere nodes via de compute-fabric.",
        "NCS seeds; sizing.py",
    ),
    Code.WORKLOAD_NOT_ENOUGH_GPUS: _r(
        E,
        "Not enough GPU memory for the model",
        "Te weinig GPU-geheugen voor het model",
        "All GPUs of the design together hold less memory than the model needs.",
        "Alle GPU's van het ontwerp samen hebben minder geheugen dan het model nodig heeft.",
        "sizing.py",
    ),
    Code.WORKLOAD_NEEDS_FABRIC: _r(
        E,
        "Multi-node job without a compute fabric",
        "Job over meerdere nodes zonder compute-fabric",
        "A model that spans nodes needs a compute fabric (InfiniBand or Spectrum-X) between them.",
        "Een model dat over meerdere nodes loopt, heeft een compute-fabric (InfiniBand of Spectrum-X) nodig.",
        'NCS seeds ("InfiniBand is de aangewezen technologie zodra je workloads over meerdere nodes verdeelt")',
    ),
    Code.WORKLOAD_NVLINK_BANDWIDTH: _r(
        W,
        "NVLink bandwidth low for 70B-class training",
        "NVLink-bandbreedte laag voor training van 70B-modellen",
        "70B-class training needs tensor parallelism over 8 GPUs; H100-class NVLink (900 GB/s) or better is "
        "advised over A100 (600 GB/s).",
        "Training van modellen van 70B-formaat vraagt tensor parallelism over 8 GPU's; NVLink van H100-klasse "
        "(900 GB/s) of beter wordt geadviseerd boven A100 (600 GB/s).",
        'NCS seeds ("H100-GPU\'s en 900 GB/s NVLink-bandbreedte is een solide minimumvereiste")',
    ),
}


def all_rules(*extra: Mapping[str, RuleInfo | dict]) -> dict[str, RuleInfo | dict]:
    """This catalogue merged with others (the fabric planner's FABRIC_RULES, whose entries are plain dicts).
    A code defined twice is a programming error."""
    merged: dict[str, RuleInfo | dict] = {str(code): info for code, info in RULES.items()}
    for more in extra:
        for code, info in more.items():
            if str(code) in merged and merged[str(code)] != info:
                raise ValueError(f"finding code {code} is defined twice")
            merged[str(code)] = info
    return merged


def finding(code: Code, subject: str, message: Text, fix: Text, **data: object) -> Finding:
    """A finding whose severity comes from the catalogue, so a code can never change severity by accident."""
    return Finding(code=str(code), severity=RULES[code].severity, subject=subject, message=message, fix=fix, data=data)
