"""Stateless doors: validate a design, plan a fabric, recommend designs for a workload. The same services and JSON
as the command line and the wizard's goal step."""

from __future__ import annotations

from django.http import StreamingHttpResponse
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from configurator.examples import h200_training_cluster
from configurator.ranking import design_recommendations
from configurator.services import design_validate, fabric_plan_build
from design.model import DesignDocument, FabricRequestIn, RecommendRequestIn
from outputs.services import OutputUnavailable, UnknownOutput, design_export

from ..serializers.common import LANG_PARAMETER, errors
from ..serializers.designs import FabricPlanSerializer, RecommendationSerializer, ValidationResultSerializer
from .base import ApiViewMixin, json_body, request_language
from .exports import EXPORT_DESCRIPTION, EXPORT_RESPONSES, NAME_PARAMETER, AnyRenderer, export_response, refusal

EXAMPLE_DESIGN = h200_training_cluster()


class DesignValidateView(ApiViewMixin, APIView):
    stateless = True  # computes, stores nothing: allowed for scope "read"

    @extend_schema(
        operation_id="designs_validate",
        summary="Validate a design",
        tags=["designs"],
        request=DesignDocument,  # the typed model that parses it (api.schema)
        parameters=[LANG_PARAMETER],
        examples=[OpenApiExample("4-node HGX H200 cluster", value=EXAMPLE_DESIGN, request_only=True)],
        responses={200: ValidationResultSerializer, **errors(400, 415)},
        description="A well-formed design gets 200 with `valid` true or false and the findings; a malformed one "
        "gets 400 with the path of every bad field. Same JSON as `manage.py validate_design`.",
    )
    def post(self, request: Request) -> Response:
        document, language = json_body(request), request_language(request)
        return Response(design_validate(document=document, language=language).to_json())


class DesignExportView(ApiViewMixin, APIView):
    stateless = True  # computes, stores nothing

    def get_renderers(self) -> list[BaseRenderer]:
        return [JSONRenderer(), AnyRenderer()]

    @extend_schema(
        operation_id="designs_export",
        summary="Export a design for hand-over (Slurm topology, fabric check, …)",
        tags=["designs"],
        request=DesignDocument,
        parameters=[NAME_PARAMETER, LANG_PARAMETER],
        examples=[OpenApiExample("4-node HGX H200 cluster", value=EXAMPLE_DESIGN, request_only=True)],
        responses={**EXPORT_RESPONSES, **errors(404, 409, 415, 422)},
        description="The export of the design in the body (400 with the path of every bad field when it is "
        "malformed). Same file as `manage.py export_design`. " + EXPORT_DESCRIPTION,
    )
    def post(self, request: Request, name: str = "") -> StreamingHttpResponse:
        language = request_language(request)
        try:
            result = design_validate(document=json_body(request), language=language)
            output = design_export(name=name, result=result, language=language)
        except (UnknownOutput, OutputUnavailable) as exc:
            raise refusal(exc) from None
        return export_response(output, output.name)


class FabricPlanView(ApiViewMixin, APIView):
    stateless = True

    @extend_schema(
        operation_id="fabric_plans_create",
        summary="Plan a compute fabric",
        tags=["designs"],
        request=FabricRequestIn,
        parameters=[LANG_PARAMETER],
        examples=[
            OpenApiExample(
                "128 nodes, 8 rails", request_only=True, value={"nodes": 128, "rails": 8, "switch": "MQM9700-NS2F"}
            )
        ],
        responses={200: FabricPlanSerializer, **errors(400, 415)},
        description="Switch counts per tier, links and a bill of materials (switches, cables, transceivers, "
        "fibres). Same JSON as `manage.py plan_fabric`.",
    )
    def post(self, request: Request) -> Response:
        plan = fabric_plan_build(request=json_body(request), language=request_language(request))
        return Response(plan.to_json())


class DesignRecommendView(ApiViewMixin, APIView):
    stateless = True

    @extend_schema(
        operation_id="designs_recommend",
        summary="Recommend designs for a workload",
        tags=["designs"],
        request=RecommendRequestIn,
        parameters=[LANG_PARAMETER],
        examples=[
            OpenApiExample(
                "Fine-tune 70B on 20B tokens within 14 days, Hopper or Blackwell, at most 4 servers",
                request_only=True,
                value={
                    "workload": {
                        "kind": "training",
                        "mode": "full-finetune",
                        "model_parameters_billion": 70,
                        "training_tokens_billion": 20,
                        "target_days": 14,
                    },
                    "limits": {"gpu_families": ["H200", "B200"], "max_nodes": 4},
                },
            )
        ],
        responses={200: RecommendationSerializer, **errors(400, 415)},
        description="The goal step's ranking for a workload: the recommended design and the cheapest that fits, "
        "within the optional limits (GPU families, a budget on the list price, a node count). With a deadline "
        "(`training_tokens_billion` and `target_days`) or a `concurrency`, designs that meet it come first; each "
        "design carries its document, list price, estimated time to train or serving capacity and `meets_goal`. "
        "When none meets the goal, `met` is false and `message` says so with the size that would. A malformed "
        "request, or a GPU family the catalogue does not sell, gets 400 with the path of every bad field.",
    )
    def post(self, request: Request) -> Response:
        ranking = design_recommendations(request=json_body(request), language=request_language(request))
        return Response(ranking.to_json())
