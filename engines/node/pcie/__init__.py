"""PCIe slot placement and the PCIe rules: fit, free slots, link bandwidth, PCIe-switch uplinks, GPU locality.

* ``placement.py``: ``place_group`` and ``Placement``; explicit and automatic placement, cards without a slot
* ``slots.py``: ``SlotState``, ``fits`` (card form in slot form), ``slot_groups``, fit unknown
* ``bandwidth.py``: PCIe bandwidth per lane, what a card needs and its slot gives, PCIe-switch uplinks
* ``locality.py``: compute NICs local to a GPU (GPUDirect RDMA)
"""

from .bandwidth import PCIE_GBYTES_PER_LANE, card_need_gbytes, effective_link, link_gbytes
from .placement import Placement, place_group
from .slots import SlotState, fits, slot_groups

__all__ = [
    "PCIE_GBYTES_PER_LANE",
    "Placement",
    "SlotState",
    "card_need_gbytes",
    "effective_link",
    "fits",
    "link_gbytes",
    "place_group",
    "slot_groups",
]
