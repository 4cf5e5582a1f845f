"""Read-side services for the doors: the catalogue as the engines see it, and the catalogue's own compatibility
answers. The doors (web, api) read the catalogue snapshot and ask hardware questions only through here."""

from __future__ import annotations

from design.specs import CatalogView, GpuSpec, ServerSpec
from engines.node.gpu import gpu_acceptance

from .snapshot import catalog_snapshot, clear_cache


def catalog_view(*, max_age: float | None = None) -> CatalogView:
    """The catalogue view (configurator.snapshot): ``max_age`` seconds bound how long a process may go without
    checking the catalogue version; None uses the setting CATALOG_SNAPSHOT_MAX_AGE."""
    return catalog_snapshot(max_age=max_age)


def catalog_forget() -> None:
    """Forget the in-memory catalogue: the next read loads it again."""
    clear_cache()


def gpu_verdict(server: ServerSpec, gpu: GpuSpec) -> str:
    """What the catalogue says of this GPU in this server: ``accepted``, ``rejected``, ``unverified`` or
    ``unknown`` (engines.node.gpu.gpu_acceptance, the rule the validation applies)."""
    return gpu_acceptance(server, gpu)
