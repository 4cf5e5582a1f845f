"""The seed catalogue for the engine benchmarks, and the few design builders they use.

The specs come from ``catalog/seed/catalog.json`` through the snapshot's own conversion
(configurator.snapshot.seed_view), in memory: no database. Django is set up (test settings, unless
``DJANGO_SETTINGS_MODULE`` says otherwise) only because that conversion goes through the catalogue's models.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # before bench/, whose api.py and quotes.py would hide the apps of those names
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "project.settings.test")
os.environ.pop("DATABASE_URL", None)  # no database is used

import django  # noqa: E402

django.setup()

from configurator.snapshot import seed_view  # noqa: E402
from design.model import ComponentIn, DesignIn, FabricIn, NodeGroupIn, WorkloadIn  # noqa: E402

CATALOG = seed_view()
FABRIC_SWITCH = "MQM9700-NS2F"  # Quantum-2 NDR


def part(part_number: str):
    """The seed's spec of ``part_number`` (KeyError when the seed has no such part)."""
    return CATALOG.parts[part_number]


def comp(part_number: str, quantity: int = 1, role: str | None = None, slots=None) -> ComponentIn:
    return ComponentIn(
        part=part_number, quantity=quantity, role=role, slots=tuple(slots) if slots is not None else None
    )


def group(server: str, *components: ComponentIn, count: int = 1, name: str = "gpu") -> NodeGroupIn:
    return NodeGroupIn(name=name, count=count, server=server, components=tuple(components))


def design(*groups: NodeGroupIn, workload: tuple[str, float] | None = None, fabric: bool = False) -> DesignIn:
    """A design; ``fabric=True`` adds an NDR fabric on FABRIC_SWITCH."""
    wl = WorkloadIn(kind=workload[0], model_parameters_billion=workload[1]) if workload else None
    fab = FabricIn(switch=FABRIC_SWITCH) if fabric else None
    return DesignIn(name="bench", workload=wl, node_groups=tuple(groups), fabric=fab)


def hgx_node(
    server: str = "SYS-821GE-TNHR", board: str = "HGX-H200-8GPU", nics: int = 8, count: int = 1
) -> NodeGroupIn:
    """The reference node: an HGX server, its board and one ConnectX-7 NDR compute NIC per GPU."""
    return group(server, comp(board), comp("MCX75310AAS-NEAT", nics, "compute"), count=count)
