from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Local development only: create the 'admin' superuser and the 'sales' engineer (passwords as usernames)."

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG:
            self.stdout.write("DEBUG is off: no demo users created.")
            return
        User = get_user_model()
        if not User.objects.filter(username="admin").exists():
            User.objects.create_superuser("admin", "admin@example.com", "admin")
        if not User.objects.filter(username="sales").exists():
            user = User.objects.create_user("sales", "sales@example.com", "sales", is_staff=True)
            apps = ["configurator", "catalog", "quotes"]
            # A sales engineer may not approve discounts above the threshold; the admin user can.
            perms = Permission.objects.filter(content_type__app_label__in=apps).exclude(codename="approve_quote")
            user.user_permissions.set(perms)
        self.stdout.write(
            "Demo users: admin/admin (superuser), sales/sales (sales engineer, cannot approve discounts). "
            "Local use only."
        )
