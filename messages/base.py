"""The renderer table and the locale formatting that finding messages share."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, TypeVar, overload

from django.utils.formats import get_format, number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engines.findings.params.base import Params

Said = tuple[str, str]  # a finding's (message, fix)
Renderer = Callable[[Any], Said]
RENDERERS: dict[str, Renderer] = {}  # code -> its renderer
PARAMS: dict[str, type[Params]] = {}  # code -> the parameter class its renderer was registered for

T = TypeVar("T")
P1 = TypeVar("P1", bound=Params)
P2 = TypeVar("P2", bound=Params)


@overload
def renders(k1: type[P1], /) -> Callable[[Callable[[P1], Said]], Callable[[P1], Said]]: ...
@overload
def renders(k1: type[P1], k2: type[P2], /) -> Callable[[Callable[[P1 | P2], Said]], Callable[[P1 | P2], Said]]: ...
def renders(*kinds: type[Params]) -> Callable[[Renderer], Renderer]:
    """Registers a function as the renderer of the codes of the parameter classes ``kinds``: it takes the
    finding's parameter object (one of ``kinds``) and returns (message, fix) in the active language. mypy checks
    that the function accepts every one of ``kinds`` (one or two: a renderer shared by two codes takes either)."""

    def register(fn: Renderer) -> Renderer:
        for kind in kinds:
            if kind.CODE in PARAMS:
                raise ValueError(f"finding code {kind.CODE} has two parameter classes or two renderers")
            RENDERERS[kind.CODE] = fn
            PARAMS[kind.CODE] = kind
        return fn

    return register


def known(value: T | None) -> T:
    """A parameter a finding states in the case at hand (a plan's degrees once planned, a serving point's figures
    once estimated), though its class allows None for the other cases."""
    if value is None:
        raise ValueError("a finding's parameter is missing")
    return value


def num(value: float, decimals: int = 0) -> str:
    """A figure in the active locale (English 12,000 and 31.5; Dutch 12.000 and 31,5); with ``decimals``, a
    whole result drops its decimals (2.0 -> 2)."""
    value = round(value, decimals) if decimals else round(value)
    if decimals and float(value).is_integer():
        decimals = 0
    return number_format(value, decimal_pos=decimals, use_l10n=True, force_grouping=True)


FIGURE_DECIMALS = 6  # the most decimals a figure shows: anything smaller is said as below the last of them


def figure(value: float) -> str:
    """A figure with the decimals its size needs: whole above 100, one decimal above 1, two significant figures
    below (0.046 stays 0.046, never 0), in the active locale; below 0.000001 it reads "< 0.000001" rather than
    hundreds of zeros."""
    if value >= 100:
        return num(value)
    if value >= 1:
        return num(value, 1)
    if value <= 0:
        return num(0)
    decimals = max(1, 1 - math.floor(math.log10(value)))
    if decimals > FIGURE_DECIMALS:
        return "< " + num(10**-FIGURE_DECIMALS, FIGURE_DECIMALS)
    return num(value, decimals)


def per_parameter(bytes_per_param: float) -> str:
    """The bytes per parameter, "1 byte per parameter", "0.5 bytes per parameter" (two decimals at most, as the
    sizing rounds it)."""
    n = num(bytes_per_param, 1 if round(bytes_per_param, 1) == round(bytes_per_param, 2) else 2)
    return ngettext("%(n)s byte per parameter", "%(n)s bytes per parameter", 1 if n == num(1) else 2) % {"n": n}


def day_count(days: float) -> str:
    """ "1 day", "1.5 days", "14 days" (one decimal at most)."""
    n = num(days, 1)
    return ngettext("%(n)s day", "%(n)s days", 1 if n == num(1) else 2) % {"n": n}


def duration(days: float) -> str:
    """A run's wall-clock time in days, or in hours under two days (a 20-minute run is 0.33 hours, never 0 days)."""
    if days < 2:
        return _("%(n)s hours") % {"n": figure(days * 24)}
    return _("%(n)s days") % {"n": figure(days)}


def duration_range(days: float, low: float, high: float) -> str:
    """The range ``low`` to ``high`` (days) in the unit ``duration(days)`` uses."""
    if days < 2:
        return _("%(low)s to %(high)s hours") % {"low": figure(low * 24), "high": figure(high * 24)}
    return _("%(low)s to %(high)s days") % {"low": figure(low), "high": figure(high)}


def tokens(billion: float) -> str:
    """A token count in billions, or in millions under a billion (50 million tokens, never 0 billion)."""
    if billion >= 1:
        return _("%(n)s billion tokens") % {"n": figure(billion)}
    return _("%(n)s million tokens") % {"n": figure(billion * 1000)}


def pct(fraction: float) -> str:
    """A fraction as a whole percentage (0.653 -> '65%')."""
    return f"{round(fraction * 100)}%"


def dec(value: float) -> str:
    """A length or other measure as given, without grouping (2.5 -> '2.5' in English, '2,5' in Dutch)."""
    return f"{value:g}".replace(".", get_format("DECIMAL_SEPARATOR"))


def article(word: str) -> str:
    """English 'a' or 'an' by sound: initialisms letter by letter (an HDR, an NDR, a QDR), numbers as spoken
    (an 800, an 11, a 200), other words by their first letter (a Spectrum, an InfiniBand, an Ethernet). Only
    English messages use it; other languages' translations leave the ``%(a)s`` placeholder out."""
    head = word.split(" ", 1)[0]
    if head[:1].isdigit():
        digits = head.replace(",", "")
        vowel = digits.startswith("8") or (digits[:2] in ("11", "18") and len(digits) % 3 == 2)
    elif len(head) > 1 and head.isupper():
        vowel = head[0] in "AEFHILMNORSX"
    else:
        vowel = head[:1].lower() in "aeiou"
    return "an" if vowel else "a"
