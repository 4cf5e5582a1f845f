"""What the compute fabric and the north-south network see of rack-scale NVLink systems (GB200/GB300 NVL72), alone
or beside servers: the fabric's endpoints and rails per node kind, the trays' BlueField-3 DPUs, and the note on
mixing 72-GPU and 8-GPU NVLink domains in one fabric. Pure: no Django.

* **Endpoints and rails.** A server is one endpoint with its compute NICs as rails; an NVL72 rack is its compute
  trays, each with its own compute NICs (4: NVIDIA DGX GB200 User Guide; GB300 Enterprise RA). The fabric
  planner sizes one rail count for every endpoint, so a fabric that mixes trays (4 NICs) and HGX servers (8) is
  planned at the most rails, 8, and at the ports the endpoints really have: a system counts as the endpoints its
  NICs fill at that rail count (18 trays x 4 NICs / 8 rails = 9 per NVL72 rack), not as 18 endpoints of 8 NICs
  (NVLINK_DOMAINS_MIXED says so). In the cabling list each such endpoint stands at the unit of its first tray.
* **DPUs.** Each tray's BlueField-3 ports go to the converged north-south (storage and in-band) Ethernet network
  (``tray_dpus``).
* **Leaves by row.** The rack plan puts a unit's leaves in the row holding its first tray at the full unit's size
  (``system_units``: ``engines.racks.NodeGroup.unit_trays``).
"""

from __future__ import annotations

from collections.abc import Sequence

from design.model import DesignIn
from design.specs import AdapterSpec, ServerSpec, SwitchSpec
from design.vocabulary import Protocol
from engines.catalog_view import CatalogView
from engines.fabric.model import FabricPlan
from engines.findings.finding import Finding
from engines.findings.params.rack_systems import NvlinkDomainsMixed
from engines.findings.registry import finding
from engines.node.context import GroupContext


def nodes_per_system(server: ServerSpec | None) -> int:
    """Compute-fabric endpoints of one system: a server is one node; a rack-scale NVLink system's endpoints are its
    compute trays, each with its own compute NICs (NVIDIA DGX GB200 User Guide: 18 trays of 4x ConnectX-7 each;
    the DGX SuperPOD GB200 RA cables every tray's NICs to the compute fabric)."""
    if server is not None and server.rack_scale and server.compute_trays:
        return server.compute_trays
    return 1


def fabric_rails(group: GroupContext) -> int:
    """Compute NICs (rails) of one fabric endpoint: per node, or per compute tray of a rack-scale system."""
    server = group.server
    if server is not None and server.rack_scale and server.compute_nics_per_tray:
        return server.compute_nics_per_tray
    return group.compute_nics_per_node


def fabric_groups(groups: Sequence[GroupContext]) -> list[GroupContext]:
    """The node groups on the compute fabric (``groups``: every group, as the node engine resolved it): the GPU
    groups, or all groups."""
    return [g for g in groups if g.gpus_per_node > 0] or list(groups)


