"""The slot map: a picture of one node's expansion slots, drawn from a validation result's ``placement`` entry.

Pure: takes one entry of ``result["placement"]`` (contract design/v1; built by engines.node.pcie) and
returns an SVG string. The wizard inlines it on the adapters step and the quote PDF embeds it, so it carries
its own styles and needs no fonts or scripts. It draws what the engine decided and never decides anything:

* each slot with its form, PCIe generation and width, and the card the engine placed in it (or *empty*);
* slots behind the same PCIe switch framed together, with the GPUs that share that switch;
* slots the engine cannot use (integrated NICs) hatched and marked *unusable*;
* facts the catalogue does not hold drawn as *unknown*, never guessed;
* the parts the engine could not place, with the reason it gave.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import Any

from design.jsontext import JsonObject

from .pcie.placement import SlotEntry, UnplacedCard

WIDTH = 720
ROW = 30
PAD = 12
HEAD = 50

ROLE_FILL = {"gpu": "#dbeafe", "compute": "#dcfce7", "storage": "#fef3c7", "management": "#ede9fe"}
ROLE_STROKE = {"gpu": "#1d4ed8", "compute": "#15803d", "storage": "#b45309", "management": "#6d28d9"}


@dataclass(frozen=True)
class SlotMapLabels:
    """Every word of the picture, translated by the caller (messages.slotmap). Format fields:
    ``{server}``, ``{gpus}``, ``{name}``, ``{n}``, ``{part}``, ``{qty}``, ``{reason}``, ``{rail}``."""

    title: str  # "Slot map · {server}"
    per_node: str
    empty: str
    unusable: str
    unknown: str
    gpus: str  # "GPUs {gpus}"
    switch: str  # "PCIe switch {name}"
    switch_gpus: str  # "PCIe switch {name} · shared by GPUs {gpus}"
    no_slots: str
    incomplete: str
    integrated: str  # "{n} × compute NIC integrated on the board"
    unplaced: str  # "Not placed: {part} × {qty} ({reason})"
    rail: str  # "rail {rail}"
    gpu: str
    compute: str
    storage: str
    management: str
    legend: str
    reasons: tuple[tuple[str, str], ...] = ()  # the placement's reasons (as the engine gives them) -> said
    gpu_one: str = "by GPU {gpus}"  # one GPU: "by GPU 0", never "GPUs 0"
    switch_gpu_one: str = "PCIe switch {name} · used by GPU {gpus}"

    def gpus_text(self, values: list[int] | tuple[int, ...]) -> str:
        """The GPUs a slot sits near: "GPU 0" for one, "GPUs 0, 1" for more."""
        return (self.gpu_one if len(values) == 1 else self.gpus).format(gpus=_gpus(values))

    def role(self, role: str) -> str:
        """A card role's name; a role the picture has no word for, as given."""
        return str(getattr(self, role)) if role in ROLE_FILL else role

    def reason(self, reason: str) -> str:
        """Why a part was not placed; a reason the picture has no words for, as the engine gave it."""
        return dict(self.reasons).get(reason, reason)


def _t(x: Any) -> str:
    return escape(str(x), quote=True)


def _link(slot: SlotEntry, unknown: str) -> str:
    gen, lanes = slot.get("pcie_gen"), slot.get("lanes")
    if not gen and not lanes:
        return f"PCIe {unknown}"
    gen_s = f"Gen{gen}" if gen else "Gen?"
    lanes_s = f"x{lanes}" if lanes else "x?"
    return f"PCIe {gen_s} {lanes_s}"


def _gpus(values: list[int] | tuple[int, ...]) -> str:
    return ", ".join(str(g) for g in values)


