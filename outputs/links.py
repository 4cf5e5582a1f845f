"""The cabling CSV's rows of a validated design: the one source of the cabling CSV and the hand-over formats
(netbox.zip, topology.conf, topology.yaml, fabric.topo, cut-sheet.xlsx), so that every export names the same nodes,
switches and ports, at the same rack and unit, as the cabling CSV. The rows are fields (engines.fabric.cabling.Row:
the CSV's columns, unquoted), made once: the CSV writes them out (``cabling_lines``), the exports read them as they
are (``cabling_rows``, ``compute_links``), never the CSV's text."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, NamedTuple

from django.utils.translation import gettext as _

from engines.cluster.cabling import Model
from engines.cluster.cabling import installed_ends as cabling_ends
from engines.cluster.cabling import network_rows as placed_rows
from engines.cluster.fabric_names import kept_names, renamed_rows
from engines.cluster.installed_ends import InstalledEnds
from engines.cluster.rackplan import fabric_locator
from engines.fabric.cabling import HEADER, RACK_COLUMNS, Row, csv_line
from engines.fabric.cabling import cabling_rows as fabric_rows
from engines.fabric.model import NODE_LEAF
from engines.networks.cabling import network_rows

from .format import OutputErrorCode, OutputUnavailable

if TYPE_CHECKING:
    from configurator.result import ValidationResult


def unavailable() -> OutputUnavailable:
    return OutputUnavailable(OutputErrorCode.NO_FABRIC_PLAN, _("This configuration has no fabric plan to cable."))


def compute_rows(result: ValidationResult) -> tuple[Iterator[Row], bool]:
    """The compute fabric's rows, named by the design's template, and whether they carry the rack columns;
    OutputUnavailable (``no_fabric_plan``) when the design has no fabric with tiers. A cluster grown from an
    installed one keeps its installed switches' names where they stand (engines.cluster.fabric_names)."""
    fabric = result.fabric_plan
    if fabric is None or not fabric.plan.tiers:
        raise unavailable()
    counts = {g["group"]: g["count"] for g in result.totals.groups}
    locate = fabric_locator(result.rack_plan, counts)
    kept = kept_names(result.rack_plan, fabric.plan, counts)
    return named(renamed_rows(fabric_rows(fabric.plan, locate), kept), result), locate is not None


def cabling_rows(result: ValidationResult, network: bool = True) -> Iterator[Row]:
    """Every row of the cabling CSV (no header), as ``cabling_lines`` writes them: the compute rows with a last
    ``network`` column, then the storage, in-band and out-of-band rows; OutputUnavailable (``no_fabric_plan``)
    without a cabled fabric. The rows carry the rack columns when the plan has racks (it does once validated).
    ``network`` False: the compute rows as the fabric gives them, without that last column (for a reader that does
    not read it: 49,000 rows of a 2,048-node fabric not made twice); the other networks' rows keep theirs."""
    compute, rack_columns = compute_rows(result)
    return _with_networks(compute, result, rack_columns, network)


def cabling_table(result: ValidationResult) -> tuple[tuple[str, ...], Iterator[Row]]:
    """The cabling CSV's columns (its header's names) and ``cabling_rows``: what an expansion compares."""
    compute, rack_columns = compute_rows(result)
    return _columns(rack_columns), _with_networks(compute, result, rack_columns)


def network_table(result: ValidationResult) -> tuple[tuple[str, ...], Iterator[Row]]:
    """The columns and rows of a design without a cabled compute fabric: the storage, in-band and out-of-band rows,
    every end at its rack and unit where the plan has racks (what an expansion compares when the installed cluster
    has no compute fabric; the cabling CSV itself is refused for such a design)."""
    rack_columns = bool(result.rack_plan.plan.runs)
    return _columns(rack_columns), _with_networks(iter(()), result, rack_columns)


def cabling_lines(result: ValidationResult) -> Iterator[str]:
    """The cabling CSV's lines (outputs.formats.cabling_csv): the header, then ``cabling_rows``;
    OutputUnavailable (``no_fabric_plan``) without a cabled fabric."""
    return _lines(*cabling_table(result))


def network_lines(result: ValidationResult) -> Iterator[str]:
    """``network_table`` as CSV lines, the header first."""
    return _lines(*network_table(result))


def _columns(rack_columns: bool) -> tuple[str, ...]:
    return tuple((HEADER + (RACK_COLUMNS if rack_columns else "") + ",network").split(","))


def _lines(columns: tuple[str, ...], rows: Iterator[Row]) -> Iterator[str]:
    yield ",".join(columns) + "\n"
    yield from map(csv_line, rows)


