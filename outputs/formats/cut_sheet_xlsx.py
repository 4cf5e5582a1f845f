"""``cut-sheet.xlsx``: the installer's cut-sheet as NVIDIA's Cable Validation Tool reads a P2P workbook, from the
cabling CSV's compute rows. A ``Links`` sheet (A-Node, A-Port, Z-Node, Z-Port, Protocol, the module part number
that plugs into each end, and both ends' rack and U on every row; a split switch port in the tool's ``n/2`` form,
``9/2``; a node's port is its RDMA device, ``mlx5_2``) and a ``Nodes`` sheet with every node and switch."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from configurator.result import ValidationResult
from engines.fabric.model import NODE_LEAF
from outputs.format import OutputFormat
from outputs.links import compute_rows, modules, protocol, rdma_device, unavailable
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
    """The workbook in pieces as it is written: the Links sheet row by row from the compute rows as they come, then
    the Nodes sheet of every node and switch those rows named."""
    compute, racks = compute_rows(result)
    if not racks:  # a design without a rack plan: no rack columns
        compute = (row + ("", "", "", "") for row in compute)
    nodes: dict[str, tuple[str, str, int | str]] = {}
    links = _links(result, compute, nodes)
    return (piece for piece in workbook([("Links", links), ("Nodes", _nodes(nodes))]) if piece)


def _links(
    result: ValidationResult, compute: Iterable[tuple[str, ...]], nodes: dict[str, tuple[str, str, int | str]]
) -> Iterator[tuple[Cell, ...]]:
    """The Links sheet's rows, noting in ``nodes`` each end's kind and place as it goes."""
    kind = protocol(result)
    media: dict[str, tuple[str, str]] = {}  # the modules of each link class
    yield LINKS
    for a_end, a_port, z_end, z_port, link_class, part, length, a_rack, a_u, z_rack, z_u in compute:
        node = link_class == NODE_LEAF
        a_module, z_module = media.get(link_class) or media.setdefault(link_class, modules(result, link_class))
        yield (a_end, port(a_end, a_port, node), a_rack, _u(a_u), z_end, port(z_end, z_port, False), z_rack, _u(z_u),
               kind, a_module, z_module, part, float(length) if length else "")  # fmt: skip
        nodes.setdefault(a_end, ("node" if node else "switch", a_rack, _u(a_u)))
        nodes.setdefault(z_end, ("switch", z_rack, _u(z_u)))


def _nodes(nodes: dict[str, tuple[str, str, int | str]]) -> Iterator[tuple[Cell, ...]]:
    yield NODES
    for name, where in nodes.items():
        yield (name, *where)


FORMAT = OutputFormat(
    name="cut-sheet.xlsx",
    media_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    render=render,
    unavailable=unavailable,
)
