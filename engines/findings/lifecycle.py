"""The lifecycle finding shared by both engines: a design that names a discontinued or end-of-life part."""

from __future__ import annotations

from typing import Protocol

from engines.findings.params.nodes import PartDiscontinued

from .finding import Finding
from .registry import finding


class LifecyclePart(Protocol):
    @property
    def part_number(self) -> str: ...
    @property
    def lifecycle(self) -> str: ...
    @property
    def replacement(self) -> str: ...


def retired_finding(subject: str, part: LifecyclePart) -> Finding:
    """A warning that ``part`` (named at ``subject``) is discontinued or end-of-life, with the replacement the
    catalogue gives for it (None when the source names none)."""
    return finding(
        subject,
        PartDiscontinued(part=part.part_number, lifecycle=part.lifecycle, replacement=part.replacement or None),
    )
