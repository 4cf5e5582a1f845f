"""Stored designs: create, read, change, delete, validate. Each client sees only its own."""

from __future__ import annotations

from typing import Any

from django.db import router
from django.db.models import QuerySet, TextField
from django.db.models.functions import Cast
from django.http import StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from configurator.models import Configuration
from configurator.services import (
    ConfigurationLocked,
    configuration_delete,
    configuration_mark_built,
    configuration_update,
    design_check_well_formed,
    design_validate,
)
from design.model import DesignInputError
from outputs.services import OutputUnavailable, UnknownOutput, configuration_export, configuration_output
from quotes.selectors import quote_ids_column
from quotes.services import built_expansion_design, built_expansion_name, quote_built_expansion_request
from quotes.services.expansion import expansion_plan, growth_parse

from ..exceptions import Conflict
from ..filters import ConfigurationFilter, names_a_filter
from ..idempotency import idempotent
from ..models import ApiClient
from ..prepared import PreparedList
from ..serializers.common import IDEMPOTENCY_PARAMETER, LANG_PARAMETER, errors
from ..serializers.configurations import (
    DOCUMENT_TEXT,
    LISTED_COLUMNS,
    ConfigurationInputSerializer,
    ConfigurationSerializer,
)
from ..serializers.designs import ValidationResultSerializer
from ..serializers.expansions import ExpansionInputSerializer, ExpansionSerializer
from ..serializers.quotes import BuiltExpansionQuoteInputSerializer, BuiltExpansionQuoteSerializer
from ..services import client_configuration_create, client_expansion_quote
from .base import ApiViewMixin, request_language
from .exports import (
    EXPORT_DESCRIPTION,
    EXPORT_RESPONSES,
    NAME_PARAMETER,
    AnyRenderer,
    PassThroughRenderer,
    export_response,
    refusal,
)

ID_PATTERN = r"[0-9]{1,18}"


class CsvRenderer(PassThroughRenderer):
    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"


def owned_configurations(client: ApiClient) -> QuerySet[Configuration]:
    return Configuration.objects.filter(api_owner__client=client)


def _listed(configurations: QuerySet[Configuration]) -> QuerySet[Configuration, dict[str, Any]]:
    """A page's columns, as dicts (no model instance per row), newest first: the design document as its column's
    JSON text, written into the answer as it is (api.renderers), and on PostgreSQL the ids of its quotes."""
    configurations = configurations.order_by("-updated_at", "-id")
    quote_ids = quote_ids_column(configurations.db)
    columns = {DOCUMENT_TEXT: Cast("document", TextField()), **({"quote_ids": quote_ids} if quote_ids else {})}
    return configurations.values(*(name for name in LISTED_COLUMNS if name != "document"), **columns)


_LIST = PreparedList(Configuration, lambda client: _listed(Configuration.objects.filter(api_owner__client=client)))


def check_well_formed(document: dict, *, prefix: str = "document") -> None:
    """Refuse a malformed design (400 naming every bad field, under ``prefix``); an invalid one may be stored.

    Only parses the document and checks its part numbers against the catalogue: the full validation runs once,
    in the service that stores the design.
    """
    try:
        design_check_well_formed(document=document)
    except DesignInputError as exc:
        raise DesignInputError(
            {
                f"{prefix}.{path}" if path and path != "design" else prefix: message
                for path, message in exc.errors.items()
            }
        ) from None


