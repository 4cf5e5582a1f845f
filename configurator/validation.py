"""Validation at the service edge (contract design/v1): the cluster's engines in one pass, the typed result built.

``run_validation`` takes the design document and the catalogue view: the intake (engines.intake) parses the
document and checks its part numbers, then ``engines.cluster.pipeline`` runs every engine once and builds the bill,
with what only the service has: the settings' indicative prices and the words of the lines and the bill in the
result's language. It returns what they found as a
``ValidationResult`` (configurator.result), which says every finding in the result's language where it is read.
Every door reaches it through configurator.services.design_validate, so the wizard, the API, the CLI and the quote
task never disagree; each door writes the result out itself (``ValidationResult.to_json()``).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.utils import translation

from configurator.cluster import describe_line, service_prices
from configurator.result import ValidationResult
from configurator.snapshot import catalog_snapshot
from design.model import DesignIn
from engines.catalog_view import CatalogView
from engines.cluster.pipeline import validate_cluster
from engines.intake.parse import design_hash, parse_design
from engines.intake.references import check_references
from messages import bill as bill_words


@contextmanager
def _no_collection() -> Iterator[None]:
    """The cyclic garbage collector paused while the engines run. A large plan makes hundreds of thousands of
    short-lived objects and no cycle worth collecting mid-way (the plans are frozen dataclasses, freed by their
    reference counts), yet each burst of them sets off collections over every object the worker holds (the plans
    kept per process among them): POST validate of 100,000 nodes took 175 ms CPU with the collector running and
    148 ms with it paused here (medians of 8 each, interleaved, the collection it defers included). Whatever cycles
    the run leaves are collected after it as usual."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


@dataclass(frozen=True)
class Validated:
    """A validation with what it read: the parsed design and the catalogue view it was validated against."""

    design: DesignIn
    catalog: CatalogView
    result: ValidationResult


def run_validation(document: Any, catalog: CatalogView | None, *, language: str = "en") -> Validated:
    """Validate ``document`` in one pass: parsed, its part numbers checked against ``catalog`` (the live
    catalogue's view when None), every engine run, the result built. Raises DesignInputError (naming every bad
    field) before any engine runs."""
    design = parse_design(document)  # a malformed or oversized document is refused before the catalogue is read
    digest = design_hash(document)
    if catalog is None:
        catalog = catalog_snapshot()
    check_references(design, catalog)
    with translation.override(language), _no_collection():
        found = validate_cluster(design, catalog, prices=service_prices(), describe=describe_line, words=bill_words)
    result = ValidationResult(
        found=found,
        catalog_version=catalog.version,
        design_hash=digest,
        language=language,
        site=design.site,
        name=design.name,
        catalog=catalog,
    )
    return Validated(design=design, catalog=catalog, result=result)
