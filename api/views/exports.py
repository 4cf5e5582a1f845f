"""The hand-over exports of a design (outputs.registry's file names: ``topology.conf``, ``fabric.topo``, …), for a
stored configuration and for a design document in the body. Both call the one output service."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.http import StreamingHttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import status
from rest_framework.renderers import BaseRenderer

from outputs.services import FORMATS, DesignNotValid, Output, OutputErrorCode, OutputUnavailable, UnknownOutput

from ..exceptions import ApiError, Conflict

NAME_PARAMETER = OpenApiParameter(
    "name",
    OpenApiTypes.STR,
    OpenApiParameter.PATH,
    enum=list(FORMATS),
    description="The export's file name: " + ", ".join(f"`{name}`" for name in FORMATS) + ".",
)
_DESCRIBED = "The file, streamed, with its format's own Content-Type."
# One 200 response per media type the exports have; a YAML body is described as YAML data (clients parse it).
EXPORT_RESPONSES = {
    (200, media_type): OpenApiResponse(
        OpenApiTypes.ANY if media_type == "application/yaml" else OpenApiTypes.BINARY, description=_DESCRIBED
    )
    for media_type in dict.fromkeys(fmt.media_type for fmt in FORMATS.values())
}
EXPORT_DESCRIPTION = (
    "404 (`unknown_export`, field `name`) for a name no export has; 422 (`design_not_valid`, a field per error "
    "finding) when the design has errors; 409 (`no_fabric_plan`) when it has no cabled fabric."
)


class PassThroughRenderer(BaseRenderer):
    """The renderer of a file door: the body the view made, as it is."""

    def render(
        self,
        data: str | bytes,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> str | bytes:
        return data


class AnyRenderer(PassThroughRenderer):
    """Lets any Accept header through to a streamed file (errors are still JSON)."""

    media_type = "*/*"
    format = "file"


def export_response(output: Output, filename: str) -> StreamingHttpResponse:
    response = StreamingHttpResponse(output.body, content_type=output.media_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def refusal(exc: UnknownOutput | OutputUnavailable) -> ApiError:
    """The API error of a refused export, naming the field."""
    if isinstance(exc, UnknownOutput):
        message = _("No export has this name; the exports are: %(names)s.") % {"names": ", ".join(exc.names)}
        return ApiError(
            message,
            code=OutputErrorCode.UNKNOWN_EXPORT,
            status_code=status.HTTP_404_NOT_FOUND,
            fields={"name": message},
        )
    if isinstance(exc, DesignNotValid):
        return ApiError(exc.message, code=exc.code, status_code=status.HTTP_422_UNPROCESSABLE_ENTITY, fields=exc.fields)
    return Conflict(exc.message, code=exc.code)
