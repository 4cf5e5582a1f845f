"""django-csp's middleware, with the policy of the settings built once per process instead of twice a response.

django-csp builds the Content-Security-Policy header from ``settings.CONTENT_SECURITY_POLICY`` (and the report-only
one from ``CONTENT_SECURITY_POLICY_REPORT_ONLY``) on every response, copying every directive's sources: about a
tenth of the CPU time of an API request around its view. A response that has no policy of its own
(``@csp_update``, ``@csp_replace``, ``@csp_override`` set ``response._csp_*``) and a request that used no nonce get
the settings' policy, which is the same string every time; it is built by django-csp's own ``build_policy`` once
and kept until a setting it reads changes (``setting_changed``, as tests change settings). Any other response goes
through django-csp unchanged. The headers are set exactly as django-csp sets them.
"""

from __future__ import annotations

import http.client

from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.middleware import CheckableLazyObject
from csp.middleware import CSPMiddleware as BaseCSPMiddleware
from csp.utils import build_policy
from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.http import HttpRequest
from django.http.response import HttpResponseBase

_OWN_POLICY = ("_csp_config", "_csp_update", "_csp_replace", "_csp_config_ro", "_csp_update_ro", "_csp_replace_ro")
_SETTINGS = {"CONTENT_SECURITY_POLICY": False, "CONTENT_SECURITY_POLICY_REPORT_ONLY": True}  # name: report-only
_DEBUG_EXEMPT = (http.client.INTERNAL_SERVER_ERROR, http.client.NOT_FOUND)

_policies: dict[bool, str] = {}  # report-only: the settings' policy


def settings_policy(report_only: bool) -> str:
    """The policy of the settings alone (no response's own, no nonce), as django-csp builds it."""
    policy = _policies.get(report_only)
    if policy is None:
        policy = _policies[report_only] = build_policy(report_only=report_only)
    return policy


@receiver(setting_changed, dispatch_uid="project.csp.forget_policies")
def _forget_policies(setting: str, **kwargs: object) -> None:
    if setting in _SETTINGS:
        _policies.clear()


class CSPMiddleware(BaseCSPMiddleware):
    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        if getattr(request, "_csp_nonce", None) is not None or any(
            getattr(response, name, None) is not None for name in _OWN_POLICY
        ):
            return super().process_response(request, response)
        if response.status_code in _DEBUG_EXEMPT and settings.DEBUG:
            return response
        for name, report_only in _SETTINGS.items():
            header = HEADER_REPORT_ONLY if report_only else HEADER
            policy = settings_policy(report_only)
            exempt = getattr(response, "_csp_exempt_ro" if report_only else "_csp_exempt", False) is not False
            prefixes = (getattr(settings, name, None) or {}).get("EXCLUDE_URL_PREFIXES", None) or ()
            if policy and header not in response and not exempt and not request.path_info.startswith(tuple(prefixes)):
                response[header] = policy
        # As django-csp: a nonce asked for after the header is written is an error, not a nonce without effect.
        request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)  # type: ignore[attr-defined]  # django-csp sets it; HttpRequest's stub does not name it
        return response
