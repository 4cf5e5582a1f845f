"""Celery tasks of quotes, for the worker's autodiscovery (project.celery). They are defined beside the
services they run (quotes.services.builds), under the names ``quotes.tasks.*`` that beat's schedule and queued
messages use. The worker's start-up hook lives here too."""

from __future__ import annotations

import gc

from celery.signals import worker_process_init, worker_ready

from .services.builds import quote_build_documents, quotes_requeue_stuck_task
from .services.orders import quote_build_order_confirmation

__all__ = ["quote_build_documents", "quote_build_order_confirmation", "quotes_requeue_stuck_task", "warm_worker"]


@worker_ready.connect  # solo and thread pools: the tasks run in the worker's own process
@worker_process_init.connect  # prefork: in each child
def warm_worker(**_) -> None:
    """Load ReportLab and openpyxl before the first quote, with the offer's fonts and a first small offer built
    (quotes.documents.warm_up), and take everything loaded so far (Django, ReportLab, fonts, the translations) out
    of the garbage collector's scans: a PDF build allocates many thousands of objects,
    and each collection would walk the whole start-up heap again."""
    from . import documents

    documents.warm_up()
    gc.collect()
    gc.freeze()
