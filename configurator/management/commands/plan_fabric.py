"""``manage.py plan_fabric --nodes N --rails R --switch PART [...]``: the command-line fabric planner.

Prints the plan as JSON (the same JSON as POST /api/v1/fabric-plans/). Exit 0 for a plan without errors, 1 when
the plan has errors (like ``validate_design``: the JSON is printed all the same), 2 on bad input, with the field
named on stderr. Never prints a traceback.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from configurator.services import fabric_plan_build
from design.contract import DEFAULT_TOPOLOGY, TOPOLOGIES
from design.model import DesignInputError
from messages.languages import default_language, language_codes

from .validate_design import EXIT_INVALID, EXIT_MALFORMED


class Command(BaseCommand):
    help = "Plan a compute fabric and print the plan as JSON. Exit 1 when the plan has errors, 2 on bad input."
    requires_system_checks = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--nodes", type=int, required=True, help="Number of GPU nodes.")
        parser.add_argument("--rails", type=int, required=True, help="Compute NICs (rails) per node.")
        parser.add_argument("--switch", required=True, help="Switch part number, e.g. MQM9700-NS2F.")
        parser.add_argument("--oversubscription", default=None, help="downlinks:uplinks, default 1:1.")
        parser.add_argument("--topology", default=None, help=f"{' or '.join(TOPOLOGIES)} (default {DEFAULT_TOPOLOGY}).")
        parser.add_argument("--hca", default=None, help="Adapter part number of the compute NICs.")
        parser.add_argument(
            "--lang", default=default_language(), choices=language_codes(), help="Language of messages and fixes."
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
        request = {"nodes": options["nodes"], "rails": options["rails"], "switch": options["switch"]}
        for key in ("oversubscription", "topology", "hca"):
            if options[key] is not None:
                request[key] = options[key]
        try:
            plan = fabric_plan_build(request=request, language=options["lang"])
        except DesignInputError as exc:
            for path, message in exc.errors.items():
                self.stderr.write(f"--{path.replace('_', '-')}: {message}" if path in request else f"{path}: {message}")
            sys.exit(EXIT_MALFORMED)
        self.stdout.write(json.dumps(plan.to_json(), indent=options["indent"] or None, ensure_ascii=False, default=str))
        if any(f.is_error for f in plan.findings):
            self.stdout.flush()
            sys.exit(EXIT_INVALID)
