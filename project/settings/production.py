"""Production: every secret must come from the environment; passes `manage.py check --deploy` cleanly."""

import re

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
    if _reads_as_words(key):
        return "DJANGO_SECRET_KEY reads as words (far less entropy than its length); generate a random one."
    return None


# Letter pairs most frequent in English and Dutch text. A random key of letters, digits and symbols has about one
# pair in twenty among them (58 of the 676 letter pairs, fewer with digits and symbols between); words have one in
# three or more. 0.3 lies above the top of 100,000 keys from each generator the docs name (token_urlsafe(38 to 60):
# at most 0.28; token_hex and Django's get_random_secret_key: at most 0.21). Of 500,000 keys from each, this guard
# refused none of token_urlsafe's and token_hex's and one of get_random_secret_key's.
_COMMON_PAIRS = frozenset(
    (
        "th",
        "he",
        "in",
        "er",
        "an",
        "re",
        "on",
        "at",
        "en",
        "nd",
        "ti",
        "es",
        "or",
        "te",
        "of",
        "ed",
        "is",
        "it",
        "al",
        "ar",
        "st",
        "to",
        "nt",
        "ng",
        "se",
        "ha",
        "as",
        "ou",
        "io",
        "le",
        "ve",
        "co",
        "me",
        "de",
        "hi",
        "ri",
        "ro",
        "ic",
        "ne",
        "ea",
        "ra",
        "ce",
        "li",
        "ch",
        "ll",
        "be",
        "ma",
        "si",
        "om",
        "ur",
        "ee",
        "ij",
        "ge",
        "oo",
        "aa",
        "ie",
        "ui",
        "el",
    )
)


_WORD = re.compile(r"[A-Z]?[a-z]{2,}|[A-Z]{3,}")  # written as words are: lower case, Capitalised or CAPITALS


def _reads_as_words(key: str) -> bool:
    """True for a human phrase: it has whitespace (no generator writes any), it is mostly words joined by
    punctuation (correct-horse-battery-staple-…: words, with a text's share of vowels, cover 70 % of it), or too
    many of its letter pairs are the commonest of English and Dutch (ThisIsMySecretKey…)."""
    if any(ch.isspace() for ch in key):
        return True
    words = "".join(p for p in re.split(r"[^0-9A-Za-z]+", key) if _WORD.fullmatch(p))
    vowels = sum(ch in "aeiouAEIOU" for ch in words)  # a third of a text's letters, a fifth of random ones
    if len(words) * 10 >= len(key) * 7 and vowels * 10 >= len(words) * 3:
        return True
    lowered = key.lower()
    pairs = [lowered[i : i + 2] for i in range(len(lowered) - 1)]
    return sum(pair in _COMMON_PAIRS for pair in pairs) * 10 > len(pairs) * 3


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
