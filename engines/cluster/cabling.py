"""The cabling list's rows of the networks beside the compute fabric, read from the one physical model: every end
a device the rack plan holds, at its rack and unit, on a port it has (columns as the compute rows', then the
``network``: ``storage``, ``inband`` or ``oob``).

* **Out-of-band, rack by rack.** Every device of a rack with a management port (a node's BMC, a switch's
  management port, a control-plane server's or UFM appliance's BMC, each PDU's network port) goes to its own
  rack's management switch (``oob-R01-03``), ports p1, p2, ... bottom up, the PDUs last. A rack without one (the
  out-of-band switches central, in management racks) goes to the central switches (``oob-01``), filled rack after
  rack, so that a rack's devices stay together: the compute racks first, in the order of their nodes, then the
  network and management racks. Ports beyond a switch's RJ45 ports go to the out-of-band plan's
  further switches, which no rack holds yet (NETWORK_OOB_EXTRA_SWITCHES says so): those ends carry no rack. A
  rack-scale system (NVL72) manages its compute trays (their BMCs, named as the compute rows name the trays), NVLink
  switch trays and power shelves (``R01-02-nvsw-1``, ``R01-02-shelf-1``) on its own two built-in switches
  (``oob-R01-02-1``, ``-2``, filled in turn), whose uplinks land as every out-of-band switch's do.
  **Installed cables stay.** A plan grown from an installed one (an expansion, ``RackPlanSection.grown_from``)
  keeps each installed device's port, by the device's place in the installed plan (rack, role and unit; a PDU by
  its number), wherever its switch stands at the same place in both and is one the rack cables to: the growth
  appends compute racks, but also adds spines, storage leaves and servers to the installed management racks, and
  out-of-band switches beside them, so a fresh filling would hand their ports out anew. What the growth adds takes
  the ports left free, the lowest first, and the added switches. The installed ports are the installed cabling's
  (engines.cluster.installed_ends: an installed cluster itself grown keeps the ports it kept), and a grown plan's
  storage and in-band switch where an installed one stood keeps its name (an in-band pair that becomes leaves
  under spines stays ``inband-switch-01`` and ``-02``).
  Cords: the plan's cord for a run inside the rack; to a central switch the uplink run's length class is not
  known, so the cord column is the plan's as well and the length is the rack plan's management run.
* **Uplinks on real ports.** Each out-of-band switch's uplinks (two: SPOD-H100-OOB-UPLINKS) land on the network
  the out-of-band plan names (in-band, or the converged storage network): the pair's switches, or the last
  scalable unit's leaves, on their free ports from the top down (no port used twice; the nodes take theirs from
  the bottom up, so a grown cluster leaves the uplinks be), uplink j on target j; with neither network planned, on
  the customer's network (``uplink-net-01``, no rack). A grown plan's installed out-of-band switch keeps its
  uplinks on the switch ports the installed cabling gave them, while those switches stand and the ports are free.
* **Storage and in-band** rows as the network's fabric plan gives them (engines.networks.cabling), each switch at
  its rack and unit; a node end (in-band ``node-0001/mgmt1``, storage ``node-0001/stor1``) at its node's when
  every racked node has the network's adapters. A storage system's port is the customer's (no rack), numbered
  among the storage systems' ports (``storage-port-0001`` the first), so a cluster grown by nodes keeps its names;
  the storage systems' leaves come first (engines.fabric.cabling), so it keeps their cables too.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from engines.fabric.cabling import Row, switch_name
from engines.fabric.model import FabricPlan
from engines.networks.cabling import switched_rows
from engines.networks.model import INBAND, OOB, STORAGE, NetworkPlan
from engines.networks.oob import DEVICE_LEAF, LEAF_UPLINK
from engines.racks.model import DeviceRole, Rack, RackKind, RackPlan

from .fabric_names import installed_names, kept_names
from .installed_ends import InstalledEnds, Landing, Slot, SlotEnd, Uplink
from .rackplan import RackPlanSection, placed

Place = tuple[str, str]  # (rack, unit) as the CSV writes them: "" where unknown
NOWHERE: Place = ("", "")
Key = Slot  # a management port by its place in the rack plan (``_slots``)
End = SlotEnd  # the out-of-band switch, its port and its place
_COMPUTE = {DeviceRole.LEAF: "leaf", DeviceRole.SPINE: "spine", DeviceRole.CORE: "core"}
_NETWORK = {
    DeviceRole.STORAGE_LEAF: (STORAGE, "leaf"),
    DeviceRole.STORAGE_SPINE: (STORAGE, "spine"),
    DeviceRole.STORAGE_CORE: (STORAGE, "core"),
    DeviceRole.INBAND_LEAF: (INBAND, "leaf"),
    DeviceRole.INBAND_SPINE: (INBAND, "spine"),
    DeviceRole.INBAND_CORE: (INBAND, "core"),
}
_SERVERS = (DeviceRole.CONTROL, DeviceRole.UFM)
_MANAGED = frozenset({DeviceRole.NODE, *_COMPUTE, *_NETWORK, *_SERVERS})  # a rack's devices with a management port
_SYSTEM_WORDS = {DeviceRole.NODE: "tray", DeviceRole.NVLINK_SWITCH: "nvsw", DeviceRole.POWER_SHELF: "shelf"}
DEFAULT_RJ45_PORTS = 48  # when the out-of-band plan does not say (SN2201: 48 x RJ45, catalog/seed/FACTS.md)


def _unit(u: int | None) -> str:
    return "" if u is None else str(u)


@dataclass
class Model:
    """Every device of the rack plan by name, with its place; the nodes by their cabling number."""

    section: RackPlanSection
    fabric: FabricPlan | None
    networks: Mapping[str, NetworkPlan | None]
    group_counts: Mapping[str, int]
    compute_name: Callable[[str], str] = lambda name: name
    places: dict[str, Place] = field(default_factory=dict)
    nodes: list[tuple[str, int] | None] = field(default_factory=list)
    width: int = 4
    renamed: dict[str, str] = field(default_factory=dict)  # a grown plan's switches that keep an installed name
    compute_kept: dict[str, str] = field(default_factory=dict)  # its compute switches that do (planners' names)

    def __post_init__(self) -> None:
        plan = self.section.plan
        groups = list(self.section.fabric_node_groups)
        groups += [g for g in self.group_counts if g not in groups]
        per_node = self.section.fabric_endpoints_per_node
        for g in groups:
            self.nodes += placed(plan, g, self.group_counts.get(g, 0), per_node.get(g, 1))
        fabric_nodes = self.fabric.nodes if self.fabric is not None and self.fabric.tiers else len(self.nodes)
        self.width = max(4, len(str(fabric_nodes)))
        self.renamed = _renamed(self)
        self.compute_kept = kept_names(self.section, self.fabric, self.group_counts)

    def node(self, n: int) -> str:
        return f"node-{n + 1:0{self.width}d}"

    def node_place(self, n: int) -> Place:
        where = self.nodes[n] if n < len(self.nodes) else None
        return NOWHERE if where is None else (where[0], str(where[1]))

    def switch(self, role: DeviceRole, index: int) -> str | None:
        """The cabling name of the index-th switch of ``role`` (plan order), as the network's rows name it (an
        installed switch's name where the plan grew from it: ``renamed``, ``compute_kept``)."""
        if role in _COMPUTE:
            if self.fabric is None or not self.fabric.tiers:
                return None
            planned = switch_name(self.fabric, _COMPUTE[role], index)
            return self.compute_name(self.compute_kept.get(planned, planned))
        name = _network_switch(self.networks, role, index)
        return None if name is None else self.renamed.get(name, name)


