"""The validation result as the doors send it: the tests read the contract's JSON (what the API returns, the
command line prints and a quote freezes), through the same ``to_json()`` the doors call."""

from __future__ import annotations

from typing import Any

import configurator.services


def validate_json(*, document: Any, language: str | None = None) -> dict[str, Any]:
    """configurator.services.design_validate's result as JSON (looked up at call time, so a test's mock of the
    service counts these calls too)."""
    return configurator.services.design_validate(document=document, language=language).to_json()


def fabric_plan_json(*, request: Any, language: str | None = None) -> dict[str, Any]:
    """configurator.services.fabric_plan_build's plan as JSON, as POST /api/v1/fabric-plans/ sends it."""
    return configurator.services.fabric_plan_build(request=request, language=language).to_json()
