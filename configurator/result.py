"""The validation result as typed objects (contract design/v1), up to the door that serialises it.

``configurator.validation.run_validation`` returns a ``ValidationResult``: the verdict, the findings said in the
result's language, the engines' own plans (the compute fabric's ``FabricPlan``, each network's ``NetworkPlan``),
the totals, the rack plan (``RackPlanSection``), the control-plane and service lines (``ClusterLine``), the default
parts added (``DefaultAdded``), the workload sizing and the one bill of materials (``BomLine``). Services and pages
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
from typing import Any, NamedTuple

from configurator.bom import Bill, bill_of
from design.model.site import SiteIn
from design.specs import CatalogView
from engines.cluster.bill import BomLine
from engines.cluster.control_plane import ClusterLine, LeftOut
from engines.cluster.defaults import DefaultAdded
from engines.cluster.rackplan import RackPlanSection
from engines.fabric.model import FabricPlan
from engines.findings.finding import Severity
from engines.networks.model import NetworkPlan
from engines.node.pcie.placement import GroupPlacement
from engines.node.power import ClusterPower
from engines.node.sizing import Sizing

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
    """What validating a design says (contract design/v1). ``valid`` is false exactly when a finding is an error."""

    valid: bool
    findings: tuple[ShownFinding, ...]
    placement: list[GroupPlacement]
    fabric_plan: FabricSection | None
    network_plans: dict[str, NetworkSection | None]
    totals: Totals
    rack_plan: RackPlanSection
    control_plane: LinesSection
    services: LinesSection
    defaults_added: tuple[DefaultAdded, ...]
    sizing: Sizing | None
    catalog_version: str
    design_hash: str
    language: str
    bom: tuple[BomLine, ...]
    left_out: LeftOut = LeftOut(frozenset(), "size")
    site: SiteIn | None = None  # the naming template of the hand-over files (outputs.links); not in to_json
    name: str = ""  # the design's name (the NetBox bundle's site); not in to_json
    # The catalogue view the design was validated against, whose part facts the hand-over files read (the NetBox
    # device types); None: the live catalogue's (configurator.snapshot.catalog_snapshot). Not in to_json.
    catalog: CatalogView | None = None

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
