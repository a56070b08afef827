"""Barajamos settings, read from the environment; the defaults are production ones for this
machine (plain HTTP on loopback), DEBUG=1 is development.

Environment: DATABASE_URL, REDIS_URL, SECRET_KEY (else SECRET_KEY_FILE, generated once),
DEBUG (off unless 1), ALLOWED_HOSTS (comma separated), CSRF_TRUSTED_ORIGINS (comma separated),
SECURE (1 behind HTTPS: secure cookies, HSTS, redirect); CELERY_BROKER_URL, CELERY_QUEUE,
REVIEW_PROCESSES; the
presence durations below (SEAT_GRACE_SECONDS, ...); EMAIL_BACKEND, EMAIL_HOST, EMAIL_PORT,
EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS, DEFAULT_FROM_EMAIL.
"""

import os
from pathlib import Path

import dj_database_url
from django.utils.csp import CSP

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def env_pair(name: str, default: tuple[float, float]) -> tuple[float, float]:
    """Two numbers "a,b" from the environment, e.g. TURN_CLOCK_NORMAL="30,120"."""
    value = os.environ.get(name)
    if value is None:
        return default
    first, second = (float(item) for item in value.split(","))
    return first, second


def local_secret_key(path: Path) -> str:
    """The key kept in `path` (mode 600, outside git), made on first use. Every process of the
    site reads the same file; the first to get there writes it, atomically (link fails if
    another process won the race), so none ever reads half a key."""
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        pass
    from django.core.management.utils import get_random_secret_key

    path.parent.mkdir(parents=True, exist_ok=True)
    draft = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    descriptor = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w") as draft_file:
        draft_file.write(get_random_secret_key() + "\n")
    try:
        os.link(draft, path)
    except FileExistsError:
        pass
    finally:
        draft.unlink()
    return path.read_text().strip()


# Off unless asked for (DEBUG=1): a debug page shows settings, URLs and source to anyone.
DEBUG = env_bool("DEBUG", False)
SECRET_KEY = os.environ.get("SECRET_KEY") or local_secret_key(
    Path(os.environ.get("SECRET_KEY_FILE", BASE_DIR / ".secret_key"))
)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")
# The origins (scheme://host[:port]) the site's pages are served from: a WebSocket opened by a
# page of any other origin, even another port or scheme of the same host, is refused
# (core.origins; CSRF_TRUSTED_ORIGINS count too). testserver: Django's test client.
SITE_ORIGINS = env_list(
    "SITE_ORIGINS", "http://127.0.0.1:8000,http://localhost:8000,http://testserver"
)
# Open sockets per user and kind (salle, table), counted across web processes: past it the
# oldest closes, saying the page was opened elsewhere (games.live.socket_counts).
SOCKETS_PER_USER = int(os.environ.get("SOCKETS_PER_USER", "8"))

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "accounts",
    "games.apps.GamesConfig",
    "pairs.apps.PairsConfig",
    "moderation",
    "records.apps.RecordsConfig",
    "tournaments.apps.TournamentsConfig",
    "reviews.apps.ReviewsConfig",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Below WhiteNoise: static files keep their own (long) caching and need no policy.
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "core.headers.PrivatePageHeaders",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # The account's language over the browser's (docs/languages.md).
    "accounts.middleware.account_language",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Every view needs a login unless marked @login_not_required (landing, rules, accounts).
    "accounts.middleware.LoginRequired",
    # Answers a throttled log-in 429 and gives a successful one its device cookie.
    "accounts.middleware.login_throttle",
]

