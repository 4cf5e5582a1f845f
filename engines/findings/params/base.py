"""The base of every finding's parameters: one frozen dataclass per finding code, named after the code, whose
fields are the plain values (numbers, part numbers, enum values, lists) its message is rendered from.

A check builds the parameters of the code it raises (``finding(subject, PcieUnknownSlot(server=..., ...))``), so a
missing, misspelled or mistyped field is a type error at the call site; the message renderer of the code
(``messages``) takes the same class and reads its fields as attributes.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import ClassVar

from design.jsontext import JsonObject

_NAMES: dict[type[Params], tuple[str, ...]] = {}
_OPTIONAL: dict[type[Params], frozenset[str]] = {}


@dataclass(frozen=True, slots=True)
class Params:
    """The parameters of one finding code (``CODE``); subclasses add the fields."""

    CODE: ClassVar[str]

    def field_names(self) -> tuple[str, ...]:
        """The fields' names in their declared order."""
        kind = type(self)
        names = _NAMES.get(kind)
        if names is None:
            names = _NAMES[kind] = tuple(f.name for f in fields(self))
        return names

    def as_dict(self) -> JsonObject:
        """The parameters as a plain dict, field by field in their declared order (a finding's ``to_dict``; the
        ``%(name)s`` placeholders of a message). A field declared ``= None`` is a value only some findings of the
        code state: left out while it is None, as the finding always did."""
        kind = type(self)
        optional = _OPTIONAL.get(kind)
        if optional is None:
            optional = _OPTIONAL[kind] = frozenset(f.name for f in fields(self) if f.default is None)
        out = {}
        for name in self.field_names():
            value = getattr(self, name)
            if value is not None or name not in optional:
                out[name] = value
        return out
