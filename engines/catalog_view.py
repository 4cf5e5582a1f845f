"""The catalogue view: what the engines may know of the catalogue, one catalogue state.

configurator.snapshot makes it from the catalogue's models (the only ORM-aware bridge), engines.catalog_json from
the JSON a quote keeps, and engine tests directly. Every engine reads the parts through it (``get``, ``of_type``);
the part specs it holds are the design contract's (design.specs), which the wizard's forms read too. The doors hold
the views the services give them (the wizard lists their parts by kind) and name the class in annotations only.
Nothing in this module imports Django.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from design.specs import PartSpec, ReferenceSystemSpec


@dataclass(frozen=True, kw_only=True, eq=False)  # identity: a view is one catalogue state
class CatalogView:
    """What the engines may know of the catalogue: the parts a design names, plus every switch and
    every cable, transceiver and fibre (the fabric planner chooses among them)."""

    version: str
    parts: Mapping[str, PartSpec] = field(default_factory=dict)
    reference_systems: tuple[ReferenceSystemSpec, ...] = ()  # NVIDIA's own 8-GPU systems (system-memory rule)
    # The parts of each type asked for, in the order of ``parts``: a validation asks for the switches, the media,
    # the PDUs... a dozen times, each a scan of the whole catalogue. A view is one catalogue state: its parts are
    # not changed once it is made (a changed catalogue is a new view), so the scan is done once per view and type.
    _of_type: dict[type, tuple[Any, ...]] = field(default_factory=dict, init=False, repr=False, compare=False)

    def get(self, part_number: str) -> PartSpec | None:
        return self.parts.get(part_number)

    def of_type(self, kind: type) -> list[Any]:
        found = self._of_type.get(kind)
        if found is None:
            found = self._of_type[kind] = tuple(p for p in self.parts.values() if isinstance(p, kind))
        return list(found)
