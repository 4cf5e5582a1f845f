"""gunicorn's settings, read from the working directory (the Dockerfile's and docker-compose.yml's /app).

Request limits: a request line of at most 4,094 bytes, at most 100 headers of at most 8,190 bytes each
(gunicorn's own defaults, stated here so they are a decision). nginx in front (deploy/nginx.conf) refuses longer
lines itself; both answer in the API's JSON error body (configurator/serving.py), not an HTML page.
"""

from configurator.serving import install_json_errors

limit_request_line = 4094
limit_request_fields = 100
limit_request_field_size = 8190

install_json_errors()
