"""What a grown cluster's cabling keeps of the installed one's, beside its devices' out-of-band ports (those the rack
plan alone gives: engines.cluster.cabling): the names of the installed storage and in-band switches, and the switch
ports the installed out-of-band switches' uplinks land on. Both depend on the installed networks' plans, so the
expansion takes them from the installed cluster's cabling (``engines.cluster.cabling.installed_ends``) and plans the
grown cluster within ``engines.cluster.rackplan.growing_from(plan, ends)``.

* **Names.** A compute, storage or in-band switch of the grown plan that stands where an installed one of its role
  stood (the same rack and unit: the grown plan keeps the installed racks as they stand) keeps that switch's name.
  An in-band pair that becomes the first scalable unit's leaves when the network grows a tier stays
  ``inband-switch-01`` and ``-02``: its node cables stay on their ports, so only the label would change. The
  compute switches' names follow the same rule, a leaf only while its node cables stay (engines.cluster.fabric_names).
* **Uplinks.** An installed out-of-band switch's uplink j (by its name and place) stays on the installed switch
  port while the grown plan has that switch at that place and the port is free there.
* **Device ports.** Every installed device's out-of-band switch port as the installed cabling gave it: where the
  installed cluster was itself grown from another, its ports are those it kept, not a fresh filling of its plan.

Pure Python: no Django.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

Spot = tuple[str, str, str]  # a switch by its role, rack and unit (``DeviceRole``'s value, as the CSV writes them)
Uplink = tuple[str, str, str, str]  # an out-of-band switch, its rack and unit, and the uplink port (``u1``)
Landing = tuple[str, str, str, str]  # the switch an uplink lands on, its port, rack and unit
Slot = tuple[str, str, int, int]  # a management port by its place in the rack plan (engines.cluster.cabling)
SlotEnd = tuple[str, str, tuple[str, str]]  # the out-of-band switch, its port and its place (rack, unit)
NodeCable = tuple[str, str, str, str]  # a leaf's node cable: the switch port, the node's rack and unit, its NIC


@dataclass(frozen=True)
class InstalledEnds:
    """The installed cabling's storage, in-band and compute switch names by place, its out-of-band uplinks' ends,
    its devices' out-of-band ports and its compute leaves' node cables (engines.cluster.fabric_names)."""

    names: Mapping[Spot, str] = field(default_factory=dict)
    uplinks: Mapping[Uplink, Landing] = field(default_factory=dict)
    ports: Mapping[Slot, SlotEnd] = field(default_factory=dict)
    node_cables: Mapping[Spot, frozenset[NodeCable]] = field(default_factory=dict)
