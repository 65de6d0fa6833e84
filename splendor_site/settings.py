"""Settings for Splendor Online, read from environment variables only.

Every variable has a default that works on a developer's machine: SQLite, tasks run in-process,
emails printed to the console. `.env.example` lists every variable this module reads.
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from splendor_site.environment import env_bool, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent

# --- Core -------------------------------------------------------------------------------------

DEBUG = env_bool("DEBUG", True)

SECRET_KEY = env_str("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "django-insecure-development-only-key"
# Former keys, still accepted for what they signed while links sent with them run out
# (docs/operations.md, "Rotating secrets"); new signatures use SECRET_KEY.
SECRET_KEY_FALLBACKS = env_list("SECRET_KEY_FALLBACKS", "")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

# Absolute address of the site, used to build links in emails.
SITE_URL = env_str("SITE_URL", "http://127.0.0.1:8000").rstrip("/")

# A site served over HTTPS keeps its session and CSRF cookies off plain HTTP.
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = SITE_URL.startswith("https://")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    # Lets runserver serve static files the way WhiteNoise does in production.
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "axes",
    "accounts",
    "games",
    "notifications",
    "analytics",
    "analysis",
    "training",
    "health_check",
    "django_prometheus",
    "operations",
]

MIDDLEWARE = [
    # django-prometheus: requests, responses and latencies per view (/metrics, METRICS_TOKEN).
    "django_prometheus.middleware.PrometheusBeforeMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Django's, skipped on JSON API requests, which never use flash messages.
    "splendor_site.middleware.PageMessageMiddleware",
    # Before any view or CSRF check reads the body; after auth, so its error page can render.
    "splendor_site.middleware.RequestBodyLimitMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # django-csp's, building the header once (splendor_site.middleware).
    "splendor_site.middleware.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Turns a locked-out login into the lock-out page (django-axes); last, as its docs ask.
    "axes.middleware.AxesMiddleware",
    "django_prometheus.middleware.PrometheusAfterMiddleware",
]

ROOT_URLCONF = "splendor_site.urls"

# Prometheus metrics at /metrics, only with this token as "Authorization: Bearer <token>";
# unset, /metrics answers 404 (operations.views, docs/operations.md).
METRICS_TOKEN = env_str("METRICS_TOKEN", "")
WSGI_APPLICATION = "splendor_site.wsgi.application"
ASGI_APPLICATION = "splendor_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# Bodies longer than this many bytes are refused with 413 before they are read, on pages and
# API alike. The largest legitimate body (an admin action on a page of games) is a few KiB.
REQUEST_BODY_MAX_BYTES = int(env_str("REQUEST_BODY_MAX_BYTES", "65536"))
# That middleware bounds every body by its view's allowance (a game file to import may be
# 5 MB), so Django's own single cap would only refuse what a view allows.
DATA_UPLOAD_MAX_MEMORY_SIZE = None

# --- Content Security Policy ------------------------------------------------------------------

# Scripts, styles and everything else come from the site itself; no inline script or style,
# no eval (htmx is configured without its inline indicator styles), no framing. Gem shapes are
# inline SVG; the API docs page loads its Swagger UI files from drf-spectacular-sidecar.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "font-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

# --- Database ---------------------------------------------------------------------------------

DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
    ),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Seconds a connection is kept for reuse. The ASGI entry point sets 0 (splendor_site/asgi.py):
    # there each request runs in a thread of its own, so kept connections would pile up.
    DATABASES["default"]["CONN_MAX_AGE"] = int(env_str("DATABASE_CONN_MAX_AGE", "600"))
    # No "SELECT 1" before each request's first query: that is a round trip on every request.
    # A connection that broke while idle fails one request, after which Django closes it,
    # and the next request opens a fresh one (docs/decisions/0087-no-per-request-health-check.md).
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = False
    # The reads under every snapshot load and replay (games/store/driver_reads.py) run as prepared
    # statements from their sixth run on a connection: PostgreSQL then parses and plans each
    # once per connection, not per call (about 100 µs of a 300 µs snapshot load). Django's own
    # queries bind their parameters in the client and are never prepared. Off behind a pooler
    # that cannot keep prepared statements (PgBouncer in transaction mode before 1.21).
    if env_bool("DATABASE_PREPARED_READS", True):
        DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = 5
elif DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # SQLite ignores SELECT ... FOR UPDATE; taking the write lock when a transaction begins
    # serialises writers instead of failing them with "database is locked" midway.
    DATABASES["default"]["OPTIONS"] = {"transaction_mode": "IMMEDIATE"}

# The role that owns the tables and runs `migrate`, when the site itself connects as a
# least-privilege role (splendor_site/database_roles.py). Same database, other credentials.
DATABASE_OWNER: dict[str, str] | None = None
if env_str("DATABASE_OWNER_URL", ""):
    _owner = dj_database_url.parse(env_str("DATABASE_OWNER_URL", ""))
    _where = ("ENGINE", "HOST", "PORT", "NAME")
    if [_owner[key] for key in _where] != [DATABASES["default"][key] for key in _where]:
        raise ImproperlyConfigured("DATABASE_OWNER_URL must name the database of DATABASE_URL")
    DATABASE_OWNER = {"USER": _owner["USER"], "PASSWORD": _owner["PASSWORD"]}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# --- Cache ------------------------------------------------------------------------------------
# Each process's own memory (throttles, presence writes, the token cache), through
# django-prometheus's class of it so that /metrics counts its gets, hits and misses.
CACHES = {"default": {"BACKEND": "django_prometheus.cache.backends.locmem.LocMemCache"}}

# --- Internationalisation and time ------------------------------------------------------------

LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# --- Static files -----------------------------------------------------------------------------

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Hashed names need `collectstatic` first, so only a DEBUG-off deployment uses them.
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage",
    },
}

# --- Email ------------------------------------------------------------------------------------

EMAIL_BACKEND = env_str("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = env_str("EMAIL_HOST", "localhost")
EMAIL_PORT = int(env_str("EMAIL_PORT", "25"))
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
EMAIL_TIMEOUT = 10
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Splendor Online <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# --- Tasks: Celery, its queues, beat's schedule (splendor_site/task_settings.py) -------------

from splendor_site.task_settings import *  # noqa: E402, F403  (every name there is a setting)

CELERY_TIMEZONE = TIME_ZONE

# --- Bots -------------------------------------------------------------------------------------

# Thinking time of the Search and Expert bots per move, in seconds.
BOT_SEARCH_SECONDS = float(env_str("BOT_SEARCH_SECONDS", "0.5"))
# A bot turn not played this long after the game last changed is queued again by the sweeper.
# Keep it above BOT_TASK_TIME_LIMIT, so a turn is re-queued only once its first try is over.
BOT_TURN_STUCK_AFTER_SECONDS = int(env_str("BOT_TURN_STUCK_AFTER_SECONDS", "60"))
# Enforced by prefork workers (the default pool), not by --pool=solo.
BOT_TASK_SOFT_TIME_LIMIT = 30
BOT_TASK_TIME_LIMIT = 45

# --- Fairness ---------------------------------------------------------------------------------

# Per-account caps (games.commands.limits): games waiting or in progress that an account plays in or
# created; games between bots only it runs at once; games it may create per hour.
GAMES_MAX_ACTIVE_PER_ACCOUNT = int(env_str("GAMES_MAX_ACTIVE_PER_ACCOUNT", "20"))
GAMES_MAX_BOT_ONLY_PER_ACCOUNT = int(env_str("GAMES_MAX_BOT_ONLY_PER_ACCOUNT", "3"))
GAMES_MAX_CREATED_PER_HOUR = int(env_str("GAMES_MAX_CREATED_PER_HOUR", "30"))

# Live-update streams (games.web.stream_limits) one account, and one address, may hold open at once,
# counted across server processes. A stream's slot lapses this long after its last keep-alive
# (every 20 s), so the streams of a server process that crashed stop counting on their own.
LIVE_STREAMS_PER_USER = int(env_str("LIVE_STREAMS_PER_USER", "20"))
LIVE_STREAMS_PER_ADDRESS = int(env_str("LIVE_STREAMS_PER_ADDRESS", "50"))
LIVE_STREAM_LEASE_SECONDS = 60.0

# --- Analytics --------------------------------------------------------------------------------

# Finished games the catch-up queues per run, at most.
ANALYTICS_CATCH_UP_BATCH = 500
# Rated games a player needs before the leaderboard lists them.
LEADERBOARD_MIN_GAMES = int(env_str("LEADERBOARD_MIN_GAMES", "5"))
# Rated games before a rating stops being marked provisional.
RATING_PROVISIONAL_GAMES = int(env_str("RATING_PROVISIONAL_GAMES", "10"))

# --- Play by email: notifications and deadlines ----------------------------------------------

# Links in mail are signed for one user, game and version, and expire after this many seconds.
MAIL_LINK_MAX_AGE = 7 * 24 * 3600
# Presence (docs/decisions/0104-who-is-present.md): a game's open page marks its player present
# for this long, again and again while its live-update stream stays open; no turn mail then.
PRESENCE_SECONDS = float(env_str("PRESENCE_SECONDS", "60"))
# An API client that read or acted in a game counts as present in it this long afterwards.
API_PRESENCE_SECONDS = float(env_str("API_PRESENCE_SECONDS", "300"))
# A mail the server refused is tried again with exponential back-off (up to 10 minutes apart)
# this many times, then given up and logged. The move that led to it always stands.
MAIL_SEND_MAX_RETRIES = int(env_str("MAIL_SEND_MAX_RETRIES", "5"))
MAIL_RETRY_BACKOFF_MAX_SECONDS = 600
# A sender holds a mail this long (longer than one try at the mail server takes). A mail still
# claimed and not sent after that lost its sender (a worker killed mid-send): beat's sweeper
# queues it again every MAIL_SWEEP_INTERVAL_SECONDS.
MAIL_CLAIM_SECONDS = int(env_str("MAIL_CLAIM_SECONDS", "120"))
# Analyses of finished games (analysis.services) an account may ask for in an hour: each is a
# minute or so of a worker's CPU. Asking again for one already made is free. The budget scale
# multiplies the iterations per position (1.0: analysis.budget's documented budget); the tests
# lower it, and the stored settings then say so.
ANALYSIS_REQUESTS_PER_HOUR = int(env_str("ANALYSIS_REQUESTS_PER_HOUR", "10"))
ANALYSIS_BUDGET_SCALE = float(env_str("ANALYSIS_BUDGET_SCALE", "1.0"))
# A queued or running analysis with no word from a worker for this long is stalled (its worker
# died, or its message was lost) and the next request restarts it (docs/decisions/0142). A
# worker writes its progress every few moves, seconds apart: keep this far above that gap, and
# below the broker's visibility timeout (an hour), so a person need not wait for redelivery.
ANALYSIS_STALLED_AFTER_SECONDS = float(env_str("ANALYSIS_STALLED_AFTER_SECONDS", "300"))
# Enforced by prefork workers (the default pool), not by --pool=solo. A whole analysis at the
# documented budget takes a minute or so; these stop one that hangs well before the visibility
# timeout, so the broker never hands a running analysis to a second worker.
ANALYSIS_TASK_SOFT_TIME_LIMIT = 1200
ANALYSIS_TASK_TIME_LIMIT = 1260

# Where `manage.py train_expert` writes each run's candidate network (<run id>.npz) and, while
# it fits, the games it fits on (the games themselves are rows in the database); a relative path
# is taken from the project's folder.
TRAINING_DIR = BASE_DIR / env_str("TRAINING_DIR", "var/training")

# Games with a time per move that one player may have under way at once.
MAX_DEADLINE_GAMES_PER_USER = int(env_str("MAX_DEADLINE_GAMES_PER_USER", "30"))

# --- REST API: DRF and the OpenAPI schema (splendor_site/api_settings.py) --------------------

from splendor_site.api_settings import *  # noqa: E402, F403  (every name there is a setting)

# --- Accounts and pages -----------------------------------------------------------------------

# Sign-in pages come from django.contrib.auth (templates in templates/registration/); a player
# lands in the lobby after signing in and on the home page after signing out.
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "lobby"
LOGOUT_REDIRECT_URL = "home"
# An invite link to a game stays valid this long (seconds); links are signed, not stored.
GAME_INVITE_MAX_AGE = 14 * 24 * 3600
# How often an open game page asks whether the game moved on, while the tab is visible.
GAME_POLL_INTERVAL_MS = 2000

# --- Failed logins (django-axes) -------------------------------------------------------------

# Every sign-in goes through authenticate(); axes's backend comes first and refuses it while the
# sign-in is locked out (accounts.lockout). What locks is the pair (username, address): after
# LOGIN_FAILURE_LIMIT failures for one username from one address, that address may not sign in
# as that username for LOGIN_LOCKOUT_MINUTES; the owner, elsewhere, still can. An address that
# failed for LOGIN_ADDRESS_USERNAME_LIMIT distinct usernames within that time is locked for all.
# A successful password reset lifts the account's locks. Staff lift a lock-out early by deleting
# its "access attempt" in the admin (or `manage.py axes_reset_username NAME`).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_HANDLER = "accounts.lockout.PairOrSprayingAddressHandler"
AXES_FAILURE_LIMIT = int(env_str("LOGIN_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=float(env_str("LOGIN_LOCKOUT_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
LOGIN_ADDRESS_USERNAME_LIMIT = int(env_str("LOGIN_ADDRESS_USERNAME_LIMIT", "10"))
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "accounts.lockout.locked_out_response"  # 429, says for how long
AXES_USERNAME_CALLABLE = "accounts.lockout.username_for_axes"  # fits axes's column
# The address is the connection's: a client could write any X-Forwarded-For and dodge the
# per-address count. Behind a proxy that sets REMOTE_ADDR to the proxy, every visitor would
# share one address: see docs/decisions/0102-sign-in-lockout.md.
AXES_IPWARE_META_PRECEDENCE_ORDER = ["REMOTE_ADDR"]
# Only failures are recorded; successful sign-ins are not logged.
AXES_DISABLE_ACCESS_LOG = True

# --- Logging ----------------------------------------------------------------------------------

LOG_LEVEL = env_str("LOG_LEVEL", "INFO").upper()
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "plain"},
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        # Replaces Django's default handlers, which would print a second copy via the root.
        "django": {"handlers": ["console"], "level": LOG_LEVEL, "propagate": False},
    },
}
