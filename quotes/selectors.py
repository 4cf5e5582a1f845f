"""Selectors of quotes (read side)."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from datetime import date
from typing import TYPE_CHECKING

from django.db import connections
from django.db.models import Case, Expression, F, Q, QuerySet, Value, When
from django.db.models.functions import Coalesce, Lower, NullIf

from configurator.result import ShownFinding
from engines.intake.parse import design_hash

from . import policy
from .models import Quote

if TYPE_CHECKING:
    from decimal import Decimal
    from typing import Any

    from configurator.models import Configuration

    from .diff import RevisionDiff

# What lists and reads of quotes leave in the database: the snapshot (the whole validation result, megabytes for a
# large design) and the design document of its configuration. What they show lives in columns of the quote.
LEAN = ("frozen", "configuration__document")


def online_request_review(*, net: Decimal, on_request: int, findings: Iterable[ShownFinding]) -> str:
    """What a customer's online quote request for a design with ``findings``, net amount ``net`` (excl. VAT) and
    ``on_request`` lines without a list price gets, by quotes.policy: '' (issued at once as an indicative quote), or
    the reason a sales engineer reviews it first (``warnings``, ``on_request``, ``zero_net``, ``amount``)."""
    return policy.review_reason(channel=policy.ONLINE_CHANNEL, net=net, on_request=on_request, findings=findings)


def quote_for_token(token: str) -> Quote | None:
    """The quote a customer link points at (any revision; superseded ones stay readable), without its snapshot or
    its design's document: the status page shows columns only."""
    if not token or len(token) > 64:
        return None
    return Quote.objects.select_related("configuration").defer(*LEAN).filter(token=token).first()


def quote_with_design(token: str) -> Quote | None:
    """The quote a customer link points at, with its snapshot (its frozen design is the cluster an expansion
    grows)."""
    if not token or len(token) > 64:
        return None
    return Quote.objects.filter(token=token).first()


def expandable_quotes(tokens: Collection[str]) -> list[Quote]:
    """Of the quotes behind ``tokens`` (a browser's), those whose cluster can be expanded (won or issued), newest
    first, without their snapshots."""
    if not tokens:
        return []
    quotes = Quote.objects.filter(token__in=list(tokens), status__in=[Quote.Status.ISSUED, Quote.Status.ACCEPTED])
    return list(quotes.only("token", "number", "status", "configuration__name").select_related("configuration")[:10])


def quote_number(pk: int | None) -> str:
    """A quote's number ("" for None), without loading the quote."""
    if pk is None:
        return ""
    return Quote.objects.filter(pk=pk).values_list("number", flat=True).first() or ""


def quotes_for_configuration(configuration: Configuration) -> QuerySet[Quote]:
    """Every quote of a configuration, newest first (revisions included)."""
    return Quote.objects.filter(configuration=configuration).order_by("-created_at", "-id")


def design_quote(configuration: Configuration) -> Quote | None:
    """The design's newest quote that is not superseded (number, status and dates only: nothing of the customer's),
    or None."""
    return (
        Quote.objects.filter(configuration=configuration)
        .exclude(status=Quote.Status.SUPERSEDED)
        .only("id", "number", "status", "valid_until", "issued_at", "created_at", "review_reason", "configuration_id")
        .order_by("-created_at", "-id")
        .first()
    )


def quote_left_out(quote: Quote) -> dict | None:
    """The frozen result's ``left_out`` (what the offer leaves out), read as one key of the snapshot in the database."""
    row = Quote.objects.filter(pk=quote.pk).values_list("frozen__validation__left_out", flat=True).first()
    return row if isinstance(row, dict) else None


def quote_revisions(quote: Quote) -> QuerySet[Quote]:
    """All revisions of a quote's number, oldest first, without their snapshots."""
    return Quote.objects.filter(base_number=quote.base_number).defer("frozen").order_by("revision")


