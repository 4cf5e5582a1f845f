"""gunicorn's settings, read from the working directory (the Dockerfile's and docker-compose.yml's /app).

Request limits: a request line of at most 4,094 bytes, at most 100 headers of at most 8,190 bytes each
(gunicorn's own defaults, stated here so they are a decision). nginx in front (deploy/nginx.conf) refuses longer
lines itself; both answer in the API's JSON error body (project/serving.py), not an HTML page.

Each worker, once it has loaded the application, imports the views and takes everything loaded so far out of the
garbage collector's scans (``post_worker_init``), as the quote worker does (quotes.tasks.warm_worker): a large
validation makes many thousands of objects, and each collection would otherwise walk the start-up heap again.
"""

import gc

from project.serving import install_json_errors

limit_request_line = 4094
limit_request_fields = 100
limit_request_field_size = 8190

install_json_errors()


def post_worker_init(worker) -> None:
    """The views imported (the URLconf resolved), then the start-up heap frozen (``gc.freeze``)."""
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018  imports every view module the URLconf names
    gc.collect()
    gc.freeze()
