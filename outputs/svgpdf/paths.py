"""The outlines of the SVG drawing: rounded rectangles, SVG path data, and an outline as PDF path operators."""

from __future__ import annotations

from typing import Any

from .style import _PATH_ARGS, _PATH_TOKEN, IDENTITY, Matrix, _apply, _skip, fp_str


def _rounded(x: float, y: float, w: float, h: float, rx: float, ry: float) -> list[tuple[Any, ...]]:
    """A rectangle with corners rounded to rx, ry (quarter ellipses as Bézier curves), clockwise from the top."""
    k = 0.5522847498
    kx, ky = rx * k, ry * k
    r, b = x + w, y + h
    return [
        ("m", x + rx, y),
        ("l", r - rx, y),
        ("c", r - rx + kx, y, r, y + ry - ky, r, y + ry),
        ("l", r, b - ry),
        ("c", r, b - ry + ky, r - rx + kx, b, r - rx, b),
        ("l", x + rx, b),
        ("c", x + rx - kx, b, x, b - ry + ky, x, b - ry),
        ("l", x, y + ry),
        ("c", x, y + ry - ky, x + rx - kx, y, x + rx, y),
        ("h",),
    ]


def _path(d: str) -> list[tuple[Any, ...]] | None:
    """An SVG path's data as the outline operators of ``_Compiler.shape`` (an arc as a line to its end point)."""
    tokens = _PATH_TOKEN.findall(d)
    pen = _Pen()
    command = ""
    i, n = 0, len(tokens)
    while i < n:
        token = tokens[i]
        if token.isalpha():
            command = token
            i += 1
            if command in "Zz":
                pen.close()
                continue
        elif not command or command in "Zz":
            return pen.out or None  # a number where a command should be: the path stops there, as in SVG
        upper = command.upper()
        count = _PATH_ARGS[upper]
        if i + count > n:
            break
        try:
            v = [float(t) for t in tokens[i : i + count]]
        except ValueError:  # a command where a number should be: the path stops there, as in SVG
            break
        i += count
        relative = command.islower()
        pen.draw(upper, v, relative)
        if upper == "M":
            command = "l" if relative else "L"  # further pairs are lines
    out = pen.out
    if out and out[0][0] != "m":
        return None
    return out or None


class _Pen:
    """Where a path's data has drawn to: the current and the subpath's start point, the last control point of a
    cubic (for S) and of a quadratic (for T) curve, and the outline so far."""

    __slots__ = ("last_control", "last_quad", "out", "start_x", "start_y", "x", "y")

    def __init__(self) -> None:
        self.x = self.y = self.start_x = self.start_y = 0.0
        self.last_control: tuple[float, float] | None = None
        self.last_quad: tuple[float, float] | None = None
        self.out: list[tuple[Any, ...]] = []

    def close(self) -> None:
        if self.out:
            self.out.append(("h",))
        self.x, self.y = self.start_x, self.start_y
        self.last_control = self.last_quad = None

    def draw(self, upper: str, v: list[float], relative: bool) -> None:
        """One command's arguments ``v`` (absolute or ``relative``) drawn."""
        out = self.out
        if upper == "H":
            self.x = self.x + v[0] if relative else v[0]
            out.append(("l", self.x, self.y))
        elif upper == "V":
            self.y = self.y + v[0] if relative else v[0]
            out.append(("l", self.x, self.y))
        else:
            if relative:
                if upper == "A":
                    v[5] += self.x
                    v[6] += self.y
                else:
                    v = [value + (self.x if j % 2 == 0 else self.y) for j, value in enumerate(v)]
            if upper in "CSQT":
                self.curve(upper, v)
                return
            if upper == "M":
                self.x, self.y = self.start_x, self.start_y = v[0], v[1]
                out.append(("m", self.x, self.y))
            elif upper == "L":
                self.x, self.y = v[0], v[1]
                out.append(("l", self.x, self.y))
            elif upper == "A":
                _skip("path arc")
                self.x, self.y = v[5], v[6]
                out.append(("l", self.x, self.y))
        self.last_control = self.last_quad = None

    def curve(self, upper: str, v: list[float]) -> None:
        """A cubic (C, S) or quadratic (Q, T) curve to absolute points ``v``, a quadratic one as its cubic."""
        x, y = self.x, self.y
        if upper == "C":
            self.out.append(("c", *v))
            self.last_control, (self.x, self.y) = (v[2], v[3]), (v[4], v[5])
            self.last_quad = None
        elif upper == "S":
            last = self.last_control
            cx, cy = (2 * x - last[0], 2 * y - last[1]) if last else (x, y)
            self.out.append(("c", cx, cy, *v))
            self.last_control, (self.x, self.y) = (v[0], v[1]), (v[2], v[3])
            self.last_quad = None
        else:
            if upper == "Q":
                qx, qy, ex, ey = v
            else:
                last = self.last_quad
                qx, qy = (2 * x - last[0], 2 * y - last[1]) if last else (x, y)
                ex, ey = v
            self.out.append(
                (
                    "c",
                    x + 2 / 3 * (qx - x),
                    y + 2 / 3 * (qy - y),
                    ex + 2 / 3 * (qx - ex),
                    ey + 2 / 3 * (qy - ey),
                    ex,
                    ey,
                )
            )
            self.last_quad, (self.x, self.y) = (qx, qy), (ex, ey)
            self.last_control = None


_TEMPLATES = {"m": "%.6g %.6g m", "l": "%.6g %.6g l", "c": "%.6g %.6g %.6g %.6g %.6g %.6g c", "h": "h"}


def _outline(path: list[tuple[Any, ...]], ctm: Matrix) -> str:
    """The outline as PDF path operators, its points through ``ctm``: one format for the whole outline."""
    a, b, c, d, e, f = ctm
    plain = ctm == IDENTITY
    upright = not b and not c
    template = []
    values: list[float] = []
    for op in path:
        kind = op[0]
        template.append(_TEMPLATES[kind])
        if kind == "h":
            continue
        if plain:
            values += op[1:]
        elif upright:
            for j in range(1, len(op), 2):
                values += (a * op[j] + e, d * op[j + 1] + f)
        else:
            for j in range(1, len(op), 2):
                px, py = op[j], op[j + 1]
                values += (a * px + c * py + e, b * px + d * py + f)
    text = " ".join(template) % tuple(values)
    if "e" in text or "n" in text:  # an exponent, inf or nan: written number by number
        text = " ".join(f"{fp_str(*op[1:])} {op[0]}" if op[0] != "h" else "h" for op in _moved(path, ctm))
    return text


def _moved(path: list[tuple[Any, ...]], ctm: Matrix) -> list[tuple[Any, ...]]:
    out: list[tuple[Any, ...]] = []
    for op in path:
        moved: list[Any] = [op[0]]
        for j in range(1, len(op), 2):
            moved += _apply(ctm, op[j], op[j + 1])
        out.append(tuple(moved))
    return out


def _bounds(path: list[tuple[Any, ...]], ctm: Matrix) -> list[tuple[float, float]]:
    """The corners of the outline's bounding box (through ``ctm``; control points included)."""
    xs, ys = [], []
    for op in path:
        coords = op[1:]
        for j in range(0, len(coords), 2):
            px, py = _apply(ctm, coords[j], coords[j + 1])
            xs.append(px)
            ys.append(py)
    if not xs:
        return []
    return [(min(xs), min(ys)), (max(xs), min(ys)), (max(xs), max(ys)), (min(xs), max(ys))]