def _network_switch(networks: Mapping[str, NetworkPlan | None], role: DeviceRole, index: int) -> str | None:
    """The name the network's own rows give the index-th storage or in-band switch of ``role``."""
    key, tier = _NETWORK[role]
    network = networks.get(key)
    if network is None or network.fabric is None or not network.fabric.tiers:
        return None
    if network.fabric.tiers == 1:
        return f"{key}-switch-{index + 1:02d}"
    return f"{key}-{switch_name(network.fabric, tier, index)}"


def _renamed(model: Model) -> dict[str, str]:
    """The storage and in-band switches of a grown plan that stand where installed ones of their role stood, by
    their own rows' names, to the installed names (engines.cluster.installed_ends); none where that would give two
    switches one name."""
    ends = model.section.installed_ends
    if ends is None or not ends.names:
        return {}
    out: dict[str, str] = {}
    for role, i, (rack, u) in _network_switches(model.section.plan):
        name, old = _network_switch(model.networks, role, i), ends.names.get((str(role), rack, u))
        if name is not None and old is not None and old != name:
            out[name] = old
    every: list[str | None] = []
    for role, (key, tier) in _NETWORK.items():
        fabric = (network := model.networks.get(key)) and network.fabric
        if fabric:
            count = {"leaf": fabric.leaf_switches, "spine": fabric.spine_switches}.get(tier, fabric.core_switches)
            every += [_network_switch(model.networks, role, i) for i in range(count)]
    named = [out.get(n, n) for n in every if n is not None]
    return out if len(set(named)) == len(named) else {}