def quote_list(
    *,
    status: str | None = None,
    customer: str | None = None,
    date_from: date | None = None,
    date_to: date | None = None,
    search: str | None = None,
    owner: int | str | None = None,
) -> QuerySet[Quote]:
    """Quotes for staff lists. ``customer`` matches name, company or e-mail (contains, any case); ``search`` matches
    those and the quote number; ``owner`` is the id of the user who handles the design (its ``assigned_to``) or
    UNASSIGNED; the dates bound the creation day (inclusive, local time)."""
    qs = Quote.objects.select_related("configuration", "created_by").order_by("-created_at", "-id")
    if status:
        qs = qs.filter(status=status)
    for text, by_number in ((customer, False), (search, True)):
        if text:
            match = Q(customer_name__icontains=text) | Q(customer_company__icontains=text)
            match |= Q(customer_email__icontains=text)
            qs = qs.filter(match | Q(number__icontains=text) if by_number else match)
    if owner == UNASSIGNED:
        qs = qs.filter(configuration__assigned_to__isnull=True)
    elif owner:
        qs = qs.filter(configuration__assigned_to_id=owner)  # type: ignore[misc]  # a user's pk as the filter form sends it
    if date_from:
        qs = qs.filter(created_at__date__gte=date_from)
    if date_to:
        qs = qs.filter(created_at__date__lte=date_to)
    return qs


UNASSIGNED = "none"

# The dashboard's sortable columns: key → the ordering (ascending); "-key" sorts descending. Ties: newest id last.
_STATUS_ORDER = Case(
    *(When(status=value, then=Value(i)) for i, value in enumerate(Quote.Status.values)),
    default=Value(len(Quote.Status.values)),
)
QUOTE_SORTS: dict[str, tuple[Expression | F, ...]] = {
    "number": (F("number"),),
    "date": (F("created_at"),),
    "customer": (
        Lower(Coalesce(NullIf("customer_company", Value("")), "customer_name")),
        Lower("customer_name"),
    ),
    "total": (F("total"),),
    "status": (_STATUS_ORDER,),
}
DEFAULT_QUOTE_SORT = "-date"


def quote_requests(*, sort: str = DEFAULT_QUOTE_SORT, **filters: Any) -> QuerySet[Quote]:
    """Quote requests for the sales dashboard, filtered like quote_list (its keyword arguments; empty values filter
    nothing) and sorted by ``sort`` (a key of QUOTE_SORTS, "-" first for descending). One query for any page of
    it: the design and who handles it come along, the frozen snapshot and the design document stay in the database."""
    qs = quote_list(**{key: value for key, value in filters.items() if value})
    descending = sort.startswith("-")
    columns = QUOTE_SORTS.get(sort.removeprefix("-")) or QUOTE_SORTS[DEFAULT_QUOTE_SORT.removeprefix("-")]
    order = [c.desc() if descending else c.asc() for c in columns]
    order.append(F("id").desc() if descending else F("id").asc())
    return qs.select_related("configuration__assigned_to").defer(*LEAN).order_by(*order)


def quotes_for(configuration: Configuration, *, tokens: Collection[str] | None = None) -> list[Quote]:
    """The configuration's quotes, newest first, for its quote page. With ``tokens`` (a customer's browser): only
    the quotes with those tokens and the other revisions of their numbers (a sales engineer's revision of the
    customer's quote)."""
    # The frozen snapshot is large; the "changed" banner compares the newest issued quote's design hash.
    quotes = list(quotes_for_configuration(configuration).defer("frozen"))
    if tokens is None:
        return quotes
    wanted = set(tokens)
    numbers = {q.base_number for q in quotes if q.token in wanted}
    return [q for q in quotes if q.base_number in numbers]


def quote_ids_by_configuration(configuration_ids: Collection[int]) -> dict[int, list[int]]:
    """The ids of each configuration's quotes (revisions included), ascending, in one query that reads no quote's
    columns but its id: a list of configurations shows which quotes they have without loading the quotes."""
    ids: dict[int, list[int]] = {pk: [] for pk in configuration_ids}
    rows = Quote.objects.filter(configuration_id__in=ids).order_by("id").values_list("configuration_id", "id")
    for configuration_id, quote_id in rows:
        ids[configuration_id].append(quote_id)
    return ids


