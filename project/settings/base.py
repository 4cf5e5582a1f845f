"""Settings shared by every environment. Everything that differs comes from the environment (django-environ)."""

from datetime import timedelta
from decimal import Decimal
from pathlib import Path

import environ
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent.parent
env = environ.Env()
if (BASE_DIR / ".env").exists():  # optional: the environment alone is enough
    environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

SECRET_KEY = env("DJANGO_SECRET_KEY", default="local-development-key-not-for-production")
DEBUG = env.bool("DJANGO_DEBUG", default=False)
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["127.0.0.1", "localhost"])
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django.forms",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_filters",
    "django_htmx",
    "axes",
    "csp",
    "django_countries",
    "project",  # the Celery app, loaded when Django starts (ProjectConfig.ready)
    "catalog",
    "configurator",
    "quotes",
    "api",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "api.middleware.RefuseTraceMiddleware",  # TRACE/TRACK under /api/: 405 in the API's error body
    "project.csp.CSPMiddleware",  # django-csp's, the settings' policy built once (project/csp.py)
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",
    "project.outage.DatabaseUnavailableMiddleware",  # innermost: sees a view's exception first
]

# Content-Security-Policy on every response (django-csp): scripts, styles, images and fonts from this server only
# (htmx and Swagger UI are served from static files; no inline script anywhere). Inline style *attributes* stay
# allowed: Swagger UI and the admin write a few; they cannot run code.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}
# The language cookie, like the session and CSRF cookies: never sent cross-site, and HTTPS-only in production.
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_HTTPONLY = True

ROOT_URLCONF = "project.urls"
WSGI_APPLICATION = "project.wsgi.application"

# Site pages are Jinja2 (templates/; web/templating.py says why); the admin, the
# e-mails, the quote PDF and third-party apps use Django templates from the apps' templates/ directories.
_CONTEXT_PROCESSORS = [
    "django.template.context_processors.request",
    "django.template.context_processors.i18n",
    "django.contrib.auth.context_processors.auth",
    "django.contrib.messages.context_processors.messages",
]
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "environment": "web.templating.environment",
            "context_processors": [*_CONTEXT_PROCESSORS, "web.templating.csrf", "quotes.policy.context"],
        },
    },
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {"context_processors": _CONTEXT_PROCESSORS},
    },
]
# Form widgets: inputs, options and labels written in Python (web/widgets.py, the same markup); every other
# widget through the engines above: Django's own from its Jinja2 widget templates ("django.forms" is installed for
# them), the admin's from Django templates.
FORM_RENDERER = "web.widgets.FastRenderer"

DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
DATABASES["default"]["CONN_MAX_AGE"] = env.int("DJANGO_CONN_MAX_AGE", default=0)
# While the database cannot be reached, requests are answered 503 with this Retry-After (project.outage).
DATABASE_RETRY_AFTER_SECONDS = env.int("DATABASE_RETRY_AFTER_SECONDS", default=30)
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # PostgreSQL's JIT compiles the catalogue snapshot's one wide query (every spec table joined) for 0.3-0.7 s
    # on a small catalogue that runs in under 10 ms without it: short OLTP queries never gain from it.
    DATABASES["default"].setdefault("OPTIONS", {})["options"] = "-c jit=off"