def _network_switches(plan: RackPlan) -> Iterator[tuple[DeviceRole, int, Place]]:
    """Every storage and in-band switch of the plan: its role, its number among its role's (plan order), its place."""
    seen: dict[DeviceRole, int] = defaultdict(int)
    for rack in plan.racks:
        for d in rack.devices:
            if d.role in _NETWORK:
                yield d.role, seen[d.role], (rack.name, str(d.position_u))
                seen[d.role] += 1


def _managed(
    model: Model, rack: Rack, seen: dict[DeviceRole, int], servers: dict[str, int]
) -> Iterator[tuple[str | None, str, int | None]]:
    """(name, port, unit) of every device of the rack with a management port, bottom up, then its PDUs, one for
    each of ``_slots`` (name None: a switch of a network the model does not cable)."""
    node = rack.first_node
    if rack.system:
        yield from _system_managed(model, rack)
        return
    for d in rack.devices:
        if d.role == DeviceRole.NODE:
            yield model.node(_fabric_index(model, rack, node)), "bmc", d.position_u
            node += 1
        elif d.role in _COMPUTE or d.role in _NETWORK:
            i = seen[d.role]
            seen[d.role] += 1
            yield model.switch(d.role, i), "mgmt", d.position_u
        elif d.role in _SERVERS:
            servers[d.part] += 1
            yield f"{d.part.lower()}-{servers[d.part]:02d}", "bmc", d.position_u
    horizontal = [d.position_u for d in rack.devices if d.role == DeviceRole.PDU]
    for k in range(_pdus(rack)):
        yield f"{rack.name}-pdu-{k + 1}", "net", horizontal[k] if k < len(horizontal) else None


def _pdus(rack: Rack) -> int:
    return sum(p.quantity for p in rack.pdus)


def _slots(rack: Rack) -> list[Key]:
    """The rack's management ports as ``_managed`` lists them, each by its place in the rack plan alone (the rack,
    the device's role, unit and number among those of its role at that unit; a PDU by its number): the same in an
    installed plan and in the plan grown from it, wherever the device stands in both."""
    roles = _SYSTEM_WORDS if rack.system else _MANAGED
    out: list[Key] = []
    count: dict[tuple[str, int], int] = defaultdict(int)
    for d in rack.devices:
        if d.role in roles:
            count[(d.role, d.position_u)] += 1
            out.append((rack.name, str(d.role), d.position_u, count[(d.role, d.position_u)]))
    if not rack.system:
        out += [(rack.name, "pdu", k + 1, 1) for k in range(_pdus(rack))]
    return out


