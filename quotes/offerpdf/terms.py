"""The offer's terms, acceptance block and appendices (the customer's, and the sales engineer's internal one)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from reportlab.lib.units import mm
from reportlab.platypus import (
    Flowable,
    Paragraph,
    Table,
    TableStyle,
)

from design.jsontext import JsonObject
from outputs.pdffonts import SANS
from quotes.offercontext import OfferContext

from .styles import (
    BASE_SIZE,
    BODY,
    CELL,
    H3,
    HASH,
    HEAD_CELL,
    INK,
    NUM_SIZE,
    SEVERITY,
    SIGN_RULE,
    SMALL,
    SMALL_GREY,
    SMALL_SIZE,
    TERM,
    WIDTH,
    _date,
    _list_table,
    _padding,
    _style,
    heading,
    keep_with_next,
    text,
)

# --- terms, acceptance, appendix ------------------------------------------------------------------------------


def order_terms(q: JsonObject, terms: JsonObject, seller: JsonObject) -> list[str]:
    """The payment, delivery and lead-time terms, as the offer and the order confirmation both state them."""
    days = terms.get("payment_days") or 30
    return [
        ngettext(
            "Payment: within %(days)s day of the invoice date, by bank transfer to IBAN %(iban)s, stating %(number)s.",
            "Payment: within %(days)s days of the invoice date, by bank transfer to IBAN %(iban)s, stating %(number)s.",
            days,
        )
        % {"days": days, "iban": seller.get("iban", ""), "number": q.get("number", "")},
        _(
            "Delivery: %(incoterm)s (Incoterms® 2020) at the billing address unless another delivery address is"
            " agreed in the order."
        )
        % {"incoterm": terms.get("incoterm") or "DAP"},
        _(
            "Lead times are per line, counted from the order date; they are indicative and subject to the"
            " manufacturers' allocation. Prices may change if the configuration changes."
        ),
    ]


def _terms(context: OfferContext) -> list[Flowable]:
    q, terms, seller = context["q"], context["terms"], context["seller"]
    items = [
        _(
            "This quote is valid until %(date)s. Prices are in euros, excluding VAT unless stated as a total"
            " including VAT."
        )
        % {"date": _date(context["valid_until"])},
        *order_terms(q, terms, seller),
        _("Amounts are rounded half up to whole cents per line; VAT is calculated once on the net total."),
    ]
    agreement = context.get("agreement")
    if agreement:
        items.append(
            _("The discounts of the price agreement with %(company)s%(reference)s apply: %(discounts)s.")
            % {
                "company": agreement["company"],
                "reference": f" ({agreement['reference']})" if agreement["reference"] else "",
                "discounts": agreement["discounts"],
            }
        )
    if context["points"]:
        n = len(context["points"])
        items.append(
            ngettext(
                "The appendix explains %(n)s point to note about this design.",
                "The appendix explains %(n)s points to note about this design.",
                n,
            )
            % {"n": n}
        )
    if terms.get("general_terms_url"):
        items.append(
            _("The general terms and conditions of %(seller)s apply (%(url)s).")
            % {"seller": seller.get("name", ""), "url": terms["general_terms_url"]}
        )
    else:
        items.append(
            _("The general terms and conditions of %(seller)s apply; we send them on request.")
            % {"seller": seller.get("name", "")}
        )
    return [
        heading(_("Terms")),
        *(Paragraph(text(item), TERM, bulletText=f"{number}.") for number, item in enumerate(items, start=1)),
    ]


def _acceptance(context: OfferContext) -> list[Flowable]:
    number = context["q"].get("number", "")
    gap = 4 * mm
    column = (WIDTH - gap) / 2
    rows = [
        [_("Name"), "", _("Signature")],
        ["", "", ""],
        [_("Date"), "", _("Purchase order number")],
        ["", "", ""],
    ]
    style: list = [
        ("FONTNAME", (0, 0), (-1, -1), SANS),
        ("FONTSIZE", (0, 0), (-1, -1), BASE_SIZE),
        ("TEXTCOLOR", (0, 0), (-1, -1), INK),
        ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
        ("TOPPADDING", (0, 0), (-1, 0), 5 * mm),
        ("TOPPADDING", (0, 2), (-1, 2), 5 * mm),
        ("LINEBELOW", (0, 1), (0, 1), 0.5, SIGN_RULE),
        ("LINEBELOW", (2, 1), (2, 1), 0.5, SIGN_RULE),
        ("LINEBELOW", (0, 3), (0, 3), 0.5, SIGN_RULE),
        ("LINEBELOW", (2, 3), (2, 3), 0.5, SIGN_RULE),
    ]
    _padding(style, 0, 0, 0, 0.5 * mm, cells=((0, 0), (-1, -1)))
    style += [("TOPPADDING", (0, 0), (-1, 0), 5 * mm), ("TOPPADDING", (0, 2), (-1, 2), 5 * mm)]
    table = Table(
        rows,
        colWidths=[column, gap, column],
        rowHeights=[None, 9 * mm, None, 9 * mm],
        style=TableStyle(style),
        hAlign="LEFT",
    )
    accepts = _("The customer accepts quote %(number)s on the terms above.") % {"number": number}
    return [heading(_("Acceptance")), keep_with_next(Paragraph(text(accepts), SMALL)), table]


def _appendix(context: OfferContext) -> list[Flowable]:
    """The customer's appendix: the design receipt and the points to note in plain words (no rule code, design
    path, sales note or the reasons a sales engineer accepted a warning: those are in the internal appendix)."""
    q = context["q"]
    receipt = q.get("receipt") or {}
    out: list[Flowable] = [
        heading(_("Appendix: validation receipt"), space_before=0),
        Paragraph(
            text(
                _(
                    "This quote was issued for the design below, checked against the catalogue version shown. It is"
                    " valid only for this design."
                )
            ),
            SMALL,
        ),
    ]
    rows = [
        [Paragraph(text(_("Design hash (SHA-256)")), CELL), Paragraph(text(receipt.get("design_hash", "")), HASH)],
        [Paragraph(text(_("Catalogue version")), CELL), Paragraph(text(receipt.get("catalog_version", "")), CELL)],
    ]
    style: list = [("VALIGN", (0, 0), (-1, -1), "TOP")]
    _padding(style, 0, 2 * mm, 0.4 * mm, 0.4 * mm)
    receipt_table = Table(rows, colWidths=[45 * mm, WIDTH - 45 * mm], style=TableStyle(style), hAlign="LEFT")
    receipt_table.spaceBefore = 2 * mm
    out.append(receipt_table)
    out.append(Paragraph(text(_("Points to note about this design")), H3))
    out += [Paragraph(text(point), TERM, bulletText="•") for point in context["points"]]
    if context["confirm_figures"]:
        confirm = _(
            "Some technical figures of the parts (such as power draw, height or connectors) are confirmed with the"
            " manufacturers before the order is placed."
        )
        out.append(Paragraph(text(confirm), TERM, bulletText="•"))
    if not context["points"] and not context["confirm_figures"]:
        out.append(Paragraph(text(_("No points to note.")), _style("none", SMALL_SIZE, textColor=SMALL_GREY)))
    return out


def _internal_appendix(context: OfferContext) -> list[Flowable]:
    """The sales engineer's internal appendix: every finding with its rule code and design path, the accepted
    warnings with who accepted them and why, and who approved the discount. Never in the customer's copy."""
    q = context["q"]
    receipt = q.get("receipt") or {}
    out: list[Flowable] = [
        heading(_("Internal appendix: for the sales engineer, not for the customer"), space_before=0),
    ]
    if q.get("approval"):
        out.append(Paragraph(text(f"{_('Discount approved by')}: {q['approval'].get('by', '')}"), BODY))
    acknowledgements = q.get("acknowledgements") or []
    if acknowledgements:
        out.append(Paragraph(text(_("Accepted warnings")), H3))
        head = [
            Paragraph(text(_("Warning")), HEAD_CELL),
            Paragraph(text(_("Reason for accepting")), HEAD_CELL),
            Paragraph(text(_("By")), HEAD_CELL),
        ]
        body = [
            [
                Paragraph(
                    f"<b>{text(ack.get('code', ''))}</b> · {text(ack.get('subject', ''))}<br/>"
                    f"{text(ack.get('message', ''))}",
                    CELL,
                ),
                Paragraph(text(ack.get("reason", "")), CELL),
                Paragraph(text(ack.get("by", "")), CELL),
            ]
            for ack in acknowledgements
        ]
        out.append(_list_table([head, *body], [0.45, 0.40, 0.15]))
    findings = receipt.get("findings") or []
    if findings:
        out.append(Paragraph(text(_("Findings")), H3))
        head = [
            Paragraph(text(f"{_('Finding')} · {_('Subject')}"), HEAD_CELL),
            Paragraph(text(_("Message")), HEAD_CELL),
        ]
        body = []
        for finding in findings:
            colour = SEVERITY.get(str(finding.get("severity", "")), "#111111")
            code = f'<font size="{NUM_SIZE}" color="{colour}">{text(finding.get("code", ""))}</font>'
            subject = f'<font size="{NUM_SIZE}" color="#555555">{text(finding.get("subject", ""))}</font>'
            body.append([Paragraph(f"{code}<br/>{subject}", CELL), Paragraph(text(finding.get("message", "")), CELL)])
        out.append(_list_table([head, *body], [0.34, 0.66]))
    else:
        out.append(
            Paragraph(text(_("No findings.")), _style("none", SMALL_SIZE, textColor=SMALL_GREY, spaceBefore=2 * mm))
        )
    return out
