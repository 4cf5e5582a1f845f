"""Celery application. Without CELERY_BROKER_URL the settings make every task run in-process (eager)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "configurator.settings.local")

app = Celery("configurator")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
