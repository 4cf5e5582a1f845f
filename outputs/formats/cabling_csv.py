"""``cabling.csv``: the per-port cabling plan of the design's networks, one row per link.

The compute fabric's rows (engines.fabric.cabling: A end, Z end, port, cable part, length, then the rack and unit of
both ends from the rack plan) with a last ``network`` column, then the storage, in-band and out-of-band rows, each
end a device of the rack plan with its rack and unit (engines.cluster.cabling; without a rack plan,
engines.networks.cabling's rows without rack columns). Streamed row by row, so that a 2,000-node plan never sits
in memory."""

from __future__ import annotations

from collections.abc import Iterator

from configurator.result import ValidationResult
from engines.cluster.cabling import Model
from engines.cluster.cabling import network_rows as placed_rows
from engines.networks.cabling import network_rows
from outputs.format import OutputFormat
from outputs.links import compute_lines, unavailable


def render(result: ValidationResult, language: str) -> Iterator[str]:
    """The CSV lines; OutputUnavailable (``no_fabric_plan``) when the design has no fabric with tiers."""
    compute, rack_columns = compute_lines(result)
    return _with_networks(compute, result, rack_columns)


def _with_networks(compute: Iterator[str], result: ValidationResult, rack_columns: bool) -> Iterator[str]:
    """The compute fabric's rows with a last ``network`` column, then the storage, in-band and out-of-band rows."""
    for i, line in enumerate(compute):
        yield line.rstrip("\n") + (",network\n" if i == 0 else ",compute\n")
    site = result.site
    if rack_columns:
        # Every end a device of the rack plan, at its rack and unit (engines.cluster.cabling).
        model = Model(
            section=result.rack_plan,
            fabric=result.fabric_plan.plan if result.fabric_plan is not None else None,
            networks={key: None if s is None else s.plan for key, s in result.network_plans.items()},
            group_counts={g["group"]: g["count"] for g in result.totals.groups},
            compute_name=site.switch if site is not None else str,
        )
        rows = placed_rows(model)
    else:
        rows = network_rows(result.network_plans_json(), rack_columns=False)
    yield from rows if site is None else (site.rename(row, False) for row in rows)


FORMAT = OutputFormat(name="cabling.csv", media_type="text/csv", render=render, unavailable=unavailable)