def _system_managed(model: Model, rack: Rack) -> Iterator[tuple[str, str, int | None]]:
    """A rack-scale system's trays and shelves with a management port, bottom up: a compute tray by its compute
    rows' name when each tray is a fabric endpoint of its own (else by the rack's name), an NVLink switch tray and a
    power shelf by the rack's name and their number in it."""
    first = _fabric_index(model, rack, rack.first_node)
    trays = sum(d.role == DeviceRole.NODE for d in rack.devices)
    own = model.section.fabric_endpoints_per_node.get(rack.node_group or "", 1) == trays
    count: dict[DeviceRole, int] = defaultdict(int)
    for d in rack.devices:
        if d.role not in _SYSTEM_WORDS:
            continue
        k = count[d.role]
        count[d.role] += 1
        if d.role == DeviceRole.NODE:
            name = model.node(first + k) if own else f"{rack.name}-tray-{k + 1:02d}"
            yield name, "bmc", d.position_u
        else:
            yield f"{rack.name}-{_SYSTEM_WORDS[d.role]}-{k + 1}", "mgmt", d.position_u


def _fabric_index(model: Model, rack: Rack, node: int) -> int:
    """The cabling number of the rack's node ``node`` (0-based in its group)."""
    offset = 0
    groups = list(model.section.fabric_node_groups)
    groups += [g for g in model.group_counts if g not in groups]
    for g in groups:
        if g == rack.node_group:
            return offset + node * model.section.fabric_endpoints_per_node.get(g, 1)
        offset += model.group_counts.get(g, 0) * model.section.fabric_endpoints_per_node.get(g, 1)
    return offset + node


class _Switches:
    """The out-of-band switches the rows fill: a rack's own, the central ones, then further unracked ones; each
    port given once, the lowest free one first."""

    def __init__(self, ports: int) -> None:
        self.ports = ports
        self.taken: dict[str, set[int]] = defaultdict(set)
        self.low: dict[str, int] = defaultdict(lambda: 1)  # no port below it is free
        self.order: list[tuple[str, Place]] = []
        self.central: list[tuple[str, Place]] = []
        self.places: dict[str, Place] = {}
        self.full = 0  # the central switches before it have no free port
        self.extra = 0

    def add(self, name: str, place: Place, *, central: bool = False) -> None:
        self.order.append((name, place))
        if central:
            self.central.append((name, place))
            self.places[name] = place

    def keep(self, own: Sequence[tuple[str, Place]], end: End | None) -> End | None:
        """``end`` (an installed device's port) where the plan has its switch at its place, among the ones the
        device's rack cables to, and the port is free; else None."""
        if end is None:
            return None
        name, port, place = end
        n = int(port[1:]) if port[1:].isdigit() else 0
        ours = (name, place) in own if own else self.places.get(name) == place
        if not ours or not 1 <= n <= self.ports or n in self.taken[name]:
            return None
        self.taken[name].add(n)
        return end

    def _free(self, name: str) -> int | None:
        n = self.low[name]
        while n <= self.ports and n in self.taken[name]:
            n += 1
        self.low[name] = n
        return n if n <= self.ports else None

    def port(self, own: Sequence[tuple[str, Place]]) -> End:
        """The lowest free port on the rack's own switches, else on the central ones, else on a further one."""
        pool = own or self.central[self.full :]
        for name, place in pool:
            n = self._free(name)
            if n is not None:
                self.taken[name].add(n)
                return name, f"p{n}", place
            if not own:
                self.full += 1
        if not self.extra or len(self.taken[f"oob-extra-{self.extra:02d}"]) >= self.ports:
            self.extra += 1
            self.order.append((f"oob-extra-{self.extra:02d}", NOWHERE))
        name = f"oob-extra-{self.extra:02d}"
        self.taken[name].add(len(self.taken[name]) + 1)
        return name, f"p{len(self.taken[name])}", NOWHERE


