"""``manage.py export_design PATH|- --format NAME [--output PATH]``: the command-line door to the hand-over exports
(the one output service, as GET /api/v1/configurations/{id}/exports/{name} and POST /api/v1/designs/exports/{name}).

Writes the export (``topology.conf``, ``topology.yaml``, ``fabric.topo``, ``cabling.csv``, …) to ``--output`` or
standard output. Exit status as validate_design: 0 written, 1 the design has errors (each on stderr, with its
field) or nothing to give in that format, 2 malformed input or an unknown format. Never prints a traceback."""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import CommandParser

from configurator.cli import EXIT_INVALID, DoorCommand
from configurator.services import design_validate
from design.jsontext import load_json
from design.model import DesignInputError
from outputs.services import FORMATS, DesignNotValid, OutputUnavailable, UnknownOutput, design_export


class Command(DoorCommand):
    help = "Write a hand-over export of a design (design/v1). Exit 0 written, 1 not valid, 2 malformed."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", help="A JSON file with the design, or - to read standard input.")
        parser.add_argument("--format", required=True, help="The export's file name: " + ", ".join(FORMATS) + ".")
        parser.add_argument("--output", default="-", help="The file to write (default -: standard output).")
        self.add_language(parser, indent=False)

    def handle(self, *args: Any, **options: Any) -> None:
        name, language = options["format"], options["lang"]
        if name not in FORMATS:
            self.refuse({"--format": f"no export is named {name!r}; the exports are: {', '.join(FORMATS)}"})
        try:
            document = load_json(options["path"], sys.stdin)
            result = design_validate(document=document, language=language)
            output = design_export(name=name, result=result, language=language)
        except DesignInputError as exc:
            self.refuse(exc.errors)
        except ValueError as exc:
            self.refuse({"": str(exc)})
        except UnknownOutput as exc:
            self.refuse({"--format": f"no export is named {exc.name!r}"})
        except DesignNotValid as exc:
            self.stderr.write(exc.message)
            for path, message in exc.fields.items():
                self.stderr.write(f"{path}: {message}")
            sys.exit(EXIT_INVALID)
        except OutputUnavailable as exc:
            self.stderr.write(f"{exc.code}: {exc.message}")
            sys.exit(EXIT_INVALID)
        self._write(output.body, options["output"])
        self.finish(True)

    def _write(self, body: Any, path: str) -> None:
        chunks = iter(body)
        if path == "-":
            for chunk in chunks:
                if isinstance(chunk, bytes):  # a workbook or a zip: the bytes as they are
                    self.stdout.flush()
                    sys.stdout.buffer.write(chunk)
                else:
                    self.stdout.write(chunk, ending="")
            self.stdout.flush()
            return
        with self.output_file(path) as handle:
            for chunk in chunks:
                handle.write(chunk if isinstance(chunk, bytes) else chunk.encode())
