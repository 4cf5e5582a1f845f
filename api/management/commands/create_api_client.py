"""``manage.py create_api_client NAME [--scope read|quote] [--user USERNAME]``: prints a new token once."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from api.models import ApiClient
from api.services import api_client_create


class Command(BaseCommand):
    help = "Create an API client and print its Bearer token (shown only now; only a hash is stored)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("name", help="A unique name, e.g. the CRM's name.")
        parser.add_argument(
            "--scope",
            choices=[s.value for s in ApiClient.Scope],
            default=ApiClient.Scope.READ,
            help="read: read and validate; quote: also store designs, quote and use webhooks.",
        )
        parser.add_argument("--user", help="Username the client acts as (its permissions apply, e.g. approving).")

    def handle(self, *args: Any, name: str, scope: str, user: str | None = None, **options: Any) -> None:
        acting = None
        if user:
            acting = get_user_model().objects.filter(username=user).first()
            if acting is None:
                raise CommandError(f"No user named {user!r}.")
        try:
            client, token = api_client_create(name=name, scope=scope, user=acting)
        except ValidationError as exc:
            raise CommandError("; ".join(f"{k}: {' '.join(v)}" for k, v in exc.message_dict.items())) from exc
        self.stderr.write(f"API client {client.name!r} (scope {client.scope}) created. Its token, shown only once:")
        self.stdout.write(token)
