"""Messages of the PCIe placement findings, with the slot and card form factors and PCIe links in words."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engines.findings.params.pcie import (
    FitHolder,
    FreeUnfit,
    NoSlotReason,
    PcieCardDoesNotFit,
    PcieFormUnknown,
    PcieGen6InGen5,
    PcieIntegratedNics,
    PcieLinkBandwidth,
    PcieLinkUnknown,
    PcieNicNotGpuLocal,
    PcieNoFreeSlot,
    PcieNoFreeSlotUnverified,
    PcieSlotsUnknown,
    PcieSlotUsedTwice,
    PcieSwitchUplink,
    PcieUnknownSlot,
    SlotGroup,
)

from .base import num, renders


def slot_form(form: str | None) -> str:
    """A slot form factor as an adjective ('low-profile', 'OCP 3.0'; None: not sourced)."""
    return {
        "LP": _("low-profile"),
        "FHHL": _("full-height half-length (FHHL)"),
        "FHFL": _("full-height full-length (FHFL)"),
        "OCP3": _("OCP 3.0"),
        "INTEGRATED": _("integrated"),
    }.get(form or "", _("unknown-size"))


def card_form(form: str | None) -> str:
    """A card form factor as an adjective ('half-height (HHHL)'; None: not sourced)."""
    return {
        "HHHL": _("half-height (HHHL)"),
        "FHHL": _("full-height (FHHL)"),
        "FHFL": _("full-length (FHFL)"),
        "OCP3": _("OCP 3.0"),
    }.get(form or "", _("unknown-size"))


def pcie_link(gen: int | None, lanes: int | None) -> str:
    """A PCIe link with the unknown part said in words: 'PCIe 5.0 x16', 'PCIe 5.0 of unknown width'."""
    values = {"gen": gen, "lanes": lanes}
    if gen is not None and lanes is not None:
        return f"PCIe {gen}.0 x{lanes}"
    if gen is not None:
        return _("PCIe %(gen)s.0 of unknown width") % values
    if lanes is not None:
        return _("PCIe x%(lanes)s of unknown generation") % values
    return _("PCIe of unknown generation and width")


def a_pcie_slot(gen: int | None, lanes: int | None) -> str:
    """'a PCIe 5.0 x16 slot', 'an x16 slot of unknown PCIe generation', with the article."""
    values = {"gen": gen, "lanes": lanes}
    if gen is not None and lanes is not None:
        return _("a PCIe %(gen)s.0 x%(lanes)s slot") % values
    if gen is not None:
        return _("a PCIe %(gen)s.0 slot of unknown width") % values
    if lanes is not None:
        return _("an x%(lanes)s slot of unknown PCIe generation") % values
    return _("a slot of unknown PCIe generation and width")


def a_pcie_card(gen: int | None, lanes: int | None) -> str:
    """'a PCIe 5.0 x16 card', 'an x16 card of unknown PCIe generation', with the article."""
    values = {"gen": gen, "lanes": lanes}
    if gen is not None and lanes is not None:
        return _("a PCIe %(gen)s.0 x%(lanes)s card") % values
    if gen is not None:
        return _("a PCIe %(gen)s.0 card of unknown width") % values
    if lanes is not None:
        return _("an x%(lanes)s card of unknown PCIe generation") % values
    return _("a card of unknown PCIe generation and width")


@renders(PcieUnknownSlot)
def _unknown_slot(p: PcieUnknownSlot) -> tuple[str, str]:
    values = {"server": p.server, "listed": ", ".join(p.slots), "have": ", ".join(p.known)}
    if not p.known:
        values["have"] = _("none")
    return (
        _("%(server)s has no slot named %(listed)s; its slots are %(have)s.") % values,
        _("Pick slot names from the server's slot list, or leave slots out and let us place the card."),
    )


@renders(PcieSlotUsedTwice)
def _slot_used_twice(p: PcieSlotUsedTwice) -> tuple[str, str]:
    desc = "; ".join(_("%(slot)s already holds %(part)s (%(path)s)") % h for h in p.holders)
    return (
        _("%(part)s is placed in a slot that is already used: %(desc)s.") % {"part": p.part, "desc": desc},
        _("Give every card its own slot."),
    )


@renders(PcieCardDoesNotFit)
def _card_does_not_fit(p: PcieCardDoesNotFit) -> tuple[str, str]:
    values = {
        "part": p.part,
        "card": card_form(p.card_form),
        "slot": slot_form(p.slot_form),
        "names": ", ".join(p.slots),
        "server": p.server,
    }
    allowed = ""
    for f in p.allowed_forms:
        allowed = _("%(a)s or %(b)s") % {"a": allowed, "b": f} if allowed else f
    return (
        _("%(part)s is a %(card)s card; it does not fit the %(slot)s slot %(names)s of %(server)s.") % values,
        _("Choose a %(allowed)s slot, or leave slots out and let us place the card.") % {"allowed": allowed},
    )


@renders(PcieIntegratedNics)
def _integrated_nics(p: PcieIntegratedNics) -> tuple[str, str]:
    values = {**p.as_dict(), "speed": f"{p.speed_gbps} Gb/s " if p.speed_gbps else ""}
    return (
        ngettext(
            "%(server)s has %(integrated_nics)s integrated %(speed)scompute NICs, one per GPU; its %(free_slots)s "
            "expansion slot is for storage or management, so the %(adapters)s %(part)s compute adapters have "
            "nowhere to go.",
            "%(server)s has %(integrated_nics)s integrated %(speed)scompute NICs, one per GPU; its %(free_slots)s "
            "expansion slots are for storage or management, so the %(adapters)s %(part)s compute adapters have "
            "nowhere to go.",
            p.free_slots,
        )
        % values,
        _(
            "Remove the compute adapters: the built-in NICs connect to the compute fabric. For a storage network, "
            "give the adapter the role storage."
        ),
    )


@renders(PcieSlotsUnknown)
def _slots_unknown(p: PcieSlotsUnknown) -> tuple[str, str]:
    return (
        ngettext(
            "We have no verified slot list for %(server)s, so we cannot check where the %(cards)s card goes or "
            "whether it fits.",
            "We have no verified slot list for %(server)s, so we cannot check where the %(cards)s cards go or "
            "whether they fit.",
            p.cards,
        )
        % p.as_dict(),
        _("Check the placement against the Supermicro datasheet before quoting."),
    )


@renders(PcieFormUnknown)
def _form_unknown(p: PcieFormUnknown) -> tuple[str, str]:
    values = {"part": p.part, "names": ", ".join(p.slots)}
    if p.unknown == "card":
        message = _("%(part)s is placed in %(names)s, but the card size is unknown, so we cannot confirm it fits.")
    else:
        message = _("%(part)s is placed in %(names)s, but the slot size is unknown, so we cannot confirm it fits.")
    return (
        message % values,
        _("Check the card's bracket and length against the slot before quoting."),
    )


@renders(PcieNicNotGpuLocal)
def _not_gpu_local(p: PcieNicNotGpuLocal) -> tuple[str, str]:
    n = len(p.slots)
    values = {"n": n, "part": p.part, "names": ", ".join(p.slots)}
    if p.free_local:
        fix = _("Move the compute NICs to the free slots next to the GPUs (or leave slots out and let us place them).")
    else:
        fix = _("Use one compute NIC per GPU; give extra adapters the role storage.")
    return (
        ngettext(
            "%(n)s %(part)s compute NIC sits in %(names)s, with no GPU behind the same PCIe switch: GPUDirect RDMA "
            "traffic crosses the CPU instead of staying local.",
            "%(n)s %(part)s compute NICs sit in %(names)s, with no GPU behind the same PCIe switch: GPUDirect RDMA "
            "traffic crosses the CPU instead of staying local.",
            n,
        )
        % values,
        fix,
    )


@renders(PcieLinkUnknown)
def _link_unknown(p: PcieLinkUnknown) -> tuple[str, str]:
    values = {
        "part": p.part,
        "slot": p.slot,
        "a_slot": a_pcie_slot(p.slot_gen, p.slot_lanes),
        "a_card": a_pcie_card(p.card_gen, p.card_lanes),
        "need": "",
    }
    if p.need_gbytes is not None:
        values["need"] = _(" (it needs %(need)s GB/s per direction)") % {"need": num(p.need_gbytes, 1)}
    return (
        _(
            "The PCIe link of %(part)s in %(slot)s is unknown: %(slot)s is %(a_slot)s and %(part)s is %(a_card)s. We "
            "cannot confirm it runs at full speed%(need)s."
        )
        % values,
        _("Check the slot's PCIe generation and width in the datasheet."),
    )


@renders(PcieLinkBandwidth, PcieGen6InGen5)
def _link_shortfall(p: PcieLinkBandwidth | PcieGen6InGen5) -> tuple[str, str]:
    values = {
        "label": f"{p.part} ({p.family})" if p.family else p.part,
        "card": pcie_link(p.card_gen, p.card_lanes),
        "slot": pcie_link(p.slot_gen, p.slot_lanes),
        "names": ", ".join(p.slots),
        "line": num(p.line_gbps),
        "need": num(p.need_exact, 1),
        "eff": num(p.link_exact, 1),
        "cap": num(p.link_exact * 8),
        "card_gen": p.card_gen,
        "card_lanes": p.card_lanes,
    }
    if len(p.slots) > 1:
        where = _("the %(slot)s slots %(names)s give") % values
    else:
        where = _("the %(slot)s slot %(names)s gives") % values
    values["where"] = where
    message = _(
        "%(label)s is a %(card)s card; its %(line)s Gb/s need about %(need)s GB/s per direction, but %(where)s "
        "%(eff)s GB/s, so the link caps it at about %(cap)s Gb/s."
    )
    if p.socket_direct:
        fix = _(
            "Put it in a PCIe %(card_gen)s.0 x%(card_lanes)s slot, or use Socket Direct (a second x16 through the "
            "auxiliary card) for full speed."
        )
    else:
        fix = _("Put it in a PCIe %(card_gen)s.0 x%(card_lanes)s slot, or choose a slower card.")
    return message % values, fix % values


@renders(PcieSwitchUplink)
def _switch_uplink(p: PcieSwitchUplink) -> tuple[str, str]:
    values = {
        "names": ", ".join(p.switches),
        "link": pcie_link(p.uplink_gen, p.uplink_lanes),
        "uplink": num(p.uplink_exact, 1),
        "total": num(p.need_gbytes, 1),
        "n_cards": p.adapters,
        "cards": ", ".join(p.cards),
    }
    if len(p.switches) > 1:
        message = _(
            "PCIe switches %(names)s each have a %(link)s uplink (%(uplink)s GB/s per direction), but the "
            "%(n_cards)s adapters behind each (%(cards)s) can move %(total)s GB/s; traffic between those adapters "
            "and CPU memory will queue."
        )
    else:
        message = _(
            "PCIe switch %(names)s has a %(link)s uplink (%(uplink)s GB/s per direction), but the %(n_cards)s "
            "adapters behind it (%(cards)s) can move %(total)s GB/s; traffic between those adapters and CPU memory "
            "will queue."
        )
    return (
        message % values,
        _(
            "Spread the adapters over slots behind different PCIe switches, or accept it if their traffic is "
            "GPU-to-NIC (GPUDirect) and stays below the uplink."
        ),
    )


# --- PCIE_NO_FREE_SLOT --------------------------------------------------------------------------------------


def pcie_noun(gen: int | None, lanes: int | None, noun: str) -> str:
    """'PCIe 5.0 x16 slots', 'x16 slots of unknown PCIe generation': a PCIe link joined to a (translated) noun."""
    values = {"gen": gen, "lanes": lanes, "noun": noun}
    if gen is not None and lanes is not None:
        return _("PCIe %(gen)s.0 x%(lanes)s %(noun)s") % values
    if gen is not None:
        return _("PCIe %(gen)s.0 %(noun)s of unknown width") % values
    if lanes is not None:
        return _("x%(lanes)s %(noun)s of unknown PCIe generation") % values
    return _("%(noun)s of unknown PCIe generation and width") % values


def _and_list(items: list[str]) -> str:
    if len(items) == 1:
        return items[0]
    return _("%(a)s and %(b)s") % {"a": ", ".join(items[:-1]), "b": items[-1]}


def slot_summary(groups: list[SlotGroup]) -> str:
    """'8 low-profile PCIe 5.0 x16 slots and 2 full-height ... slots': a server's expansion slots."""
    parts = []
    for g in groups:
        n = g["count"]
        if g["for_gpu"]:
            noun = _("GPU slot") if n == 1 else _("GPU slots")  # "GPU slot" is also a catalogue label
        else:
            noun = ngettext("slot", "slots", n)
        parts.append(f"{n} {slot_form(g['form'])} {pcie_noun(g['gen'], g['lanes'], noun)}")
    if not parts:
        return _("no expansion slots")
    return _and_list(parts)


