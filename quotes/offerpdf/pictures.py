"""The offer's pictures (outputs.picture_set, drawn by outputs.svgpdf): the fabric, the racks, the slot maps."""

from __future__ import annotations

import logging

from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from reportlab.lib.units import mm
from reportlab.platypus import (
    Flowable,
    Paragraph,
    Spacer,
)

from outputs.svgpdf import Picture
from quotes.offercontext import OfferContext

from .styles import (
    BODY,
    H3,
    NOTICE,
    WIDTH,
    heading,
    keep_with_next,
    text,
)

logger = logging.getLogger("quotes.offerpdf")


# --- pictures ---------------------------------------------------------------------------------------------------


def _picture(svg: str, max_height: float) -> Flowable:
    """The picture as wide as the text column at most, or nothing if it cannot be drawn: a picture never stops
    the offer."""
    try:
        picture = Picture(svg, WIDTH, max_height)
    except Exception:
        logger.warning("A picture of the offer could not be drawn and is left out", exc_info=True)
        return Spacer(0, 0)
    picture.spaceBefore = picture.spaceAfter = 2 * mm
    return picture


def _fabric(context: OfferContext) -> list[Flowable]:
    plan, topology = context["fabric_plan"], context["topology"]
    if not (topology or plan):
        return []
    out: list[Flowable] = [heading(_("Compute fabric"))]
    if plan:
        switches = context["fabric_switches"]
        values = {"tiers": plan.get("tiers"), "leaves": switches["leaf"], "spines": switches["spine"]}
        if plan.get("core_switches"):
            sentence = _("Fabric tiers: %(tiers)s; %(leaves)s leaf, %(spines)s spine and %(cores)s core switches.")
            values["cores"] = switches["core"]
        else:
            sentence = _("Fabric tiers: %(tiers)s; %(leaves)s leaf and %(spines)s spine switches.")
        out.append(keep_with_next(Paragraph(text(sentence % values), BODY)))
    if topology:
        out.append(_picture(topology, 150 * mm))
    else:
        out[-1].keepWithNext = 0
    return out


def _racks(context: OfferContext) -> list[Flowable]:
    plan = context["rack_plan"]
    if not (plan and plan.get("racks")):
        return []
    racks, heights = context["rack_count"], context.get("rack_heights") or ()
    if len(heights) > 1:  # rack-scale systems in their own racks beside the facility's
        each = ", ".join(_("%(racks)s of %(units)sU") % {"racks": n, "units": units} for units, n in heights)
        sentence = _("%(racks)s racks: %(heights)s.") % {"racks": racks, "heights": each}
    else:
        sentence = ngettext("%(racks)s rack of %(units)sU.", "%(racks)s racks of %(units)sU.", racks) % {
            "racks": racks,
            "units": heights[0][0] if heights else plan.get("rack_units"),
        }
    if context["rack_power"]:
        sentence += " " + _(
            "Facility power: %(power)s kW for nodes, switches and transceivers; PDU losses and cooling are not"
            " included."
        ) % {"power": context["rack_power"]}
    elif context["rack_power_known"]:
        sentence += " " + _(
            "Facility power: at least %(power)s kW (the power of some parts is unknown); PDU losses and cooling are"
            " not included."
        ) % {"power": context["rack_power_known"]}
    out: list[Flowable] = [heading(_("Racks")), keep_with_next(Paragraph(text(sentence), BODY))]
    if context["pdus_needed"]:
        n = context["pdus_needed"]
        notice = ngettext(
            "%(n)s PDU is needed (one per feed in every rack) and not included in this quote: the catalogue holds"
            " no PDU.",
            "%(n)s PDUs are needed (one per feed in every rack) and not included in this quote: the catalogue"
            " holds no PDU.",
            n,
        ) % {"n": n}
        out.append(keep_with_next(Paragraph(text(notice), NOTICE)))
    # a line of three racks as wide as the page: 42U at about 200 mm, its labels about 7 pt; each picture is whole
    out += [_picture(svg, 225 * mm) for svg in context["elevations"]]
    if not context["elevations"]:
        out[-1].keepWithNext = 0
    return out


def _slot_maps(context: OfferContext) -> list[Flowable]:
    out: list[Flowable] = []
    for slot_map in context["slot_maps"]:
        out.append(Paragraph(text(f"{_('Slot map')}: {slot_map['name']}"), H3))
        out.append(_picture(slot_map["svg"], 120 * mm))
    return out
