"""What every API view shares: the request language, JSON errors, and the client's own objects."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from django.contrib.auth.models import User
from django.http import HttpRequest, QueryDict
from django.utils import translation
from django.utils.translation import gettext as _
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from messages.languages import default_language, language_codes, languages_named, supported_language

from ..models import ApiClient
from ..permissions import client_of
from ..throttling import throttle_cache


def request_language(request: Request | HttpRequest) -> str:
    """``?lang=`` first, then Accept-Language (resolved by LocaleMiddleware); one of settings.LANGUAGES. A
    ``lang`` the product does not speak is a 400, as the schema says (an Accept-Language the app lacks falls back
    to the default language)."""
    wanted = request.query_params.get("lang") if hasattr(request, "query_params") else request.GET.get("lang")
    if wanted is not None and wanted not in language_codes():
        from rest_framework.exceptions import ValidationError

        message = _("Use one of these languages: %(languages)s.") % {"languages": languages_named()}
        raise ValidationError({"lang": [message]})
    for candidate in (wanted, getattr(request, "LANGUAGE_CODE", None)):
        code = supported_language(candidate)
        if code is not None:
            return code
    return default_language()


def json_body(request: Request) -> dict[str, Any] | list[Any]:
    """The parsed JSON body; an absent body is an empty object (DRF gives an empty QueryDict then)."""
    data = request.data
    return {} if isinstance(data, QueryDict) else data


if TYPE_CHECKING:
    from rest_framework.views import APIView as _View
else:
    _View = object


class ApiViewMixin(_View):
    """Activates the request's language and renders every error as JSON, whatever the Accept header said."""

    stateless = False  # True: computes and stores nothing, so scope "read" may POST (see permissions)

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        translation.activate(getattr(request, "LANGUAGE_CODE", None) or default_language())  # for an error about ?lang
        self._refuse_unknown_parameters(request)
        language = request_language(request)
        translation.activate(language)
        request.LANGUAGE_CODE = language
        super().initial(request, *args, **kwargs)

    def check_throttles(self, request: Request) -> None:
        # The client throttles' counts go back to the cache together, once every throttle has decided.
        batch = throttle_cache(request)
        batch.begin()
        try:
            super().check_throttles(request)
        finally:
            batch.send()

    def _refuse_unknown_parameters(self, request: Request) -> None:
        """A query parameter the schema does not list for this operation is a 400 naming it, not ignored."""
        known = {"lang"}
        paginator = getattr(self, "paginator", None)
        if paginator is not None and getattr(self, "action", None) == "list":
            known |= {paginator.page_query_param, paginator.page_size_query_param}
        filterset = getattr(self, "filterset_class", None)
        if filterset is not None and getattr(self, "action", None) == "list":
            known |= set(filterset.base_filters)
        unknown = sorted(set(request.query_params) - known)
        if unknown:
            from rest_framework.exceptions import ValidationError

            raise ValidationError({name or "(empty name)": [_("Unknown query parameter.")] for name in unknown})

    def perform_content_negotiation(self, request: Request, force: bool = False) -> tuple[BaseRenderer, str]:
        # Errors and JSON answers never fail on an odd Accept header; file endpoints pick their own type.
        return super().perform_content_negotiation(request, force=True)

    def finalize_response(self, request: Request, response: Response, *args: Any, **kwargs: Any) -> Response:
        response = super().finalize_response(request, response, *args, **kwargs)
        if isinstance(response, Response) and response.status_code >= 400:
            response.accepted_renderer = JSONRenderer()
            response.accepted_media_type = "application/json"
        response.setdefault("Content-Language", translation.get_language() or default_language())
        return response

    @property
    def client(self) -> ApiClient:
        # Never None in a view: ClientScopePermission (every API view's) lets no request without a client through.
        return cast(ApiClient, client_of(self.request))

    @property
    def acting_user(self) -> User | None:
        """The Django user this client acts as (services record it), or None."""
        client = self.client
        if client is None or client.user_id is None:
            return None
        return client.user if client.user is not None and client.user.is_active else None