@extend_schema_view(
    list=extend_schema(
        summary="List this client's configurations",
        responses={200: ConfigurationSerializer(many=True), **errors(400, 404)},
    ),
    retrieve=extend_schema(summary="One configuration", responses={200: ConfigurationSerializer, **errors(404)}),
    create=extend_schema(
        summary="Store a design",
        request=ConfigurationInputSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={201: ConfigurationSerializer, **errors(400, 403, 415, 422)},
        description="The design must be well-formed (else 400 with the path of every bad field); "
        "it may be invalid (`valid: false`), as drafts often are.",
    ),
    update=extend_schema(
        summary="Replace a configuration's design",
        request=ConfigurationInputSerializer,
        responses={200: ConfigurationSerializer, **errors(400, 403, 404, 409, 415)},
        description="409 (`quote_open`) while a quote of the configuration awaits review or approval: the "
        "review and the accepted warnings are for the design as it was. Only a client acting as a sales engineer "
        "who may issue quotes changes a design under review (the same rule as the wizard's).",
    ),
    partial_update=extend_schema(
        summary="Change some fields of a configuration",
        responses={200: ConfigurationSerializer, **errors(400, 403, 404, 409, 415)},
        description="Changing `document` is refused with 409 (`quote_open`) while a quote of the configuration "
        "awaits review or approval; `name` and `crm_reference` may still change.",
    ),
    destroy=extend_schema(
        summary="Delete a configuration",
        responses={204: None, **errors(403, 404, 409)},
        description="A configuration with quotes cannot be deleted (409).",
    ),
)
class ConfigurationViewSet(
    ApiViewMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.DestroyModelMixin, viewsets.GenericViewSet
):
    serializer_class = ConfigurationSerializer
    filterset_class = ConfigurationFilter
    lookup_value_regex = ID_PATTERN
    queryset = Configuration.objects.none()

    def get_queryset(self) -> QuerySet[Configuration, Any]:
        if self.action == "list":
            if not names_a_filter(self.request.query_params, self.filterset_class):
                # the list's SQL compiled once per process (api.prepared); a filtered list is the ORM's
                return _LIST.rows(self.client.pk, database=router.db_for_read(Configuration))  # type: ignore[return-value]  # the queryset's stand-in that DRF's paginator pages (api.prepared)
            return _listed(owned_configurations(self.client))
        return owned_configurations(self.client).order_by("-updated_at", "-id")

    def get_serializer_class(self) -> type[ConfigurationInputSerializer | ConfigurationSerializer]:
        if self.action in ("create", "update", "partial_update"):
            return ConfigurationInputSerializer
        return ConfigurationSerializer

    def _output(
        self, configuration: Configuration, status_code: int = status.HTTP_200_OK, headers: dict[str, str] | None = None
    ) -> Response:
        configuration = self.get_queryset().get(pk=configuration.pk)
        data = ConfigurationSerializer(configuration, context=self.get_serializer_context()).data
        return Response(data, status=status_code, headers=headers)

    @idempotent
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        serializer = ConfigurationInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        language = data.get("language") or request_language(request)
        check_well_formed(data["document"])
        configuration = client_configuration_create(
            client=self.client,
            document=data["document"],
            name=data.get("name", ""),
            user=self.acting_user,
            crm_reference=data.get("crm_reference", ""),
            language=language,
        )
        response = self._output(configuration, status.HTTP_201_CREATED)
        response["Location"] = str(response.data["url"])
        return response

    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        partial = kwargs.pop("partial", False)
        configuration = self.get_object()
        serializer = ConfigurationInputSerializer(data=request.data, partial=partial)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        if "document" in data:
            check_well_formed(data["document"])
        try:
            configuration = configuration_update(
                configuration=configuration,
                user=self.acting_user,
                document=data.get("document"),
                name=data.get("name"),
                crm_reference=data.get("crm_reference"),
            )
        except ConfigurationLocked as exc:
            raise Conflict(exc.message, code=exc.code) from None
        return self._output(configuration)

    def partial_update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        kwargs["partial"] = True
        return self.update(request, *args, **kwargs)

    def perform_destroy(self, instance: Configuration) -> None:
        try:
            configuration_delete(configuration=instance, user=self.acting_user)
        except ConfigurationLocked as exc:
            raise Conflict(exc.message, code=exc.code) from None

    @extend_schema(
        summary="Validate a stored configuration",
        request=None,
        parameters=[LANG_PARAMETER],
        responses={200: ValidationResultSerializer, **errors(400, 404)},
        description="The same result as POST /api/v1/designs/validate/ for the stored design. Stores "
        "nothing (the configuration's `valid` and counts are kept when the design is stored), so scope "
        "`read` may call it.",
    )
    @action(detail=True, methods=["post"], stateless=True)
    def validate(self, request: Request, pk: str | None = None) -> Response:
        configuration = self.get_object()
        try:
            result = design_validate(document=configuration.document, language=request_language(request))
        except DesignInputError as exc:
            raise DesignInputError({f"document.{p}": m for p, m in exc.errors.items()}) from None
        return Response(result.to_json())

    @extend_schema(
        summary="Mark a configuration as built",
        request=None,
        responses={200: ConfigurationSerializer, **errors(403, 404, 409)},
        description="The stored design was built as it stands: `built_at` is set, the design is the installed "
        "cluster's record from now on (expansions start from it) and replacing it is refused with 409 (`built`); "
        "`name` and `crm_reference` may still change. Only a valid design can be marked (409 `not_valid`). "
        "Marking a built configuration again changes nothing. Needs scope `write`.",
    )
    @action(detail=True, methods=["post"], url_path="built")
    def built(self, request: Request, pk: str | None = None) -> Response:
        configuration = self.get_object()
        try:
            configuration = configuration_mark_built(configuration=configuration, user=self.acting_user)
        except ConfigurationLocked as exc:
            raise Conflict(exc.message, code=exc.code) from None
        return self._output(configuration)

    @extend_schema(
        summary="Request the expansion quote of a configuration marked as built",
        request=BuiltExpansionQuoteInputSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={201: BuiltExpansionQuoteSerializer, **errors(400, 403, 404, 415, 422)},
        description="The configuration's built design is the installed cluster; the body grows it as the expansion "
        'plan does (`{"node_group": NAME, "add": N}` or `{"node_groups": [...]}`) and names the `customer`. The '
        "grown design is stored as a new configuration of this client and quoted: the new quote (201) refers to "
        "the built configuration (`expansion_of_built`, its id) and its lines are what the growth adds, the "
        "re-cabling labour line included; its documents say which installed cluster it grows. Then it is a quote "
        "like any other. A bad body is 400 naming the field; a configuration not marked as built is 422 "
        "(`configuration`).",
    )
    @action(detail=True, methods=["post"], url_path="expansion-quotes")
    @idempotent
    def expansion_quotes(self, request: Request, pk: str | None = None) -> Response:
        built = self.get_object()
        growth = growth_parse(request.data)
        serializer = BuiltExpansionQuoteInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        customer, language = dict(serializer.validated_data["customer"]), serializer.validated_data.get("language")
        grown = built_expansion_design(built=built, growth=growth)
        quote = client_expansion_quote(
            client=self.client,
            grown=grown,
            user=self.acting_user,
            name=built_expansion_name(built, grown),
            crm_reference=built.crm_reference,
            language=language or built.language,
            request=lambda configuration: quote_built_expansion_request(
                built=built, configuration=configuration, customer=customer, user=self.acting_user, language=language
            ),
        )
        answer = BuiltExpansionQuoteSerializer(quote, context=self.get_serializer_context()).data
        return Response(answer, status=status.HTTP_201_CREATED, headers={"Location": str(answer["url"])})

    @extend_schema(
        summary="Plan the expansion of a configuration's installed cluster",
        request=ExpansionInputSerializer,
        parameters=[LANG_PARAMETER],
        responses={200: ExpansionSerializer, **errors(400, 404)},
        description='The stored design is the installed cluster; the body grows it: `{"node_group": NAME, '
        '"add": N}` (N more nodes in that group) or `{"node_groups": [...]}` (new groups). The answer is the '
        "grown design's validation result plus `delta_bom` (what to buy, with a labour line per moved or added "
        "cable), `unused`, `recabling` (every link: keep, move, add or remove, old and new ends with rack and unit), "
        "`moved_devices` and `findings` (what the growth crosses first: a new fabric tier, a scalable unit boundary, "
        "racks drawing more). A bad body is 400 naming the field. Stores nothing, so scope `read` may call it.",
    )
    @action(detail=True, methods=["post"], url_path="expansions", stateless=True)
    def expansions(self, request: Request, pk: str | None = None) -> Response:
        configuration = self.get_object()
        growth = growth_parse(request.data)
        try:
            expansion = expansion_plan(
                installed=configuration.document, growth=growth, language=request_language(request)
            )
        except DesignInputError as exc:
            raise DesignInputError(
                {p if p in ("node_group", "add", "node_groups") else f"document.{p}": m for p, m in exc.errors.items()}
            ) from None
        return Response(expansion.to_json())

    def get_renderers(self) -> list[BaseRenderer]:
        if self.action == "cabling_csv":
            return [CsvRenderer(), JSONRenderer()]
        if self.action == "export":
            return [JSONRenderer(), AnyRenderer()]
        return super().get_renderers()

    # Routed explicitly in api/urls.py: the path ends in ".csv", without a slash.
    @extend_schema(
        operation_id="configurations_cabling_csv",
        summary="Download the per-port cabling plan of the configuration's fabric",
        parameters=[LANG_PARAMETER],
        responses={
            (200, "text/csv"): OpenApiResponse(
                OpenApiTypes.STR,
                description="One row per link: a_end,a_port,z_end,z_port,link_class,cable_part,length_m. Streamed.",
            ),
            **errors(404, 409),
        },
        description="409 (`no_fabric_plan`) when the stored design has no fabric, or is malformed.",
    )
    def cabling_csv(self, request: Request, pk: str | None = None) -> StreamingHttpResponse:
        configuration = self.get_object()
        try:
            output = configuration_output(configuration=configuration, name="cabling.csv")
        except OutputUnavailable as exc:
            raise Conflict(exc.message, code=exc.code) from None
        response = StreamingHttpResponse(output.body, content_type=output.media_type)
        response["Content-Disposition"] = f'attachment; filename="cabling-{configuration.pk}.csv"'
        return response

    # Routed explicitly in api/urls.py: the path ends in the export's file name, without a slash.
    @extend_schema(
        operation_id="configurations_export",
        summary="Download a hand-over export of the configuration (Slurm topology, fabric check, …)",
        parameters=[NAME_PARAMETER, LANG_PARAMETER],
        responses={**EXPORT_RESPONSES, **errors(404, 409, 422)},
        description="The export of the stored design, from the same service as POST /api/v1/designs/exports/{name}. "
        + EXPORT_DESCRIPTION,
    )
    def export(self, request: Request, pk: str | None = None, name: str = "") -> StreamingHttpResponse:
        configuration = self.get_object()
        try:
            output = configuration_export(configuration=configuration, name=name)
        except (UnknownOutput, OutputUnavailable) as exc:
            raise refusal(exc) from None
        return export_response(output, output.name)