def _oob_ports(
    plan: RackPlan, ports: int, kept: Mapping[Key, End]
) -> tuple[list[tuple[list[Key], list[End]]], list[tuple[str, Place]]]:
    """Per rack (plan order), its management ports (``_slots``) and the switch port of each; and every switch in
    order (for their uplinks). A port ``kept`` names stays where the plan still has its switch; the others are given
    the compute racks first, in the order of their nodes, then the network and management racks: growth appends
    compute racks and changes those others, so a greenfield plan's compute racks keep their ports as it grows."""
    switches = _Switches(ports)
    for rack in plan.racks:
        for d in rack.devices:
            if d.role == DeviceRole.OOB:
                switches.add(f"oob-{len(switches.central) + 1:02d}", (rack.name, str(d.position_u)), central=True)
    racks = [(rack, _own_switches(rack), _slots(rack)) for rack in plan.racks]
    for _rack, own, _keys in racks:
        for switch in own:
            switches.add(*switch)
    held = [[switches.keep(own, kept.get(key)) for key in keys] for _rack, own, keys in racks]
    ends: dict[int, list[End]] = {}
    for k in sorted(range(len(racks)), key=lambda k: racks[k][0].kind != RackKind.COMPUTE):
        ends[k] = [end or switches.port(racks[k][1]) for end in held[k]]
    return [(racks[k][2], ends[k]) for k in range(len(racks))], switches.order


def _kept_ports(installed: RackPlan, ports: int) -> dict[Key, End]:
    """The installed plan's out-of-band ports as its own cabling gives them, by their place in the plan."""
    placed, _order = _oob_ports(installed, ports, {})
    return {key: end for keys, ends in placed for key, end in zip(keys, ends, strict=True)}


def _placed_ports(model: Model, ports: int) -> tuple[list[tuple[list[Key], list[End]]], list[tuple[str, Place]]]:
    """``_oob_ports`` of the model's plan, keeping the installed plan's ports: as its cabling gave them where the
    expansion took them from it (an installed cluster itself grown keeps its own installed ports), else as the
    installed plan's own filling gives them."""
    installed, ends = model.section.grown_from, model.section.installed_ends
    if ends is not None and ends.ports:
        kept: Mapping[Key, End] = ends.ports
    else:
        kept = _kept_ports(installed, ports) if installed is not None else {}
    return _oob_ports(model.section.plan, ports, kept)


def oob_rows(model: Model, oob: NetworkPlan, *, ports: int = DEFAULT_RJ45_PORTS) -> Iterator[Row]:
    """The out-of-band rows (module docstring), without the ``network`` column."""
    plan: RackPlan = model.section.plan
    media = {cls: (part, f"{length:g}") for cls, part, length in oob.oob_media}
    cord = media.get(DEVICE_LEAF, ("", ""))
    placed, order = _placed_ports(model, ports)
    seen: dict[DeviceRole, int] = defaultdict(int)
    servers: dict[str, int] = defaultdict(int)
    for rack, (_keys, ends) in zip(plan.racks, placed, strict=True):
        for (name, port, unit), (z, z_port, (z_rack, z_u)) in zip(
            _managed(model, rack, seen, servers), ends, strict=True
        ):
            if name is not None:
                yield (name, port, z, z_port, DEVICE_LEAF, *cord, rack.name, _unit(unit), z_rack, z_u)
    yield from _uplink_rows(model, oob, order, media.get(LEAF_UPLINK, ("", "")))


def _own_switches(rack: Rack) -> list[tuple[str, Place]]:
    """The rack's own out-of-band switches: the plan's management switch, or a rack-scale system's built-in ones
    (top down); none where the switches are central."""
    mine = next((d for d in rack.devices if d.role == DeviceRole.MANAGEMENT), None)
    if mine is not None:
        return [(f"oob-{rack.name}", (rack.name, str(mine.position_u)))]
    if rack.system:
        builtin = [d for d in rack.devices if d.role == DeviceRole.SYSTEM_MANAGEMENT]
        builtin.sort(key=lambda d: -d.position_u)
        return [(f"oob-{rack.name}-{k + 1}", (rack.name, str(d.position_u))) for k, d in enumerate(builtin)]
    return []


