"""What changed between two revisions of a quote, read from their snapshots alone (``Quote.frozen``): lines added,
removed and changed (quantity, unit price, discount, net), the discounts, the totals and the findings.

Pure: no database, no clock; the doors (the staff quote step, the API's ``revisions/{a}/diff/{b}/``) and the
revised offer's e-mail (``summary_sentence``) read the same answer. A line is matched across revisions by its
section, node group and part number (its description where it has no part number). Cost and margin are not in a
snapshot, so never in a diff: it is shown to customers' CRMs too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from design.jsontext import JsonObject

from .snapshot import FrozenQuote

LINE_FIELDS = ("quantity", "unit_price", "line_discount_percent", "quote_discount_percent", "net")
TOTAL_FIELDS = ("subtotal", "discount", "net", "vat_amount", "total")


@dataclass(frozen=True)
class Change:
    field: str
    before: str | int | None
    after: str | int | None


@dataclass(frozen=True)
class LineDiff:
    section: str
    group: str | None
    part_number: str
    description: str
    before: JsonObject | None  # the line's LINE_FIELDS in revision a (None: added)
    after: JsonObject | None  # in revision b (None: removed)
    changes: list[Change] = field(default_factory=list)


@dataclass(frozen=True)
class FindingDiff:
    code: str
    subject: str
    severity: str
    message: str


@dataclass(frozen=True)
class RevisionDiff:
    number: str
    a: int
    b: int
    added: list[LineDiff]
    removed: list[LineDiff]
    changed: list[LineDiff]
    discounts: list[Change]
    totals: list[Change]
    findings_added: list[FindingDiff]
    findings_removed: list[FindingDiff]
    design_changed: bool

    @property
    def unchanged(self) -> bool:
        return not (
            self.added or self.removed or self.changed or self.discounts or self.totals or self.design_changed
        ) and not (self.findings_added or self.findings_removed)

    def to_dict(self) -> JsonObject:
        return asdict(self)


def _values(line: JsonObject) -> JsonObject:
    return {name: line.get(name) for name in LINE_FIELDS}


def _same(before: Any, after: Any) -> bool:
    if before is None or after is None:
        return before is after
    try:
        return Decimal(str(before)) == Decimal(str(after))
    except ArithmeticError:
        return before == after


def _lines(frozen: FrozenQuote) -> dict[tuple[str, str, str], JsonObject]:
    """The lines by key, each with its values as the snapshot writes them; two lines with one key (never in a bill,
    but possible in an old snapshot) add up."""
    out: dict[tuple[str, str, str], JsonObject] = {}
    for item in frozen.lines:
        line = item.to_json()
        key = (item.section, item.group or "", item.part_number or item.description)
        if key in out:
            merged = dict(out[key])
            merged["quantity"] = int(merged.get("quantity") or 0) + int(line.get("quantity") or 0)
            if merged.get("net") is not None and line.get("net") is not None:
                merged["net"] = str(Decimal(merged["net"]) + Decimal(line["net"]))
            out[key] = merged
        else:
            out[key] = line
    return out


def _line_diff(
    line: JsonObject,
    before: JsonObject | None,
    after: JsonObject | None,
    changes: Iterable[Change] = (),
) -> LineDiff:
    return LineDiff(
        section=line.get("section") or "",
        group=line.get("group"),
        part_number=line.get("part_number") or "",
        description=line.get("description") or "",
        before=before,
        after=after,
        changes=list(changes),
    )


def _findings(frozen: FrozenQuote) -> dict[tuple[str, str], FindingDiff]:
    found = frozen.receipt.findings
    return {
        (f.get("code", ""), f.get("subject", "")): FindingDiff(
            f.get("code", ""), f.get("subject", ""), f.get("severity", ""), f.get("message", "")
        )
        for f in found
    }


def _discounts(a: JsonObject, b: JsonObject) -> list[Change]:
    changes: list[Change] = []
    if not _same(a.get("discount_percent") or "0", b.get("discount_percent") or "0"):
        changes.append(Change("discount_percent", a.get("discount_percent"), b.get("discount_percent")))
    before, after = a.get("line_discounts") or {}, b.get("line_discounts") or {}
    for part in sorted(set(before) | set(after)):
        if not _same(before.get(part, "0"), after.get(part, "0")):
            changes.append(Change(f"line_discounts.{part}", before.get(part), after.get(part)))
    return changes


def revision_diff(first: FrozenQuote | JsonObject, second: FrozenQuote | JsonObject) -> RevisionDiff:
    """What changed from the snapshot ``first`` (an earlier or later revision) to the snapshot ``second``. Amounts
    are compared as numbers and reported as the snapshots write them."""
    qa, qb = FrozenQuote.from_json(first), FrozenQuote.from_json(second)
    a, b = qa.to_json(), qb.to_json()
    lines_a, lines_b = _lines(qa), _lines(qb)
    added = [_line_diff(lines_b[k], None, _values(lines_b[k])) for k in lines_b if k not in lines_a]
    removed = [_line_diff(lines_a[k], _values(lines_a[k]), None) for k in lines_a if k not in lines_b]
    changed = []
    for key in (k for k in lines_a if k in lines_b):
        before, after = _values(lines_a[key]), _values(lines_b[key])
        changes = [Change(n, before[n], after[n]) for n in LINE_FIELDS if not _same(before[n], after[n])]
        if changes:
            changed.append(_line_diff(lines_b[key], before, after, changes))
    totals_a, totals_b = qa.totals.to_json(), qb.totals.to_json()
    totals = [
        Change(n, totals_a.get(n), totals_b.get(n)) for n in TOTAL_FIELDS if not _same(totals_a.get(n), totals_b.get(n))
    ]
    findings_a, findings_b = _findings(qa), _findings(qb)
    return RevisionDiff(
        number=qb.number or qa.number,
        a=qa.revision or 1,
        b=qb.revision or 1,
        added=added,
        removed=removed,
        changed=changed,
        discounts=_discounts(a, b),
        totals=totals,
        findings_added=[f for k, f in findings_b.items() if k not in findings_a],
        findings_removed=[f for k, f in findings_a.items() if k not in findings_b],
        design_changed=qa.receipt.design_hash != qb.receipt.design_hash,
    )


def summary_sentence(diff: RevisionDiff, money: Callable[[Any], str]) -> str:
    """One sentence, in the active language, saying what changed from revision ``diff.a`` to ``diff.b``;
    ``money`` writes an amount (e.g. quotes.documents.money with the quote's language)."""
    parts = []
    if diff.added:
        n = len(diff.added)
        parts.append(ngettext("%(n)s line added", "%(n)s lines added", n) % {"n": n})
    if diff.removed:
        n = len(diff.removed)
        parts.append(ngettext("%(n)s line removed", "%(n)s lines removed", n) % {"n": n})
    if diff.changed:
        n = len(diff.changed)
        parts.append(ngettext("%(n)s line changed", "%(n)s lines changed", n) % {"n": n})
    if diff.discounts:
        parts.append(_("the discounts changed"))
    total = next((c for c in diff.totals if c.field == "total"), None)
    if total is not None:
        parts.append(
            _("the total went from %(before)s to %(after)s")
            % {"before": money(total.before), "after": money(total.after)}
        )
    if not parts:
        return _("Compared with revision %(a)s, nothing in the lines, discounts or totals changed.") % {"a": diff.a}
    return _("Compared with revision %(a)s: %(changes)s.") % {"a": diff.a, "changes": "; ".join(parts)}