def _slot_words(form: str | None, n: int) -> str:
    """'8 full-height slots' -> 'full-height slots'; OCP 3.0 positions are bays; None: slots of mixed forms."""
    if form == "OCP3":
        return ngettext("OCP 3.0 bay", "OCP 3.0 bays", n)
    if form is None:
        return ngettext("slot", "slots", n)
    short = {"LP": _("low-profile"), "FHHL": _("full-height"), "FHFL": _("full-height")}
    return ngettext("%(form)s slot", "%(form)s slots", n) % {"form": short.get(form) or slot_form(form)}


def _or_chain(items: list[str]) -> str:
    """'a or b or c': the card forms a slot takes."""
    text = items[0]
    for item in items[1:]:
        text = _("%(a)s or %(b)s") % {"a": text, "b": item}
    return text


def _or_join(items: list[str]) -> str:
    """'a, b or c' in the active language (the engine's English read 'a, b, or c' for three or more)."""
    if len(items) == 1:
        return items[0]
    if len(items) == 2:
        return _("%(a)s or %(b)s") % {"a": items[0], "b": items[1]}
    return _("%(a)s, or %(b)s") % {"a": ", ".join(items[:-1]), "b": items[-1]}


def _holders(holders: list[FitHolder]) -> str:
    if not holders:
        return _("other cards")
    said = []
    for h in holders:
        values = {"k": h["count"], "part": h["part"]}
        if h["kind"] == "self":
            said.append(_("the other %(k)s") % values)
        elif h["kind"] == "gpu":
            said.append(ngettext("the %(k)s %(part)s GPU card", "the %(k)s %(part)s GPU cards", h["count"]) % values)
        else:
            said.append(ngettext("%(k)s %(part)s adapter", "%(k)s %(part)s adapters", h["count"]) % values)
    return _and_list(said)