def _uplink_rows(
    model: Model, oob: NetworkPlan, switches: Sequence[tuple[str, Place]], medium: tuple[str, str]
) -> Iterator[Row]:
    per = oob.uplinks // max(1, oob.leaf_switches) if oob.uplinks else 0
    if not per:
        return
    targets, spare = _targets(model)
    held = _held_uplinks(model, switches, per, [*targets, *spare])
    for name, (rack, u) in switches:
        for j in range(per):
            if (name, j) in held:
                z, z_port, (z_rack, z_u) = held[name, j]
            elif targets:
                target = targets[j % len(targets)]
                if not target.free:  # full: the next leaf of the network with a free port (the plan counts them all)
                    target = next((t for t in spare if t.free), target)
                z, z_port, (z_rack, z_u) = target.take()
            else:
                z, z_port, (z_rack, z_u) = f"uplink-net-{j + 1:02d}", "", NOWHERE
            yield (name, f"u{j + 1}", z, z_port, LEAF_UPLINK, *medium, rack, u, z_rack, z_u)


def _held_uplinks(
    model: Model, switches: Sequence[tuple[str, Place]], per: int, targets: Sequence[_Target]
) -> dict[tuple[str, int], tuple[str, str, Place]]:
    """The uplinks of a grown plan's out-of-band switches that stay where the installed plan landed them (the same
    switch at the same place, its uplink j on the same switch and port, still free): those ports taken first."""
    ends = model.section.installed_ends
    if ends is None or not ends.uplinks:
        return {}
    by_name = {t.name: t for t in targets}
    held: dict[tuple[str, int], tuple[str, str, Place]] = {}
    for name, (rack, u) in switches:
        for j in range(per):
            old = ends.uplinks.get((name, rack, u, f"u{j + 1}"))
            target = by_name.get(old[0]) if old is not None else None
            if old is not None and target is not None and target.place == old[2:] and old[1] in target.free:
                target.free.remove(old[1])
                held[name, j] = target.name, old[1], target.place
    return held


@dataclass
class _Target:
    """A switch the out-of-band uplinks land on, and its free ports in order."""

    name: str
    place: Place
    free: list[str]

    def take(self) -> tuple[str, str, Place]:
        return self.name, self.free.pop(0) if self.free else "", self.place


def _targets(model: Model) -> tuple[list[_Target], list[_Target]]:
    """The in-band (or converged storage) switches the uplinks land on, with the ports their own rows leave free,
    and the network's other leaves, last first, for uplinks the chosen ones have no free port for (the plan counts
    the uplinks against the free ports of all its leaves: engines.networks.oob.uplink_ports)."""
    key = next((k for k in (INBAND, STORAGE) if (p := model.networks.get(k)) is not None and p.oob_uplinks), None)
    network = model.networks.get(key) if key else None
    if key is None or network is None or network.fabric is None or not network.fabric.tiers:
        return [], []
    fabric = network.fabric
    used: dict[str, set[str]] = defaultdict(set)
    for f in _switched_rows(model, key, network):
        used[f[0]].add(f[1].split(".")[0])
        used[f[2]].add(f[3].split(".")[0])
    role = DeviceRole.INBAND_LEAF if key == INBAND else DeviceRole.STORAGE_LEAF
    if fabric.tiers == 1:
        chosen = range(fabric.leaf_switches)
    else:
        rails = max(1, min(fabric.rails, fabric.leaf_switches))
        chosen = range(fabric.leaf_switches - rails, fabric.leaf_switches)
    places = [model.places.get(f"{role}:{i}", NOWHERE) for i in range(fabric.leaf_switches)]
    out = []
    for i in range(fabric.leaf_switches):
        name = model.switch(role, i) or ""
        # From the top down: the nodes take the ports from p1 up, so a grown cluster's nodes leave the uplinks be.
        free = [f"p{p}" for p in range(fabric.logical_ports, 0, -1) if f"p{p}" not in used[name]]
        out.append(_Target(name, places[i], free))
    return [out[i] for i in chosen], [out[i] for i in reversed(range(len(out))) if i not in chosen]


