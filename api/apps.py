from django.apps import AppConfig, apps


class ApiConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "api"
    verbose_name = "API"

    def ready(self) -> None:
        from . import auth  # noqa: F401 - registers the OpenAPI security scheme

        if not apps.is_installed("quotes"):
            return
        try:
            from quotes.signals import quote_event
        except ImportError:  # the quotes app is being built; webhooks start when it is there
            return
        from .webhooks import on_quote_event

        quote_event.connect(on_quote_event, dispatch_uid="api.webhooks.on_quote_event")
