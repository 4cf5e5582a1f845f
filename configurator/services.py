"""Services of the configuration domain (write) and the one validation service every door calls."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeGuard, cast

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from configurator.bom import Bill, design_bill
from design.model import DesignInputError
from engines.catalog_view import CatalogView
from engines.fabric.plan import plan_fabric
from engines.fabric.request import parse_fabric_request, resolve
from engines.findings.finding import Severity
from engines.intake.parse import design_hash, parse_design
from engines.intake.references import check_references
from messages.languages import resolve_language

from .errors import ConfigurationErrorCode, ConfigurationLocked
from .models import Configuration, WarningAcknowledgement
from .result import FabricSection, ShownFinding, ValidationResult, shown_findings
from .snapshot import catalog_snapshot
from .validation import Validated, run_validation

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

    Actor = User | AnonymousUser | None  # who acts: a signed-in user, an anonymous customer, or no user (CRM)


def design_validate(
    *, document: Any, language: str | None = None, catalog: CatalogView | None = None
) -> ValidationResult:
    """Validate a design document (contract design/v1).

    Raises DesignInputError (``.errors``: field path → message) when the document is malformed or names
    unknown or misplaced parts; otherwise returns the validation result (configurator.result.ValidationResult; a
    door writes it out with ``to_json()``), ``valid`` false on any error finding.
    Every finding, the fabric plan's included, is said in ``language`` (one of settings.LANGUAGES; any other, or
    none, is the default language). ``catalog``: the catalogue view to validate against (a won quote's frozen one,
    quotes.services.handover); the live catalogue's by default. The result carries the view (``catalog``).
    A save that has validated already passes its Outcome along (configuration_update's ``outcome``) rather than
    validating twice, so there is no memo here: each call validates, and the result is the caller's own.
    """
    return design_validate_parsed(document=document, language=language, catalog=catalog).result


def design_validate_parsed(
    *, document: Any, language: str | None = None, catalog: CatalogView | None = None
) -> Validated:
    """design_validate, keeping the parsed design and the catalogue view beside the result, for a caller that
    goes on to price the same design (the quote evaluation's bill of materials): the document is parsed once and
    the design is priced from the catalogue version it was validated against."""
    return run_validation(document, catalog, language=resolve_language(language))


def design_check_well_formed(*, document: Any) -> None:
    """Refuse a malformed design: DesignInputError naming every bad field, or naming unknown or misplaced parts.

    Only parses the document and checks its part numbers against the catalogue (no rules run): the doors that
    store a design call this first and run the full validation once, in the service that stores it.
    """
    check_references(parse_design(document), catalog_snapshot())


def fabric_plan_build(*, request: Any, language: str | None = None) -> FabricSection:
    """Plan a compute fabric from the stateless request of the contract (the plan with its findings said in
    ``language``; a door writes it out with ``to_json()``). Raises DesignInputError on bad input."""
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
    return FabricSection(plan=plan, findings=shown_findings(plan.findings, resolve_language(language)))


@dataclass(frozen=True)
class Outcome:
    """A stored configuration's verdict: either a validation result or the input errors that prevent one."""

    result: ValidationResult | None
    input_errors: dict[str, str] | None

    @property
    def valid(self) -> bool:
        return self.result is not None and self.result.valid

    @property
    def verdict(self) -> tuple[bool, int, int]:
        """(valid, errors, warnings), as a configuration row keeps them for lists and dashboards."""
        if self.result is None:
            return False, len(self.input_errors or {}), 0
        findings = self.result.findings
        return (
            self.result.valid,
            sum(1 for f in findings if f.is_error),
            sum(1 for f in findings if f.is_warning),
        )


def design_evaluate(*, document: dict, language: str | None = None) -> Outcome:
    """The outcome of validating a stored design: the result, or the input errors that prevent one."""
    try:
        return Outcome(result=design_validate(document=document, language=language), input_errors=None)
    except DesignInputError as exc:
        return Outcome(result=None, input_errors=exc.errors)


def configuration_validate(*, configuration: Configuration, language: str | None = None) -> Outcome:
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
    user: User | None = None,
    channel: str = Configuration.Channel.WEB,
    crm_reference: str = "",
    language: str | None = None,
) -> Configuration:
    """Store a design with its verdict in one INSERT (a draft may be incomplete: validation reports what is
    missing)."""
    config = Configuration(
        document=document,
        name=name or str(document.get("name", ""))[:200],
        created_by=user,
        channel=channel,
        crm_reference=crm_reference,
        language=resolve_language(language),
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


OPEN_QUOTE_STATUSES = ("awaiting_review", "awaiting_approval")  # quotes.models.Quote.Status: a request under review
ISSUE_PERMISSION = "quotes.issue_quote"


def _is_sales_engineer(user: Actor) -> TypeGuard[User]:
    return bool(user is not None and getattr(user, "is_authenticated", False) and user.is_active and user.is_staff)


def configuration_taken_over(configuration: Configuration) -> bool:
    """A sales engineer took a customer's (web) design into their queue: from then on they own it."""
    return configuration.assigned_to_id is not None and configuration.channel == Configuration.Channel.WEB


def configuration_edit_refusal(
    *, configuration: Configuration, user: Actor, quotes: Iterable[Any] | None = None
) -> ConfigurationLocked | None:
    """Why ``user`` may not change this configuration's design now, or None when they may. The one edit rule,
    the same at every door (wizard, API, admin, CLI, tasks):

    1. While a quote of the configuration awaits review or approval, only a sales engineer who may issue it
       (active staff with ``quotes.issue_quote``) changes the design: they are the reviewers, issuing
       re-validates the current design, and an accepted warning holds only for the design it was accepted for.
       Anyone else (a customer, a CRM client, staff without that permission) is refused (``quote_open``): the
       review and any accepted warnings are for the design as it was.
    2. A customer's online (``web``) design is the customer's only while it is a draft that no sales engineer
       took over; after that only sales engineers change it (``with_sales``) and the customer edits a copy.
    3. Otherwise sales engineers and the configuration's owner (the CRM client that stored it, the customer
       holding its link) may change it.

    0. A configuration marked as built (``built_at``, configuration_mark_built) keeps its design for everyone
       (``built``): it is the installed cluster's record, which its expansions start from.

    A customer's online draft needs no look at its quotes: opening a quote request moves it out of the draft
    status in the same transaction, and nothing moves it back. ``quotes``: all the configuration's quotes, when
    the caller has them loaded already (a page showing them), to save the query.

    Name and CRM reference are not the design: they may change whatever the state. Changing the design never
    changes the configuration's status (only requesting and issuing quotes do): a quoted design stays quoted,
    and its issued quote keeps the design it was issued for.
    """
    if configuration.built_at is not None:
        return ConfigurationLocked(
            ConfigurationErrorCode.BUILT,
            _(
                "This configuration is marked as built: its design is the installed cluster. Plan an expansion "
                "of it, or make a copy to change the design."
            ),
        )
    staff = _is_sales_engineer(user)
    if not staff and configuration.channel == Configuration.Channel.WEB:
        if configuration.status != Configuration.Status.DRAFT or configuration_taken_over(configuration):
            return ConfigurationLocked(
                ConfigurationErrorCode.WITH_SALES,
                _("This design is with our sales engineers now. Make a copy to change it."),
            )
        return None
    if quotes is None:
        open_quote = configuration.quotes.filter(status__in=OPEN_QUOTE_STATUSES).order_by("-id").first()
    else:
        open_quote = max((q for q in quotes if q.status in OPEN_QUOTE_STATUSES), key=lambda q: q.pk, default=None)
    if open_quote is not None and not (staff and user is not None and user.has_perm(ISSUE_PERMISSION)):
        return ConfigurationLocked(
            ConfigurationErrorCode.QUOTE_OPEN,
            _(
                "Quote %(number)s for this configuration is %(status)s; its design cannot be "
                "replaced while the request is open, because the review and any accepted warnings "
                "are for the design as it was. Store the new design as another configuration, or "
                "wait until the quote is issued."
            )
            % {"number": open_quote.number, "status": open_quote.get_status_display().lower()},
        )
    return None


def configuration_update(
    *,
    configuration: Configuration,
    user: Actor = None,
    document: dict | None = None,
    name: str | None = None,
    crm_reference: str | None = None,
    outcome: Outcome | None = None,
) -> Configuration:
    """Change a configuration's design, name or CRM reference on behalf of ``user`` (None: a customer or a CRM
    client without a user). A design change follows configuration_edit_refusal (ConfigurationLocked otherwise);
    the row is locked for the check, so a quote request cannot slip in between. Acknowledgements of warnings that
    no longer occur are kept but not printed.

    ``outcome``: the caller's validation of ``document`` (design_evaluate), when it has one already, so a save
    validates once; the stored verdict (valid, counts) does not depend on the language it was made in.
    """
    with transaction.atomic():
        if document is not None and configuration.pk:
            locked = Configuration.objects.select_for_update().get(pk=configuration.pk)
            if (refusal := configuration_edit_refusal(configuration=locked, user=user)) is not None:
                raise refusal
            configuration.status = locked.status
        if document is not None:
            configuration.document = document
            if name is None and document.get("name"):
                configuration.name = str(document["name"])[:200]
        if name is not None:
            configuration.name = name[:200]
        if crm_reference is not None:
            configuration.crm_reference = crm_reference
        if outcome is None or document is None:
            outcome = design_evaluate(document=configuration.document, language=configuration.language)
        configuration.valid, configuration.error_count, configuration.warning_count = outcome.verdict
        # The token, the one unique field, is set at creation and never changes: no uniqueness query on update.
        configuration.full_clean(validate_unique=False)
        configuration.save()
    return configuration


@transaction.atomic
def configuration_mark_built(*, configuration: Configuration, user: Actor = None) -> Configuration:
    """Mark the configuration as built: its stored design is the installed cluster from now on (``built_at``), and
    configuration_edit_refusal keeps it. The door decides who may (a sales engineer, the CRM client that owns it).
    Marking a built configuration again changes nothing. ConfigurationLocked (``not_valid``) unless the stored
    design's last validation found it valid."""
    locked = Configuration.objects.select_for_update().get(pk=configuration.pk)
    if locked.built_at is not None:
        return locked
    if locked.valid is not True:
        raise ConfigurationLocked(
            ConfigurationErrorCode.NOT_VALID,
            _("Only a valid design can be marked as built; validate it and resolve its errors first."),
        )
    locked.built_at = timezone.now()
    locked.save(update_fields=["built_at", "updated_at"])
    return locked


@transaction.atomic
def configuration_delete(*, configuration: Configuration, user: Actor = None) -> None:
    """Delete a configuration, unless it has quotes (``has_quotes``): a quote is a record of what was offered and
    keeps its configuration. The same for every door and every user."""
    if configuration.quotes.exists():
        raise ConfigurationLocked(
            ConfigurationErrorCode.HAS_QUOTES, _("This configuration has quotes and cannot be deleted.")
        )
    configuration.delete()


@transaction.atomic
def configuration_clone(*, configuration: Configuration, user: Actor = None) -> Configuration:
    """A new draft with the same design, owned by whoever cloned it: a sales engineer's copy is theirs (staff
    channel); a customer's copy (``user`` None) is a new online draft with its own secret link."""
    staff = _is_sales_engineer(user)
    return configuration_create(
        document=dict(configuration.document),
        name=f"{configuration.name} (copy)".strip(),
        user=cast("User", user) if staff else None,  # a sales engineer is a signed-in User
        channel=Configuration.Channel.STAFF if staff else configuration.channel,
        crm_reference=configuration.crm_reference,
        language=configuration.language,
    )


TAKE_OVER_PERMISSION = "configurator.take_over_configuration"


@transaction.atomic
def configuration_take_over(*, configuration: Configuration, user: Actor) -> Configuration:
    """A sales engineer with the take-over permission takes a customer's draft or request into their own queue;
    anyone else gets PermissionDenied."""
    if not _is_sales_engineer(user) or not user.has_perm(TAKE_OVER_PERMISSION):
        raise PermissionDenied(_("You do not have the permission to take over designs."))
    configuration.assigned_to = user
    configuration.save(update_fields=["assigned_to", "updated_at"])
    return configuration


def configuration_name_customer(*, configuration: Configuration, name: str, company: str) -> None:
    """Record whom a design was quoted for (the sales dashboard searches designs by it), from a quote request."""
    name, company = str(name)[:200], str(company)[:200]
    Configuration.objects.filter(pk=configuration.pk).update(customer_name=name, customer_company=company)
    configuration.customer_name, configuration.customer_company = name, company


def configuration_mark_quote_requested(*, configuration_id: int) -> None:
    """A quote of the configuration now awaits review or approval (called by the quote services only)."""
    Configuration.objects.filter(pk=configuration_id).update(status=Configuration.Status.QUOTE_REQUESTED)


def configuration_mark_quoted(*, configuration_id: int) -> None:
    """A quote of the configuration was issued (called by the quote services only)."""
    Configuration.objects.filter(pk=configuration_id).update(status=Configuration.Status.QUOTED)


# Warnings that call a part of the design itself wrong (a discontinued or end-of-life part the design names, with
# its replacement where the catalogue has one): they are fixed by choosing another part, never accepted, so an
# accepted warning never leaves on the bill a part the configurator calls wrong.
FIX_NOT_ACCEPT = frozenset({"PART_DISCONTINUED"})


@transaction.atomic
def warning_acknowledge(
    *, configuration: Configuration, code: str, subject: str, reason: str, user: User
) -> WarningAcknowledgement:
    """Record that a sales engineer accepts a warning for the configuration's current design, with the reason
    printed on the quote. A changed design needs a new acknowledgement (see acknowledgements_in_force). A warning of
    FIX_NOT_ACCEPT is refused (ValidationError on ``code``): its part must be replaced."""
    if code in FIX_NOT_ACCEPT:
        raise ValidationError(
            {"code": _("This warning names a part to replace: change the design instead of accepting it.")}
        )
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": "Give a reason for accepting this warning."})
    ack, _created = WarningAcknowledgement.objects.update_or_create(
        configuration=configuration,
        code=code,
        subject=subject,
        design_hash=design_hash(configuration.document),
        defaults={"reason": reason, "user": user},
    )
    return ack


def acknowledgements_in_force(
    *, configuration: Configuration, result: ValidationResult, also: Sequence[ShownFinding] = ()
) -> list[WarningAcknowledgement]:
    """The acknowledgements given for the design ``result`` validated (same code, subject and design hash) whose
    warning it still reports, or one of the warnings ``also`` gives (an expansion quote's: what its growth crosses):
    the ones a quote prints. Legacy rows without a design hash never match."""
    current = {(f.code, f.subject) for f in _warnings(result, also) if f.code not in FIX_NOT_ACCEPT}
    acks = configuration.acknowledgements.filter(design_hash=result.design_hash).exclude(design_hash="")
    return [a for a in acks.select_related("user").order_by("code", "subject", "id") if (a.code, a.subject) in current]


def unacknowledged_warnings(
    *, configuration: Configuration, result: ValidationResult, also: Sequence[ShownFinding] = ()
) -> list[ShownFinding]:
    """Warnings in ``result``, and those of ``also`` (an expansion quote's growth findings), that no sales engineer
    has accepted for this design yet (quoting requires none)."""
    in_force = acknowledgements_in_force(configuration=configuration, result=result, also=also)
    acked = {(a.code, a.subject) for a in in_force}
    return [f for f in _warnings(result, also) if (f.code, f.subject) not in acked]


def _warnings(result: ValidationResult, also: Sequence[ShownFinding]) -> list[ShownFinding]:
    return [*result.warnings, *(f for f in also if f.severity == Severity.WARNING)]


def design_bill_unvalidated(*, document: dict, catalog: CatalogView) -> Bill | None:
    """The bill of a design that has no validation result (its input errors prevent one), built from the document
    against ``catalog`` as far as it reads; None when the document cannot be read yet."""
    return design_bill(document=document, result=None, catalog=catalog)
