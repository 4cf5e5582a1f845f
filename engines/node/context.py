"""One node group, resolved against the catalogue view: the specs its part numbers name, sorted by kind.

The rules read this instead of looking parts up themselves. Parts that are missing or of the wrong kind
become findings here and are left out of every later rule, so the engine never raises on them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Generic, TypeGuard, TypeVar, cast

from design.model import ComponentIn, NodeGroupIn
from design.specs import (
    NOT_COMPONENTS,
    AdapterSpec,
    BridgeSpec,
    CpuSpec,
    DriveSpec,
    GpuSpec,
    MemorySpec,
    PartBase,
    PartSpec,
    ServerSpec,
    SwitchSpec,
)
from design.vocabulary import Role
from engines.catalog_view import CatalogView
from engines.findings import retired_finding
from engines.findings.finding import Finding
from engines.findings.params.nodes import PartUnknown, PartWrongCategory
from engines.findings.params.rack_systems import RackSystemComplete
from engines.findings.registry import finding

# Role inference, used when a component gives no role (documented in README.md):
#   * on a server with integrated compute NICs, a slotted adapter is storage (the compute NICs are built in);
#   * otherwise a single-port, non-DPU adapter of 200 Gb/s or more is compute (NDR 400, NDR200 and the
#     HDR 200 of A100-era clusters are all compute-fabric speeds); anything else (dual-port, DPU, slower
#     or unknown speed) is storage.
COMPUTE_MIN_GBPS = 200

S = TypeVar("S", bound=PartBase, covariant=True)


@dataclass(frozen=True)
class Part(Generic[S]):
    """One component of a node: its spec (of the kind ``S``), how many per node, and (adapters) its role."""

    index: int
    path: str
    comp: ComponentIn
    spec: S
    role: str = ""
    role_inferred: bool = False

    @property
    def quantity(self) -> int:
        return self.comp.quantity

    @property
    def ports_cabled(self) -> int:
        """Ports cabled per node: every port of every card unless the design marks fewer used (an adapter's
        ports are all links by default; other parts have none)."""
        ports = getattr(self.spec, "ports", 0) or 0
        used = self.comp.ports_used if self.comp.ports_used is not None else ports
        return self.quantity * min(used, ports)


CardPart = Part[GpuSpec | AdapterSpec]  # a card that takes a PCIe slot: a GPU card or an adapter


def is_adapter(part: Part[PartBase]) -> TypeGuard[Part[AdapterSpec]]:
    return isinstance(part.spec, AdapterSpec)


@dataclass
class GroupContext:
    index: int
    group: NodeGroupIn
    server: ServerSpec | None
    gpus: list[Part[GpuSpec]] = field(default_factory=list)
    adapters: list[Part[AdapterSpec]] = field(default_factory=list)
    bridges: list[Part[BridgeSpec]] = field(default_factory=list)
    others: list[Part[PartSpec]] = field(default_factory=list)
    cpus: list[Part[CpuSpec]] = field(default_factory=list)
    memory: list[Part[MemorySpec]] = field(default_factory=list)
    drives: list[Part[DriveSpec]] = field(default_factory=list)  # role boot or storage (data)
    catalog: CatalogView | None = None  # the whole view, for rules that suggest an alternative part

    @property
    def path(self) -> str:
        return f"node_groups[{self.index}]"

    @property
    def known_server(self) -> ServerSpec:
        """The server, for the rules that run once it is known (``validate_nodes`` skips a group without one)."""
        if self.server is None:
            raise ValueError(f"{self.path}: the node rules need the group's server")
        return self.server

    @property
    def gpus_per_node(self) -> int:
        return sum(p.quantity * p.spec.gpu_count for p in self.gpus)

    @property
    def gpu_cards(self) -> list[Part[GpuSpec]]:
        return [p for p in self.gpus if not p.spec.is_board]

    @property
    def compute_adapters(self) -> list[Part[AdapterSpec]]:
        return [p for p in self.adapters if p.role == Role.COMPUTE]

    @property
    def compute_nics_per_node(self) -> int:
        """Compute NIC ports (rails) per node: every cabled port of the slotted compute adapters (a dual-port card
        is two links unless the design marks a port unused) plus the NICs built into the system (SYS-822GS-NB3RT)."""
        integrated = self.server.integrated_nics if self.server else 0
        return sum(p.ports_cabled for p in self.compute_adapters) + integrated

    @property
    def gpu_memory_gb_per_node(self) -> float | None:
        if any(p.spec.memory_gb is None for p in self.gpus):
            return None
        return sum(p.quantity * p.spec.gpu_count * cast(float, p.spec.memory_gb) for p in self.gpus)

    @property
    def gpu_specs(self) -> list[GpuSpec]:
        return [p.spec for p in self.gpus]


def infer_role(spec: AdapterSpec, server: ServerSpec | None) -> str:
    """The role of an adapter given without one (see the comment at COMPUTE_MIN_GBPS)."""
    if server is not None and server.integrated_nics > 0:
        return Role.STORAGE
    speed = spec.speed_gbps or 0
    if not spec.is_dpu and spec.ports == 1 and speed >= COMPUTE_MIN_GBPS:
        return Role.COMPUTE
    return Role.STORAGE


def node_part_role(spec: PartSpec) -> str | None:
    """The role of a CPU, DIMM or drive given without one: from its category (a drive by its ``use``)."""
    if isinstance(spec, CpuSpec):
        return Role.CPU
    if isinstance(spec, MemorySpec):
        return Role.MEMORY
    if isinstance(spec, DriveSpec):
        return Role.BOOT if spec.use == "boot" else Role.STORAGE
    return None


def resolve_group(index: int, group: NodeGroupIn, catalog: CatalogView, findings: list[Finding]) -> GroupContext:
    """Look up the group's parts; unknown or misplaced ones become findings and are left out."""
    path = f"node_groups[{index}]"
    server_spec = catalog.get(group.server)
    server: ServerSpec | None = None
    if server_spec is None:
        findings.append(_unknown(f"{path}.server", group.server, "server"))
    elif not isinstance(server_spec, ServerSpec):
        findings.append(
            _misplaced(
                f"{path}.server",
                server_spec,
                field="server",
            )
        )
    else:
        server = server_spec
    if server_spec is not None and server_spec.retired:
        findings.append(retired_finding(f"{path}.server", server_spec))
    ctx = GroupContext(index=index, group=group, server=server, catalog=catalog)
    if server is not None and server.rack_scale:
        _rack_system(ctx, catalog, findings)
        return ctx
    for j, comp in enumerate(group.components):
        cpath = f"{path}.components[{j}]"
        spec = catalog.get(comp.part)
        if spec is None:
            findings.append(_unknown(cpath, comp.part, "component"))
            continue
        if spec.retired:
            findings.append(retired_finding(cpath, spec))
        if isinstance(spec, NOT_COMPONENTS):
            findings.append(_misplaced(cpath, spec, field="component", group_index=index))
            continue
        if isinstance(spec, GpuSpec):
            ctx.gpus.append(Part(j, cpath, comp, spec, role="gpu"))
        elif isinstance(spec, AdapterSpec):
            role = comp.role or infer_role(spec, server)
            ctx.adapters.append(Part(j, cpath, comp, spec, role=role, role_inferred=comp.role is None))
        elif isinstance(spec, BridgeSpec):
            ctx.bridges.append(Part(j, cpath, comp, spec))
        elif isinstance(spec, (CpuSpec, MemorySpec, DriveSpec)):
            role = comp.role or cast(str, node_part_role(spec))  # a CPU, DIMM or drive always has one
            part: Part[Any] = Part(j, cpath, comp, spec, role=role, role_inferred=comp.role is None)
            lists: dict[type, list[Part[Any]]] = {CpuSpec: ctx.cpus, MemorySpec: ctx.memory, DriveSpec: ctx.drives}
            lists[type(spec)].append(part)
        else:
            ctx.others.append(Part(j, cpath, comp, spec))
    return ctx


