"""The project package (settings, urls, Celery, wsgi/asgi) and the configuration domain with its pure engines.

The Celery app is loaded when Django starts (ConfiguratorConfig.ready) and found by ``celery -A configurator`` as
``configurator.celery``; it is not imported here, so importing an engine (configurator.rules, configurator.fabric)
loads neither Celery nor Django.
"""
