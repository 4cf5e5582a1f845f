"""TRACE and TRACK under /api/ are refused as methods (405) in the API's error body, before authentication.

A TRACE echoes the request back (cross-site tracing); no endpoint answers one. Refused here, every client gets the
same 405 with the error body of api/exceptions.py, where a view would first ask an anonymous client to log in (401).
nginx refuses TRACE itself, in the same body (deploy/nginx.conf); this covers gunicorn reached directly and TRACK.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse
from rest_framework.exceptions import MethodNotAllowed

from .exceptions import ApiErrorCode, error_body

REFUSED_METHODS = frozenset({"TRACE", "TRACK"})
API_PREFIX = "/api/"
ALLOW = "GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE"


class RefuseTraceMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method in REFUSED_METHODS and request.path.startswith(API_PREFIX):
            refusal = MethodNotAllowed(request.method)
            response = JsonResponse(
                error_body(ApiErrorCode.METHOD_NOT_ALLOWED, str(refusal.detail)), status=refusal.status_code
            )
            response["Allow"] = ALLOW
            return response
        return self.get_response(request)
