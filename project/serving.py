"""The answers gunicorn gives itself, before Django sees a request, in the API's JSON error body.

gunicorn refuses some requests while reading them (a request line longer than ``limit_request_line``: 414; too
many or too large headers: 431; a malformed request line: 400) and writes an HTML page for each. It cannot know
the path then (the line was never read to its end), so every such answer is the API's error body,
``{"error": {"code", "message", "fields": []}}`` (api/exceptions.py), for a browser as for a CRM client.
``gunicorn.conf.py`` installs it in the master, so every worker it forks writes JSON.
"""

from __future__ import annotations

import json
import socket

CODES = {
    400: "bad_request",
    403: "forbidden",
    414: "uri_too_long",
    417: "expectation_failed",
    431: "headers_too_large",
    500: "server_error",
    501: "not_implemented",
}
MESSAGES = {
    414: "The request line is longer than this server accepts; send long input in a request body (POST).",
    431: "The request headers are more or larger than this server accepts.",
    500: "An unexpected error occurred; it has been logged.",
}


def error_response(status: int, reason: str, detail: str) -> bytes:
    """The whole HTTP answer gunicorn sends for ``status``: the API's error body, and the connection closed."""
    message = MESSAGES.get(status) or (f"{reason}: {detail}" if detail else reason)
    body = json.dumps({"error": {"code": CODES.get(status, "bad_request"), "message": message, "fields": []}})
    head = (
        f"HTTP/1.1 {status} {reason}\r\n"
        "Connection: close\r\n"
        "Content-Type: application/json\r\n"
        f"Content-Length: {len(body.encode())}\r\n\r\n"
    )
    return head.encode("latin-1") + body.encode()


def _write_error(sock: socket.socket, status_int: int, reason: str, mesg: str) -> None:
    """gunicorn.util.write_error's signature, writing JSON instead of HTML."""
    from gunicorn import util

    util.write_nonblock(sock, error_response(status_int, reason, mesg))


def install_json_errors() -> None:
    """Make gunicorn write its own error answers as JSON (its workers call ``gunicorn.util.write_error``)."""
    from gunicorn import util

    util.write_error = _write_error
