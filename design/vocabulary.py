"""The hardware vocabulary: part categories, slot and card form factors, protocols, connectors, plug tops, media
kinds, adapter roles and cooling. Plain enums that the engines (engines.node, engines.fabric) and the
catalogue (catalog/models/) share, so both speak one language. Pure Python: nothing here imports Django or an
engine. Migrations hold these values as literals, never the members, so editing an enum never breaks history.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum


class Category(StrEnum):
    SERVER = "server"
    GPU = "gpu"
    ADAPTER = "adapter"
    SWITCH = "switch"
    CABLE = "cable"
    TRANSCEIVER = "transceiver"
    BRIDGE = "bridge"
    OTHER = "other"
    # node contents (catalog.models NODE_CATEGORY_CHOICES)
    CPU = "cpu"
    MEMORY = "memory"
    DRIVE = "drive"


class SlotForm(StrEnum):
    """Physical form of a server slot."""

    LP = "LP"  # low-profile: takes half-height cards only
    FHHL = "FHHL"
    FHFL = "FHFL"
    OCP3 = "OCP3"  # OCP 3.0 (AIOM) bay
    INTEGRATED = "INTEGRATED"  # a NIC soldered to the board, not a slot


class CardForm(StrEnum):
    """Physical form of an add-in card."""

    HHHL = "HHHL"  # half-height half-length: fits LP and full-height slots
    FHHL = "FHHL"
    FHFL = "FHFL"
    OCP3 = "OCP3"


# Which slot forms take which card form. A physical rule (PCI-SIG CEM and OCP 3.0 outlines), not a
# product fact, so it lives here rather than in the catalogue.
CARD_FITS: Mapping[CardForm, frozenset[SlotForm]] = {
    CardForm.HHHL: frozenset({SlotForm.LP, SlotForm.FHHL, SlotForm.FHFL}),
    CardForm.FHHL: frozenset({SlotForm.FHHL, SlotForm.FHFL}),
    CardForm.FHFL: frozenset({SlotForm.FHFL}),
    CardForm.OCP3: frozenset({SlotForm.OCP3}),
}


class Protocol(StrEnum):
    INFINIBAND = "infiniband"
    ETHERNET = "ethernet"
    VPI = "vpi"  # either, chosen by firmware/port type


class Connector(StrEnum):
    OSFP = "OSFP"
    QSFP112 = "QSFP112"
    QSFP56 = "QSFP56"
    QSFP28 = "QSFP28"
    RJ45 = "RJ45"
    MPO12 = "MPO-12"  # optical side of SR/DR transceivers
    LC = "LC"


class Top(StrEnum):
    """OSFP plug top: finned at air-cooled switch cages, flat (riding heat sink) at ConnectX-7 OSFP cards."""

    FINNED = "finned"
    FLAT = "flat"


class MediaKind(StrEnum):
    DAC = "dac"  # passive direct-attach copper (straight or splitter)
    ACC = "acc"  # active copper
    AOC = "aoc"  # active optical cable
    TRANSCEIVER = "transceiver"
    FIBRE = "fibre"
    PATCH = "patch"  # twisted-pair copper patch cord with RJ45 plugs (1 GbE management ports)


class MediaPurpose(StrEnum):
    """What NVIDIA's LinkX pages say a cable links. MCA4J80 (twin-port 800G ACC) is switch to switch only."""

    SWITCH_SWITCH = "switch-switch"
    SWITCH_HCA = "switch-hca"  # a switch cage to adapter (HCA, DPU) ports


class Role(StrEnum):
    COMPUTE = "compute"
    STORAGE = "storage"
    MANAGEMENT = "management"
    # node contents (contract design/v1 "Additions"); STORAGE also names a data drive
    CPU = "cpu"
    MEMORY = "memory"
    BOOT = "boot"


class Cooling(StrEnum):
    AIR = "air"
    LIQUID = "liquid"


# Workload modes and precisions (contract design/v1 "Additions": workload.mode, workload.precision).
MODES = ("pretraining", "full-finetune", "lora", "inference")
PRECISIONS = ("bf16", "fp8", "int4")
FULL_TRAINING_MODES = ("pretraining", "full-finetune")
DEFAULT_CONTEXT_TOKENS = 8192  # Llama 3.1 pre-training context (model card: "initially trained with 8192")


def kind_of(mode: str) -> str:
    """The workload kind a mode belongs to: ``inference`` or ``training``."""
    return "inference" if mode == "inference" else "training"
