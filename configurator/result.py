"""The validation result as typed objects (contract design/v1), up to the door that serialises it.

``configurator.validation.run_validation`` returns a ``ValidationResult``: what the engines found in one pass
(``ClusterValidation``), read as the verdict, the findings said in the result's language (on first reading), the
engines' own plans (the compute fabric's ``FabricPlan``, each network's ``NetworkPlan``), the totals, the rack
plan (``RackPlanSection``), the control-plane and service lines (``ClusterLine``), the default parts added
(``DefaultAdded``), the workload sizing and the one bill of materials (``BomLine``). Services and pages
read its attributes. Only the doors write it out: the API and the command line send ``to_json()``, a quote freezes
``to_json()`` in its snapshot, and the wizard and the alternatives page pass the JSON form of a section to their
templates and pictures. ``to_json()`` is the contract's JSON, key for key and in the same order as the API has
always sent it (tests/api/test_result_doors.py holds the doors to one answer).

Frozen dataclasses rather than pydantic models: every part the result holds is already a frozen dataclass of the
engines (``Finding``, ``FabricPlan``, ``NetworkPlan``, ``ClusterPower``, ``Sizing``) or of the bill
(``BomLine``), built by code that checked its values; pydantic would validate them again on every validation (a
100,000-node result has a 50,000-rack plan) and would need arbitrary types for the engines' classes. The design
model (``design/model.py``) is pydantic because it reads untrusted input; the result is output.

Parts still carried as JSON (``dict[str, Any]``), for a later step: the node totals as said in every language.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from functools import cached_property
from typing import Any, NamedTuple

from configurator.bom import Bill, bill_of
from design.model.site import SiteIn
from engines.catalog_view import CatalogView
from engines.cluster.bill import BomLine, bom_total
from engines.cluster.control_plane import ClusterLine, LeftOut
from engines.cluster.defaults import DefaultAdded
from engines.cluster.pipeline import ClusterValidation
from engines.cluster.rackplan import RackPlanSection
from engines.fabric.model import FabricPlan
from engines.findings.finding import Finding, Severity
from engines.networks.model import NetworkPlan
from engines.node.pcie.placement import GroupPlacement
from engines.node.power import ClusterPower
from engines.node.sizing import Sizing
from messages import finding_dicts, totals_dict

Json = dict[str, Any]


class ShownFinding(NamedTuple):
    """A finding as the result says it: the engine's code, severity and subject with its message and fix in the
    result's language. A named tuple: a result holds one per finding, made on every validation, and a tuple is
    made in a fraction of a frozen dataclass's time."""

    code: str
    severity: Severity
    subject: str
    message: str
    fix: str

    @property
    def is_error(self) -> bool:
        return self.severity == Severity.ERROR

    @property
    def is_warning(self) -> bool:
        return self.severity == Severity.WARNING

    def to_json(self) -> dict[str, str]:
        return {
            "code": self.code,
            "severity": str(self.severity),
            "subject": self.subject,
            "message": self.message,
            "fix": self.fix,
        }


def shown_findings(findings: Iterable[Finding], language: str) -> tuple[ShownFinding, ...]:
    """``findings`` with their message and fix in ``language``."""
    findings = list(findings)
    return tuple(
        ShownFinding(d["code"], f.severity, d["subject"], d["message"], d["fix"])
        for f, d in zip(findings, finding_dicts(findings, language), strict=True)
    )


def findings_json(findings: Iterable[ShownFinding]) -> list[dict[str, str]]:
    return [f.to_json() for f in findings]


@dataclass(frozen=True)
class FabricSection:
    """``fabric_plan``: the compute fabric's plan, with its own findings said in the result's language."""

    plan: FabricPlan
    findings: tuple[ShownFinding, ...]

    def to_json(self) -> Json:
        return self.plan.to_dict(findings_json(self.findings))


@dataclass(frozen=True)
class NetworkSection:
    """One of ``network_plans`` (storage, in-band, out-of-band), with its findings said in the result's language."""

    plan: NetworkPlan
    findings: tuple[ShownFinding, ...]

    def to_json(self) -> Json:
        return self.plan.to_dict(findings_json(self.findings))


@dataclass(frozen=True)
class LinesSection:
    """``control_plane`` and ``services``: their lines and the findings about them."""

    bom: tuple[ClusterLine, ...]
    findings: tuple[ShownFinding, ...]

    def to_json(self) -> Json:
        return {"bom": [line.to_json() for line in self.bom], "findings": findings_json(self.findings)}


