"""Cache invalidation for the catalogue snapshot (configurator.snapshot).

A documented exception to "no logic in signals": these receivers hold no business rule. The snapshot and the
catalogue version on quote receipts are keyed on ``Part.updated_at`` (and the part count), so every write to
a part's specs — a spec row, a slot, a PCIe switch, the accepted GPUs — must touch the owning part, whichever
door it comes through (the admin, the seed loader, a shell). Queryset ``update()`` and ``bulk_create`` send no
signals: code that uses them on spec tables must touch the parts itself (``touch_parts``).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models.signals import m2m_changed, post_delete, post_save
from django.utils import timezone

from .models import (
    Adapter,
    Bridge,
    Cpu,
    DefaultPart,
    Drive,
    DriveBay,
    Gpu,
    Media,
    Memory,
    Part,
    PcieSwitch,
    Server,
    ServerSlot,
    Switch,
)

SPEC_ROW_MODELS = (Server, Gpu, Bridge, Adapter, Switch, Media, Cpu, Memory, Drive)


def touch_parts(part_ids: Iterable[int | None]) -> None:
    """Mark these parts as changed now (one UPDATE), so the snapshot and the catalogue version move on."""
    ids = {pk for pk in part_ids if pk is not None}
    if ids:
        Part.objects.filter(pk__in=ids).update(updated_at=timezone.now())


def _spec_row_changed(sender, instance, raw=False, **kwargs) -> None:
    if not raw:  # fixtures (loaddata) carry their own timestamps
        touch_parts([instance.part_id])


def _server_child_changed(sender, instance, raw=False, **kwargs) -> None:
    if not raw:
        touch_parts([instance.server_id])  # Server's primary key is its part's


def _accepts_changed(sender, instance, action, reverse, pk_set, **kwargs) -> None:
    if action not in ("post_add", "post_remove", "post_clear", "pre_clear"):
        return
    if not reverse:
        if action != "pre_clear":
            touch_parts([instance.pk])  # a Server: its pk is the part's
        return
    # Reverse (gpu_part.accepted_by.add(server)): the servers in pk_set changed; on clear, pk_set is None, so
    # the servers are read before the clear.
    if action == "pre_clear":
        touch_parts(instance.accepted_by.values_list("pk", flat=True))
    elif pk_set:
        touch_parts(pk_set)


def connect() -> None:
    for model in SPEC_ROW_MODELS:
        post_save.connect(_spec_row_changed, sender=model, dispatch_uid=f"catalog_touch_save_{model.__name__}")
        post_delete.connect(_spec_row_changed, sender=model, dispatch_uid=f"catalog_touch_delete_{model.__name__}")
    for model in (ServerSlot, PcieSwitch, DriveBay, DefaultPart):
        post_save.connect(_server_child_changed, sender=model, dispatch_uid=f"catalog_touch_save_{model.__name__}")
        post_delete.connect(_server_child_changed, sender=model, dispatch_uid=f"catalog_touch_delete_{model.__name__}")
    m2m_changed.connect(_accepts_changed, sender=Server.accepts.through, dispatch_uid="catalog_touch_accepts")