def _tail(r: NoSlotReason) -> str:
    n, q = r["without"], r["quantity"]
    if q == 1:
        return _("so it has no slot")
    if n == q:
        return _("so none of the %(n)s has a slot") % {"n": n}
    return ngettext("so %(n)s of the %(q)s has no slot", "so %(n)s of the %(q)s have no slot", n) % {"n": n, "q": q}


def _free_where(g: FreeUnfit) -> str:
    k, values = len(g["names"]), {"names": ", ".join(g["names"]), "words": _slot_words(g["form"], len(g["names"]))}
    if g["form"] == "OCP3":
        return ngettext("the free OCP 3.0 bay %(names)s", "the free OCP 3.0 bays %(names)s", k) % values
    return ngettext("the free %(words)s %(names)s", "the free %(words)s %(names)s", k) % values


def _why_no_slot(r: NoSlotReason) -> tuple[str, list[str]]:
    """One card's reason for having no slot, with the fixes that apply to it."""
    values = {"part": r["part"], "card": card_form(r["card_form"])}
    ocp_card = r["card_form"] == "OCP3"
    if r["fit"] == 0:
        return _fits_no_slot(r, values, ocp_card)
    form, n = r["fit_form"], r["fit"]
    words = {"words": _slot_words(form, n), "n": n}
    if n > 1:
        the = _("the %(n)s %(words)s it fits are") % words
    elif form == "OCP3":
        the = _("the one OCP 3.0 bay it fits is")
    else:
        the = _("the one %(words)s it fits is") % words
    values.update(the=the, holders=_holders(r["holders"]))
    if ocp_card:
        sentence = _("%(part)s is an OCP 3.0 card: %(the)s taken by %(holders)s") % values
    elif r["card_form"] is None:
        sentence = _("%(part)s is an %(card)s card: %(the)s taken by %(holders)s") % values
    else:
        sentence = _("%(part)s is a %(card)s card: %(the)s taken by %(holders)s") % values
    clauses, fixes = _free_unfit(r["free_unfit"])
    sentence += clauses + ", " + _tail(r) + "."
    if r["gpus"]:
        fixes.append(_("use fewer GPU cards"))
    elif form is not None:
        fixes.append(_("use fewer cards that need %(words)s") % {"words": _slot_words(form, 2)})
    if form is not None:
        fixes.append(_("choose a server with more %(words)s") % {"words": _slot_words(form, 2)})
    return sentence, fixes


