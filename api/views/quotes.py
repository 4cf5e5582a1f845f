"""Quotes: request (202), read, download the documents, revise, approve. Each client sees only its own.

A client's quotes are the quotes of its configurations. Requests, revisions and approvals go through
quotes.services, the same rules as the web app: a design with errors is refused, warnings wait for a sales
engineer's review, a discount above the threshold waits for approval by a user with ``quotes.approve_quote``.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

import django_filters
from django.db import transaction
from django.db.models import QuerySet
from django.http import FileResponse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import F, OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from configurator.models import Configuration
from quotes import selectors as quote_selectors
from quotes.models import Quote
from quotes.services import (
    QuoteErrorCode,
    QuoteStateError,
    expansion_design,
    expansion_name,
    quote_accept,
    quote_approve,
    quote_decline,
    quote_expansion_request,
    quote_request,
    quote_revise,
)
from quotes.services.expansion import growth_parse

from ..exceptions import Conflict
from ..filters import StrictFilterSet
from ..idempotency import idempotent
from ..models import ApiClient
from ..permissions import CanApproveQuotes, ClientScopePermission
from ..serializers.common import IDEMPOTENCY_PARAMETER, errors
from ..serializers.expansions import ExpansionInputSerializer
from ..serializers.quotes import (
    ExpansionQuoteSerializer,
    QuoteAcceptedSerializer,
    QuoteAcceptSerializer,
    QuoteDeclineSerializer,
    QuoteRequestSerializer,
    QuoteReviseSerializer,
    QuoteRevisionDiffSerializer,
    QuoteSerializer,
)
from ..services import client_configuration_create, client_expansion_quote
from .base import ApiViewMixin, request_language
from .configurations import ID_PATTERN, check_well_formed, owned_configurations
from .exports import PassThroughRenderer

RETRY_AFTER_SECONDS = 5


class QuoteFilter(StrictFilterSet):
    crm_reference = django_filters.CharFilter(max_length=100, help_text="Exact CRM reference.")
    status = django_filters.ChoiceFilter(choices=Quote.Status.choices)
    number = django_filters.CharFilter(
        field_name="base_number", max_length=32, help_text="Quote number without revision suffix: all its revisions."
    )

    class Meta:
        model = Quote
        fields = ["crm_reference", "status", "number"]


class _FileRenderer(PassThroughRenderer):
    format: str | None = None  # type: ignore[assignment]  # no format suffix of its own; each file type names one
    charset = None


class PdfRenderer(_FileRenderer):
    media_type = "application/pdf"
    format = "pdf"


class XlsxRenderer(_FileRenderer):
    media_type = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    format = "xlsx"


def owned_quotes(client: ApiClient) -> QuerySet[Quote]:
    return Quote.objects.filter(configuration__api_owner__client=client)


def _configuration_field(client: ApiClient, pk: int, field: str = "configuration") -> Configuration:
    configuration = owned_configurations(client).filter(pk=pk).first()
    if configuration is None:
        from rest_framework.exceptions import ValidationError

        raise ValidationError({field: [_("No configuration with this id belongs to this client.")]})
    return configuration


def _decimal_map(value: dict[str, Decimal] | None) -> dict[str, Decimal] | None:
    return None if value is None else {str(k): v for k, v in value.items()}


def _file_schema(media_type: str, what: str, operation_id: str) -> Callable[[F], F]:
    return extend_schema(
        operation_id=operation_id,
        summary=f"Download the {what}",
        responses={
            (200, media_type): OpenApiResponse(OpenApiTypes.BINARY, description=f"The {what}."),
            **errors(404, 409),
        },
        description="409 (`document_not_ready` with `Retry-After`, or `document_failed`) until the quote's "
        "`doc_status` is `ready`.",
    )


@extend_schema_view(
    list=extend_schema(
        summary="List this client's quotes", responses={200: QuoteSerializer(many=True), **errors(400, 404)}
    ),
    retrieve=extend_schema(
        summary="A quote: status, document progress and totals", responses={200: QuoteSerializer, **errors(404)}
    ),
)
class QuoteViewSet(ApiViewMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    serializer_class = QuoteSerializer
    filterset_class = QuoteFilter
    lookup_value_regex = ID_PATTERN
    queryset = Quote.objects.none()

    def get_queryset(self) -> QuerySet[Quote]:
        # Lists, reads and downloads show columns only: the snapshot (the whole validation result) stays in the
        # database; a service that needs it loads it.
        return (
            owned_quotes(self.client)
            .select_related("decision", "expansion_of")
            .defer("frozen", "expansion_of__frozen")
            .order_by("-created_at", "-id")
        )

    def get_renderers(self) -> list[BaseRenderer]:
        if self.action in ("document_pdf", "order_confirmation_pdf"):
            return [PdfRenderer(), JSONRenderer()]
        if self.action == "bom_xlsx":
            return [XlsxRenderer(), JSONRenderer()]
        return super().get_renderers()

    def _accepted(self, quote: Quote) -> Response:
        data = QuoteAcceptedSerializer(quote, context=self.get_serializer_context()).data
        return Response(data, status=status.HTTP_202_ACCEPTED, headers={"Location": str(data["url"])})

    @extend_schema(
        summary="Request a quote",
        request=QuoteRequestSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={202: QuoteAcceptedSerializer, **errors(400, 403, 415, 422)},
        description="Give a stored `configuration` id or an inline `design`, the customer and your "
        "`crm_reference`. Answers 202 with the quote's id, number, status and URL; poll the URL (or "
        "wait for the `quote.ready` webhook) until `doc_status` is `ready`, then download the PDF. "
        "A malformed inline design is a 400 with `design.<path>` fields; a design with errors or "
        "other refused input is a 422 (`quote_rejected`).",
    )
    @idempotent
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        serializer = QuoteRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        language = data.get("language") or request_language(request)
        with transaction.atomic():
            if "design" in data:
                check_well_formed(data["design"], prefix="design")
                configuration = client_configuration_create(
                    client=self.client,
                    document=data["design"],
                    user=self.acting_user,
                    crm_reference=data["crm_reference"],
                    language=language,
                )
            else:
                configuration = _configuration_field(self.client, data["configuration"])
            quote = quote_request(
                configuration=configuration,
                customer=dict(data["customer"]),
                user=self.acting_user,
                channel="api",
                crm_reference=data["crm_reference"],
                language=language,
                discount_percent=data.get("discount_percent"),
                line_discounts=_decimal_map(data.get("line_discounts")),
            )
        return self._accepted(quote)

    @extend_schema(
        summary="Revise a quote",
        request=QuoteReviseSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={202: QuoteAcceptedSerializer, **errors(400, 403, 404, 415, 422)},
        description="Makes the next revision (…-R2, -R3) with changed discounts or another configuration of this "
        "client; the same validation and approval rules apply. The revised quote becomes "
        "`superseded`. Only the newest revision can be revised (422).",
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def revise(self, request: Request, pk: str | None = None) -> Response:
        quote = self.get_object()
        serializer = QuoteReviseSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        configuration = _configuration_field(self.client, data["configuration"]) if data.get("configuration") else None
        revised = quote_revise(
            quote=quote,
            user=self.acting_user,
            discount_percent=data.get("discount_percent"),
            line_discounts=_decimal_map(data.get("line_discounts")),
            configuration=configuration,
        )
        return self._accepted(revised)

    @extend_schema(
        summary="Request the expansion quote of a won or issued quote",
        request=ExpansionInputSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={201: ExpansionQuoteSerializer, **errors(400, 403, 404, 415, 422)},
        description="The quote's frozen design is the installed cluster; the body grows it as the configuration's "
        'expansion plan does: `{"node_group": NAME, "add": N}` or `{"node_groups": [...]}`. The grown design is '
        "stored as a new configuration of this client and quoted for the original's customer: the new quote "
        "(201, its own number) refers to the original (`expansion_of`, its number) and its lines are what the "
        "growth adds, the re-cabling labour line included. Then it is a quote like any other (review, approval, "
        "documents, revisions, acceptance). A bad body is 400 naming the field (`add`, `node_group`, `node_groups`); "
        "a quote neither issued nor accepted is 422 (`quote`).",
    )
    @action(detail=True, methods=["post"], url_path="expansions")
    @idempotent
    def expansions(self, request: Request, pk: str | None = None) -> Response:
        original = self.get_object()
        grown = expansion_design(original=original, growth=growth_parse(request.data))
        quote = client_expansion_quote(
            client=self.client,
            grown=grown,
            user=self.acting_user,
            name=expansion_name(original, grown),
            crm_reference=original.crm_reference,
            language=original.language,
            request=lambda configuration: quote_expansion_request(
                original=original, configuration=configuration, user=self.acting_user, channel="api"
            ),
        )
        data = ExpansionQuoteSerializer(quote, context=self.get_serializer_context()).data
        return Response(data, status=status.HTTP_201_CREATED, headers={"Location": str(data["url"])})

    @extend_schema(
        summary="Approve a quote's discount",
        request=None,
        responses={200: QuoteSerializer, **errors(403, 404, 422)},
        description="Needs scope `quote` and an API client that acts as an active staff user with the "
        "permission `quotes.approve_quote` (403 otherwise), and who did not set the discount (four eyes: "
        "403 when that user set it or made this revision, through this or any other door). "
        "Only a quote `awaiting_approval` can be "
        "approved (422 otherwise). Sends the `quote.approved` webhook.",
    )
    @action(detail=True, methods=["post"], permission_classes=[ClientScopePermission, CanApproveQuotes])
    def approve(self, request: Request, pk: str | None = None) -> Response:
        quote = self.get_object()
        quote = quote_approve(quote=quote, user=self.acting_user)
        return Response(
            QuoteSerializer(self.get_queryset().get(pk=quote.pk), context=self.get_serializer_context()).data
        )

    def _answered(self, quote: Quote) -> Response:
        quote = self.get_queryset().get(pk=quote.pk)
        return Response(QuoteSerializer(quote, context=self.get_serializer_context()).data)

    @extend_schema(
        summary="Accept a quote (the customer's order)",
        request=QuoteAcceptSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={200: QuoteSerializer, **errors(403, 404, 409, 415, 422)},
        description="Records the customer's acceptance of an issued, unexpired quote (its newest revision): `name`, "
        "`email`, optional `position`, `po_number` and `note`, and `accept_terms: true`. The quote's `status` "
        "becomes `accepted` and it is frozen for good (a revision is refused with 409). The worker then builds the "
        "order confirmation (`decision.order_confirmation_url`, in the quote's language), which is e-mailed to the "
        "customer and the sales team; the `quote.accepted` webhook fires. 409 with code `quote_expired`, "
        "`quote_superseded`, `quote_already_accepted`, `quote_declined` or `quote_not_issued` when the quote "
        "cannot be accepted; a retry with the same `Idempotency-Key` gets the first answer again.",
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def accept(self, request: Request, pk: str | None = None) -> Response:
        quote = self.get_object()
        serializer = QuoteAcceptSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        accepted = quote_accept(
            quote=quote,
            channel="api",
            name=data["name"],
            email=data["email"],
            position=data["position"],
            po_number=data["po_number"],
            note=data["note"],
            accept_terms=data["accept_terms"],
            user=self.acting_user,
            api_client=self.client.name,
        )
        return self._answered(accepted)

    @extend_schema(
        summary="Decline a quote",
        request=QuoteDeclineSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={200: QuoteSerializer, **errors(403, 404, 409, 415, 422)},
        description="Records that the customer declines an issued, unexpired quote, with a `reason` (required). "
        "The quote's `status` becomes `declined`, the sales team is e-mailed and the `quote.declined` webhook "
        "fires. A declined quote can still be revised (a new offer). 409 as for accepting.",
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def decline(self, request: Request, pk: str | None = None) -> Response:
        quote = self.get_object()
        serializer = QuoteDeclineSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        declined = quote_decline(
            quote=quote,
            channel="api",
            reason=data["reason"],
            name=data["name"],
            email=data["email"],
            user=self.acting_user,
            api_client=self.client.name,
        )
        return self._answered(declined)

    @extend_schema(
        operation_id="quotes_order_confirmation_pdf",
        summary="Download the order confirmation",
        responses={
            (200, PdfRenderer.media_type): OpenApiResponse(
                OpenApiTypes.BINARY, description="The order confirmation (orderbevestiging), in the quote's language."
            ),
            **errors(404, 409),
        },
        description="409 `quote_not_accepted` unless the quote is accepted; 409 `document_not_ready` (with "
        "`Retry-After`) until the worker has built it, `document_failed` when the build failed.",
    )
    def order_confirmation_pdf(self, request: Request, pk: str | None = None) -> FileResponse:
        quote = self.get_object()
        decision = getattr(quote, "decision", None)
        if decision is None or decision.outcome != "accepted":
            raise QuoteStateError(
                QuoteErrorCode.QUOTE_NOT_ACCEPTED,
                _("Quote %(number)s is not accepted; it has no order confirmation.") % {"number": quote.number},
            )
        if decision.confirmation_status == Quote.DocStatus.FAILED:
            raise Conflict(
                _("Building the order confirmation of %(number)s failed: %(reason)s")
                % {"number": quote.number, "reason": decision.confirmation_failure or _("unknown reason")},
                code=QuoteErrorCode.DOCUMENT_FAILED,
            )
        if decision.confirmation_status != Quote.DocStatus.READY or not decision.confirmation_pdf:
            raise Conflict(
                _("The order confirmation of %(number)s is not ready yet; try again shortly.")
                % {"number": quote.number},
                code=QuoteErrorCode.DOCUMENT_NOT_READY,
                headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
            )
        try:
            handle = decision.confirmation_pdf.open("rb")
        except FileNotFoundError:
            raise Conflict(
                _("The document file of %(number)s is missing; ask for it to be rebuilt.") % {"number": quote.number},
                code=QuoteErrorCode.DOCUMENT_MISSING,
            ) from None
        return FileResponse(
            handle,
            as_attachment=True,
            filename=f"{quote.number}-order-confirmation.pdf",
            content_type=PdfRenderer.media_type,
        )

    @extend_schema(
        operation_id="quotes_revision_diff",
        summary="What changed between two revisions",
        parameters=[
            OpenApiParameter("a", int, OpenApiParameter.PATH, description="The revision compared from (1, 2, …)."),
            OpenApiParameter("b", int, OpenApiParameter.PATH, description="The revision compared to."),
        ],
        responses={200: QuoteRevisionDiffSerializer, **errors(404)},
        description="Any two revisions of the quote's number (this quote or another revision of it): lines added, "
        "removed and changed in quantity, price or discount, the discounts, the totals and the findings, read "
        "from the two frozen snapshots. 404 when the number has no such revision.",
    )
    @action(detail=True, methods=["get"], url_path=r"revisions/(?P<a>[0-9]{1,5})/diff/(?P<b>[0-9]{1,5})")
    def revision_diff(self, request: Request, pk: str | None = None, a: str = "", b: str = "") -> Response:
        quote = self.get_object()
        diff = quote_selectors.quote_revision_diff(quote, int(a), int(b))
        if diff is None:
            raise NotFound(
                _("Quote %(number)s has no revision %(a)s or %(b)s.") % {"number": quote.base_number, "a": a, "b": b}
            )
        return Response(QuoteRevisionDiffSerializer(diff.to_dict()).data)

    def _file(self, kind: str, content_type: str, extension: str) -> FileResponse:
        quote = self.get_object()
        field = getattr(quote, kind)
        if quote.doc_status == Quote.DocStatus.FAILED:
            raise Conflict(
                _("Building the documents of %(number)s failed: %(reason)s")
                % {"number": quote.number, "reason": quote.failure_message or _("unknown reason")},
                code=QuoteErrorCode.DOCUMENT_FAILED,
            )
        if quote.doc_status != Quote.DocStatus.READY or not field:
            if quote.status != Quote.Status.ISSUED:
                message = _("Quote %(number)s is %(status)s; documents are made when it is issued.") % {
                    "number": quote.number,
                    "status": quote.status,
                }
            else:
                message = _(
                    "The documents of %(number)s are not ready yet (%(progress)s%%); try again shortly "
                    "or wait for the quote.ready webhook."
                ) % {"number": quote.number, "progress": quote.progress}
            raise Conflict(
                message, code=QuoteErrorCode.DOCUMENT_NOT_READY, headers={"Retry-After": str(RETRY_AFTER_SECONDS)}
            )
        try:
            handle = field.open("rb")
        except FileNotFoundError:
            raise Conflict(
                _("The document file of %(number)s is missing; ask for it to be rebuilt.") % {"number": quote.number},
                code=QuoteErrorCode.DOCUMENT_MISSING,
            ) from None
        return FileResponse(
            handle, as_attachment=True, filename=f"{quote.number}.{extension}", content_type=content_type
        )

    # Routed explicitly in api/urls.py: the contract's paths end in ".pdf" and ".xlsx", without a slash.
    @_file_schema(PdfRenderer.media_type, "quote as PDF", "quotes_document_pdf")
    def document_pdf(self, request: Request, pk: str | None = None) -> FileResponse:
        return self._file("pdf", PdfRenderer.media_type, "pdf")

    @_file_schema(XlsxRenderer.media_type, "bill of materials as xlsx", "quotes_bom_xlsx")
    def bom_xlsx(self, request: Request, pk: str | None = None) -> FileResponse:
        return self._file("xlsx", XlsxRenderer.media_type, "xlsx")
