"""Services of the configuration domain (write) and the one validation service every door calls."""

from __future__ import annotations

import copy
import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from configurator.fabric.request import parse_fabric_request
from configurator.messages import finding_dicts
from configurator.rules.design import DesignInputError
from configurator.rules.parse import check_references, parse_design

from .models import Configuration, WarningAcknowledgement
from .snapshot import catalog_snapshot
from .validation import design_hash, run_validation

LANGUAGES = ("en", "nl")


def _lang(language: str | None) -> str:
    code = (language or "en")[:2].lower()
    return code if code in LANGUAGES else "en"


# In-process memo of design_validate: an htmx save validates the same document twice (configuration_update,
# then the wizard's page). Keyed by the catalogue view object (a new object after any catalogue change), the
# canonical JSON of the document and the language; least recently used entries go first. The view itself is
# kept with the entries, so an id() cannot be reused by a newer view while they live.
MEMO_SIZE = 256
_memo: OrderedDict[tuple[int, str, str], dict[str, Any]] = OrderedDict()
_memo_catalog: list[object] = [None]
_memo_lock = threading.Lock()


def _memo_key(catalog: object, document: Any, language: str) -> tuple[int, str, str] | None:
    try:
        canonical = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    except (TypeError, ValueError):
        return None  # not JSON: parse_design refuses it anyway
    return (id(catalog), canonical, language)


def clear_validation_memo() -> None:
    with _memo_lock:
        _memo.clear()
        _memo_catalog[0] = None


def design_validate(*, document: Any, language: str = "en") -> dict[str, Any]:
    """Validate a design document (contract design/v1).

    Raises DesignInputError (``.errors``: field path → message) when the document is malformed or names
    unknown or misplaced parts; otherwise returns the validation result, ``valid`` false on any error finding.
    The same document against the same catalogue is validated once per process (a bounded memo); each caller
    gets its own copy of the result.
    """
    language = _lang(language)
    catalog = catalog_snapshot()
    key = _memo_key(catalog, document, language)
    if key is not None:
        with _memo_lock:
            if _memo_catalog[0] is not catalog:  # the catalogue changed: every memoised verdict is stale
                _memo.clear()
                _memo_catalog[0] = catalog
            hit = _memo.get(key)
            if hit is not None:
                _memo.move_to_end(key)
        if hit is not None:
            return copy.deepcopy(hit)
    design = parse_design(document)
    check_references(design, catalog)
    result = run_validation(design, catalog, document=document, language=language)
    if key is not None:
        with _memo_lock:
            if _memo_catalog[0] is catalog:
                _memo[key] = copy.deepcopy(result)
                _memo.move_to_end(key)
                while len(_memo) > MEMO_SIZE:
                    _memo.popitem(last=False)
    return result


def fabric_plan_build(*, request: Any, language: str = "en") -> dict[str, Any]:
    """Plan a compute fabric from the stateless request of the contract. Raises DesignInputError on bad input."""
    from configurator.fabric.planner import plan_fabric
    from configurator.fabric.request import resolve

    req = parse_fabric_request(request)
    catalog = catalog_snapshot()
    switch, hca = resolve(req, catalog)
    plan = plan_fabric(
        nodes=req.nodes,
        rails=req.rails,
        switch=switch,
        oversubscription=req.oversubscription,
        topology=req.topology,
        hca=hca,
        catalog=catalog,
        rack=req.rack,
        node_height_u=req.node_height_u,
        node_power_w=req.node_power_w,
    )
    return plan.to_dict(finding_dicts(plan.findings, _lang(language)))


@dataclass(frozen=True)
class Outcome:
    """A stored configuration's verdict: either a validation result or the input errors that prevent one."""

    result: dict[str, Any] | None
    input_errors: dict[str, str] | None

    @property
    def valid(self) -> bool:
        return self.result is not None and self.result["valid"]

    @property
    def verdict(self) -> tuple[bool, int, int]:
        """(valid, errors, warnings), as a configuration row keeps them for lists and dashboards."""
        if self.result is None:
            return False, len(self.input_errors or {}), 0
        findings = self.result["findings"]
        return (
            self.result["valid"],
            sum(1 for f in findings if f["severity"] == "error"),
            sum(1 for f in findings if f["severity"] == "warning"),
        )


def design_evaluate(*, document: dict, language: str = "en") -> Outcome:
    """The outcome of validating a stored design: the result, or the input errors that prevent one."""
    try:
        return Outcome(result=design_validate(document=document, language=language), input_errors=None)
    except DesignInputError as exc:
        return Outcome(result=None, input_errors=exc.errors)


