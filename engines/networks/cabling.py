"""The other networks' rows of the cabling list, after the compute fabric's, with the same columns and a last
``network`` column (``compute``, ``storage``, ``inband``, ``oob``).

Names: a network's switches carry its name (``storage-leaf-001``, ``inband-switch-02``, ``oob-leaf-003``); a
storage network's node-side ends are its ports in order (``storage-port-0001``: the nodes' storage ports, then the
storage systems'); an in-band node end is ``node-0001/mgmt2``; out-of-band ends are ``bmc-0001``, ``switch-mgmt-001``
and ``pdu-001``; an in-band pair's peer link is link class ``peer``. These rows carry no rack columns: with a rack
plan the cabling list takes its storage, in-band and out-of-band rows from engines.cluster.cabling instead, which
names every end as a device of the rack plan at its rack and unit; this module's rows serve a result without racks.
"""

from __future__ import annotations

from collections.abc import Iterator

from design.jsontext import JsonObject
from engines.fabric.cabling import Row, cabling_rows, leaf_name, port_name
from engines.fabric.model import FabricPlan

RACK_BLANKS = ("", "", "", "")


def network_rows(network_plans: JsonObject | None, *, rack_columns: bool) -> Iterator[Row]:
    """One row per link of every planned network (engines.fabric.cabling.Row, with the ``network`` column),
    storage, in-band, then out-of-band."""
    blanks = RACK_BLANKS if rack_columns else ()
    for key in ("storage", "inband"):
        plan = (network_plans or {}).get(key)
        if plan and plan.get("fabric") and plan["fabric"].get("tiers"):
            for row in switched_rows(key, FabricPlan.from_dict(plan["fabric"]), plan):
                yield (*row, *blanks, key)
    oob = (network_plans or {}).get("oob")
    if oob:
        for oob_row in _oob_rows(oob, (network_plans or {}).get("inband")):
            yield (*oob_row, *blanks, "oob")


def switched_rows(key: str, fabric: FabricPlan, plan: JsonObject) -> Iterator[list[str]]:
    """The sized fabric's rows (as lists of their fields), its ends renamed for the network; an in-band pair puts
    port r of every node on switch r."""
    pair = key == "inband" and fabric.tiers == 1 and plan["leaf_switches"] > 1
    for row in cabling_rows(fabric):
        fields = list(row)
        a, a_port, z = fields[0], fields[1], fields[2]
        if key == "storage" and fields[4] == "node-leaf":
            a = a.replace("node-", "storage-port-")
            a_port = ""
        elif key != "storage":
            a_port = a_port.replace("nic", "mgmt")
        if pair:
            r = int(fields[1].removeprefix("nic"))
            n = int(a.removeprefix("node-"))
            z, fields[3] = f"switch-{r:02d}", port_name(n - 1, fabric.split)
        fields[0], fields[1], fields[2] = a, a_port, f"{key}-{z}" if not z.startswith(key) else z
        if fields[4] != "node-leaf":
            fields[0] = f"{key}-{fields[0]}"
        yield fields
    if pair:
        yield from _peer_rows(key, fabric)


def _peer_rows(key: str, fabric: FabricPlan) -> Iterator[list[str]]:
    """The peer link of an in-band pair on the switches' last ports (BasePOD's swp57 and swp58 of 64)."""
    peer = fabric.link("peer")
    if peer is None:
        return
    part = peer.cable_part or ""
    length = f"{peer.length_m:g}" if peer.length_m is not None else ""
    k = fabric.logical_ports
    for pair in range(fabric.leaf_switches // 2):
        a, z = f"{key}-switch-{2 * pair + 1:02d}", f"{key}-switch-{2 * pair + 2:02d}"
        for i in range(peer.links // max(1, fabric.leaf_switches // 2)):
            port = f"p{k - 1 + i}"
            yield [a, port, z, port, "peer", part, length]


def _oob_rows(plan: JsonObject, inband: JsonObject | None) -> Iterator[Row]:
    """Every device port on the out-of-band leaves in order (BMCs, switch management ports, PDUs), 48 a leaf by
    default, then each leaf's two uplinks into the in-band network (SPOD-H100-OOB-UPLINKS): uplink j of every
    leaf to in-band leaf j of the pair (or of the last SU), or to ``uplink-net`` (the converged or the customer's
    network), each with the plan's cable for its class (none where the catalogue holds none: see the plan's
    findings)."""
    devices = plan.get("devices", {})
    cord, uplink = (_medium(plan, cls) for cls in ("device-leaf", "leaf-uplink"))
    leaves = max(1, plan.get("leaf_switches", 1))
    per = -(-plan.get("node_links", 0) // leaves) if plan.get("node_links") else 1
    ends = [f"bmc-{i + 1:04d}" for i in range(devices.get("bmcs", 0))]
    ends += [f"switch-mgmt-{i + 1:03d}" for i in range(devices.get("switches", 0))]
    ends += [f"pdu-{i + 1:03d}" for i in range(devices.get("pdus", 0))]
    ends += [f"server-bmc-{i + 1:03d}" for i in range(devices.get("servers", 0))]
    for i, end in enumerate(ends):
        leaf, port = divmod(i, per)
        yield (end, "mgmt", f"oob-leaf-{leaf + 1:03d}", f"p{port + 1}", "device-leaf", *cord)
    if not plan.get("uplinks"):
        return
    targets = _uplink_ends(inband)
    for leaf in range(leaves):
        for j in range(plan["uplinks"] // leaves):
            z = targets[j % len(targets)] if targets else f"uplink-net-{j + 1:02d}"
            yield (f"oob-leaf-{leaf + 1:03d}", f"u{j + 1}", z, f"oob{leaf + 1}", "leaf-uplink", *uplink)


def _medium(plan: JsonObject, link_class: str) -> tuple[str, str]:
    """The ``cable_part`` and ``length_m`` columns of an out-of-band link class (both empty when it has no cable)."""
    medium = (plan.get("media") or {}).get(link_class)
    if not medium:
        return "", ""
    return medium["cable_part"], f"{medium['length_m']:g}"


def _uplink_ends(inband: JsonObject | None) -> list[str]:
    """The in-band switches the out-of-band uplinks land on: the pair, or the leaves of the last SU."""
    if not inband or not inband.get("fabric") or not inband["fabric"].get("tiers"):
        return []
    fabric = FabricPlan.from_dict(inband["fabric"])
    if fabric.tiers == 1 and inband.get("leaf_switches", 0) > 1:
        return [f"inband-switch-{r + 1:02d}" for r in range(inband["leaf_switches"])]
    rails = max(1, fabric.rails)
    first = max(0, fabric.leaf_switches - rails)
    return [f"inband-{leaf_name(fabric, first + r)}" for r in range(min(rails, fabric.leaf_switches))]
