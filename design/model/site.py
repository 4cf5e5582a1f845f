"""The design's ``site`` (optional): the naming template of its nodes and compute switches (``prefix``, ``digits``,
``first``). Absent, the names are the ones the planners give (``node-0001``, ``su01-leaf-r1``); given, a node is
``<prefix><number padded to digits>`` (``gpu001``) and a compute switch keeps its role words behind the prefix
(``gpu-su01-leaf-r1``), so no switch can take a node's name. outputs.links renames in one place."""

from __future__ import annotations

import re
from typing import Annotated, Any, Final

from pydantic import AfterValidator, ConfigDict, Field
from pydantic_core import InitErrorDetails

from design.model.base import Say, _In, _Int, _refusal, _StrictStr, refuse

MAX_PREFIX: Final = 20
MAX_DIGITS: Final = 6
_LABEL = re.compile(r"[a-z][a-z0-9-]*")


def _prefix(value: str) -> str:
    if not 1 <= len(value) <= MAX_PREFIX or not _LABEL.fullmatch(value):
        raise refuse(
            f"must be 1 to {MAX_PREFIX} characters of a-z, 0-9 and '-', starting with a lower-case letter, "
            f"not {value!r}"
        )
    return value


class SiteIn(_In):
    """``site``: how the nodes and compute switches are named in the cabling CSV and every hand-over export."""

    model_config = ConfigDict(extra="forbid")

    prefix: (
        Annotated[
            _StrictStr,
            AfterValidator(_prefix),
            Say("text"),
            Field(json_schema_extra={"pattern": "^[a-z][a-z0-9-]*$", "minLength": 1, "maxLength": MAX_PREFIX}),
        ]
        | None
    ) = Field(
        None,
        description="Hostname-safe label the node names start with (``gpu`` gives ``gpu0001``); the compute "
        "switches take it too (``gpu-su01-leaf-r1``). Absent: ``node-`` for the nodes, switches unprefixed.",
    )
    digits: Annotated[_Int, Field(ge=1, le=MAX_DIGITS), Say("whole")] | None = Field(
        None,
        description=f"Width of the node number, zero-padded, 1 to {MAX_DIGITS}; the largest number must fit "
        "(400 naming this field otherwise). Absent: 4 (more when the design has 10,000 nodes or more).",
    )
    first: Annotated[_Int, Field(ge=0, le=10**MAX_DIGITS - 1), Say("whole")] = Field(
        1, description="Number of the first node; default 1."
    )

    def width(self, nodes: int) -> int:
        return self.digits if self.digits is not None else max(4, len(str(nodes)))

    def node(self, number: str) -> str:
        """The name of the planners' node ``number`` (``0007`` of ``node-0007``, 1-based); absent digits keep the
        planners' width."""
        return f"{self.prefix or 'node-'}{int(number) - 1 + self.first:0{self.digits or len(number)}d}"

    def bare(self, switch: str) -> str:
        """A switch's name as the planners give it (the prefix taken off)."""
        if self.prefix is None:
            return switch
        return switch.removeprefix(self.prefix if self.prefix.endswith("-") else f"{self.prefix}-")

    def rename(self, row: tuple[str, ...], switches: bool = True) -> tuple[str, ...]:
        """A cabling CSV row (its fields) with its two ends (columns 1 and 3) named by the template; ``switches``
        false leaves every end but the nodes' as it is (the storage, in-band and out-of-band rows)."""
        return (self._end(row[0], switches), row[1], self._end(row[2], switches), *row[3:])

    def _end(self, end: str, switches: bool) -> str:
        if end.startswith("node-"):
            return self.node(end.removeprefix("node-"))
        return self.switch(end) if switches else end

    def switch(self, name: str) -> str:
        if self.prefix is None:
            return name
        return f"{self.prefix}{name}" if self.prefix.endswith("-") else f"{self.prefix}-{name}"


def site_refusals(site: Any, nodes: int, errors: list[Any]) -> list[InitErrorDetails]:
    """``site.digits`` (or ``site.first``) when the largest node number does not fit the digits."""
    if not isinstance(site, dict) or any(tuple(e["loc"][:1]) == ("site",) for e in errors) or nodes < 1:
        return []
    try:
        read = SiteIn.model_validate(site)
    except ValueError:
        return []
    last = read.first + nodes - 1
    width = read.width(nodes)
    if len(str(last)) <= width:
        return []
    field = "digits" if read.digits is not None else "first"
    message = (
        f"the last of {nodes:,} nodes would be number {last:,}, more than {width} digits; "
        f"raise site.digits or lower site.first"
    )
    return [_refusal(("site", field), message, site.get(field))]
