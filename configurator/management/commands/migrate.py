"""Django's migrate, one machine at a time: every machine of a deployment may run it at start-up (compose's web
service does, as can a Kubernetes Job and each pod), and two at once on PostgreSQL raced (the second failed
creating django_migrations, or applying a migration the first had just applied). It holds a database lock
(catalog.locks) around Django's own command: the second waits, then finds nothing to do."""

from typing import Any

from django.core.management.commands.migrate import Command as DjangoMigrate

from catalog.locks import database_lock


class Command(DjangoMigrate):
    def handle(self, *args: Any, **options: Any) -> str | None:
        with database_lock("django.migrate", using=options["database"]):
            return super().handle(*args, **options)
