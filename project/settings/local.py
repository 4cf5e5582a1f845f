"""Local development: SQLite and in-process tasks unless the environment says otherwise."""

from .base import *  # noqa: F403
from .base import env

DEBUG = env.bool("DJANGO_DEBUG", default=True)
