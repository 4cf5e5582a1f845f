"""Validation at the service edge (contract design/v1): the cluster's engines in one pass, their findings said in
the result's language, the typed result built.

``run_validation`` takes the parsed design and the catalogue view, hands them to ``engines.cluster.pipeline``
(which runs every engine once and builds the bill) with what only the service has: the settings' indicative
prices and the words of the lines and the bill in the result's language. It then says every finding in that
language and returns a ``ValidationResult`` (configurator.result). Every door reaches it through
configurator.services.design_validate, so the wizard, the API, the CLI and the quote task never disagree; each door
writes the result out itself (``ValidationResult.to_json()``).
"""

from __future__ import annotations

import gc
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from django.utils import translation

from configurator.cluster import describe_line, service_prices
from configurator.result import FabricSection, LinesSection, NetworkSection, ShownFinding, Totals, ValidationResult
from design.model import DesignIn
from design.specs import CatalogView
from engines.cluster.bill import bom_total
from engines.cluster.pipeline import design_hash, validate_cluster
from engines.findings.finding import Finding, Severity
from messages import bill as bill_words
from messages import finding_dicts, totals_dict


def shown_findings(findings: Iterable[Finding], language: str) -> tuple[ShownFinding, ...]:
    """``findings`` with their message and fix in ``language``."""
    findings = list(findings)
    return tuple(
        ShownFinding(d["code"], f.severity, d["subject"], d["message"], d["fix"])
        for f, d in zip(findings, finding_dicts(findings, language), strict=True)
    )


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


def run_validation(design: DesignIn, catalog: CatalogView, *, document: Any, language: str = "en") -> ValidationResult:
    with translation.override(language), _no_collection():
        v = validate_cluster(design, catalog, prices=service_prices(), describe=describe_line, words=bill_words)
    fabric = v.fabric_plan
    total, on_request = bom_total(v.bom)
    return ValidationResult(
        valid=not any(f.severity == Severity.ERROR for f in v.findings),
        findings=shown_findings(v.findings, language),
        placement=v.node.placement,
        fabric_plan=None if fabric is None else FabricSection(fabric, shown_findings(fabric.findings, language)),
        network_plans={
            key: None if p is None else NetworkSection(plan=p, findings=shown_findings(p.findings, language))
            for key, p in v.network_plans.items()
        },
        totals=Totals(
            nodes=totals_dict(v.node.totals),
            racks=v.rack_plan.plan.totals(),
            power=v.power,
            list_price_eur=total,
            list_price_at_least=on_request > 0,
        ),
        rack_plan=v.rack_plan,
        control_plane=LinesSection(v.control_plane, shown_findings(v.control_plane_findings, language)),
        services=LinesSection(v.services, shown_findings(v.services_findings, language)),
        defaults_added=v.defaults_added,
        sizing=v.node.sizing,
        catalog_version=catalog.version,
        design_hash=design_hash(document),
        language=language,
        bom=v.bom,
        left_out=v.left_out,
        site=design.site,
        name=design.name,
    )
