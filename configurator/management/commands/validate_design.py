"""``manage.py validate_design PATH|-``: the command-line door to the one validation service.

Prints the validation result as JSON (the same JSON as POST /api/v1/designs/validate/). Exit status: 0 valid,
1 not valid, 2 malformed input (the message on stderr names the field). Never prints a traceback.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from configurator.services import design_validate
from design.jsontext import load_json
from design.model import DesignInputError
from messages.languages import default_language, language_codes

EXIT_VALID, EXIT_INVALID, EXIT_MALFORMED = 0, 1, 2


class Command(BaseCommand):
    help = "Validate a design document (design/v1) and print the result as JSON. Exit 0 valid, 1 not, 2 malformed."
    requires_system_checks = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", help="A JSON file with the design, or - to read standard input.")
        parser.add_argument(
            "--lang", default=default_language(), choices=language_codes(), help="Language of messages and fixes."
        )
        parser.add_argument("--indent", type=int, default=2, help="JSON indentation (0: one line).")

    def run_from_argv(self, argv: list[str]) -> None:
        # Bad arguments exit 2 through argparse; anything else is reported on stderr without a traceback.
        try:
            super().run_from_argv(argv)
        except SystemExit:
            raise
        except Exception as exc:  # noqa: BLE001 - the contract: never a traceback
            sys.stderr.write(f"error: {type(exc).__name__}: {exc}\n")
            sys.exit(EXIT_MALFORMED)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            document = load_json(options["path"], sys.stdin)
            result = design_validate(document=document, language=options["lang"])
        except DesignInputError as exc:
            for path, message in exc.errors.items():
                self.stderr.write(f"{path}: {message}")
            sys.exit(EXIT_MALFORMED)
        except ValueError as exc:
            self.stderr.write(str(exc))
            sys.exit(EXIT_MALFORMED)
        self.stdout.write(
            json.dumps(result.to_json(), indent=options["indent"] or None, ensure_ascii=False, default=str)
        )
        sys.exit(EXIT_VALID if result.valid else EXIT_INVALID)
