"""Production: every secret must come from the environment; passes `manage.py check --deploy` cleanly."""

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403
from .base import BASE_DIR, env

# Values that are published (samples, defaults, docs) and so are no secret. .env.example's own is read from it.
KNOWN_SAMPLE_SECRET_KEYS = {
    "local-development-key-not-for-production",
    "change-me-to-a-long-random-string-of-at-least-fifty-characters-0123456789",
}
SAMPLE_KEY_PREFIXES = ("change-me", "changeme", "django-insecure-", "local-development", "your-secret-key")


def _sample_keys() -> set[str]:
    keys = set(KNOWN_SAMPLE_SECRET_KEYS)
    example = BASE_DIR / ".env.example"
    if example.exists():
        for line in example.read_text().splitlines():
            name, sep, value = line.partition("=")
            if sep and name.strip() == "DJANGO_SECRET_KEY" and value.strip():
                keys.add(value.strip())
    return keys


def secret_key_problem(key: str) -> str | None:
    """Why ``key`` must not sign production sessions and links, or None when it may."""
    if len(key) < 50:
        return "DJANGO_SECRET_KEY must be set to a random value of at least 50 characters."
    if key in _sample_keys() or key.lower().startswith(SAMPLE_KEY_PREFIXES):
        return "DJANGO_SECRET_KEY is a published sample value; generate a random one of at least 50 characters."
    if len(set(key)) < 5:
        return "DJANGO_SECRET_KEY has fewer than 5 distinct characters; generate a random one."
    if _repeats(key):
        return "DJANGO_SECRET_KEY repeats a shorter sequence (such as 0123456789 over and over); generate a random one."
    if _mostly_runs(key):
        return "DJANGO_SECRET_KEY is mostly runs of characters (aaaa, 0123, abcd); generate a random one."
    return None


def _repeats(key: str) -> bool:
    """True when the key is a shorter sequence repeated (the last repeat may be cut off): 0123456789 six times
    and a bit is 10 characters of secret, not 64."""
    return any(key == (key[:period] * (len(key) // period + 1))[: len(key)] for period in range(1, len(key) // 2 + 1))


def _mostly_runs(key: str) -> bool:
    """True when more than three in four neighbouring characters repeat or count up or down by one (a random
    key of 64 kinds of characters has about one such pair in twenty)."""
    steps = [abs(ord(b) - ord(a)) <= 1 for a, b in zip(key, key[1:], strict=False)]
    return sum(steps) * 4 > len(steps) * 3


DEBUG = False
SECRET_KEY = env("DJANGO_SECRET_KEY", default="")
if problem := secret_key_problem(SECRET_KEY):
    raise ImproperlyConfigured(problem + ' For example: python3 -c "import secrets; print(secrets.token_urlsafe(60))"')
if not env("DATABASE_URL", default=""):
    raise ImproperlyConfigured("DATABASE_URL must be set in production.")
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS")
DATABASES["default"]["CONN_MAX_AGE"] = env.int("DJANGO_CONN_MAX_AGE", default=600)  # noqa: F405

# The scheme the client used, as the TLS terminator told nginx (deploy/nginx.conf). gunicorn is reached only
# through nginx, which sets this header on every request: a trusted terminator's value, otherwise its own scheme.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("DJANGO_SECURE_SSL_REDIRECT", default=True)
# Health checks (compose's, a load balancer's) ask over plain HTTP from inside; a redirect to HTTPS would fail them.
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^livez$"]
SECURE_HSTS_SECONDS = env.int("DJANGO_SECURE_HSTS_SECONDS", default=31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
LANGUAGE_COOKIE_SECURE = True
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
