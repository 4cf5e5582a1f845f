"""Test settings: the same code paths, fast password hashing, mail kept in memory."""

from .base import *  # noqa: F403
from .base import BASE_DIR, env

DEBUG = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
MEDIA_ROOT = env.path("DJANGO_MEDIA_ROOT", default=BASE_DIR / ".test-media")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# Tests run tasks in-process unless a test starts a real worker; CELERY_BROKER_URL is kept for those. Workers and
# beat started by the fault tests send through the broker as production does (CELERY_TASK_ALWAYS_EAGER=false).
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=True)
AXES_ENABLED = env.bool("AXES_ENABLED", default=True)

# Tests change prices and specs and expect the next call to see them.
CATALOG_SNAPSHOT_MAX_AGE = 0.0
