"""``cut-sheet.xlsx``: the installer's cut-sheet as NVIDIA's Cable Validation Tool reads a P2P workbook, from the
cabling CSV's compute rows. A ``Links`` sheet (A-Node, A-Port, Z-Node, Z-Port, Protocol, the module part number
that plugs into each end, and both ends' rack and U on every row; a split switch port in the tool's ``n/2`` form,
``9/2``; a node's port is its RDMA device, ``mlx5_2``) and a ``Nodes`` sheet with every node and switch."""

from __future__ import annotations

from collections.abc import Iterator

from configurator.result import ValidationResult
from outputs.format import OutputFormat
from outputs.links import compute_links, modules, protocol, rdma_device, unavailable
from outputs.xlsxrows import Cell, workbook

LINKS = ("A-Node", "A-Port", "A-Rack", "A-U", "Z-Node", "Z-Port", "Z-Rack", "Z-U", "Protocol", "A-Module",
         "Z-Module", "Cable", "Length (m)")  # fmt: skip
NODES = ("Node", "Kind", "Rack", "U")


def port(end: str, value: str, node: bool) -> str:
    """The tool's port: a switch's ``p17`` → ``17``, split half ``p9.2`` → ``9/2``; a node NIC's RDMA device."""
    if node:
        device, panel = rdma_device(value)
        return device if panel == "P1" else f"{device}/{panel.removeprefix('P')}"
    return value.removeprefix("p").replace(".", "/")


def _u(value: str) -> int | str:
    return int(value) if value.isdigit() else value


def render(result: ValidationResult, language: str) -> Iterator[bytes]:
    links = compute_links(result)
    kind = protocol(result)
    rows: list[tuple[Cell, ...]] = [LINKS]
    nodes: dict[str, tuple[str, str, int | str]] = {}
    media: dict[str, tuple[str, str]] = {}
    for link in links:
        node = link.node_link
        a_module, z_module = media.setdefault(link.link_class, modules(result, link.link_class))
        rows.append(
            (link.a_end, port(link.a_end, link.a_port, node), link.a_rack, _u(link.a_u), link.z_end,
             port(link.z_end, link.z_port, False), link.z_rack, _u(link.z_u), kind, a_module, z_module,
             link.cable_part, float(link.length_m) if link.length_m else "")
        )  # fmt: skip
        nodes.setdefault(link.a_end, ("node" if node else "switch", link.a_rack, _u(link.a_u)))
        nodes.setdefault(link.z_end, ("switch", link.z_rack, _u(link.z_u)))
    listed: list[tuple[Cell, ...]] = [NODES, *((name, *where) for name, where in nodes.items())]
    return iter((workbook([("Links", rows), ("Nodes", listed)]),))


FORMAT = OutputFormat(
    name="cut-sheet.xlsx",
    media_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    render=render,
    unavailable=unavailable,
)
