"""``manage.py plan_fabric --nodes N --rails R --switch PART [...]``: the command-line fabric planner.

Prints the plan as JSON (the same JSON as POST /api/v1/fabric-plans/). Exit 0 for a plan without errors, 1 when
the plan has errors (like ``validate_design``: the JSON is printed all the same), 2 on bad input, with the field
named on stderr. Never prints a traceback.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandParser

from configurator.cli import DoorCommand
from configurator.services import fabric_plan_build
from design.contract import DEFAULT_TOPOLOGY, TOPOLOGIES
from design.model import DesignInputError


class Command(DoorCommand):
    help = "Plan a compute fabric and print the plan as JSON. Exit 1 when the plan has errors, 2 on bad input."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--nodes", type=int, required=True, help="Number of GPU nodes.")
        parser.add_argument("--rails", type=int, required=True, help="Compute NICs (rails) per node.")
        parser.add_argument("--switch", required=True, help="Switch part number, e.g. MQM9700-NS2F.")
        parser.add_argument("--oversubscription", default=None, help="downlinks:uplinks, default 1:1.")
        parser.add_argument("--topology", default=None, help=f"{' or '.join(TOPOLOGIES)} (default {DEFAULT_TOPOLOGY}).")
        parser.add_argument("--hca", default=None, help="Adapter part number of the compute NICs.")
        self.add_language(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        request = {"nodes": options["nodes"], "rails": options["rails"], "switch": options["switch"]}
        for key in ("oversubscription", "topology", "hca"):
            if options[key] is not None:
                request[key] = options[key]
        try:
            plan = fabric_plan_build(request=request, language=options["lang"])
        except DesignInputError as exc:
            self.refuse(exc.errors, lambda path: f"--{path.replace('_', '-')}" if path in request else path)
        self.write_json(plan.to_json(), options["indent"])
        if any(f.is_error for f in plan.findings):  # a plan without errors returns (exit 0)
            self.finish(False)
