from django.apps import AppConfig


class ConfiguratorConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "configurator"
    verbose_name = "Configurator"

    def ready(self) -> None:
        from . import celery  # noqa: F401  (the Celery app, so that shared tasks bind to it)
