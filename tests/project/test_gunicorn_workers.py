"""gunicorn's workers freeze their start-up heap once the application is loaded, as the quote worker does."""

from __future__ import annotations

import gc
import runpy
from pathlib import Path

CONF = Path(__file__).resolve().parents[2] / "gunicorn.conf.py"


def test_a_web_worker_freezes_its_start_up_memory_after_loading_the_views():
    settings = runpy.run_path(str(CONF))
    hook = settings["post_worker_init"]
    gc.unfreeze()
    assert gc.get_freeze_count() == 0
    try:
        hook(None)
        frozen = gc.get_freeze_count()
    finally:
        gc.unfreeze()
    assert frozen > 10_000  # Django, DRF and the views: out of every later collection's scan
    assert settings["limit_request_line"] == 4094
