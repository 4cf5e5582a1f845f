"""Finding parameters: one frozen dataclass per finding code, named after the code, in one module per message
module of the service edge (``configurator.messages``): the check that raises a code builds its object, the
renderer of the code reads it.

* ``base.py``: ``Params``, the base (its ``CODE``; ``as_dict()`` for the finding's JSON and the messages'
  ``%(name)s`` placeholders)
* ``nodes.py``: the parts, GPU and NVLink findings; ``pcie.py``: the PCIe placement findings;
  ``power.py``: the power and cooling findings
"""

from __future__ import annotations

from . import nodes, pcie, power
from .base import Params

MODULES = (nodes, pcie, power)

__all__ = ["MODULES", "Params"]