def quote_ids_column(database: str) -> Expression | None:
    """For a query of configurations on ``database``: the ids of each configuration's quotes (revisions included),
    ascending, as a list in the configuration's own row (a correlated ``ARRAY(SELECT id ...)``), which reads no
    quote's columns but its id; None on a database without arrays (then ``quote_ids_by_configuration``)."""
    if connections[database].vendor != "postgresql":
        return None
    column = _quote_ids_columns.get(database)
    if column is None:
        # Written out, not an ArraySubquery of a queryset: a query resolves the subquery it is given again for
        # every request (a tenth of a list page's time), where this SQL is resolved as it is.
        from django.contrib.postgres.fields import ArrayField
        from django.db.models import BigIntegerField
        from django.db.models.expressions import RawSQL

        from configurator.models import Configuration

        quotes, configurations = Quote._meta.db_table, Configuration._meta.db_table  # names of our own tables
        ids = f'SELECT "{quotes}"."id" FROM "{quotes}" WHERE "{quotes}"."configuration_id" = "{configurations}"."id"'  # noqa: S608
        column = RawSQL(f'ARRAY({ids} ORDER BY "{quotes}"."id")', (), output_field=ArrayField(BigIntegerField()))  # noqa: S611
        _quote_ids_columns[database] = column
    return column


_quote_ids_columns: dict[str, Expression] = {}


def quote_outdated(quotes: list[Quote], document: dict) -> Quote | None:
    """The newest of a design's quotes (``quotes``: newest first) when it is issued for another design than
    ``document``: staff changed the quoted design in place, so that quote no longer matches the design shown.
    Compared by the design's hash (the quote's ``design_hash`` column), not by the design frozen in the snapshot."""
    latest = quotes[0] if quotes else None
    if latest is None or latest.status != Quote.Status.ISSUED:
        return None
    return latest if latest.design_hash != design_hash(document) else None


def quote_revision_diff(quote: Quote, a: int, b: int) -> RevisionDiff | None:
    """What changed from revision ``a`` to revision ``b`` of ``quote``'s number (quotes.diff.RevisionDiff), or None
    when the number has no such revision. Reads the two snapshots only."""
    from .diff import revision_diff

    rows = Quote.objects.filter(base_number=quote.base_number, revision__in={a, b}).only("revision", "frozen")
    snapshots = {row.revision: row.frozen for row in rows}
    if a not in snapshots or b not in snapshots:
        return None
    return revision_diff(snapshots[a], snapshots[b])


def repeated_request(*, configuration: Configuration, customer_email: str, design_hash: str | None) -> Quote | None:
    """The open quote a repeated online request for the same, unchanged design gets back, or None.

    Open: awaiting review or approval, or issued and not expired. The design must be the one quoted (the design
    hash frozen on the quote), and the request must come from the same customer e-mail: another requester never
    sees someone else's quote."""
    if not design_hash:
        return None
    candidates = configuration.quotes.filter(
        channel=policy.ONLINE_CHANNEL,
        customer_email__iexact=customer_email,
        status__in=["awaiting_review", "awaiting_approval", "issued"],
        design_hash=design_hash,
    ).order_by("-created_at", "-id")
    for quote in candidates.defer("frozen"):
        if quote.status == "issued" and quote.is_expired:
            continue
        return quote
    return None


def repeated_expansion(*, original: Quote, document: Any, tokens: Collection[str]) -> Quote | None:
    """The open expansion quote of ``original`` for the same grown design ``document`` that this browser already
    requested (``tokens``: the quotes it was shown), or None: a form sent twice gets one quote."""
    if not tokens:
        return None
    return (
        Quote.objects.filter(
            expansion_of=original,
            token__in=list(tokens),
            design_hash=design_hash(document),
            status__in=["awaiting_review", "awaiting_approval", "issued"],
        )
        .defer("frozen")
        .order_by("-created_at", "-id")
        .first()
    )
