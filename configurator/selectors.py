"""Read-side services for the doors: the catalogue as the engines see it, and the catalogue's own compatibility
answers. The doors (web, api) read the catalogue snapshot and ask hardware questions only through here."""

from __future__ import annotations

import threading
from dataclasses import dataclass

from catalog.models import Part
from design.model import DesignInputError
from design.specs import AdapterSpec, CpuSpec, DriveSpec, GpuSpec, MemorySpec, ServerSpec, SwitchSpec
from engines.catalog_view import CatalogView
from engines.cluster.control_plane import left_out
from engines.intake.parse import parse_design
from engines.node.gpu import gpu_acceptance

from .snapshot import catalog_snapshot, clear_cache


def catalog_view(*, max_age: float | None = None) -> CatalogView:
    """The catalogue view (configurator.snapshot): ``max_age`` seconds bound how long a process may go without
    checking the catalogue version; None uses the setting CATALOG_SNAPSHOT_MAX_AGE."""
    return catalog_snapshot(max_age=max_age)


def catalog_forget() -> None:
    """Forget the in-memory catalogue: the next read loads it again."""
    clear_cache()


def gpu_verdict(server: ServerSpec, gpu: GpuSpec) -> str:
    """What the catalogue says of this GPU in this server: ``accepted``, ``rejected``, ``unverified`` or
    ``unknown`` (engines.node.gpu.gpu_acceptance, the rule the validation applies)."""
    return gpu_acceptance(server, gpu)


_lead_lock = threading.Lock()
_lead_cache: dict[str, dict[str, int | None]] = {}


def lead_times(view: CatalogView) -> dict[str, int | None]:
    """Lead time in days per part number (not part of the engines' view). One query per catalogue version."""
    cached = _lead_cache.get(view.version)
    if cached is not None:
        return cached
    data = dict(Part.objects.values_list("part_number", "lead_time_days"))
    with _lead_lock:
        _lead_cache.clear()
        _lead_cache[view.version] = data
    return data


def part_sets(view: CatalogView) -> tuple[set[str], set[str]]:
    """Part numbers of GPUs and of adapters: how a design's component lines are told apart."""
    return ({p.part_number for p in view.of_type(GpuSpec)}, {p.part_number for p in view.of_type(AdapterSpec)})


NODE_ROLES = ("cpu", "memory", "boot")


def node_part_sets(view: CatalogView) -> dict[str, set[str]]:
    """Part numbers of CPUs, DIMMs and boot drives: how a design's node-content lines are found."""
    return {
        "cpu": {p.part_number for p in view.of_type(CpuSpec)},
        "memory": {p.part_number for p in view.of_type(MemorySpec)},
        "boot": {p.part_number for p in view.of_type(DriveSpec) if p.use == "boot"},
    }


def cpu_fits(server: ServerSpec, cpu: CpuSpec) -> bool:
    """A CPU the server's socket admits, as the node rule NODE_CPU_NOT_ACCEPTED judges it
    (engines.node.node_contents.cpu_not_accepted): unknown on either side, it fits. A family the server's sources
    do not name is offered too: the rule makes it a warning to confirm (NODE_CPU_UNVERIFIED), not a refusal."""
    return not (server.cpu_socket and cpu.socket and cpu.socket != server.cpu_socket)


@dataclass(frozen=True)
class NodeRole:
    """The parts of one node role (CPU, memory, boot drive) a server takes, and the one chosen."""

    role: str
    parts: list  # specs, by part number
    chosen: str  # "": none of them
    quantity: int | None  # the server's default quantity for the role; None: it names none


def node_part_fit(view: CatalogView, server_pn: str, current: dict[str, str]) -> list[NodeRole]:
    """Per role (CPU, memory, boot drive) the parts the server takes and the one chosen: the design's own where it
    names one the server takes, else the server's default. Empty without a known server, and for a rack-scale
    system (its trays come fitted)."""
    server = view.get(server_pn)
    if not isinstance(server, ServerSpec) or server.rack_scale:
        return []
    defaults = {d.role: d for d in server.default_parts}
    sets = node_part_sets(view)
    out = []
    for role in NODE_ROLES:
        parts = sorted((p for pn in sets[role] if (p := view.get(pn)) is not None), key=lambda p: p.part_number)
        if role == "cpu":
            parts = [p for p in parts if isinstance(p, CpuSpec) and cpu_fits(server, p)]
        values = {p.part_number for p in parts}
        chosen = current.get(role) if current.get(role) in values else None
        if chosen is None and role in defaults and defaults[role].part_number in values:
            chosen = defaults[role].part_number
        quantity = defaults[role].quantity if role in defaults else None
        out.append(NodeRole(role=role, parts=parts, chosen=chosen or "", quantity=quantity))
    return out


def node_parts_chosen(view: CatalogView, server_pn: str, chosen: dict[str, str]) -> dict[str, tuple[str, int]]:
    """The CPU, memory and boot drive a design gets for the parts chosen per role: a part the server takes (a
    choice it does not take, left from another server, becomes the server's default) with the default quantity.
    Roles chosen empty are left out (the server's default node set is added by the validation)."""
    out = {}
    for row in node_part_fit(view, server_pn, chosen):
        if chosen.get(row.role) and row.chosen:
            out[row.role] = (row.chosen, row.quantity or 1)
    return out


def fabric_switches(view: CatalogView) -> list[SwitchSpec]:
    """Switches that can carry a compute fabric (not the out-of-band management switches), by part number."""
    return sorted((s for s in view.of_type(SwitchSpec) if not s.management), key=lambda s: s.part_number)


def site_has(*, document: dict, view: CatalogView) -> tuple[frozenset[str], bool]:
    """What the offer of ``document`` leaves out because the site has it (engines.cluster.control_plane.left_out), and
    whether that is the default for the design's size (True) or the design's own ``facility.supplied`` (False).
    A document that cannot be read yet: nothing, by default."""
    try:
        design = parse_design(document)
    except DesignInputError:
        return frozenset(), True
    leave = left_out(design, view)
    return leave.items, leave.basis == "size"


def size_default_supplied(*, document: dict, view: CatalogView) -> frozenset[str]:
    """What the offer would leave out for the design's size, were ``facility.supplied`` not given."""
    facility = found if isinstance(found := document.get("facility"), dict) else {}
    bare = {**document, "facility": {k: v for k, v in facility.items() if k != "supplied"}}
    return site_has(document=bare, view=view)[0]
