"""``cabling.csv``: the per-port cabling plan of the design's networks, one row per link.

The compute fabric's rows (engines.fabric.cabling: A end, Z end, port, cable part, length, then the rack and unit of
both ends from the rack plan) with a last ``network`` column, then the storage, in-band and out-of-band rows, each
end a device of the rack plan with its rack and unit (engines.cluster.cabling; without a rack plan,
engines.networks.cabling's rows without rack columns). Streamed row by row, so that a 2,000-node plan never sits
in memory."""

from __future__ import annotations

from collections.abc import Iterator

from configurator.result import ValidationResult
from outputs.format import OutputFormat
from outputs.links import cabling_lines, unavailable


def render(result: ValidationResult, language: str) -> Iterator[str]:
    """The CSV lines; OutputUnavailable (``no_fabric_plan``) when the design has no fabric with tiers."""
    return cabling_lines(result)


FORMAT = OutputFormat(name="cabling.csv", media_type="text/csv", render=render, unavailable=unavailable)
