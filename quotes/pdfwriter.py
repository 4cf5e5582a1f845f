"""Two costs of WeasyPrint's PDF writing that buy nothing for the offer, taken away once per process.

* pydyf, WeasyPrint's PDF writer, compresses every stream at zlib level 9: for the 770 kB of page content and fonts
  of a 2,048-node quote 23 ms of a build, where level 6 (zlib's default) takes 9 ms for a file 1 % larger.
* WeasyPrint hands each font's glyph list to HarfBuzz as a C array typed by its length (``hb_codepoint_t[312]``).
  cffi parses every type it has not seen before with pycparser, 2 ms each: a build meets a few new lengths (a
  quote's fonts use another count of glyphs) and a worker's first builds many. The same array typed by its
  contents (``hb_codepoint_t[]``) is parsed once.

Each replaces a library's module-level name only when that name is the object this was written against; otherwise
nothing changes and WeasyPrint writes as it always does.
"""

from __future__ import annotations

import re
import threading
import zlib
from typing import Any

COMPRESSION_LEVEL = 6
_SIZED_ARRAY = re.compile(r"(\w+)\[\d+\]")
_LOCK = threading.Lock()


class _Zlib:
    """zlib as pydyf sees it: its streams compressed at COMPRESSION_LEVEL rather than 9."""

    def __getattr__(self, name: str) -> Any:
        return getattr(zlib, name)

    @staticmethod
    def compressobj(level: int = -1, *args: Any, **kwargs: Any) -> Any:
        return zlib.compressobj(COMPRESSION_LEVEL, *args, **kwargs)


class _Ffi:
    """WeasyPrint's cffi instance as its font subsetting sees it: an array of a known list, sized by that list."""

    def __init__(self, ffi: Any) -> None:
        self._ffi = ffi

    def __getattr__(self, name: str) -> Any:
        return getattr(self._ffi, name)

    def new(self, cdecl: Any, init: Any = None) -> Any:
        if isinstance(cdecl, str) and isinstance(init, list):
            sized = _SIZED_ARRAY.fullmatch(cdecl)
            if sized and int(cdecl[sized.end(1) + 1 : -1]) == len(init):
                cdecl = f"{sized.group(1)}[]"
        return self._ffi.new(cdecl, init)


def install() -> None:
    """Idempotent."""
    import pydyf
    from weasyprint.pdf import fonts
    from weasyprint.text.ffi import ffi

    with _LOCK:
        if getattr(pydyf, "zlib", None) is zlib:
            pydyf.zlib = _Zlib()
        if getattr(fonts, "ffi", None) is ffi:
            fonts.ffi = _Ffi(ffi)
