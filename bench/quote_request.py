"""Time of a quote request: validating and pricing the stored design (quotes.services.evaluation.evaluate, what
requesting, issuing and approving a quote each run) and a whole quote_request, for 1, 16 and 128 HGX nodes.

    .venv/bin/python bench/quote_request.py

Runs in a throw-away test database seeded with the catalogue (SQLite unless DATABASE_URL says otherwise); the
catalogue snapshot is warm, as in a running process; each run plans its racks afresh, as for a new design (the
per-process rack plan memo is emptied first). Prints the median of RUNS runs each, and the queries of one
evaluation.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
import uuid
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # before bench/, whose quotes.py would hide the app of that name
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "project.settings.test")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402

RUNS = 15
CUSTOMER = {"name": "Bench", "company": "Bench B.V.", "email": "bench@example.nl", "country": "NL"}


def hgx_design(count: int) -> dict:
    """The contract's example cluster (configurator.examples) with ``count`` nodes and no workload to size; one
    node has no fabric."""
    from configurator.examples import h200_training_cluster

    document = h200_training_cluster()
    document["node_groups"][0]["count"] = count
    del document["workload"]
    if count == 1:
        document["fabric"] = None
    return document


def median_ms(call) -> float:
    """Median of RUNS calls, each planning its racks afresh (the per-process plan memo emptied before it, untimed),
    as a new design would."""
    from engines.cluster.rackplan import rack_plan_memo_clear

    call()  # warm
    timings = []
    for _ in range(RUNS):
        rack_plan_memo_clear()
        start = time.perf_counter()
        call()
        timings.append(time.perf_counter() - start)
    return statistics.median(timings) * 1000


def main() -> None:
    from catalog.services import catalog_load_seed
    from configurator.models import Configuration
    from quotes import services
    from quotes.services.evaluation import evaluate

    setup_test_environment()
    if connection.vendor == "postgresql":  # never clobber the test suite's test_<name> database
        connection.settings_dict.setdefault("TEST", {})["NAME"] = f"test_quote_request_bench_{os.getpid()}"
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    services.issuing.enqueue_build = lambda pk: False  # the documents are not built here
    try:
        catalog_load_seed()
        for count in (1, 16, 128):
            configuration = Configuration.objects.create(document=hgx_design(count))

            def evaluation_run(c=configuration):
                evaluate(
                    configuration=c,
                    language="en",
                    country="NL",
                    vat_number="",
                    discount_percent=Decimal("0"),
                    line_discounts={},
                )

            evaluation = median_ms(evaluation_run)
            with CaptureQueriesContext(connection) as queries:
                evaluation_run()
            request = median_ms(
                lambda c=configuration: services.quote_request(
                    configuration=c, customer=CUSTOMER, channel="api", crm_reference=uuid.uuid4().hex
                )
            )
            print(
                f"{count:>3} nodes: evaluation {evaluation:6.2f} ms ({len(queries)} queries), "
                f"quote_request {request:6.2f} ms (median of {RUNS})"
            )
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
