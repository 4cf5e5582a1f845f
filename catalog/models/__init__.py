"""What can be sold: parts, their typed technical specs with a source per spec, and prices.

Compatibility is data: which GPUs a server takes, which slot sits behind which PCIe switch, which
connector and plug top each cable end has. A nullable spec field means *unknown* and is shown as such.
The enums are the shared hardware vocabulary (design.vocabulary), so the catalogue and the engines speak one
language without the catalogue importing an engine.
"""

from __future__ import annotations

from design.vocabulary import Category

from .components import Adapter, Bridge, Gpu
from .fabric import Media, Switch
from .node import M2_FORMS, Cpu, Drive, DriveForm, DriveInterface, Memory
from .part import CATEGORY_CHOICES, NODE_CATEGORY_CHOICES, CatalogRelease, Lifecycle, Part, SpecBase
from .rack import Pdu, PowerCord, Rack
from .server import DefaultPart, DriveBay, PcieSwitch, PsuOption, Server, ServerSlot

__all__ = [
    "CATEGORY_CHOICES",
    "M2_FORMS",
    "NODE_CATEGORY_CHOICES",
    "SPEC_MODELS",
    "spec_relation",
    "SPEC_RELATED",
    "Adapter",
    "Bridge",
    "CatalogRelease",
    "Cpu",
    "DefaultPart",
    "Drive",
    "DriveBay",
    "DriveForm",
    "DriveInterface",
    "Gpu",
    "Lifecycle",
    "Media",
    "Memory",
    "Part",
    "PcieSwitch",
    "Pdu",
    "PowerCord",
    "PsuOption",
    "Rack",
    "Server",
    "ServerSlot",
    "SpecBase",
    "Switch",
]

# Every part kind: its category and its spec model. The snapshot, the admin, the API, the seed loader and the
# snapshot's refresh signals (catalog/signals.py) all derive their lists from this one.
SPEC_MODELS: dict[str, type[SpecBase]] = {
    Category.SERVER.value: Server,
    Category.GPU.value: Gpu,
    Category.BRIDGE.value: Bridge,
    Category.ADAPTER.value: Adapter,
    Category.SWITCH.value: Switch,
    Category.CABLE.value: Media,
    Category.TRANSCEIVER.value: Media,
    # Node contents and rack-level parts.
    "cpu": Cpu,
    "memory": Memory,
    "drive": Drive,
    "rack": Rack,
    "pdu": Pdu,
    "power_cord": PowerCord,
}


# The parts' one-to-one spec relations (``part.server``, ``part.media``…), for ``select_related``.
def spec_relation(model: type[SpecBase]) -> str:
    """The part's one-to-one relation to the spec model ``model`` (``part.server``, ``part.media``…)."""
    return model._meta.get_field("part").related_query_name()  # type: ignore[misc]  # each spec model's own ``part``


SPEC_RELATED: list[str] = list(dict.fromkeys(spec_relation(model) for model in SPEC_MODELS.values()))
