"""``manage.py validate_design PATH|-``: the command-line door to the one validation service.

Prints the validation result as JSON (the same JSON as POST /api/v1/designs/validate/). Exit status: 0 valid,
1 not valid, 2 malformed input (the message on stderr names the field). Never prints a traceback.
"""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import CommandParser

from configurator.cli import EXIT_INVALID, EXIT_MALFORMED, EXIT_VALID, DoorCommand
from configurator.services import design_validate
from design.jsontext import load_json
from design.model import DesignInputError

__all__ = ["EXIT_INVALID", "EXIT_MALFORMED", "EXIT_VALID", "Command"]


class Command(DoorCommand):
    help = "Validate a design document (design/v1) and print the result as JSON. Exit 0 valid, 1 not, 2 malformed."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", help="A JSON file with the design, or - to read standard input.")
        self.add_language(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            document = load_json(options["path"], sys.stdin)
            result = design_validate(document=document, language=options["lang"])
        except DesignInputError as exc:
            self.refuse(exc.errors)
        except ValueError as exc:
            self.refuse({"": str(exc)})
        self.write_json(result.to_json(), options["indent"])
        self.finish(result.valid)
