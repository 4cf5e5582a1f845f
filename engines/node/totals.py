"""The node engine's totals of a design, as typed records that are written out as the result's JSON as they are
(contract design/v1): per node group (``GroupTotals``) and for the design (``NodeTotals``)."""

from __future__ import annotations

from typing import TypedDict

from engines.findings.params.power import PowerAssumption, ReferenceSkipped, ReferenceUnconfirmed


class PowerBasis(TypedDict):
    """The basis of a node's power estimate: the sum of its parts, or the published maximum of NVIDIA's system on
    its baseboard (engines.node.power)."""

    basis: str  # "parts" or "reference_system"
    parts_w: int
    reference_system: str | None
    reference_w: float | None
    cpu_basis: str  # cpus, platform_limit or assumed
    cpu_parts: list[str]
    cpu_w: float
    reference_skipped: ReferenceSkipped | None
    reference_unconfirmed: ReferenceUnconfirmed | None


class GroupPowerBasis(PowerBasis):
    """A node group's power basis, as ``totals.power_basis`` states it."""

    group: str
    node_group: int


class GroupPowerAssumption(PowerAssumption):
    """A power assumption of a node group, as ``totals.power_assumptions`` carries it before it is said."""

    group: str


class Bandwidth(TypedDict):
    """What one GPU of a group gets (None: not known)."""

    nvlink_gbps_per_gpu: float | None
    compute_gbps_per_gpu: float | None


class GroupTotals(Bandwidth):
    """One node group's totals, as the result's JSON states them (contract design/v1)."""

    group: str
    node_group: int
    count: int
    gpus_per_node: int
    gpu_memory_gb_per_node: float | None
    peak_power_w_per_node: int | None
    optics_w_per_node: float
    power_unknown_parts: list[str]
    compute_nics_per_node: int
    nics_per_node: int
    nvlink_domain_gpus: int | None


class NodeTotals(TypedDict):
    """The node engine's totals of a design (None: part of the design has no figure), as the result's JSON states
    them, with the power assumptions and the basis of each group's power estimate."""

    nodes: int
    gpus: int
    gpu_memory_gb: float | None
    peak_power_w: int | None
    compute_nics: int
    nics: int
    groups: list[GroupTotals]
    power_assumptions: list[GroupPowerAssumption]
    power_basis: list[GroupPowerBasis]
