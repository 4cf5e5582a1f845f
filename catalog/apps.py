from django.apps import AppConfig


class CatalogConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "catalog"
    verbose_name = "Catalogue"

    def ready(self) -> None:
        # Cache invalidation of the catalogue snapshot, not a business rule: see catalog/signals.py.
        from . import signals

        signals.connect()
