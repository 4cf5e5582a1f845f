"""The slot map's words in the active language (engines.node.slotmap draws, this module speaks)."""

from __future__ import annotations

from django.utils.translation import pgettext

from engines.node.slotmap import SlotMapLabels


def slot_map_labels() -> SlotMapLabels:
    """Every word of the slot map picture in the active language, built when called so it follows the request's
    language."""
    return SlotMapLabels(
        title=pgettext("slot map", "Slot map · {server}"),
        per_node=pgettext("slot map", "per node"),
        empty=pgettext("slot map", "empty"),
        unusable=pgettext("slot map", "unusable"),
        unknown=pgettext("slot map", "unknown"),
        gpus=pgettext("slot map", "GPUs {gpus}"),
        switch=pgettext("slot map", "PCIe switch {name}"),
        switch_gpus=pgettext("slot map", "PCIe switch {name} · shared by GPUs {gpus}"),
        no_slots=pgettext(
            "slot map", "No sourced slot list for this server: the placement cannot be shown or verified."
        ),
        incomplete=pgettext("slot map", "The slot list is sourced but incomplete: other slots may exist."),
        integrated=pgettext("slot map", "{n} × compute NIC integrated on the board"),
        unplaced=pgettext("slot map", "Not placed: {part} × {qty} ({reason})"),
        rail=pgettext("slot map", "rail {rail}"),
        gpu=pgettext("slot map", "GPU"),
        compute=pgettext("slot map", "compute"),
        storage=pgettext("slot map", "storage"),
        management=pgettext("slot map", "management"),
        legend=pgettext("slot map", "Legend"),
        gpu_one=pgettext("slot map", "by GPU {gpus}"),
        switch_gpu_one=pgettext("slot map", "PCIe switch {name} · used by GPU {gpus}"),
        reasons=(  # the reasons the PCIe placement (engines.node.pcie.placement) gives, as it gives them
            (
                "compute NICs are integrated in this server",
                pgettext("slot map placement reason", "compute NICs are integrated in this server"),
            ),
            (
                "GPU not supported by this server",
                pgettext("slot map placement reason", "GPU not supported by this server"),
            ),
            ("slot list unknown", pgettext("slot map placement reason", "slot list unknown")),
            ("no free slot it fits", pgettext("slot map placement reason", "no free slot it fits")),
            ("no such slot", pgettext("slot map placement reason", "no such slot")),
            ("slot already used", pgettext("slot map placement reason", "slot already used")),
            ("does not fit the chosen slot", pgettext("slot map placement reason", "does not fit the chosen slot")),
        ),
    )
