"""Reading a frozen quote (``Quote.frozen``, schema quote/v1) as both documents print it: its lines by section and
node group, what is priced on request, the findings the customer's copy speaks of, and amounts, quantities, dates
and lead times written in the quote's language."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from typing import Any

from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from design.contract import BILL_SECTIONS
from design.jsontext import JsonObject
from messages.cluster import left_out_items

from .audience import is_catalogue_gap
from .snapshot import FrozenQuote

# A quote's snapshot, typed or as the JSON the database keeps (read with FrozenQuote.from_json).
Snapshot = FrozenQuote | JsonObject


def money(value: Any, language: str) -> str:
    """€ 1,234.56 (en) or € 1.234,56 (nl)."""
    if value in (None, ""):
        return ""
    with translation.override(language):
        return "€ " + formats.number_format(Decimal(str(value)), 2, use_l10n=True, force_grouping=True)


def percent(value: Any, language: str) -> str:
    number = Decimal(str(value or "0"))
    if not number:
        return ""
    with translation.override(language):
        text = formats.number_format(
            number.normalize() if number == number.to_integral() else number, None, use_l10n=True
        )
    return f"{text}%"


def _date(value: str | None) -> date | None:
    return date.fromisoformat(value) if value else None


def _datetime(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


def left_out(frozen: Snapshot) -> str:
    """What the offer leaves out because the site has it (the frozen result's ``left_out``), in the active
    language; "" when it leaves nothing out."""
    items = FrozenQuote.from_json(frozen).left_out_items
    return left_out_items(items) if items else ""


def lead_time(days: Any) -> str:
    """A line's lead time as the offer prints it: "35 days" (from the catalogue), or "on request" when unknown."""
    if days in (None, ""):
        return _("on request")
    return ngettext("%(days)s day", "%(days)s days", int(days)) % {"days": int(days)}


def frozen_lines(frozen: Snapshot) -> list[JsonObject]:
    """The frozen lines with their stable section key (``section``) and node group (``group``), in the bill's
    section order, as the documents' rows; a line of a quote frozen before those keys existed gets them from its old
    section name (quotes.snapshot.FrozenLine.stable). A design of one node group names none: "gpu:" before every
    node line tells the reader nothing."""
    order = {key: i for i, key in enumerate(BILL_SECTIONS)}
    out = FrozenQuote.from_json(frozen).stable_lines(order)
    if len({line.group for line in out if line.group}) < 2:
        out = [line.model_copy(update={"group": None}) for line in out]
    return [line.to_json() for line in sorted(out, key=lambda line: order.get(line.section, len(order)))]


def customer_points(frozen: Snapshot) -> tuple[list[str], bool]:
    """What the customer's copy says about the design's findings: each warning of the validation receipt in plain
    words (its message alone: no rule code, design path or the reason a sales engineer gave for accepting it), and
    whether some warning concerns a figure to confirm with the manufacturer (said once, not listed). Notes (info
    findings) are the sales engineer's: they stay in the internal appendix."""
    warnings = FrozenQuote.from_json(frozen).receipt.warnings()
    points: list[str] = []
    for finding in warnings:
        message = str(finding.get("message") or "")
        if not is_catalogue_gap(str(finding.get("code") or "")) and message and message not in points:
            points.append(message)
    return points, any(is_catalogue_gap(str(f.get("code") or "")) for f in warnings)


def on_request(line: JsonObject) -> bool:
    return line.get("unit_price") in (None, "")


def at_least(frozen: Snapshot) -> bool:
    """Whether the quote's totals leave out a line priced on request (they are then at least the amounts)."""
    return FrozenQuote.from_json(frozen).at_least


def quantity(value: Any, language: str) -> str:
    """A quantity with the language's thousands separator: 1,024 (en) or 1.024 (nl)."""
    with translation.override(language):
        return formats.number_format(int(value), 0, use_l10n=True, force_grouping=True)


def local_datetime(value: str | None) -> datetime | None:
    """A frozen ISO timestamp in the site's time zone (settings.TIME_ZONE): what both documents print."""
    moment = _datetime(value)
    if moment is None:
        return None
    return timezone.localtime(moment) if timezone.is_aware(moment) else moment
