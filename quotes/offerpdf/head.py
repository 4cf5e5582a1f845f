"""The offer's header beside the seller block, and the parties (a development banner above them when the seller is
not real)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from reportlab.lib.units import mm
from reportlab.platypus import (
    Flowable,
    Paragraph,
    Table,
    TableStyle,
)

from quotes.offercontext import OfferContext

from .styles import (
    BODY,
    CELL,
    DEV,
    DEV_RED,
    H1,
    SELLER,
    SMALL_GREY,
    SMALL_SIZE,
    TBC,
    WIDTH,
    _date,
    _padding,
    _style,
    heading,
    text,
)


def _dev_banner() -> Table:
    style = [("BOX", (0, 0), (-1, -1), 1, DEV_RED)]
    _padding(style, 2 * mm, 2 * mm, 1.5 * mm, 1.5 * mm)
    return Table(
        [[Paragraph(text(_("Development seller details — not valid for orders")), DEV)]],
        colWidths=[WIDTH],
        style=TableStyle(style),
        hAlign="LEFT",
        spaceAfter=3 * mm,
    )


# --- header and parties -----------------------------------------------------------------------------------------


def _header(context: OfferContext) -> Table:
    q, contact = context["q"], context["contact"]
    title = _("Indicative quote") if q.get("indicative") else _("Quote")
    rows = [(_("Date"), _date(context["issued_at"])), (_("Valid until"), _date(context["valid_until"]))]
    if (q.get("revision") or 1) > 1:
        rows.append((_("Revision"), str(q["revision"])))
    if q.get("crm_reference"):
        rows.append((_("Your reference"), q["crm_reference"]))
    reach = ", ".join(str(x) for x in (contact.get("name"), contact.get("email"), contact.get("phone")) if x)
    rows.append((_("Your contact"), reach))
    left_width = WIDTH * 0.62
    meta_style: list = []
    _padding(meta_style, 0, 2 * mm, 0.4 * mm, 0.4 * mm)
    meta = Table(
        [[Paragraph(text(key), CELL), Paragraph(text(value), CELL)] for key, value in rows],
        colWidths=[30 * mm, left_width - 30 * mm],
        style=TableStyle([*meta_style, ("VALIGN", (0, 0), (-1, -1), "TOP")]),
        hAlign="LEFT",
    )
    style: list = [("VALIGN", (0, 0), (-1, -1), "TOP")]
    _padding(style, 0, 0, 0, 0)
    return Table(
        [[[Paragraph(f"{text(title)} {text(q.get('number', ''))}", H1), meta], Paragraph(_seller(context), SELLER)]],
        colWidths=[left_width, WIDTH - left_width],
        style=TableStyle(style),
        hAlign="LEFT",
    )


def _seller(context: OfferContext) -> str:
    seller = context["seller"]
    lines = [f"<b>{text(seller.get('name', ''))}</b>"]
    if seller.get("street"):
        lines += [
            text(seller["street"]),
            text(" ".join(x for x in (seller.get("postal_code"), seller.get("city")) if x)),
            text(seller.get("country_name", "")),
        ]
    else:
        address = seller.get("address") or []
        lines += [text(line) for line in (address if isinstance(address, list) else [address])]
    lines += [text(seller.get("phone", "")), text(seller.get("email", ""))]
    if seller.get("kvk"):
        lines.append(text(f"{_('Chamber of Commerce (KvK)')}: {seller['kvk']}"))
    if seller.get("vat_id"):
        lines.append(text(f"{_('VAT ID (BTW-id)')}: {seller['vat_id']}"))
    if seller.get("iban"):
        lines.append(text(f"IBAN: {seller['iban']}"))
        if seller.get("bic"):
            lines.append(text(f"BIC: {seller['bic']}"))
        if seller.get("bank"):
            lines.append(text(seller["bank"]))
    return "<br/>".join(line for line in lines if line)


def _parties(context: OfferContext) -> Table:
    q, customer = context["q"], context["customer"]
    column = WIDTH / 2
    inner = column - 8 * mm
    billing: list[str] = []
    if customer.get("company"):
        billing.append(f"<b>{text(customer['company'])}</b>")
    billing.append(text(f"{_('Attn.')} {customer.get('name', '')}"))
    address = customer.get("address")
    if address:
        billing += [
            text(address.get("street", "")),
            text(" ".join(x for x in (address.get("postal_code"), address.get("city")) if x)),
        ]
    else:
        billing.append(f'<i><font color="{TBC}">{text(_("Billing address to be confirmed"))}</font></i>')
    billing.append(text(customer.get("country_name", "")))
    if customer.get("vat_number"):
        billing.append(text(f"{_('VAT number')}: {customer['vat_number']}"))
    billing.append(text(customer.get("email", "")))
    left = [heading(_("Billing address"), inner, space_before=0, keep=False), Paragraph("<br/>".join(billing), BODY)]
    right: list[Flowable] = []
    name = (q.get("design") or {}).get("name")
    if name:
        right += [
            heading(_("Design"), inner, space_before=0, keep=False),
            Paragraph(f"<b>{text(name)}</b>", BODY),
        ]
    if q.get("indicative"):
        notice = _(
            "This is an indicative quote, issued at once from our list prices. A sales engineer confirms it before"
            " we accept an order."
        )
        right.append(Paragraph(text(notice), _style("indicative", SMALL_SIZE, textColor=SMALL_GREY, spaceBefore=mm)))
    style: list = [("VALIGN", (0, 0), (-1, -1), "TOP")]
    _padding(style, 0, 8 * mm, 0, 0)
    return Table(
        [[left, right or ""]],
        colWidths=[column, column],
        style=TableStyle(style),
        hAlign="LEFT",
        spaceBefore=6 * mm,
    )
