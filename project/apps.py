from django.apps import AppConfig


class ProjectConfig(AppConfig):
    name = "project"
    verbose_name = "Project"

    def ready(self) -> None:
        from . import celery  # noqa: F401  (the Celery app, so that shared tasks bind to it)