def _fits_no_slot(r: NoSlotReason, values: dict[str, Any], ocp_card: bool) -> tuple[str, list[str]]:
    """A card that no slot of the server takes at all: another card, or another server."""
    also = f" ({', '.join(r['alternatives'])})" if r.get("alternatives") else ""
    if ocp_card:
        sentence = _("%(part)s is an OCP 3.0 card and none of them takes it.")
        fixes = [
            _("choose the PCIe (HHHL) version of the card%(also)s") % {"also": also},
            _("a server with an OCP 3.0 bay"),
        ]
    else:
        sentence = _("%(part)s is a %(card)s card and none of them takes it.")
        fixes = [
            _("choose a card that fits these slots%(also)s") % {"also": also},
            _("another server"),
        ]
    return sentence % values, fixes


def _free_unfit(groups: list[FreeUnfit]) -> tuple[str, list[str]]:
    """The clauses naming the free slots that take other cards only, and the adapters that would fit them."""
    clauses = ""
    fixes = []
    for g in groups:
        k = len(g["names"])
        takes = _or_chain([card_form(c) for c in g["takes"]])
        gv = {"where": _free_where(g), "takes": takes, "family": g.get("family"), "alts": ", ".join(g["alternatives"])}
        if g["form"] == "OCP3":
            clause = ngettext(", and %(where)s takes only OCP 3.0 cards", ", and %(where)s take only OCP 3.0 cards", k)
        else:
            clause = ngettext(
                ", and %(where)s takes only %(takes)s cards", ", and %(where)s take only %(takes)s cards", k
            )
        clauses += clause % gv
        if not g["adapter"]:
            continue
        if g["alternatives"]:
            if g["form"] == "OCP3":
                fix = _("use an OCP 3.0 %(family)s adapter (%(alts)s) in %(where)s")
            else:
                fix = _("use a %(takes)s %(family)s adapter (%(alts)s) in %(where)s")
        elif g["form"] == "OCP3":
            fix = _("use an OCP 3.0 adapter in %(where)s")
        else:
            fix = _("use a %(takes)s adapter in %(where)s")
        fixes.append(fix % gv)
    return clauses, fixes