# Rate limits and throttles count in the cache: set CACHE_URL (redis://…) when several processes serve the app.
_cache_url = env("CACHE_URL", default="")
# A stopped, unreachable or frozen Redis fails a cache call after this long (connect and each read), so requests
# are answered 503 at once (project.outage) instead of holding a web worker until the proxy gives up.
REDIS_SOCKET_TIMEOUT_SECONDS = env.float("REDIS_SOCKET_TIMEOUT_SECONDS", default=1.0)
CACHES = {
    # Django's Redis cache with one client per connection pool (project.cache): the same keys and values.
    "default": {
        "BACKEND": "project.cache.SharedClientRedisCache",
        "LOCATION": _cache_url,
        "OPTIONS": {
            "socket_connect_timeout": REDIS_SOCKET_TIMEOUT_SECONDS,
            "socket_timeout": REDIS_SOCKET_TIMEOUT_SECONDS,
        },
    }
    if _cache_url.startswith(("redis://", "rediss://"))
    else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# A request body other than uploaded files (the API's JSON, a form) holds at most this many bytes; more is a 413
# (api/parsers.py, api/exceptions.py). Uploaded price lists are files, limited by nginx (10 MB, deploy/nginx.conf).
DATA_UPLOAD_MAX_MEMORY_SIZE = env.int("DATA_UPLOAD_MAX_MEMORY_SIZE", default=1_000_000)

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
SESSION_ENGINE = "project.sessions"  # Django's database sessions, read with one plain SELECT
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "configurator:dashboard"
LOGOUT_REDIRECT_URL = "home"

# Brute-force protection for the staff login (django-axes): lock a user+address after 5 failures for 1 hour.
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = timedelta(hours=1)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_VERBOSE = False  # no start-up banner on stderr: the CLI prints JSON on stdout and errors on stderr
# Both the lockout and the quote rate limit key on project.clientip.client_ip: REMOTE_ADDR, or behind
# TRUSTED_PROXY_COUNT reverse proxies the address that many entries from the right of X-Forwarded-For.
AXES_CLIENT_IP_CALLABLE = "project.clientip.client_ip"
TRUSTED_PROXY_COUNT = env.int("TRUSTED_PROXY_COUNT", default=0)

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("nl", _("Dutch"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
# django-countries' names, but the one the offers have always printed for US (quotes/countries.py).
COUNTRIES_OVERRIDE = {"US": _("United States")}
FORMAT_MODULE_PATH = ["project.formats"]  # English dates day-first (1 December 2026), not US style
TIME_ZONE = "Europe/Amsterdam"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = env.path("DJANGO_STATIC_ROOT", default=BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_URL = "media/"
MEDIA_ROOT = env.path("DJANGO_MEDIA_ROOT", default=BASE_DIR / "media")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
# Quote documents go to S3-compatible object storage when a bucket is configured (django-storages reads the
# AWS_* variables: AWS_STORAGE_BUCKET_NAME, AWS_S3_ENDPOINT_URL, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
# AWS_S3_REGION_NAME); otherwise to MEDIA_ROOT.
AWS_STORAGE_BUCKET_NAME = env("AWS_STORAGE_BUCKET_NAME", default="")
if AWS_STORAGE_BUCKET_NAME:
    AWS_S3_ENDPOINT_URL = env("AWS_S3_ENDPOINT_URL", default=None)
    AWS_S3_REGION_NAME = env("AWS_S3_REGION_NAME", default=None)
    AWS_ACCESS_KEY_ID = env("AWS_ACCESS_KEY_ID", default=None)
    AWS_SECRET_ACCESS_KEY = env("AWS_SECRET_ACCESS_KEY", default=None)
    AWS_DEFAULT_ACL = None
    AWS_QUERYSTRING_AUTH = True  # private bucket: downloads go through the app's own checks anyway
    STORAGES["default"] = {"BACKEND": "storages.backends.s3.S3Storage"}

EMAIL_CONFIG = env.email_url("EMAIL_URL", default="consolemail://")
vars().update(EMAIL_CONFIG)
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", default="quotes@ncs.nl")

# Celery. Without a broker every task runs in-process, so the app works with no services at all.
CELERY_BROKER_URL = env("CELERY_BROKER_URL", default="")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = False
CELERY_RESULT_BACKEND = None
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A worker or beat that loses Redis keeps trying to reconnect for as long as it takes (the default gives up after
# 100 tries and exits); what runs it restarts it as well (docker-compose.yml's restart policies, deploy/kubernetes).
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
if CELERY_BROKER_URL.startswith("redis://"):
    # kombu's Redis transport, except that a worker whose acknowledgement fails (Redis frozen or gone just as a
    # build ends) takes the next message instead of idling for good (project/broker.py).
    CELERY_BROKER_TRANSPORT = "project.broker:Transport"
# Sockets to Redis time out, so a frozen Redis fails a publish (a quote request stays recorded as pending, the
# periodic requeue sends it later) within seconds instead of holding the request; one retry, not Celery's three.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": 600,
    "socket_connect_timeout": 2 * REDIS_SOCKET_TIMEOUT_SECONDS,
    "socket_timeout": 2 * REDIS_SOCKET_TIMEOUT_SECONDS,
    "socket_keepalive": True,
    "health_check_interval": 10,
}
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.5, "interval_max": 0.5}
CELERY_TIMEZONE = TIME_ZONE
CELERY_BEAT_SCHEDULE = {
    "requeue-stuck-quotes": {"task": "quotes.tasks.quotes_requeue_stuck", "schedule": 15.0},  # QUOTE_BUILD_LEASE
    "retry-pending-webhooks": {"task": "api.tasks.webhook_retry_pending", "schedule": 300.0},
    "purge-idempotency-keys": {"task": "api.tasks.idempotency_purge", "schedule": 3600.0},
}

# The REST API for CRM clients (api/). Clients authenticate with per-client Bearer tokens; every client is
# throttled on its own bucket. Rates come from the environment so tests and benchmarks can change them.
REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": ["api.auth.BearerTokenAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["api.permissions.ClientScopePermission"],
    "DEFAULT_THROTTLE_CLASSES": ["api.throttling.ClientRateThrottle", "api.throttling.ClientWriteRateThrottle"],
    "DEFAULT_THROTTLE_RATES": {
        "client": env("API_THROTTLE_RATE", default="600/min"),  # every request of one API client
        "client_write": env("API_THROTTLE_WRITE_RATE", default="120/min"),  # requests that create or change
        "bad_token": env("API_BAD_TOKEN_RATE", default="30/min"),  # requests with a failing token, per address
    },
    "DEFAULT_PARSER_CLASSES": ["api.parsers.StrictJSONParser"],
    "DEFAULT_RENDERER_CLASSES": ["api.renderers.JSONRenderer"],
    "DEFAULT_PAGINATION_CLASS": "api.pagination.Pagination",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": ["api.filters.FilterBackend"],
    "EXCEPTION_HANDLER": "api.exceptions.exception_handler",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
    "URL_FORMAT_OVERRIDE": None,  # JSON only; documents are their own URLs
}
SPECTACULAR_SETTINGS = {
    "TITLE": "GPU Cluster Configurator API",
    "DESCRIPTION": (
        "Configure, validate, plan and quote Supermicro/NVIDIA GPU servers and clusters.\n\n"
        "Authenticate with `Authorization: Bearer <token>` (a token from `manage.py create_api_client` or the "
        "admin). Scope `read` may read and validate; scope `quote` may also store designs, request and revise "
        "quotes and register webhooks. Every error has the body "
        '`{"error": {"code", "message", "fields": [{"path", "message"}]}}`. '
        "POSTs that create something accept an `Idempotency-Key` header (24 hours, per client)."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SCHEMA_PATH_PREFIX": r"/api/v1",  # tags and operation ids from the first path segment after it
    "SERVE_PERMISSIONS": ["rest_framework.permissions.AllowAny"],
    "SERVE_AUTHENTICATION": [],
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "SWAGGER_UI_SETTINGS": {"persistAuthorization": True, "displayOperationId": False},
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {
        "QuoteStatusEnum": "quotes.models.Quote.Status",
        "DocStatusEnum": "quotes.models.Quote.DocStatus",
        "ConfigurationStatusEnum": "configurator.models.Configuration.Status",
        "DeliveryStatusEnum": "api.models.WebhookDelivery.Status",
        "ErrorCodeEnum": "api.exceptions.ERROR_CODE_CHOICES",
        "ConnectorEnum": "api.schema.connector_choices",
        "PlugTopEnum": "api.schema.top_choices",
        "ProtocolEnum": "api.schema.protocol_choices",
        "RoleEnum": "api.schema.component_role_choices",
        "DefaultAddedRoleEnum": "api.schema.default_role_choices",
    },
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "api.schema.postprocess_request_strings",
    ],
    "TAGS": [
        {"name": "catalog", "description": "Parts that can be sold, with their typed specs and sources."},
        {"name": "designs", "description": "Stateless validation of a design and fabric planning."},
        {"name": "configurations", "description": "Designs stored by this client."},
        {"name": "quotes", "description": "Quotes, their documents, revisions and approval."},
        {"name": "webhooks", "description": "Where this client receives signed quote events."},
    ],
}

# Webhook receivers (api/webhooks.py): the ports a webhook URL may use, and networks an operator allows on purpose
# although they are not public (e.g. "127.0.0.1/32" for a receiver on the same host). The address check runs in
# every setting, DEBUG or not.
WEBHOOK_ALLOWED_PORTS = env.list("WEBHOOK_ALLOWED_PORTS", cast=int, default=[80, 443])
WEBHOOK_ALLOWED_NETWORKS = env.list("WEBHOOK_ALLOWED_NETWORKS", default=[])

# How stale the engines' in-memory catalogue may be, per process (configurator.snapshot).
CATALOG_SNAPSHOT_MAX_AGE = env.float("CATALOG_SNAPSHOT_MAX_AGE", default=1.0)

# Business settings.
QUOTE_VALIDITY_DAYS = env.int("QUOTE_VALIDITY_DAYS", default=30)
# Indicative service prices (EUR) of the offer's control-plane and services lines (configurator/cluster.py); empty:
# the line is priced on request. The defaults are placeholders of the right order of magnitude, like the seed
# catalogue's prices (catalog/seed/README.md), so a fresh install's offer prices every line it adds by itself;
# the distributor's own figures replace them.
QUOTE_SERVICE_SUPPORT_EUR_PER_NODE_YEAR = env.str("QUOTE_SERVICE_SUPPORT_EUR_PER_NODE_YEAR", default="6000")
QUOTE_SERVICE_INSTALL_EUR_PER_RACK = env.str("QUOTE_SERVICE_INSTALL_EUR_PER_RACK", default="3500")
QUOTE_SERVICE_AIE_EUR_PER_GPU_YEAR = env.str("QUOTE_SERVICE_AIE_EUR_PER_GPU_YEAR", default="4500")
QUOTE_SERVICE_UFM_APPLIANCE_EUR = env.str("QUOTE_SERVICE_UFM_APPLIANCE_EUR", default="30000")
# One control-plane server (head node, Kubernetes or Slurm login node: 2 x86 CPUs, 1 TB RAM, NVMe, BlueField-3).
QUOTE_SERVICE_CONTROL_NODE_EUR = env.str("QUOTE_SERVICE_CONTROL_NODE_EUR", default="25000")
# An expansion's labour, per cable moved (one end re-terminated) or added, routed, labelled and tested.
QUOTE_SERVICE_RECABLE_EUR_PER_CABLE = env.str("QUOTE_SERVICE_RECABLE_EUR_PER_CABLE", default="40")
QUOTE_DISCOUNT_APPROVAL_THRESHOLD = Decimal(env.str("QUOTE_DISCOUNT_APPROVAL_THRESHOLD", default="15"))
# A quote whose margin (net less the parts' purchase prices, where known) is below this percentage of its net waits for
# a second person's approval, as a discount above the threshold does. 0: never below cost without approval; empty: off.
QUOTE_MARGIN_APPROVAL_FLOOR_PERCENT = env.str("QUOTE_MARGIN_APPROVAL_FLOOR_PERCENT", default="0") or None
QUOTE_STUCK_AFTER = timedelta(seconds=env.int("QUOTE_STUCK_AFTER_SECONDS", default=300))
# A document build holds its claim this long and renews it every third of it while it works: a worker killed
# mid-build (or cut off with its broker) lets go within the lease, and the periodic requeue (every 15 s) sends the
# build again, so its documents are ready within a minute, not after QUOTE_STUCK_AFTER.
QUOTE_BUILD_LEASE = timedelta(seconds=env.int("QUOTE_BUILD_LEASE_SECONDS", default=20))
QUOTE_LINK_MAX_AGE = timedelta(days=env.int("QUOTE_LINK_MAX_AGE_DAYS", default=30))
QUOTE_VAT_RATE_NL = Decimal(env.str("QUOTE_VAT_RATE_NL", default="21"))  # Dutch standard rate (Wet OB 1968 art. 9)
QUOTE_SITE_URL = env("QUOTE_SITE_URL", default="http://127.0.0.1:8000")  # for links in e-mails
QUOTE_BUILD_MAX_RETRIES = env.int("QUOTE_BUILD_MAX_RETRIES", default=5)
# Customer quote requests: at most this many accepted per browser session and per client address in the window
# (a form sent back with errors does not count). Sales engineers have their own limit per signed-in user instead.
QUOTE_REQUEST_LIMIT = env.int("QUOTE_REQUEST_LIMIT", default=5)
QUOTE_REQUEST_LIMIT_PER_IP = env.int("QUOTE_REQUEST_LIMIT_PER_IP", default=20)
QUOTE_REQUEST_STAFF_LIMIT = env.int("QUOTE_REQUEST_STAFF_LIMIT", default=200)
QUOTE_REQUEST_WINDOW_SECONDS = env.int("QUOTE_REQUEST_WINDOW_SECONDS", default=3600)
# Anonymous wizard use (project.ratelimits): new drafts per address, and cabling CSVs of drafts with more than
# CABLING_CSV_LARGE_NODES nodes per address. Rates are "<count>/<s|m|h|d>".
WIZARD_START_RATE = env("WIZARD_START_RATE", default="30/h")
CABLING_CSV_LARGE_NODES = env.int("CABLING_CSV_LARGE_NODES", default=256)
CABLING_CSV_LARGE_RATE = env("CABLING_CSV_LARGE_RATE", default="10/h")
# Test-only: slows the document build so the fault tests can kill a worker mid-build. Never set in production.
QUOTE_BUILD_DELAY_SECONDS = env.float("QUOTE_BUILD_DELAY_SECONDS", default=0.0)
# Customers' online requests (quotes.policy): up to this net amount (EUR, excl. VAT) and without design warnings a
# request is issued at once as an indicative quote; larger ones, and every one with warnings, wait for a sales
# engineer, who is told by e-mail at QUOTE_SALES_EMAIL and sees it on the dashboard. Staff and CRM quotes keep
# their own rules (warnings reviewed, discounts approved).
QUOTE_INSTANT_LIMIT_EUR = Decimal(env.str("QUOTE_INSTANT_LIMIT_EUR", default="500000"))
QUOTE_SALES_EMAIL = env("QUOTE_SALES_EMAIL", default="sales@ncs.nl")
# The offer's terms: payment within this many days of invoice, delivery under this Incoterm (Incoterms 2020) to the
# customer's address, and where the general terms can be read (empty: "sent on request").
QUOTE_PAYMENT_DAYS = env.int("QUOTE_PAYMENT_DAYS", default=30)
QUOTE_INCOTERM = env("QUOTE_INCOTERM", default="DAP")
QUOTE_GENERAL_TERMS_URL = env("QUOTE_GENERAL_TERMS_URL", default="")
# The seller as every offer prints it. Without SELLER_KVK the registration, tax and bank details are development
# placeholders, and each document says so on its first page ("not valid for orders").
SELLER = {
    "name": env("SELLER_NAME", default="NCS International"),
    "street": env("SELLER_STREET", default="Den Sliem 89"),
    "postal_code": env("SELLER_POSTAL_CODE", default="7141 JG"),
    "city": env("SELLER_CITY", default="Groenlo"),
    "country": env("SELLER_COUNTRY", default="NL"),
    "phone": env("SELLER_PHONE", default="+31 544 470 000"),
    "email": env("SELLER_EMAIL", default="info@ncs.nl"),
    "kvk": env("SELLER_KVK", default="") or "00000000",
    "vat_id": env("SELLER_VAT_ID", default="") or "NL000000000B00",
    "iban": env("SELLER_IBAN", default="") or "NL00 BANK 0000 0000 00",
    "bic": env("SELLER_BIC", default="") or "BANKNL2A",
    "bank": env("SELLER_BANK", default=""),
    "development": not env("SELLER_KVK", default=""),
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env("DJANGO_LOG_LEVEL", default="INFO")},
}