def configuration_validate(*, configuration: Configuration, language: str = "en") -> Outcome:
    """Validate a stored design and remember the verdict on the row (for lists and dashboards)."""
    outcome = design_evaluate(document=configuration.document, language=language)
    valid, errors, warnings = outcome.verdict
    if configuration.pk and (configuration.valid, configuration.error_count, configuration.warning_count) != (
        valid,
        errors,
        warnings,
    ):
        Configuration.objects.filter(pk=configuration.pk).update(
            valid=valid, error_count=errors, warning_count=warnings
        )
        configuration.valid, configuration.error_count, configuration.warning_count = valid, errors, warnings
    return outcome


def configuration_create(
    *,
    document: dict,
    name: str = "",
    user=None,
    channel: str = Configuration.Channel.WEB,
    crm_reference: str = "",
    language: str = "en",
) -> Configuration:
    """Store a design with its verdict in one INSERT (a draft may be incomplete: validation reports what is
    missing)."""
    config = Configuration(
        document=document,
        name=name or str(document.get("name", ""))[:200],
        created_by=user,
        channel=channel,
        crm_reference=crm_reference,
        language=_lang(language),
    )
    if user is not None and getattr(user, "is_staff", False):
        config.assigned_to = user
    config.valid, config.error_count, config.warning_count = design_evaluate(
        document=document, language=language
    ).verdict
    # The token is 192 random bits, and the database's unique index stands behind it: no uniqueness query.
    config.full_clean(validate_unique=False)
    config.save()
    return config


def configuration_update(
    *,
    configuration: Configuration,
    document: dict | None = None,
    name: str | None = None,
    crm_reference: str | None = None,
) -> Configuration:
    """Change a draft's design. Acknowledgements of warnings that no longer occur are kept but not printed.

    One UPDATE stores the design and its verdict together (so it needs no transaction of its own)."""
    if configuration.status == Configuration.Status.QUOTED and document is not None:
        configuration.status = Configuration.Status.DRAFT
    if document is not None:
        configuration.document = document
        if name is None and document.get("name"):
            configuration.name = str(document["name"])[:200]
    if name is not None:
        configuration.name = name[:200]
    if crm_reference is not None:
        configuration.crm_reference = crm_reference
    configuration.valid, configuration.error_count, configuration.warning_count = design_evaluate(
        document=configuration.document, language=configuration.language
    ).verdict
    # The token, the one unique field, is set at creation and never changes: no uniqueness query on update.
    configuration.full_clean(validate_unique=False)
    configuration.save()
    return configuration


@transaction.atomic
def configuration_clone(*, configuration: Configuration, user=None) -> Configuration:
    """A new draft with the same design, owned by whoever cloned it."""
    return configuration_create(
        document=dict(configuration.document),
        name=f"{configuration.name} (copy)".strip(),
        user=user,
        channel=Configuration.Channel.STAFF if user else configuration.channel,
        crm_reference=configuration.crm_reference,
        language=configuration.language,
    )


@transaction.atomic
def configuration_take_over(*, configuration: Configuration, user) -> Configuration:
    """A sales engineer takes a customer's draft or request into their own queue."""
    configuration.assigned_to = user
    configuration.save(update_fields=["assigned_to", "updated_at"])
    return configuration


@transaction.atomic
def warning_acknowledge(
    *, configuration: Configuration, code: str, subject: str, reason: str, user
) -> WarningAcknowledgement:
    """Record that a sales engineer accepts a warning for the configuration's current design, with the reason
    printed on the quote. A changed design needs a new acknowledgement (see acknowledgements_in_force)."""
    reason = (reason or "").strip()
    if not reason:
        from django.core.exceptions import ValidationError

        raise ValidationError({"reason": "Give a reason for accepting this warning."})
    ack, _ = WarningAcknowledgement.objects.update_or_create(
        configuration=configuration,
        code=code,
        subject=subject,
        design_hash=design_hash(configuration.document),
        defaults={"reason": reason, "user": user},
    )
    return ack


def acknowledgements_in_force(*, configuration: Configuration, result: dict[str, Any]) -> list[WarningAcknowledgement]:
    """The acknowledgements given for the design ``result`` validated (same code, subject and design hash) whose
    warning it still reports: the ones a quote prints. Legacy rows without a design hash never match."""
    current = {(f["code"], f["subject"]) for f in result["findings"] if f["severity"] == "warning"}
    acks = configuration.acknowledgements.filter(design_hash=result["design_hash"]).exclude(design_hash="")
    return [a for a in acks.select_related("user").order_by("code", "subject", "id") if (a.code, a.subject) in current]


def unacknowledged_warnings(*, configuration: Configuration, result: dict[str, Any]) -> list[dict[str, Any]]:
    """Warnings in ``result`` that no sales engineer has accepted for this design yet (quoting requires none)."""
    acked = {(a.code, a.subject) for a in acknowledgements_in_force(configuration=configuration, result=result)}
    return [f for f in result["findings"] if f["severity"] == "warning" and (f["code"], f["subject"]) not in acked]
