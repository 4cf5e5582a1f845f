"""The model's groundwork: how refusals read (Say, refuse), the field types every part shares and the two base
classes of a part (frozen; nulls read as absent, cross-field rules checked even when other fields are bad)."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    GetCoreSchemaHandler,
    GetJsonSchemaHandler,
    Strict,
    ValidationError,
    ValidatorFunctionWrapHandler,
    model_validator,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import InitErrorDetails, PydanticCustomError, core_schema

from design.contract import (
    MAX_DISTANCE_M,
    MAX_NAME_LENGTH,
    oversubscription_beyond_limit,
    ratio_term,
)
from design.jsontext import JsonObject

SCHEMA = "design/v1"


class DesignInputError(Exception):
    """A malformed design or fabric request. ``errors`` maps field paths to messages (English)."""

    def __init__(self, errors: dict[str, str]):
        self.errors = dict(errors)
        super().__init__("; ".join(f"{path}: {msg}" for path, msg in self.errors.items()))


@dataclass(frozen=True)
class Say:
    """How the refusals of one field read (engines.intake.parse.input_errors turns pydantic's errors into them).

    ``kind``: ``text`` (a string), ``choice`` (a string of an enum: OneOf), ``ratio`` (``d:u``), ``whole`` (a
    count; ``what`` names it in "an absurd size for one node"), ``positive`` (a positive number), ``above_zero``
    (a round-3 number: "must be a number above 0"), ``flag``, ``list`` (``what``: " of slot names"), ``slot``,
    ``schema``; the fabric-plan request's own wording: ``count`` (a whole number from 1), ``part`` and ``switch``
    (a part number string). ``missing``: the message when the field is absent (or null where it is required).
    """

    kind: str
    what: str = ""
    missing: str = "is required"
    high: float | None = None  # above_zero: the limit, named when the number is infinite


# The message of a rule that joins fields, or of a check pydantic has no constraint for; kept as it is.
DESIGN_ERROR = "design"


def refuse(message: str) -> PydanticCustomError:
    return PydanticCustomError(DESIGN_ERROR, "{message}", {"message": message})


def _refusal(loc: tuple[str | int, ...], message: str, value: Any) -> InitErrorDetails:
    return InitErrorDetails(type=refuse(message), loc=loc, input=value)


@dataclass(frozen=True)
class OneOf:
    """A string that must be one of ``choices`` (an enum in the schema)."""

    choices: tuple[str, ...]

    def check(self, value: str) -> str:
        if value not in self.choices:
            raise refuse(f"must be one of {', '.join(self.choices)}, not {value!r}")
        return value

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        return core_schema.no_info_after_validator_function(self.check, handler(source))

    def __get_pydantic_json_schema__(
        self, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        return {**handler(schema), "enum": list(self.choices)}


def _design_ratio(value: str) -> str:
    """``d:u`` as a design's ``fabric.oversubscription`` reads it (the pattern has already matched)."""
    down, up = (ratio_term(side) for side in value.split(":"))
    if down == 0 or up == 0:
        raise refuse(f"must look like 1:1 or 2:1 (two whole numbers above 0), not {value!r}")
    if message := oversubscription_beyond_limit(value, down, up):
        raise refuse(message)
    return value


# Characters that change how the text around them is shown without being seen themselves: bidirectional
# embeddings, overrides and isolates (the "Trojan Source" trick, CVE-2021-42574) and zero-width characters. A name
# is printed on offers, listed in the admin and written to CSV and XLSX; there it could pass for another name.
_HIDDEN_CHARACTERS = frozenset(
    "\u061c\u180e\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
    "\u2060\u2061\u2062\u2063\u2064\u2066\u2067\u2068\u2069\ufeff"
)


def _visible(value: str) -> str:
    """A name holds no character that is invisible or turns the direction of the text around it."""
    for character in value:
        if character in _HIDDEN_CHARACTERS:
            what = unicodedata.name(character, "an invisible character").lower()
            code = f"U+{ord(character):04X}"
            raise refuse(f"must not contain invisible or direction-changing characters ({code}, {what})")
    return value


_StrictStr = Annotated[str, Strict()]
_NOT_BLANK = r"^\s*\S"
Text = Annotated[_StrictStr, Say("text")]
Name = Annotated[_StrictStr, Field(max_length=MAX_NAME_LENGTH), AfterValidator(_visible), Say("text")]
PartNumber = Annotated[_StrictStr, Field(pattern=_NOT_BLANK), Say("text")]
Ratio = Annotated[
    _StrictStr,
    # "" reads as absent (the default): the schema takes it too
    Field(pattern=r"^(\d+:\d+)?$", description="downlinks:uplinks, e.g. 2:1; each side 1 to 1,000."),
    AfterValidator(_design_ratio),
    Say("ratio"),
]
SlotName = Annotated[_StrictStr, Field(pattern=_NOT_BLANK), Say("slot")]


_Int = Annotated[int, Strict()]
_Float = Annotated[float, Strict(), Field(allow_inf_nan=False)]
Distance = Annotated[_Float, Field(gt=0, le=MAX_DISTANCE_M), Say("positive")]
Flag = Annotated[bool, Strict(), Say("flag")]


def _again(error: Any) -> InitErrorDetails:
    """An error pydantic reported, to be raised again with others."""
    kind = refuse(error["ctx"]["message"]) if error["type"] == DESIGN_ERROR else error["type"]
    again = InitErrorDetails(type=kind, loc=error["loc"], input=error["input"])
    if "ctx" in error and error["type"] != DESIGN_ERROR:
        again["ctx"] = error["ctx"]
    return again


def _optional(*names: str) -> Any:
    """The schema of a model whose fields ``names`` the parser fills in when absent (not required)."""

    def edit(schema: JsonObject) -> None:
        required = [name for name in schema.get("required", ()) if name not in names]
        schema.pop("required", None)
        if required:
            schema["required"] = required

    return edit


def _no_default(schema: JsonObject) -> None:
    """A default that is no JSON value (the parser's own reading of an absent field)."""
    schema.pop("default", None)


def _no_error_at(errors: list[Any], *loc: str | int) -> bool:
    n = len(loc)
    return not any(tuple(e["loc"][:n]) == loc for e in errors)


def _unknown(key: str, allowed: tuple[str, ...]) -> str:
    same = [name for name in allowed if name.lower() == str(key).lower()]
    hint = f"; did you mean {same[0]}?" if same else ""
    return f"unknown field; expected one of {', '.join(allowed)}{hint}"


class _Part(BaseModel):
    """A part of the document: frozen. A model whose optional fields all default to None reads a null as absent
    without help; the others are ``_In``."""

    model_config = ConfigDict(frozen=True, extra="ignore", regex_engine="python-re", validate_default=False)

    @classmethod
    def unknown_key(cls, key: str) -> str:
        """The message for a key the object does not take (models that refuse extra keys)."""
        return _unknown(key, tuple(f.alias or name for name, f in cls.model_fields.items()))


class _In(_Part):
    """A part whose fields given as null read as absent (their defaults), except where null means something of its
    own (``_nullable``); ``_cross`` adds the refusals that join fields, checked even when other fields are bad."""

    _nullable: ClassVar[frozenset[str]] = frozenset()

    @classmethod
    def _prepare(cls, data: JsonObject) -> JsonObject:
        if None in data.values():
            data = {k: v for k, v in data.items() if v is not None or k in cls._nullable}
        return data

    @classmethod
    def _cross(cls, data: JsonObject, errors: list[Any]) -> list[InitErrorDetails]:
        """Refusals that join fields, from the raw ``data`` and the errors its fields already have."""
        return []

    @model_validator(mode="wrap")
    @classmethod
    def _read(cls, data: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        if not isinstance(data, dict):
            return handler(data)
        data = cls._prepare(data)
        try:
            result = handler(data)
        except ValidationError as exc:
            errors: list[Any] = exc.errors(include_url=False)
            extra = cls._cross(data, errors)
            if not extra:
                raise
            # the joined rules first: where one names a field that also has its own error, it says more
            raise ValidationError.from_exception_data(cls.__name__, [*extra, *map(_again, errors)]) from None
        if extra := cls._cross(data, []):
            raise ValidationError.from_exception_data(cls.__name__, extra)
        return result