def render_slot_map_svg(placement_group: JsonObject, L: SlotMapLabels) -> str:
    """One node group's slots as an accessible SVG (it has a title and a text description of every slot), in
    the words of ``L``."""
    slots: list[SlotEntry] = list(placement_group.get("slots") or [])
    unplaced: list[UnplacedCard] = list(placement_group.get("unplaced") or [])
    server = placement_group.get("server") or "?"
    known = placement_group.get("slots_known", bool(slots))
    complete = placement_group.get("slots_complete", True)
    integrated = int(placement_group.get("integrated_nics") or 0)

    body: list[str] = []
    desc: list[str] = []
    notes: list[tuple[str, str]] = []  # (css class, text)
    if not known or not slots:
        notes.append(("warn", L.no_slots))
    elif not complete:
        notes.append(("muted", L.incomplete))
    y = _draw_slots(slots, HEAD, L, body, desc)
    if integrated:
        text = L.integrated.format(n=integrated)
        body.append(
            f'<rect class="integrated" x="{PAD}" y="{y + 2}" width="{WIDTH - 2 * PAD}" height="{ROW - 6}" rx="3"/>'
        )
        body.append(f'<text x="{PAD + 8}" y="{y + 19}">{_t(text)}</text>')
        desc.append(text)
        y += ROW
    for item in unplaced:
        text = L.unplaced.format(
            part=item.get("part", "?"), qty=item.get("quantity", 1), reason=L.reason(str(item.get("reason", "")))
        )
        notes.append(("err", text))
    for css, text in notes:
        body.append(f'<text class="{css}" x="{PAD}" y="{y + 18}">{_t(text)}</text>')
        desc.append(text)
        y += 24
    y = _draw_legend(y, L, body)
    return _svg(L.title.format(server=server), y + PAD, desc, body, L)


def _switch_groups(slots: list[SlotEntry]) -> list[tuple[str | None, list[SlotEntry]]]:
    """Runs of slots behind the same PCIe switch, in the engine's order (None: slots on no switch)."""
    groups: list[tuple[str | None, list[SlotEntry]]] = []
    for slot in slots:
        sw = slot.get("pcie_switch")
        if sw and groups and groups[-1][0] == sw:
            groups[-1][1].append(slot)
        else:
            groups.append((sw, [slot]))
    return groups


def _draw_slots(slots: list[SlotEntry], y: float, L: SlotMapLabels, body: list[str], desc: list[str]) -> float:
    """Draws the slot rows from ``y`` down, slots sharing a PCIe switch inside one frame; returns the next y."""
    for sw, members in _switch_groups(slots):
        if sw:
            shared = sorted({g for s in members for g in (s.get("gpus") or [])})
            shared_by = L.switch_gpu_one if len(shared) == 1 else L.switch_gpus
            label = shared_by.format(name=sw, gpus=_gpus(shared)) if shared else L.switch.format(name=sw)
            height = 22 + len(members) * ROW + 6
            body.append(f'<rect class="sw" x="{PAD / 2}" y="{y}" width="{WIDTH - PAD}" height="{height}" rx="6"/>')
            body.append(f'<text class="swl" x="{PAD}" y="{y + 15}">{_t(label)}</text>')
            desc.append(label)
            y += 22
        for slot in members:
            body.append(_slot_row(slot, y, L))
            desc.append(_slot_text(slot, L))
            y += ROW
        if sw:
            y += 10
    return y


def _draw_legend(y: float, L: SlotMapLabels, body: list[str]) -> float:
    """Draws the legend of card roles below ``y``; returns the y below it."""
    y += 6
    x = PAD
    body.append(f'<text class="muted" x="{x}" y="{y + 14}">{_t(L.legend)}:</text>')
    x += 70
    for role in ("gpu", "compute", "storage", "management"):
        body.append(
            f'<rect x="{x}" y="{y + 3}" width="14" height="14" rx="2" fill="{ROLE_FILL[role]}" '
            f'stroke="{ROLE_STROKE[role]}"/>'
        )
        body.append(f'<text class="muted" x="{x + 20}" y="{y + 14}">{_t(L.role(role))}</text>')
        x += 110
    return y + 28