def _with_networks(
    compute: Iterator[Row], result: ValidationResult, rack_columns: bool, network: bool = True
) -> Iterator[Row]:
    """The compute fabric's rows with a last ``network`` column (``network``; else as they are), then the storage,
    in-band and out-of-band rows."""
    if network:
        for row in compute:
            yield (*row, "compute")
    else:
        yield from compute
    site = result.site
    if rack_columns:
        # Every end a device of the rack plan, at its rack and unit (engines.cluster.cabling).
        rows = placed_rows(_model(result))
    else:
        rows = network_rows(result.network_plans_json(), rack_columns=False)
    yield from rows if site is None else (site.rename(row, False) for row in rows)


def _model(result: ValidationResult) -> Model:
    site = result.site
    return Model(
        section=result.rack_plan,
        fabric=result.fabric_plan.plan if result.fabric_plan is not None else None,
        networks={key: None if s is None else s.plan for key, s in result.network_plans.items()},
        group_counts={g["group"]: g["count"] for g in result.totals.groups},
        compute_name=site.switch if site is not None else str,
    )


def installed_ends(result: ValidationResult) -> InstalledEnds | None:
    """What a cluster grown from the one ``result`` validated keeps of its cabling: its switch names and uplinks
    (engines.cluster.installed_ends; ``engines.cluster.rackplan.growing_from`` takes them); None without racks."""
    return cabling_ends(_model(result)) if result.rack_plan.plan.runs else None


def named(rows: Iterator[Row], result: ValidationResult, switches: bool = True) -> Iterator[Row]:
    """Cabling CSV rows with the design's naming template (``site``) applied to both ends: the one place names are
    given, so the cabling CSV and every hand-over export name the same nodes and switches."""
    site = result.site
    if site is None:
        return rows
    return (site.rename(row, switches) for row in rows)


class Link(NamedTuple):
    """One row of the cabling CSV's compute part: A end (a node or a switch) to Z end, with rack and unit."""

    a_end: str
    a_port: str
    z_end: str
    z_port: str
    link_class: str
    cable_part: str
    length_m: str
    a_rack: str = ""
    a_u: str = ""
    z_rack: str = ""
    z_u: str = ""

    @property
    def node_link(self) -> bool:
        return self.link_class == NODE_LEAF


def compute_links(result: ValidationResult) -> list[Link]:
    """Every compute link of the design, in the cabling CSV's order."""
    rows, _racks = compute_rows(result)
    return list(map(Link._make, rows))


def node_links(result: ValidationResult) -> Iterator[Link]:
    """The compute links of the nodes only (node to leaf), in the cabling CSV's order, made as they are read (the
    other 33,000 compute rows of a 2,048-node fabric made no link, and none kept)."""
    rows, _racks = compute_rows(result)
    return (Link._make(row) for row in rows if row[4] == NODE_LEAF)


def is_rack_scale(result: ValidationResult) -> bool:
    """True when the design's nodes are trays of rack-scale NVLink systems (GB200/GB300 NVL72)."""
    return any(p.get("rack_scale") for p in result.placement)


def switch_type(result: ValidationResult) -> str:
    """The switch family of the compute fabric (``MQM9700`` of ``MQM9700-NS2F``)."""
    fabric = result.fabric_plan
    part = fabric.plan.switch if fabric is not None else "SWITCH"
    return part.split("-")[0] or part


def plane_of(name: str) -> int:
    """The plane (1-based) of a switch of a multi-plane fabric (``pl2-su01-leaf-r3``), 1 otherwise."""
    if name.startswith("pl") and "-" in name and name[2 : name.index("-")].isdigit():
        return int(name[2 : name.index("-")])
    return 1


def rdma_device(nic: str) -> tuple[str, str]:
    """The RDMA device and its port of a node's NIC: ``nic3`` → (``mlx5_2``, ``P1``), ``nic3.2`` → (``mlx5_2``,
    ``P2``: the NIC's link to a second plane)."""
    number, _, link = nic.removeprefix("nic").partition(".")
    return f"mlx5_{int(number) - 1}", f"P{link or 1}"


def protocol(result: ValidationResult) -> str:
    """``IB`` for a Quantum InfiniBand fabric, ``ETH`` for a Spectrum Ethernet one."""
    family = switch_type(result)
    return "IB" if family.startswith(("MQM", "Q")) else "ETH"


def modules(result: ValidationResult, link_class: str) -> tuple[str, str]:
    """The part that plugs into the A end and the one that plugs into the Z end of a link of the class: the
    transceivers of an optical link (the planner's side a is the switch of a node link, the lower switch of a
    switch link: the A end of a cabling row is the node, or the lower switch), or the cable itself at both ends."""
    fabric = result.fabric_plan
    plan = fabric.plan.link(link_class) if fabric is not None else None
    if plan is None:
        return "", ""
    roles = {role: part for part, _count, role in plan.parts}
    if "transceiver-a" in roles or "transceiver-b" in roles:
        side_a, side_b = roles.get("transceiver-a", ""), roles.get("transceiver-b", "")
        return (side_b, side_a) if link_class == "node-leaf" else (side_a, side_b)
    cable = roles.get("cable", plan.cable_part or "")
    return cable, cable
