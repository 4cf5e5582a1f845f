"""Rack planning for GPU clusters: rack plan, cable distances from it, and the rack elevation picture.

Pure Python (no Django, no I/O): frozen dataclasses in, dataclasses and plain dicts out. The service edge builds
the inputs from the design (``facility``), the catalogue (server height, power, cooling; PDU options) and the
fabric plan (switches by role, SU size), and renders finding messages from gettext by code.

* ``inputs.py``: inputs ``NodeGroup``, ``SwitchGroup``, ``Facility``, ``PduOption``; ``model.py``: output ``RackPlan``
  (``to_dict()`` for ``rack_plan``, ``totals()`` for ``totals.racks`` and ``totals.facility_power_w``; identical
  racks kept once as a ``RackRun`` with a count, each distinct rack written once with the ranges of racks holding
  it (``ranges.py``), ``racks`` one by one). Findings are
  ``engines.findings.Finding``, their codes ``engines.findings.RackCode``, their severity the registry's.
* ``plan.py``: ``plan_racks(*, node_groups, switches, facility, pdu_options, leaf_placement, other_it_power_w)``;
  ``packing.py`` fills one rack (switches, PDUs, nodes), ``rows.py`` lays out and names the rows.
* ``distances.py``: ``link_distances(plan, *, override, geometry) -> {link class: LinkLength}``.
* ``locate.py``: ``node_location(plan, node_group, index)``, ``switch_locations(plan, role)`` (rack, unit).
* ``elevation.py``: ``render_elevation_svg(plan, labels, *, columns=2, number=...) -> str``
  (``columns=None``: every distinct rack in one line, at its own size).
"""

from .distances import LINK_CLASSES, Geometry, LinkLength, link_distances
from .elevation import ElevationLabels, render_elevation_svg
from .inputs import (
    CentralSwitches,
    Facility,
    KeptRack,
    NodeGroup,
    PduOption,
    RackInputError,
    RackSystem,
    SwitchGroup,
)
from .locate import node_location, switch_locations
from .model import Cooling, Feeds, LeafPlacement, Rack, RackPlan, RackRun, SwitchRole
from .packing import AIR_COOLING_LIMIT_W, DEFAULT_RACK_POWER_W
from .plan import plan_racks

__all__ = [
    "AIR_COOLING_LIMIT_W",
    "DEFAULT_RACK_POWER_W",
    "LINK_CLASSES",
    "CentralSwitches",
    "Cooling",
    "ElevationLabels",
    "Facility",
    "Feeds",
    "Geometry",
    "KeptRack",
    "LeafPlacement",
    "LinkLength",
    "NodeGroup",
    "PduOption",
    "Rack",
    "RackInputError",
    "RackPlan",
    "RackRun",
    "RackSystem",
    "SwitchGroup",
    "SwitchRole",
    "link_distances",
    "node_location",
    "plan_racks",
    "render_elevation_svg",
    "switch_locations",
]
