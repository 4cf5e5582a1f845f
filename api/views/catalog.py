"""The catalogue, read-only: parts with their typed specs, sources and slots, and which servers take a GPU."""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet, prefetch_related_objects
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from catalog.models import DefaultPart, Part, ServerSlot

from ..filters import PartFilter
from ..serializers.catalog import SPEC_OF_CATEGORY, PartDetailSerializer, PartSerializer
from ..serializers.common import errors
from .base import ApiViewMixin

PART_NUMBER_PATTERN = r"[A-Za-z0-9][A-Za-z0-9._+\-]{0,63}"


def _load_details(part: Part) -> None:
    """What a part's detail shows beyond its own row: the spec row of its category (the only kind it has: the
    catalogue load and the admin make a part's spec by its category), and for a server its slots, switches, bays,
    power supplies, default parts and accepted GPUs, for a GPU the servers that take it. A simple query per table,
    where one query joining all twelve spec tables cost PostgreSQL more to plan than to run."""
    if part.category == "server":
        prefetch_related_objects(
            [part],
            Prefetch("server__slots", queryset=ServerSlot.objects.select_related("pcie_switch")),
            "server__pcie_switches",
            "server__accepts",
            "server__drive_bays",
            "server__psu_options",
            Prefetch("server__default_parts", queryset=DefaultPart.objects.select_related("part")),
        )
        return
    relation = SPEC_OF_CATEGORY.get(part.category)
    if relation is not None:
        getattr(part, relation, None)  # a missing spec row raises an AttributeError subclass, and is remembered
    if part.category == "gpu":
        prefetch_related_objects([part], "accepted_by__part")


@extend_schema_view(
    list=extend_schema(
        summary="List parts",
        responses={200: PartSerializer(many=True), **errors(400, 404)},
        description="Paginated; filter by category, manufacturer, lifecycle, text (`q`), "
        "`accepted_by_server` (GPUs a server accepts) or `accepts` (servers that "
        "accept a GPU). A page past the end is a 404.",
    ),
    retrieve=extend_schema(
        summary="One part with specs, sources and slots", responses={200: PartDetailSerializer, **errors(404)}
    ),
)
class PartViewSet(ApiViewMixin, viewsets.ReadOnlyModelViewSet):
    """Parts that can be sold. Unknown spec values are null: the catalogue never guesses."""

    queryset = Part.objects.all()
    serializer_class = PartSerializer
    filterset_class = PartFilter
    lookup_field = "part_number"
    lookup_value_regex = PART_NUMBER_PATTERN

    def get_queryset(self) -> QuerySet[Part]:
        return Part.objects.order_by("category", "part_number")

    def get_object(self) -> Part:
        part = super().get_object()
        if self.action == "retrieve":
            _load_details(part)
        return part

    def get_serializer_class(self) -> type[PartSerializer]:
        return PartDetailSerializer if self.action == "retrieve" else PartSerializer

    @extend_schema(
        summary="Servers that accept this part",
        filters=False,
        responses={200: PartSerializer(many=True), **errors(404)},
        description="The servers whose catalogue entry lists this GPU as accepted (empty for other "
        "categories: adapters and bridges are checked by validating a design).",
    )
    @action(detail=True, methods=["get"], filterset_class=None, pagination_class=None)
    def servers(self, request: Request, part_number: str | None = None) -> Response:
        part = self.get_object()
        servers = Part.objects.filter(server__accepts=part).order_by("part_number").distinct()
        return Response(PartSerializer(servers, many=True, context=self.get_serializer_context()).data)
