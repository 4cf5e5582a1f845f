"""Price agreements per customer company, set by a CRM: the same rules as the admin (quotes.services.agreements).

Agreements are the distributor's, not one client's: every client with scope ``read`` reads them and a client with
scope ``quote`` creates and changes them. A quote for a customer with the agreement's VAT or KvK number applies it.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import mixins, status, viewsets
from rest_framework.request import Request
from rest_framework.response import Response

from quotes.models import PriceAgreement
from quotes.services import price_agreement_save

from ..idempotency import idempotent
from ..serializers.agreements import PriceAgreementSerializer
from ..serializers.common import IDEMPOTENCY_PARAMETER, errors
from .base import ApiViewMixin
from .configurations import ID_PATTERN

_RULES = (
    "Identify the company by `vat_number` (with its country prefix) or `kvk_number` (8 digits), at least one; one "
    "agreement per number. A quote for a customer with that VAT or KvK number applies the agreed discount to "
    "every line of a part of that catalogue category (shown as the agreement's; a sales engineer's own line "
    "discount for a part replaces it) and the agreed `payment_days`; the agreed discounts count toward the "
    "approval threshold like any discount. Bad input is a 422 naming each field (`discounts.<category>` …)."
)


@extend_schema_view(
    list=extend_schema(
        summary="List the price agreements",
        responses={200: PriceAgreementSerializer(many=True), **errors(400, 404)},
    ),
    retrieve=extend_schema(summary="One price agreement", responses={200: PriceAgreementSerializer, **errors(404)}),
    create=extend_schema(
        summary="Make a price agreement",
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={201: PriceAgreementSerializer, **errors(403, 415, 422)},
        description=_RULES,
    ),
    update=extend_schema(
        summary="Change a price agreement",
        responses={200: PriceAgreementSerializer, **errors(403, 404, 415, 422)},
        description=_RULES,
    ),
    partial_update=extend_schema(
        summary="Change some fields of a price agreement",
        responses={200: PriceAgreementSerializer, **errors(403, 404, 415, 422)},
        description=_RULES,
    ),
)
class PriceAgreementViewSet(
    ApiViewMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet,
):
    serializer_class = PriceAgreementSerializer
    lookup_value_regex = ID_PATTERN
    queryset = PriceAgreement.objects.none()
    filterset_class = None

    def get_queryset(self) -> QuerySet[PriceAgreement]:
        return PriceAgreement.objects.prefetch_related("discounts").order_by("company", "id")

    def _saved(self, agreement: PriceAgreement, code: int) -> Response:
        fresh = self.get_queryset().get(pk=agreement.pk)
        return Response(PriceAgreementSerializer(fresh).data, status=code)

    @idempotent
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        serializer = PriceAgreementSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        agreement = price_agreement_save(data=serializer.validated_data)
        return self._saved(agreement, status.HTTP_201_CREATED)

    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        agreement = self.get_object()
        partial = kwargs.get("partial", False)
        serializer = PriceAgreementSerializer(agreement, data=request.data, partial=partial)
        serializer.is_valid(raise_exception=True)
        agreement = price_agreement_save(data=serializer.validated_data, agreement=agreement)
        return self._saved(agreement, status.HTTP_200_OK)
