"""The inside of a rack-scale system (GB200/GB300 NVL72): each compute tray, NVLink switch tray, power shelf and
built-in management switch at its own unit of the system's own rack (48U), so the cabling list gives each tray's
cables its own tray's unit and the elevation draws the rack whole.

What the sources say (catalog/seed/FACTS.md, "NVL72 rack layout"): 18 1U compute trays, 9 1U NVLink switch trays
and 2 top-of-rack management switches (NVIDIA DGX GB200 User Guide, Hardware) [P]; 8 power shelves, "Each power
shelf takes up one rack unit" (NVIDIA Mission Control manual, power shelves) [P]; "At the top and bottom of the
NVL72 rack are ... power shelves ... The middle section of the rack is occupied by the NVIDIA NVLink switches and
the 18 GB300 compute nodes" (ServeTheHome on the Supermicro GB300 NVL72) [S]; the NVLink switch trays "sit in the
middle of the rack" [S].

NVIDIA publishes no unit-by-unit elevation in the sources at hand, so the order below is an assumption, stated:
from the top, the management switches (top of rack), half the power shelves, the upper compute trays (10 of 18),
the NVLink switch trays, the lower compute trays (8 of 18), the other power shelves; the units below them (11U of
48U for an NVL72) are left to the in-rack coolant distribution unit and cable management, whose heights the
catalogue does not hold (drawn as free units, not as devices). Compute trays are numbered from the bottom up, as
units are counted (EIA-310), so tray *k* of a rack is its *k*-th ``NODE`` device.

Power: the sources give the whole rack's draw (``NodeGroup.power_w``: 120 kW GB200, 142 kW GB300), not a tray's.
The rack draws it from the hall through its power shelves, which share the bus bar's load, so each power shelf
carries an equal share of it (whole watts, the remainder on the lowest shelf) and the other devices 0 W of their
own (their draw is in the rack's figure): the rack's power is the sum of its devices', and no tray's draw is
invented. Without power shelves the first compute tray carries it.
"""

from __future__ import annotations

from dataclasses import replace

from .inputs import NodeGroup, RackSystem
from .model import Device, DeviceRole


def _lower_trays(trays: int) -> int:
    """Compute trays below the NVLink switch trays: 8 of an NVL72's 18 (the rest, 10, above them)."""
    return trays * 4 // 9


def system_devices(group: NodeGroup) -> tuple[Device, ...] | None:
    """The devices of one rack-scale system, bottom up, at their units; None when the catalogue does not say what
    the rack holds or its parts do not fit its height (the system is then one device of the rack's height)."""
    s: RackSystem | None = group.system
    if s is None or not s.compute_trays:
        return None
    if s.compute_trays + s.switch_trays + s.power_shelves + s.management_switches > group.height_u:
        return None
    lower = _lower_trays(s.compute_trays)
    top_shelves = -(-s.power_shelves // 2)
    # From the top of the rack down (module docstring); each 1U.
    stack: list[tuple[DeviceRole, str, int]] = [
        (DeviceRole.SYSTEM_MANAGEMENT, s.management_switch or group.part, s.management_switches),
        (DeviceRole.POWER_SHELF, group.part, top_shelves),
        (DeviceRole.NODE, group.part, s.compute_trays - lower),
        (DeviceRole.NVLINK_SWITCH, group.part, s.switch_trays),
        (DeviceRole.NODE, group.part, lower),
        (DeviceRole.POWER_SHELF, group.part, s.power_shelves - top_shelves),
    ]
    out: list[Device] = []
    u = group.height_u + 1
    for role, part, count in stack:
        for _ in range(count):
            u -= 1
            out.append(Device(part, part, role, u, 1, None))
    out.reverse()  # bottom up: tray k is the k-th NODE device
    return _with_power(out, group.power_w)


def _with_power(devices: list[Device], power_w: int | None) -> tuple[Device, ...]:
    """The rack's power on its power shelves, in equal shares (module docstring)."""
    if power_w is None:
        return tuple(devices)
    carriers = [i for i, d in enumerate(devices) if d.role == DeviceRole.POWER_SHELF]
    carriers = carriers or [next(i for i, d in enumerate(devices) if d.role == DeviceRole.NODE)]
    share, rest = divmod(power_w, len(carriers))
    watts = {i: share + (rest if k == 0 else 0) for k, i in enumerate(carriers)}
    # the others' draw is in the rack's figure, carried by the shelves: 0 of their own, not unknown
    return tuple(replace(d, power_w=watts.get(i, 0)) for i, d in enumerate(devices))
