from django.apps import AppConfig


class ApiConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "api"
    verbose_name = "API"

    def ready(self) -> None:
        from quotes.signals import quote_event

        from . import auth  # noqa: F401 - registers the OpenAPI security scheme
        from .events import on_quote_event

        quote_event.connect(on_quote_event, dispatch_uid="api.events.on_quote_event")
