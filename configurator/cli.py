"""What every command-line door shares (``validate_design``, ``plan_fabric``, ``plan_expansion``,
``export_design``): the exit status of ``validate_design`` (0 valid, 1 not valid, 2 malformed input), never a
traceback, the ``--lang`` and ``--indent`` options, a refusal that names each field on stderr, and the JSON
written as the API sends it."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, BinaryIO, NoReturn

from django.core.management.base import BaseCommand, CommandParser

from messages.languages import default_language, language_codes

EXIT_VALID, EXIT_INVALID, EXIT_MALFORMED = 0, 1, 2


class DoorCommand(BaseCommand):
    """A command-line door: bad arguments exit 2 through argparse; anything unforeseen is one line on stderr and
    exit 2, never a traceback."""

    requires_system_checks: list[str] = []

    def run_from_argv(self, argv: list[str]) -> None:
        try:
            super().run_from_argv(argv)
        except SystemExit:
            raise
        except Exception as exc:  # noqa: BLE001 - the contract: never a traceback
            sys.stderr.write(f"error: {type(exc).__name__}: {exc}\n")
            sys.exit(EXIT_MALFORMED)

    @staticmethod
    def add_language(parser: CommandParser, *, indent: bool = True) -> None:
        parser.add_argument(
            "--lang", default=default_language(), choices=language_codes(), help="Language of messages and fixes."
        )
        if indent:
            parser.add_argument("--indent", type=int, default=2, help="JSON indentation (0: one line).")

    def refuse(self, errors: Mapping[str, str], option: Callable[[str], str] = lambda path: path) -> NoReturn:
        """Exit 2, each field with its message on stderr (``option`` names a field as the command's option; a
        message under the empty field stands alone)."""
        for path, message in errors.items():
            self.stderr.write(f"{option(path)}: {message}" if path else message)
        sys.exit(EXIT_MALFORMED)

    def write_json(self, data: Any, indent: int | None, output: str = "-") -> None:
        """``data`` as the API writes it, to standard output or the file ``output``."""
        text = json.dumps(data, indent=indent or None, ensure_ascii=False, default=str)
        if output == "-":
            self.stdout.write(text)
            self.stdout.flush()
            return
        with self.output_file(output) as handle:
            handle.write((text + "\n").encode())

    @contextmanager
    def output_file(self, path: str) -> Iterator[BinaryIO]:
        """The file ``--output`` names, opened to write bytes; a path that cannot be written is refused naming
        ``--output`` (exit 2), not a traceback."""
        try:
            handle = Path(path).open("wb")  # noqa: SIM115 - closed by the with below; opening is what may fail
        except OSError as exc:
            self.refuse({"--output": f"cannot write {path!r} ({exc.strerror or exc})"})
        with handle:
            yield handle

    @staticmethod
    def finish(valid: bool) -> NoReturn:
        sys.exit(EXIT_VALID if valid else EXIT_INVALID)
