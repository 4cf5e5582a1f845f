"""Celery application. Without CELERY_BROKER_URL the settings make every task run in-process (eager).

A worker or beat started without DJANGO_SETTINGS_MODULE runs the production settings (which refuse to start
without their secrets), unless the environment (or .env) turns DEBUG on with DJANGO_DEBUG=true: a worker never
falls back to development settings on a production host.
"""

import os

import environ
from celery import Celery


def default_settings_module() -> str:
    env = environ.Env()
    dotenv = os.path.join(os.path.dirname(os.path.dirname(__file__)), ".env")
    if os.path.exists(dotenv):
        environ.Env.read_env(dotenv, overwrite=False)
    return "project.settings.local" if env.bool("DJANGO_DEBUG", default=False) else "project.settings.production"


os.environ.setdefault("DJANGO_SETTINGS_MODULE", default_settings_module())

app = Celery("project")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
