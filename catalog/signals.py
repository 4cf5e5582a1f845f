"""Cache invalidation for the catalogue snapshot (configurator.snapshot).

A documented exception to "no logic in signals": these receivers hold no business rule. The snapshot and the
catalogue version on quote receipts are keyed on ``Part.updated_at`` (and the part count), so every write to
a part's specs — a spec row, a slot, a PCIe switch, a drive bay, a power supply, the default node set, the
accepted GPUs — must touch the owning part, whichever door it comes through (the admin, the seed loader, a shell).

Which models that means is derived from the catalogue app, not listed by hand: every model of the app is a
part's spec row (a ``SpecBase``, keyed by its part) or a row that belongs to a server (a foreign key to
``Server``, whose primary key is its part's), and every many-to-many field on them is watched too. A model that
is neither stops the app from starting until it says how it refreshes the snapshot (``NOT_SPECS`` below), so a
new part kind cannot be forgotten. Queryset ``update()`` and ``bulk_create`` send no signals: code that uses
them on spec tables must touch the parts itself (``touch_parts``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from django.apps import apps
from django.core.exceptions import ImproperlyConfigured
from django.db import models
from django.db.models.signals import m2m_changed, post_delete, post_save
from django.utils import timezone

from .models import CatalogRelease, Part, Server, SpecBase

# Catalogue models that are no part's specs: the part itself (saving it moves its own ``updated_at``) and the
# log of releases (counted by the snapshot's freshness check).
NOT_SPECS: tuple[type[models.Model], ...] = (Part, CatalogRelease)


def touch_parts(part_ids: Iterable[int | None]) -> None:
    """Mark these parts as changed now (one UPDATE), so the snapshot and the catalogue version move on."""
    ids = {pk for pk in part_ids if pk is not None}
    if ids:
        Part.objects.filter(pk__in=ids).update(updated_at=timezone.now())


def owner_field(model: type[models.Model]) -> str:
    """The attribute of a catalogue row that holds the primary key of the part whose specs it belongs to."""
    if issubclass(model, SpecBase):
        return model._meta.get_field("part").attname  # type: ignore[misc]  # declared by each concrete spec model
    for field in model._meta.concrete_fields:
        if field.many_to_one and field.related_model is Server:
            return field.attname
    raise ImproperlyConfigured(
        f"catalog.{model.__name__} is neither a part's spec row (SpecBase) nor a row of a server (a foreign key to "
        "Server): say how its writes refresh the catalogue snapshot in catalog/signals.py"
    )


def refresh_models() -> dict[type[models.Model], str]:
    """Every catalogue model whose writes change some part's specs, with the attribute naming that part."""
    return {
        model: owner_field(model)
        for model in apps.get_app_config("catalog").get_models()
        if model not in NOT_SPECS and not model._meta.auto_created
    }


def _row_changed(sender: type[models.Model], instance: models.Model, raw: bool = False, **kwargs: Any) -> None:
    if not raw:  # fixtures (loaddata) carry their own timestamps
        touch_parts([getattr(instance, _OWNERS[sender])])


def _m2m_receiver(model: type[models.Model], field: models.ManyToManyField[Any, Any]) -> Callable[..., None]:
    """A receiver for one many-to-many field: the rows holding the field changed, from whichever side."""

    def changed(
        sender: type[models.Model],
        instance: models.Model,
        action: str,
        reverse: bool,
        pk_set: set[int] | None,
        **kwargs: Any,
    ) -> None:
        if action not in ("post_add", "post_remove", "post_clear", "pre_clear"):
            return
        if not reverse:  # instance holds the field (a Server): its own part changed
            if action != "pre_clear":
                touch_parts([getattr(instance, _OWNERS[model])])
            return
        # Reverse (gpu_part.accepted_by.add(server)): the rows in pk_set changed; on clear, pk_set is None, so the
        # rows are read before the clear.
        if action == "pre_clear":
            rows = model._default_manager.filter(**{field.name: instance})
            touch_parts(rows.values_list(_OWNERS[model], flat=True))
        elif pk_set:
            touch_parts(model._default_manager.filter(pk__in=pk_set).values_list(_OWNERS[model], flat=True))

    return changed


_OWNERS: dict[type[models.Model], str] = {}


def connect() -> None:
    _OWNERS.update(refresh_models())
    for model in _OWNERS:
        name = model.__name__
        post_save.connect(_row_changed, sender=model, dispatch_uid=f"catalog_touch_save_{name}")
        post_delete.connect(_row_changed, sender=model, dispatch_uid=f"catalog_touch_delete_{name}")
        for field in model._meta.local_many_to_many:
            m2m_changed.connect(
                _m2m_receiver(model, field),
                sender=field.remote_field.through,
                dispatch_uid=f"catalog_touch_{name}_{field.name}",
                weak=False,
            )
