"""Services of the configuration domain (write) and the one validation service every door calls."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction

from configurator.fabric.request import parse_fabric_request
from configurator.rules.design import DesignInputError
from configurator.rules.parse import check_references, parse_design

from .models import Configuration, WarningAcknowledgement
from .snapshot import catalog_snapshot
from .validation import run_validation

LANGUAGES = ("en", "nl")


def _lang(language: str | None) -> str:
    code = (language or "en")[:2].lower()
    return code if code in LANGUAGES else "en"


def design_validate(*, document: Any, language: str = "en") -> dict[str, Any]:
    """Validate a design document (contract design/v1).

    Raises DesignInputError (``.errors``: field path → message) when the document is malformed or names
    unknown or misplaced parts; otherwise returns the validation result, ``valid`` false on any error finding.
    """
    design = parse_design(document)
    catalog = catalog_snapshot()
    check_references(design, catalog)
    return run_validation(design, catalog, document=document, language=_lang(language))


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
    return plan.to_dict(_lang(language))


@dataclass(frozen=True)
class Outcome:
    """A stored configuration's verdict: either a validation result or the input errors that prevent one."""

    result: dict[str, Any] | None
    input_errors: dict[str, str] | None

    @property
    def valid(self) -> bool:
        return self.result is not None and self.result["valid"]


def configuration_validate(*, configuration: Configuration, language: str = "en") -> Outcome:
    """Validate a stored design and remember the verdict on the row (for lists and dashboards)."""
    try:
        result = design_validate(document=configuration.document, language=language)
    except DesignInputError as exc:
        outcome = Outcome(result=None, input_errors=exc.errors)
        errors, warnings, valid = len(exc.errors), 0, False
    else:
        outcome = Outcome(result=result, input_errors=None)
        errors = sum(1 for f in result["findings"] if f["severity"] == "error")
        warnings = sum(1 for f in result["findings"] if f["severity"] == "warning")
        valid = result["valid"]
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


@transaction.atomic
def configuration_create(
    *,
    document: dict,
    name: str = "",
    user=None,
    channel: str = Configuration.Channel.WEB,
    crm_reference: str = "",
    language: str = "en",
) -> Configuration:
    """Store a design (a draft may be incomplete: validation reports what is missing)."""
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
    config.full_clean()
    config.save()
    configuration_validate(configuration=config, language=language)
    return config


@transaction.atomic
def configuration_update(
    *,
    configuration: Configuration,
    document: dict | None = None,
    name: str | None = None,
    crm_reference: str | None = None,
) -> Configuration:
    """Change a draft's design. Acknowledgements of warnings that no longer occur are kept but not printed."""
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
    configuration.full_clean()
    configuration.save()
    configuration_validate(configuration=configuration, language=configuration.language)
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
    """Record that a sales engineer accepts a warning, with the reason printed on the quote."""
    reason = (reason or "").strip()
    if not reason:
        from django.core.exceptions import ValidationError

        raise ValidationError({"reason": "Give a reason for accepting this warning."})
    ack, _ = WarningAcknowledgement.objects.update_or_create(
        configuration=configuration, code=code, subject=subject, defaults={"reason": reason, "user": user}
    )
    return ack


def unacknowledged_warnings(*, configuration: Configuration, result: dict[str, Any]) -> list[dict[str, Any]]:
    """Warnings in ``result`` that no sales engineer has accepted yet (quoting requires none)."""
    acked = set(configuration.acknowledgements.values_list("code", "subject"))
    return [f for f in result["findings"] if f["severity"] == "warning" and (f["code"], f["subject"]) not in acked]
