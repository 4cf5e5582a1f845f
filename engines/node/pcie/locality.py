"""GPU locality of compute NICs: GPUDirect RDMA stays local only when a NIC sits behind the same PCIe switch as
a GPU."""

from __future__ import annotations

from typing import cast

from design.vocabulary import Role
from engines.findings import Finding, finding
from engines.findings.params.pcie import PcieNicNotGpuLocal

from ..context import CardPart, GroupContext
from .slots import SlotState


def not_gpu_local(ctx: GroupContext, slots: list[SlotState]) -> list[Finding]:
    """Rule: a compute NIC belongs in a slot behind the same PCIe switch as a GPU, so GPUDirect RDMA stays local;
    on HGX systems one NIC per GPU, each on its own rail. Source: [DIST-PM] (SYS-822GS-NBRT: 8 LP slots "for
    1:1 GPU-to-NIC networking"); fabric.md §0.1."""
    if not ctx.gpus or not any(s.spec.gpus for s in slots):
        return []
    far: dict[str, list[SlotState]] = {}
    for s in slots:
        if s.part is not None and s.part.role == Role.COMPUTE and not s.spec.gpus:
            far.setdefault(s.part.path, []).append(s)
    out = []
    for path, taken in far.items():
        part = cast(CardPart, taken[0].part)  # the slots grouped hold a card
        free_local = sum(1 for s in slots if s.part is None and s.spec.gpus)
        out.append(
            finding(
                path,
                PcieNicNotGpuLocal(
                    slots=[s.spec.name for s in taken], part=part.spec.part_number, free_local=free_local
                ),
            )
        )
    return out