@dataclass(frozen=True)
class Totals:
    """``totals``: the node engine's figures (its power assumptions said in every language), the rack plan's,
    the cluster's one power sum and the bill's list price."""

    nodes: Json  # the node engine's totals (nodes, gpus, groups, peak power, power assumptions, ...)
    racks: Json  # RackPlan.totals(): racks, facility power and what it leaves out
    power: ClusterPower
    list_price_eur: Decimal
    list_price_at_least: bool

    @property
    def node_count(self) -> int:
        return int(self.nodes.get("nodes", 0))

    @property
    def groups(self) -> list[Json]:
        groups: list[Json] = self.nodes.get("groups", [])
        return groups

    def to_json(self) -> Json:
        return {
            **self.nodes,
            **self.racks,
            **self.power.to_dict(),
            "list_price_eur": str(self.list_price_eur),
            "list_price_at_least": self.list_price_at_least,
        }


@dataclass(frozen=True)
class ValidationResult:
    """What validating a design says (contract design/v1). ``valid`` is false exactly when a finding is an error.

    ``found`` is what the engines found, in one pass; the result says it in ``language`` where it is read: the
    findings with their messages, each section with its own, and the node totals with their power assumptions in
    every language, each said once, on first reading. A caller that reads only the verdict, the figures or the bill
    (the recommender ranking candidates, a comparison) never has a message rendered."""

    found: ClusterValidation
    catalog_version: str
    design_hash: str
    language: str
    site: SiteIn | None = None  # the naming template of the hand-over files (outputs.links); not in to_json
    name: str = ""  # the design's name (the NetBox bundle's site); not in to_json
    # The catalogue view the design was validated against, whose part facts the hand-over files read (the NetBox
    # device types); None: the live catalogue's (configurator.snapshot.catalog_snapshot). Not in to_json.
    catalog: CatalogView | None = None

    @cached_property
    def valid(self) -> bool:
        return not any(f.severity == Severity.ERROR for f in self.found.findings)

    @cached_property
    def findings(self) -> tuple[ShownFinding, ...]:
        return shown_findings(self.found.findings, self.language)

    @property
    def placement(self) -> list[GroupPlacement]:
        return self.found.node.placement

    @cached_property
    def fabric_plan(self) -> FabricSection | None:
        fabric = self.found.fabric_plan
        return None if fabric is None else FabricSection(fabric, shown_findings(fabric.findings, self.language))

    @cached_property
    def network_plans(self) -> dict[str, NetworkSection | None]:
        return {
            key: None if p is None else NetworkSection(plan=p, findings=shown_findings(p.findings, self.language))
            for key, p in self.found.network_plans.items()
        }

    @cached_property
    def totals(self) -> Totals:
        total, on_request = bom_total(self.found.bom)
        return Totals(
            nodes=totals_dict(self.found.node.totals),
            racks=self.found.rack_plan.plan.totals(),
            power=self.found.power,
            list_price_eur=total,
            list_price_at_least=on_request > 0,
        )

    @property
    def rack_plan(self) -> RackPlanSection:
        return self.found.rack_plan

    @cached_property
    def control_plane(self) -> LinesSection:
        found = self.found
        return LinesSection(found.control_plane, shown_findings(found.control_plane_findings, self.language))

    @cached_property
    def services(self) -> LinesSection:
        return LinesSection(self.found.services, shown_findings(self.found.services_findings, self.language))

    @property
    def defaults_added(self) -> tuple[DefaultAdded, ...]:
        return self.found.defaults_added

    @property
    def sizing(self) -> Sizing | None:
        return self.found.node.sizing

    @property
    def bom(self) -> tuple[BomLine, ...]:
        return self.found.bom

    @property
    def left_out(self) -> LeftOut:
        return self.found.left_out

    @property
    def errors(self) -> list[ShownFinding]:
        return [f for f in self.findings if f.is_error]

    @property
    def warnings(self) -> list[ShownFinding]:
        return [f for f in self.findings if f.is_warning]

    @property
    def bill(self) -> Bill:
        """The one bill of materials with its list-price total."""
        return bill_of(list(self.bom))

    def findings_json(self) -> list[dict[str, str]]:
        return findings_json(self.findings)

    def network_plans_json(self) -> dict[str, Json | None]:
        return {key: None if s is None else s.to_json() for key, s in self.network_plans.items()}

    def to_json(self) -> Json:
        """The result as the contract's JSON: what the API sends, the command line prints and a quote freezes."""
        return {
            "valid": self.valid,
            "findings": self.findings_json(),
            "placement": self.placement,
            "fabric_plan": None if self.fabric_plan is None else self.fabric_plan.to_json(),
            "network_plans": self.network_plans_json(),
            "totals": self.totals.to_json(),
            "rack_plan": self.rack_plan.to_json(),
            "control_plane": self.control_plane.to_json(),
            "services": self.services.to_json(),
            "defaults_added": [d.to_json() for d in self.defaults_added],
            "sizing": None if self.sizing is None else self.sizing.to_dict(),
            "catalog_version": self.catalog_version,
            "design_hash": self.design_hash,
            "language": self.language,
            "bom": [line.to_dict() for line in self.bom],
            "left_out": self.left_out.to_json(),
        }