def endpoints_per_node(groups: Sequence[GroupContext], rails: int) -> dict[int, int]:
    """Fabric endpoints of one node of each group (by index) at ``rails`` rails: a server 1; a rack-scale system its
    trays, or, when its trays have fewer NICs than the fabric's rails (a mixed fabric), the endpoints its NICs fill
    (module docstring)."""
    out = {}
    for g in groups:
        trays, own = nodes_per_system(g.server), fabric_rails(g)
        out[g.index] = -(-trays * own // rails) if trays > 1 and 0 < own < rails else trays
    return out


def mixed_domains(design: DesignIn, resolved: Sequence[GroupContext]) -> Finding | None:
    """NVLINK_DOMAINS_MIXED (info) for a compute fabric that joins rack-scale systems and servers: their NVLink
    domains differ (72 against 8 GPUs), and the fabric is planned at the most rails with the ports each kind has.
    ``resolved``: the node groups as the node engine resolved them."""
    if design.fabric is None:
        return None
    groups = fabric_groups(resolved)
    systems = [g for g in groups if g.server is not None and g.server.rack_scale]
    servers = [g for g in groups if not (g.server is not None and g.server.rack_scale)]
    if not systems or not servers:
        return None
    rails = max(fabric_rails(g) for g in groups)
    ports = sum(g.group.count * nodes_per_system(g.server) * fabric_rails(g) for g in groups)
    domains = [g.server.nvlink_domain_gpus or g.gpus_per_node for g in systems if g.server is not None]
    return finding(
        "fabric",
        NvlinkDomainsMixed(
            racks=sum(g.group.count for g in systems),
            servers=sum(g.group.count for g in servers),
            rack_domain_gpus=max(domains),
            server_domain_gpus=min(g.gpus_per_node for g in servers),
            tray_rails=min(fabric_rails(g) for g in systems),
            rails=rails,
            ports=ports,
        ),
    )


def tray_dpus(server: ServerSpec, catalog: CatalogView) -> tuple[AdapterSpec, int, int] | None:
    """A rack-scale system's north-south side: (its trays' DPUs as one adapter, ports per tray, trays per system);
    None for a server, or while the catalogue does not give the trays, their DPUs or a DPU's ports.

    NVIDIA: each GB200 compute tray "connects to the ethernet switch through the two BF-3 NICs" (Multi-Node Tuning
    Guide); the GB200/GB300 north-south network is Ethernet on SN5600 (Mission Control North-South deployment
    guide), so the DPUs are planned as Ethernet ports. Speed, cage and plug top are the catalogued DPU's whose name
    is the system's ``dpu_model`` (GB300: BlueField-3 B3240), else unknown (the planner then says what it cannot
    choose)."""
    if not (server.rack_scale and server.compute_trays and server.dpus_per_tray and server.dpu_ports):
        return None
    named = next((a for a in catalog.of_type(AdapterSpec) if a.is_dpu and a.name == server.dpu_model), None)
    spec = AdapterSpec(
        part_number=f"{server.part_number} DPU",
        name=f"{server.dpu_model or 'DPU'} of {server.part_number}",
        manufacturer=server.manufacturer,
        price_eur=None,
        ports=server.dpu_ports,
        speed_gbps=named.speed_gbps if named is not None else None,
        connector=named.connector if named is not None else None,
        protocol=Protocol.ETHERNET,
        top=named.top if named is not None else None,
    )
    return spec, server.dpus_per_tray * server.dpu_ports, server.compute_trays


def full_unit(fabric: FabricPlan, catalog: CatalogView) -> int | None:
    """The nodes a full unit of the fabric holds: a leaf's node-facing ports at the fabric's switch and
    oversubscription, in whole cages, times the split; None when the switch's cages are not known."""
    spec = catalog.get(fabric.switch)
    d, u = fabric.oversubscription
    cage = spec.logical_ports_per_cage if isinstance(spec, SwitchSpec) else 0
    if not cage or not fabric.logical_ports or d + u <= 0:
        return None
    return fabric.logical_ports * d // (d + u) // cage * cage * max(1, fabric.split)


def system_units(fabric: FabricPlan | None, catalog: CatalogView) -> dict[str, int]:
    """A rack-scale group's fabric units for its rows' leaves (``NodeGroup.unit_trays``): the trays of a full unit
    (``full_unit``, whatever the fabric's own units: 17 GB200 racks get 11 units of 28 trays on QM9700, which still
    start within one row of their place at 32) and its leaves, one a rail in each plane, for a rail-optimized
    fabric (the rack plan holds a unit's leaves of every plane together: ``engines.fabric.cabling.rack_index``).
    A fabric of one tier (a switch a plane) gets them too: its row keeps the places of the leaves it has when
    it grows to two tiers (``engines.racks.rows``)."""
    if fabric is None or fabric.tiers < 1 or fabric.topology != "rail-optimized":
        return {}
    full = full_unit(fabric, catalog)
    return {"unit_trays": full, "unit_leaves": fabric.rails * max(1, fabric.fabric_planes)} if full else {}


def fat_tree_units(fabric: FabricPlan | None, catalog: CatalogView) -> dict[str, int]:
    """A fat tree's units for its rows' leaves (``NodeGroup.unit_trays``): the node-facing links of a leaf at the
    fabric's switch and oversubscription (``full_unit``), a leaf in each plane, each node its rails' links to them.
    Leaf *i* then stands in the row holding link *i* x that, whatever the cluster's size, as a unit's leaves of a
    rail-optimized fabric do (its own leaves take the fabric's balanced share, at most that)."""
    if fabric is None or fabric.tiers < 1 or fabric.topology == "rail-optimized" or not fabric.rails:
        return {}
    full = full_unit(fabric, catalog)
    if not full:
        return {}
    links = fabric.leaf_downlinks * max(1, fabric.split)
    return {
        "unit_trays": full,
        "unit_leaves": max(1, fabric.fabric_planes),
        "unit_endpoints": fabric.rails,
        **({"leaf_links": links} if links > 0 else {}),
    }
