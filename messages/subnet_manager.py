"""Messages of the subnet-manager findings of an InfiniBand compute fabric (codes in engines.findings.fabric_codes):
whether the switches' embedded subnet manager runs the fabric, or UFM or a subnet-manager host is needed."""

from __future__ import annotations

from django.utils.translation import gettext as _

from engines.findings.params.fabric import FabricSmEmbedded, FabricSmLimit, FabricSmRequired, FabricSmUnknown

from .base import num, renders


@renders(FabricSmUnknown)
def _sm_unknown(p: FabricSmUnknown) -> tuple[str, str]:
    values = {"switch": p.switch, "ib_nodes": num(p.ib_nodes)}
    return (
        _(
            "The subnet-manager status of %(switch)s is not known from the sources: plan UFM or an SM host for the "
            "fabric of %(ib_nodes)s InfiniBand endpoints (HCA ports and switches)."
        )
        % values,
        _(
            "Plan UFM or a subnet-manager host attached to a leaf port, or confirm the switch's management status "
            "from its datasheet."
        ),
    )


@renders(FabricSmRequired)
def _sm_required(p: FabricSmRequired) -> tuple[str, str]:
    values = {"switch": p.switch, "ib_nodes": num(p.ib_nodes)}
    return (
        _(
            "%(switch)s is unmanaged and runs no subnet manager; the fabric of %(ib_nodes)s InfiniBand endpoints "
            "(HCA ports and switches) will not come up without one."
        )
        % values,
        _("Add UFM or a subnet-manager host attached to a leaf port, or choose the managed switch model."),
    )


@renders(FabricSmLimit)
def _sm_limit(p: FabricSmLimit) -> tuple[str, str]:
    # Emitted only with a known limit.
    values = {"ib_nodes": num(p.ib_nodes), "limit": num(p.sm_limit or 0)}
    return (
        _(
            "The fabric has %(ib_nodes)s InfiniBand endpoints (HCA ports and switches); the embedded subnet manager "
            "of the managed switches handles at most %(limit)s."
        )
        % values,
        _("Add UFM appliances (NVIDIA runs them on dedicated servers attached to leaf ports)."),
    )


@renders(FabricSmEmbedded)
def _sm_embedded(p: FabricSmEmbedded) -> tuple[str, str]:
    if p.sm_limit is None:
        values = {"switch": p.switch, "ib_nodes": num(p.ib_nodes)}
        return (
            _(
                "The managed %(switch)s switches run an embedded subnet manager, without adaptive routing or SHARP; "
                "how many InfiniBand endpoints it handles is not known from the sources (this fabric has "
                "%(ib_nodes)s: HCA ports and switches)."
            )
            % values,
            _("Plan UFM for AI training fabrics, or ask us to confirm the embedded subnet manager's limit."),
        )
    values = {"switch": p.switch, "ib_nodes": num(p.ib_nodes), "limit": num(p.sm_limit or 0)}
    return (
        _(
            "The managed %(switch)s switches run an embedded subnet manager, enough for these %(ib_nodes)s "
            "InfiniBand endpoints (HCA ports and switches; up to %(limit)s), but without adaptive routing or SHARP."
        )
        % values,
        _("UFM is recommended for AI training fabrics, and required above %(limit)s endpoints.") % values,
    )