@renders(PcieNoFreeSlot)
def _no_free_slot(p: PcieNoFreeSlot) -> tuple[str, str]:
    return _slots_short(p, p.slots_complete)


def _slots_short(p: PcieNoFreeSlot | PcieNoFreeSlotUnverified, slots_complete: bool) -> tuple[str, str]:
    """Too few slots for the cards, or none that fits; ``slots_complete``: whether the slot list is."""
    values = {"server": p.server, "summary": slot_summary(p.slot_groups), "total": p.cards}
    if p.reasons is None:
        excess = p.cards - p.slots
        if p.all_adapters:
            message = _("%(server)s has %(summary)s; %(total)s adapters need one each.")
            fix = ngettext(
                "Remove one adapter, or choose a server with more slots.",
                "Remove %(n)s adapters, or choose a server with more slots.",
                excess,
            )
        else:
            message = _("%(server)s has %(summary)s; %(total)s cards need one each.")
            fix = ngettext(
                "Remove one card, or choose a server with more slots.",
                "Remove %(n)s cards, or choose a server with more slots.",
                excess,
            )
        message, fix = message % values, fix % {"n": excess}
    else:
        sentences, fixes = [], []
        for r in p.reasons:
            sentence, more = _why_no_slot(r)
            sentences.append(sentence)
            fixes += [f for f in more if f not in fixes]
        message = (_("%(server)s has %(summary)s.") % values) + " " + " ".join(sentences)
        fix = _or_join(fixes)
        fix = fix[0].upper() + fix[1:] + "."
    if not slots_complete and p.published_count:
        message += " " + _(
            "The positions our slot list may be missing are of a kind these cards do not fit (such as an OCP bay), "
            "so the published slot count decides."
        )
    elif not slots_complete:
        message += _(
            " Our slot list for this chassis may be incomplete, so other positions are unverified; check the "
            "datasheet before ruling it out."
        )
    return message, fix


@renders(PcieNoFreeSlotUnverified)
def _no_free_slot_unverified(p: PcieNoFreeSlotUnverified) -> tuple[str, str]:
    """The same count against a slot list that is not complete: what to confirm with Supermicro."""
    message, fix = _slots_short(p, True)
    message += " " + _(
        "Our slot list for %(server)s is not complete (other positions, such as an AIOM/OCP bay or a side NIC "
        "position, may exist), so this is unverified rather than impossible."
    ) % {"server": p.server}
    confirm = _("Or confirm with Supermicro that %(server)s has a position for every card (%(cards)s in all).") % {
        "server": p.server,
        "cards": p.cards,
    }
    return message, fix + " " + confirm
