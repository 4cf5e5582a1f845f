"""The design document (contract design/v1, docs/design-v1.md) and the fabric-plan request as one typed model.

The pydantic models below are at once the parser (engines.intake.parse validates a document with them), what the engines
read (frozen, immutable objects with the attribute names the engines use) and the OpenAPI schema of the two
request bodies (api.schema generates it from these classes). Every limit comes from design.contract; every field
says, through its ``Say``, how its refusals read, so pydantic's errors become the messages and field paths the
doors have always returned (``engines.intake.parse.input_errors``). Rules that join two fields (a mode of another kind,
slots that do not match the quantity, the total node count) are each model's ``_cross``; they are checked even
when other fields are bad, so a document gets every bad field at once.

Unknown extra keys are ignored, so the contract can grow optional fields; the ``facility`` object, the ``site``
object, the ``networks`` object and its networks, and the fabric-plan request (with its ``rack``) refuse them: a typo
there would silently drop a limit the planners must keep.
"""

from design.model.base import DESIGN_ERROR, SCHEMA, DesignInputError, Say, refuse
from design.model.document import (
    DEFAULT,
    ComponentIn,
    Default,
    DesignDocument,
    DesignIn,
    FabricIn,
    FacilityIn,
    NetworkIn,
    NetworksIn,
    NodeGroupIn,
    RackIn,
    ServicesIn,
    WorkloadIn,
)
from design.model.requests import MAX_GPU_FAMILIES, FabricRequestIn, RecommendLimitsIn, RecommendRequestIn
from design.model.site import SiteIn

__all__ = [
    "DEFAULT",
    "DESIGN_ERROR",
    "MAX_GPU_FAMILIES",
    "SCHEMA",
    "ComponentIn",
    "Default",
    "DesignDocument",
    "DesignIn",
    "DesignInputError",
    "FabricIn",
    "FabricRequestIn",
    "FacilityIn",
    "NetworkIn",
    "NetworksIn",
    "NodeGroupIn",
    "RackIn",
    "RecommendLimitsIn",
    "RecommendRequestIn",
    "Say",
    "ServicesIn",
    "SiteIn",
    "refuse",
    "WorkloadIn",
]
