"""The project package. The Celery app is loaded when Django starts (ConfiguratorConfig.ready) or when asked for
(``configurator.celery_app``, ``celery -A configurator``), never on import: importing an engine module
(engines.node, engines.fabric) loads neither Celery nor Django."""


def __getattr__(name: str):
    if name == "celery_app":
        from .celery import app

        return app
    raise AttributeError(f"module 'configurator' has no attribute {name!r}")
