"""Finding parameters: one frozen dataclass per finding code, named after the code, in one module per message
module of the service edge (``messages``): the check that raises a code builds its object, the
renderer of the code reads it.

* ``cluster.py``: the control plane, services and offer findings; ``networks.py``: the other networks' findings;
  ``fabric.py``: the compute fabric's findings
* ``base.py``: ``Params``, the base (its ``CODE``; ``as_dict()`` for the finding's JSON and the messages'
  ``%(name)s`` placeholders)
* ``node_contents.py``: the CPU, memory and drive findings; ``rack_systems.py``: the rack-scale NVLink systems
* ``nodes.py``: the parts, GPU and NVLink findings; ``pcie.py``: the PCIe placement findings;
  ``power.py``: the power and cooling findings;
  ``racks.py``: the rack planner's findings;
  ``workload.py``: the workload sizing and advice findings
"""

from __future__ import annotations

from . import cluster, fabric, networks, node_contents, nodes, pcie, power, rack_systems, racks, workload
from .base import Params

MODULES = (cluster, fabric, networks, node_contents, nodes, pcie, power, rack_systems, racks, workload)

__all__ = ["MODULES", "Params"]
