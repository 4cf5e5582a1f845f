"""``manage.py plan_expansion PATH|- --add N [--node-group NAME] [--output PATH]`` (or ``--from PATH --add-nodes N``):
the command-line door to the expansion of an installed cluster (the one service, as POST
/api/v1/configurations/{id}/expansions/).

PATH is the installed cluster: a design document (design/v1) or a won or issued quote's frozen snapshot
(quote/v1, its ``design``). Writes the same JSON as the API (the grown design's validation result plus
``delta_bom``, ``unused``, ``recabling``, ``moved_devices`` and ``findings``) to ``--output`` or standard output.
Exit status as validate_design: 0 the grown design is valid, 1 not valid, 2 malformed input (the field on stderr).
Never prints a traceback."""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import CommandParser

from configurator.cli import DoorCommand
from design.jsontext import load_json
from design.model import DesignInputError
from quotes.services.expansion import expansion_plan, growth_parse


class Command(DoorCommand):
    help = "Plan the expansion of an installed cluster (design/v1 or a frozen quote). Exit 0 valid, 1 not, 2 malformed."

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
        self.add_language(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        body: dict[str, Any] = {"add": options["add"]}
        if options["node_group"] is not None:
            body["node_group"] = options["node_group"]
        path = options["path"] or options["source"]
        if not path:
            self.refuse({"path": "give the installed design (PATH or --from PATH)."})
        try:
            installed = load_json(path, sys.stdin)
            expansion = expansion_plan(installed=installed, growth=growth_parse(body), language=options["lang"])
        except DesignInputError as exc:
            self.refuse(exc.errors, lambda key: "--" + key.replace("_", "-") if key in ("add", "node_group") else key)
        except ValueError as exc:
            self.refuse({"": str(exc)})
        self.write_json(expansion.to_json(), options["indent"], options["output"])
        self.finish(expansion.result.valid)