ROOT_URLCONF = "musweb.urls"
ASGI_APPLICATION = "musweb.asgi.application"

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
    }
]

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/barajamos"),
        # Under ASGI each request may run in another thread: persistent connections would
        # leak one connection per thread, so each request and each socket render borrows a
        # connection from psycopg's pool instead (opening one cost ~25 ms and a backend fork).
        conn_max_age=0,
    )
}
DB_POOL_MAX = int(os.environ.get("DB_POOL_MAX", "20"))
if DB_POOL_MAX > 0:
    DATABASES["default"]["OPTIONS"] = {
        "pool": {"min_size": 2, "max_size": DB_POOL_MAX, "timeout": 10, "max_idle": 300}
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
# The channel layer's Redis servers (comma separated, the same list in the same order in every
# web process and worker): groups and sockets are sharded over them (core.channel_layer).
CHANNELS_REDIS_URLS = [
    url.strip()
    for url in os.environ.get("CHANNELS_REDIS_URLS", REDIS_URL).split(",")
    if url.strip()
]
# core.ratelimit's counters (shared by every web process); tests use their own prefix.
RATELIMIT_PREFIX = os.environ.get("RATELIMIT_PREFIX", "ratelimit")
# Decisions at the table per player and per table socket in one second (games.decisions): a
# person makes one or two; past it, a short refusal without a render.
DECISIONS_PER_SECOND = int(os.environ.get("DECISIONS_PER_SECOND", "5"))
# Refusals one table socket gets before it is closed (games.live.consumers.TableConsumer).
DECISION_REFUSALS_BEFORE_CLOSE = 20

CHANNEL_LAYERS = {
    "default": {
        # Redis pub/sub (core.channel_layer: why, and what it gives up).
        "BACKEND": "core.channel_layer.ChannelLayer",
        "CONFIG": {
            "hosts": [{"address": url} for url in CHANNELS_REDIS_URLS],
            "prefix": os.environ.get("CHANNELS_PREFIX", "asgi"),
        },
    }
}

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = ["django.contrib.auth.backends.ModelBackend"]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "games:salle"
LOGOUT_REDIRECT_URL = "home"

# Mail (the password reset links), one mailer (Django's MAILERS): EMAIL_BACKEND from the
# environment, else the console (the mail printed in the web process's log) under DEBUG and
# SMTP (EMAIL_HOST, EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS) otherwise.
SMTP_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
EMAIL_BACKEND_PATH = os.environ.get(
    "EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend" if DEBUG else SMTP_BACKEND
)
MAILERS = {
    "default": {
        "BACKEND": EMAIL_BACKEND_PATH,
        "OPTIONS": {
            "host": os.environ.get("EMAIL_HOST", "localhost"),
            "port": int(os.environ.get("EMAIL_PORT", "25")),
            "username": os.environ.get("EMAIL_HOST_USER", ""),
            "password": os.environ.get("EMAIL_HOST_PASSWORD", ""),
            "use_tls": env_bool("EMAIL_USE_TLS", False),
            "timeout": 10,
        }
        if EMAIL_BACKEND_PATH == SMTP_BACKEND
        else {},
    }
}
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Barajamos <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# Log-in and sign-up throttling (accounts.throttle) count per client IP: the reverse proxies
# in front of the site (IPs or networks, comma separated) whose X-Forwarded-For is believed
# (core.client_ip). The web process listens on loopback only (Procfile), so its proxy is on
# this machine; without this every visitor would share the proxy's address. A peer that is not
# a trusted proxy is the client, whatever header it sends.
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES", "127.0.0.1,::1")

LANGUAGE_CODE = "fr"
# French is the source and the default (a visitor whose browser asks for none of these); each
# language's own name in the picker (docs/languages.md).
LANGUAGES = [("fr", "Français"), ("es", "Español"), ("eu", "Euskara"), ("en", "English")]
TIME_ZONE = "Europe/Paris"
USE_I18N = True
USE_TZ = True
LOCALE_PATHS = [BASE_DIR / "locale"]

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False  # htmx reads the token from the page, not the cookie
X_FRAME_OPTIONS = "DENY"
# Behind HTTPS in production, say SECURE=1. Off by default: `make run` serves plain HTTP on
# 127.0.0.1, where secure cookies would never come back and log-in would fail.
SECURE = env_bool("SECURE", False)
if SECURE:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    # The proxy's health check of each web process is plain HTTP on loopback (deploy.serve).
    SECURE_REDIRECT_EXEMPT = [r"^sante/$"]
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = 60 * 60 * 24 * 365
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
elif set(ALLOWED_HOSTS) <= {"127.0.0.1", "localhost", "[::1]", "testserver"}:
    # Plain HTTP on loopback only (make run): what HTTPS alone gives cannot hold there. Serving
    # any other host without SECURE=1 keeps these warnings in `check --deploy`.
    SILENCED_SYSTEM_CHECKS = [
        "security.W004",  # SECURE_HSTS_SECONDS
        "security.W008",  # SECURE_SSL_REDIRECT
        "security.W012",  # SESSION_COOKIE_SECURE
        "security.W016",  # CSRF_COOKIE_SECURE
    ]

# Every script and style comes from our own files (no inline code, no style attribute), so an
# injected <script> or style="..." does nothing. 'self' covers the same origin's ws:/wss: too.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF],
    "connect-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}
# Powerful browser features the site never uses, refused to every page and frame.
PERMISSIONS_POLICY = ", ".join(
    f"{feature}=()"
    for feature in (
        "accelerometer",
        "autoplay",
        "camera",
        "display-capture",
        "geolocation",
        "gyroscope",
        "magnetometer",
        "microphone",
        "midi",
        "payment",
        "usb",
        "xr-spatial-tracking",
    )
)

# Celery: Redis as broker; tasks that must survive a dead worker ack late.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", REDIS_URL)
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TIMEZONE = TIME_ZONE
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# One queue for the game's tasks; tests give each run its own (CELERY_QUEUE) on the shared
# Redis. The robot's reviews (seconds of CPU each) have their own queue and worker (Procfile's
# `reviewer`, niced), so robots, clocks and tournaments never wait behind a review.
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("CELERY_QUEUE", "celery")
REVIEW_QUEUE = f"{CELERY_TASK_DEFAULT_QUEUE}-reviews"
CELERY_TASK_ROUTES = {"reviews.tasks.review_partie": {"queue": REVIEW_QUEUE}}
# Processes the reviewer splits one review into (reviews.services.analysed): this machine's
# two cores; 1 analyses in the worker's own process.
REVIEW_PROCESSES = int(os.environ.get("REVIEW_PROCESSES", "2"))

# Presence and abandonment (games.services.presence, games.services.deadlines, games.tasks),
# all overridable from the environment (tests use short ones). A seat whose last table socket
# closes is kept SEAT_GRACE_SECONDS; a socket silent (no heartbeat) past HEARTBEAT_LIMIT_SECONDS
# counts as closed; the page sends a heartbeat every HEARTBEAT_SECONDS. A web process writes its
# sockets' heartbeats, and says it is alive, every HEARTBEAT_FLUSH_SECONDS; silent past
# WEB_PROCESS_LIMIT_SECONDS it is dead and its sockets are dropped. The beat sweep runs every
# SWEEP_SECONDS.
SEAT_GRACE_SECONDS = float(os.environ.get("SEAT_GRACE_SECONDS", "60"))
HEARTBEAT_SECONDS = float(os.environ.get("HEARTBEAT_SECONDS", "20"))
HEARTBEAT_LIMIT_SECONDS = float(os.environ.get("HEARTBEAT_LIMIT_SECONDS", "75"))
SWEEP_SECONDS = float(os.environ.get("SWEEP_SECONDS", "5"))
HEARTBEAT_FLUSH_SECONDS = float(os.environ.get("HEARTBEAT_FLUSH_SECONDS", "1"))
# Each web process reads, in one query every PUSH_HEALING_SECONDS, the version of the games its
# table sockets show, and re-renders those behind by a version older than
# PUSH_HEALING_GRACE_SECONDS (younger, its push may still be on its way: games.live.push_healing).
PUSH_HEALING_SECONDS = float(os.environ.get("PUSH_HEALING_SECONDS", "1"))
PUSH_HEALING_GRACE_SECONDS = float(os.environ.get("PUSH_HEALING_GRACE_SECONDS", "0.3"))
WEB_PROCESS_LIMIT_SECONDS = float(os.environ.get("WEB_PROCESS_LIMIT_SECONDS", "15"))
GAME_IDLE_MINUTES = float(os.environ.get("GAME_IDLE_MINUTES", "30"))
OPEN_TABLE_IDLE_MINUTES = float(os.environ.get("OPEN_TABLE_IDLE_MINUTES", "10"))
# The turn clock (games.services.clock, games.services.time_outs): per speed chosen when a table
# is opened, the seconds of one decision and of the seat's reserve for the whole partie
# (TURN_CLOCK_RAPIDE="15,60" overrides one). DEAL_SECONDS bounds the host's deal from the score
# screen (no reserve). A seat whose clock runs out CLOCK_MISSES_LIMIT decisions in a row is gone.
TURN_CLOCKS: dict[str, tuple[float, float]] = {
    speed: env_pair(f"TURN_CLOCK_{speed.upper()}", default)
    for speed, default in (("rapide", (15, 60)), ("normal", (30, 120)), ("lent", (90, 300)))
}
TURN_CLOCK_DEFAULT = os.environ.get("TURN_CLOCK_DEFAULT", "normal")
DEAL_SECONDS = float(os.environ.get("DEAL_SECONDS", "60"))
CLOCK_MISSES_LIMIT = int(os.environ.get("CLOCK_MISSES_LIMIT", "3"))
# Computer players (games.services.robots): a robot that must act does so this many seconds after
# the game reached that state, a human-like pause (tests use 0).
ROBOT_PAUSE_SECONDS = float(os.environ.get("ROBOT_PAUSE_SECONDS", "1.5"))
# Playing with friends (games.services.revanche, games.services.quickplay): a revanche offer
# lapses after REVANCHE_SECONDS; the host of an open table that has waited ROBOT_OFFER_SECONDS
# is offered to fill its empty seats with robots; « Jouer maintenant » estimates the usual wait
# from the last WAIT_SAMPLE_TABLES started public tables of the modality.
REVANCHE_SECONDS = float(os.environ.get("REVANCHE_SECONDS", "120"))
ROBOT_OFFER_SECONDS = float(os.environ.get("ROBOT_OFFER_SECONDS", "120"))
WAIT_SAMPLE_TABLES = int(os.environ.get("WAIT_SAMPLE_TABLES", "20"))
# Tournaments (docs/tournaments.md): the check-in opens this many minutes before the start; a
# pair one of whose members has not come to the table this long into its round loses it; a Swiss
# round opens this long after the previous one ended (the standings are read meanwhile).
TOURNAMENT_CHECK_IN_MINUTES = float(os.environ.get("TOURNAMENT_CHECK_IN_MINUTES", "10"))
TOURNAMENT_NO_SHOW_MINUTES = float(os.environ.get("TOURNAMENT_NO_SHOW_MINUTES", "10"))
TOURNAMENT_ROUND_PAUSE_SECONDS = float(os.environ.get("TOURNAMENT_ROUND_PAUSE_SECONDS", "60"))
CELERY_BEAT_SCHEDULE: dict = {
    "sweep-abandoned": {
        "task": "games.tasks.sweep_abandoned",
        "schedule": SWEEP_SECONDS,
        # A sweep queued while no worker ran is worthless later: the next one does the job.
        "options": {"expires": SWEEP_SECONDS},
    },
    # Tournaments due to start, rounds due to open, no-shows (tournaments.services.sweep).
    "sweep-tournaments": {
        "task": "tournaments.tasks.sweep",
        "schedule": SWEEP_SECONDS,
        "options": {"expires": SWEEP_SECONDS},
    },
    # Expired sessions and their index rows (accounts.services.sessions_prune).
    "prune-sessions": {
        "task": "accounts.tasks.prune_sessions",
        "schedule": 60 * 60,
        "options": {"expires": 60 * 60},
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "suspicious_without_traceback": {
            "()": "core.log_filters.SuspiciousRequestWithoutTraceback"
        },
        "invitation_tokens_hidden": {"()": "core.log_filters.InvitationTokensHidden"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "filters": ["suspicious_without_traceback", "invitation_tokens_hidden"],
        }
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        # Django's own console handler (DEFAULT_LOGGING, under DEBUG) replaced by ours: every
        # line goes through the filters above, once.
        "django": {
            "handlers": ["console"],
            "level": os.environ.get("LOG_LEVEL", "INFO"),
            "propagate": False,
        },
        "django.channels.server": {"level": "WARNING"},
    },
}