def _switched_rows(model: Model, key: str, network: NetworkPlan) -> Iterator[list[str]]:
    """The network's own rows (engines.networks.cabling.switched_rows), a switch kept from the installed plan under
    its installed name."""
    assert network.fabric is not None
    for f in switched_rows(key, network.fabric, network.to_dict()):
        if model.renamed:
            f[0], f[2] = model.renamed.get(f[0], f[0]), model.renamed.get(f[2], f[2])
        yield f


def network_rows(model: Model) -> Iterator[Row]:
    """Every row of the storage, in-band and out-of-band networks with both ends' rack and unit and the ``network``
    column (engines.fabric.cabling.Row), in that order."""
    _index_places(model)
    for key in (STORAGE, INBAND):
        network = model.networks.get(key)
        if network is not None and network.fabric is not None and network.fabric.tiers:
            for row in _placed_rows(model, key, network):
                yield (*row, key)
    oob = model.networks.get(OOB)
    if oob is not None:
        ports = oob.ports_per_switch or DEFAULT_RJ45_PORTS
        for row in oob_rows(model, oob, ports=ports):
            yield (*row, "oob")


def installed_ends(model: Model) -> InstalledEnds:
    """The installed cluster's compute, storage and in-band switch names by place, its leaves' node cables and its
    out-of-band uplinks' ends, as its cabling gives them: what a plan grown from it keeps
    (engines.cluster.installed_ends)."""
    _index_places(model)
    names, cables = installed_names(model.section, model.fabric, model.group_counts, model.compute_kept)
    for role, i, (rack, u) in _network_switches(model.section.plan):
        if (name := model.switch(role, i)) is not None:
            names[str(role), rack, u] = name
    uplinks: dict[Uplink, Landing] = {}
    oob = model.networks.get(OOB)
    if oob is None:
        return InstalledEnds(names=names, node_cables=cables)
    ports = oob.ports_per_switch or DEFAULT_RJ45_PORTS
    for row in oob_rows(model, oob, ports=ports):
        if row[4] == LEAF_UPLINK:
            uplinks[row[0], row[7], row[8], row[1]] = row[2], row[3], row[9], row[10]
    placed, _order = _placed_ports(model, ports)
    held = {key: end for keys, ends in placed for key, end in zip(keys, ends, strict=True)}
    return InstalledEnds(names=names, uplinks=uplinks, ports=held, node_cables=cables)


def _index_places(model: Model) -> None:
    """Every switch of the storage and in-band networks by name and by ``role:index``, with its place."""
    for role, i, place in _network_switches(model.section.plan):
        model.places[f"{role}:{i}"] = place
        name = model.switch(role, i)
        if name is not None:
            model.places[name] = place


def _placed_rows(model: Model, key: str, network: NetworkPlan) -> Iterator[Row]:
    """The network's rows with the rack columns: switches from the model, node ends where every node has a port."""
    assert network.fabric is not None
    racked = sum(1 for n in model.nodes if n is not None)
    per_node = network.ports_per_node
    by_node = network.nodes == racked and per_node and network.node_links >= network.nodes * per_node
    for f in _switched_rows(model, key, network):
        a_place = model.places.get(f[0], NOWHERE)
        if key == STORAGE and f[0].startswith("storage-port-") and by_node:
            k = int(f[0].removeprefix("storage-port-")) - 1
            if k < network.nodes * per_node:
                n, port = divmod(k, per_node)
                f[0], f[1], a_place = model.node(n), f"stor{port + 1}", model.node_place(n)
            else:  # a storage system's port, counted among theirs: the same name however many nodes there are
                f[0] = f"storage-port-{k - network.nodes * per_node + 1:04d}"
        elif f[0].startswith("node-") and by_node:
            a_place = model.node_place(int(f[0].removeprefix("node-")) - 1)
        z_place = model.places.get(f[2], NOWHERE)
        yield (*f, *a_place, *z_place)