def _rack_system(ctx: GroupContext, catalog: CatalogView, findings: list[Finding]) -> None:
    """Rule: a rack-scale NVLink system (GB200/GB300 NVL72) is one part that comes complete: its GPUs, Grace CPUs,
    compute NICs, DPUs, drives, NVLink switch trays and power shelves are in the rack, so every component a design
    lists for it is an error (RACK_SYSTEM_COMPLETE) and is left out. The rack's own GPU set (the one GPU part its
    ``accepts`` names) stands in as the node's GPUs, so the GPU, memory and sizing rules see the rack's 72 GPUs.
    Source: NVIDIA DGX GB200 User Guide, Hardware; NVIDIA Enterprise RA GB300 NVL72, components."""
    server = ctx.known_server
    for j, comp in enumerate(ctx.group.components):
        findings.append(
            finding(
                f"{ctx.path}.components[{j}]",
                RackSystemComplete(
                    part=comp.part,
                    server=server.part_number,
                    compute_trays=server.compute_trays,
                    gpus=server.nvlink_domain_gpus,
                ),
            )
        )
    for pn in sorted(server.accepts):
        spec = catalog.get(pn)
        if isinstance(spec, GpuSpec):
            comp = ComponentIn(part=pn, quantity=1)
            ctx.gpus.append(Part(-1, f"{ctx.path}.server", comp, spec, role="gpu"))
            return


def _unknown(subject: str, pn: str, what: str) -> Finding:
    return finding(
        subject,
        PartUnknown(part=pn, field=what),
    )


def _misplaced(subject: str, spec: PartSpec, *, field: str, group_index: int | None = None) -> Finding:
    """A part used where another kind belongs: ``field`` is the field it was given in (server or component);
    ``belongs`` says where it goes instead (server, switch or media, for a component)."""
    belongs = None
    if field == "component":
        belongs = "server" if isinstance(spec, ServerSpec) else "switch" if isinstance(spec, SwitchSpec) else "media"
    return finding(
        subject,
        PartWrongCategory(
            part=spec.part_number,
            category=str(spec.category),
            field=field,
            belongs=belongs,
            belongs_in=f"node_groups[{group_index}].server" if belongs == "server" else None,
        ),
    )
