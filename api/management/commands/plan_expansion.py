"""``manage.py plan_expansion PATH|- --add N [--node-group NAME] [--output PATH]`` (or ``--from PATH --add-nodes N``):
the command-line door to the expansion of an installed cluster (the one service, as POST
/api/v1/configurations/{id}/expansions/).

PATH is the installed cluster: a design document (design/v1) or a won or issued quote's frozen snapshot
(quote/v1, its ``design``). Writes the same JSON as the API (the grown design's validation result plus
``delta_bom``, ``unused``, ``recabling``, ``moved_devices`` and ``findings``) to ``--output`` or standard output.
Exit status as validate_design: 0 the grown design is valid, 1 not valid, 2 malformed input (the field on stderr).
Never prints a traceback."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from design.jsontext import load_json
from design.model import DesignInputError
from messages.languages import default_language, language_codes
from quotes.services.expansion import expansion_plan, growth_parse

EXIT_VALID, EXIT_INVALID, EXIT_MALFORMED = 0, 1, 2  # as validate_design


class Command(BaseCommand):
    help = "Plan the expansion of an installed cluster (design/v1 or a frozen quote). Exit 0 valid, 1 not, 2 malformed."
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "path", nargs="?", help="The installed design or frozen quote as JSON, or - to read standard input."
        )
        parser.add_argument("--from", dest="source", default=None, help="The same as PATH.")
        parser.add_argument(
            "--add", "--add-nodes", type=int, required=True, help="How many nodes the node group grows by."
        )
        parser.add_argument("--node-group", default=None, help="The node group that grows (default: the only one).")
        parser.add_argument("--output", default="-", help="The file to write (default -: standard output).")
        parser.add_argument(
            "--lang", default=default_language(), choices=language_codes(), help="Language of messages."
        )
        parser.add_argument("--indent", type=int, default=2, help="JSON indentation (0: one line).")

    def run_from_argv(self, argv: list[str]) -> None:
        try:
            super().run_from_argv(argv)
        except SystemExit:
            raise
        except Exception as exc:  # noqa: BLE001 - the contract: never a traceback
            sys.stderr.write(f"error: {type(exc).__name__}: {exc}\n")
            sys.exit(EXIT_MALFORMED)

    def handle(self, *args: Any, **options: Any) -> None:
        body: dict[str, Any] = {"add": options["add"]}
        if options["node_group"] is not None:
            body["node_group"] = options["node_group"]
        path = options["path"] or options["source"]
        if not path:
            self.stderr.write("path: give the installed design (PATH or --from PATH).")
            sys.exit(EXIT_MALFORMED)
        try:
            installed = load_json(path, sys.stdin)
            expansion = expansion_plan(installed=installed, growth=growth_parse(body), language=options["lang"])
        except DesignInputError as exc:
            for path, message in exc.errors.items():
                option = "--" + path.replace("_", "-") if path in ("add", "node_group") else path
                self.stderr.write(f"{option}: {message}")
            sys.exit(EXIT_MALFORMED)
        except ValueError as exc:
            self.stderr.write(str(exc))
            sys.exit(EXIT_MALFORMED)
        text = json.dumps(expansion.to_json(), indent=options["indent"] or None, ensure_ascii=False, default=str)
        if options["output"] == "-":
            self.stdout.write(text)
        else:
            Path(options["output"]).write_text(text + "\n", encoding="utf-8")
        sys.exit(EXIT_VALID if expansion.result.valid else EXIT_INVALID)
