from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from catalog.services import SEED_PATH, SeedError, catalog_load_seed


class Command(BaseCommand):
    help = "Load the versioned seed catalogue idempotently (creates or updates parts; a second run changes nothing)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--path", default=str(SEED_PATH), help="seed file (default: catalog/seed/catalog.json)")

    def handle(self, *args: Any, **options: Any) -> None:
        from pathlib import Path

        try:
            report = catalog_load_seed(path=Path(options["path"]))
        except (SeedError, OSError) as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(
            f"catalogue {report.version}: {len(report.created)} created, {len(report.updated)} updated, "
            f"{report.unchanged} unchanged"
        )