def _svg(title: str, height: float, desc: list[str], body: list[str], L: SlotMapLabels) -> str:
    """The SVG document around the drawn ``body``, with its title, description and styles."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="slotmap" viewBox="0 0 {WIDTH} {height}" '
        f'width="100%" role="img" aria-labelledby="sm-title sm-desc" font-family="system-ui, sans-serif">'
        f'<title id="sm-title">{_t(title)}</title><desc id="sm-desc">{_t("; ".join(desc))}</desc>'
        "<style>"
        "text{font-size:12px;fill:#1f2937}.h{font-size:15px;font-weight:600}.muted{fill:#6b7280}"
        ".err{fill:#b91c1c;font-weight:600}.warn{fill:#b45309;font-weight:600}"
        ".sw{fill:#f8fafc;stroke:#94a3b8;stroke-dasharray:4 3}.swl{font-size:11px;fill:#475569;font-weight:600}"
        ".slot{fill:#ffffff;stroke:#9ca3af}.unusable{fill:url(#hatch);stroke:#9ca3af}"
        ".integrated{fill:#e0f2fe;stroke:#0369a1}.mono{font-family:ui-monospace,monospace}"
        "</style>"
        '<defs><pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
        '<rect width="6" height="6" fill="#f3f4f6"/>'
        '<line x1="0" y1="0" x2="0" y2="6" stroke="#d1d5db" stroke-width="3"/>'
        "</pattern></defs>"
        f'<text class="h" x="{PAD}" y="24">{_t(title)}</text>'
        f'<text class="muted" x="{PAD}" y="40">{_t(L.per_node)}</text>' + "".join(body) + "</svg>"
    )


def _slot_row(slot: SlotEntry, y: float, L: SlotMapLabels) -> str:
    unknown = L.unknown
    usable = slot.get("usable", True)
    part = slot.get("part")
    role = slot.get("role") or ""
    form = slot.get("form") or unknown
    if not usable:
        cls, fill, stroke = "unusable", "", ""
    elif part:
        cls, fill, stroke = "slot", ROLE_FILL.get(role, "#f3f4f6"), ROLE_STROKE.get(role, "#6b7280")
    else:
        cls, fill, stroke = "slot", "", ""
    style = f' style="fill:{fill};stroke:{stroke}"' if fill else ""
    out = [f'<rect class="{cls}" x="{PAD}" y="{y + 2}" width="{WIDTH - 2 * PAD}" height="{ROW - 6}" rx="3"{style}/>']
    out.append(f'<text class="mono" x="{PAD + 8}" y="{y + 19}" font-weight="600">{_t(slot.get("slot", "?"))}</text>')
    out.append(f'<text x="{PAD + 88}" y="{y + 19}">{_t(form)}</text>')
    out.append(f'<text class="muted" x="{PAD + 158}" y="{y + 19}">{_t(_link(slot, unknown))}</text>')
    if not usable:
        content, css = L.unusable, "muted"
    elif part:
        extra = L.role(role)
        if slot.get("rail") is not None:
            extra += " · " + L.rail.format(rail=slot["rail"])
        content, css = f"{part} ({extra})", "mono"
    else:
        content, css = L.empty, "muted"
    out.append(f'<text class="{css}" x="{PAD + 285}" y="{y + 19}">{_t(content)}</text>')
    if slot.get("gpus"):
        out.append(
            f'<text class="muted" x="{WIDTH - PAD - 8}" y="{y + 19}" text-anchor="end">'
            f"{_t(L.gpus_text(slot['gpus']))}</text>"
        )
    return "".join(out)


def _slot_text(slot: SlotEntry, L: SlotMapLabels) -> str:
    unknown = L.unknown
    if not slot.get("usable", True):
        state = L.unusable
    elif slot.get("part"):
        state = f"{slot['part']} ({L.role(slot.get('role') or '')})"
    else:
        state = L.empty
    parts = [str(slot.get("slot", "?")), str(slot.get("form") or unknown), _link(slot, unknown), state]
    if slot.get("gpus"):
        parts.append(L.gpus_text(slot["gpus"]))
    return " ".join(parts)
