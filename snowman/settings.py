"""One settings module for every environment, driven by environment variables.

Development defaults: DEBUG on, SQLite file in var/. Event mode (``bin/serve``): DEBUG=0,
the secret key in a file of the var directory, plain HTTP on the hall network unless a
certificate is given. Production behind TLS: DEBUG=0 with SECRET_KEY (or SECRET_KEY_FILE)
and ALLOWED_HOSTS; DATABASE_URL switches to PostgreSQL. docs/configuration.md lists
every variable.
"""

import os
import secrets
from datetime import timedelta
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def private_dir(path: Path) -> Path:
    """``path`` made if missing, 0700 when made here (it holds the database, the key and
    the backups); a folder someone else made keeps the mode they gave it."""
    if not path.is_dir():
        path.mkdir(parents=True, exist_ok=True, mode=0o700)
        os.chmod(path, 0o700)
    return path


def secret_key_file(path: Path) -> str:
    """The key in ``path``, made there on first use, readable by this user only.

    No key is ever written in the repository: one there signs anyone's table session."""
    private_dir(path.parent)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    else:
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_urlsafe(50))
    key = path.read_text().strip()
    if len(key) < 50:
        raise RuntimeError(f"{path} holds no usable secret key; delete it to make a new one")
    return key


DEBUG = env_bool("DEBUG", True)
VAR_DIR = Path(os.environ.get("SNOWMAN_VAR_DIR", BASE_DIR / "var"))
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY and os.environ.get("SECRET_KEY_FILE"):
    SECRET_KEY = secret_key_file(Path(os.environ["SECRET_KEY_FILE"]))
if not SECRET_KEY:
    if not DEBUG:
        raise RuntimeError("SECRET_KEY must be set when DEBUG is off (or SECRET_KEY_FILE)")
    # Development too keeps its key out of the repository.
    SECRET_KEY = secret_key_file(VAR_DIR / "secret_key")
ALLOWED_HOSTS = [h for h in os.environ.get("ALLOWED_HOSTS", "localhost,127.0.0.1").split(",") if h]
CSRF_TRUSTED_ORIGINS = [o for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_tables2",
    "django_htmx",
    "csp",
    "axes",
    "tournaments",
]

MIDDLEWARE = [
    "snowman.middleware.AccessLogMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "snowman.middleware.RefuseNulMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # Players' phones read the event in their browser's language where one is translated.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # django-csp's, with the header built once (snowman/middleware.py).
    "snowman.middleware.CSPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "snowman.middleware.NoStoreMiddleware",
    # Last, as django-axes asks: it inspects the response of the login view.
    "axes.middleware.AxesMiddleware",
]

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    # ModelBackend, reading the roles with the user (snowman/auth.py).
    "snowman.auth.RoleBackend",
]

ROOT_URLCONF = "snowman.urls"
WSGI_APPLICATION = "snowman.wsgi.application"

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
                "csp.context_processors.nonce",
                "tournaments.common.hall.context",
                "tournaments.core.views.access.context",
            ],
        },
    },
]

# SQLite by default: WAL lets readers run beside the writer, IMMEDIATE takes the write
# lock at BEGIN so concurrent writers queue on the busy timeout instead of failing with
# "database is locked" when a deferred transaction tries to upgrade its lock.
SQLITE_OPTIONS = {
    "transaction_mode": "IMMEDIATE",
    "timeout": 30,
    "init_command": (
        "PRAGMA journal_mode=WAL;"
        "PRAGMA synchronous=NORMAL;"
        "PRAGMA foreign_keys=ON;"
        "PRAGMA busy_timeout=30000;"
    ),
}
# The cache holds what every process must agree on (the table-code throttle's counts):
# in the database, so the two workers of `manage.py serve` and every app server behind a
# proxy count the same tries (docs/deploy.md, "What lives in one process"). Its table is
# made by migration 0016, so no set-up step is added.
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "snowman_cache",
        # Past 300 live rows (Django's default) the cache deletes a third of them, the
        # throttle's tries among them: thirty-one addresses guessing codes at once would
        # have wiped their own tries and guessed on. Expired rows go first, so only that
        # many tries in ten minutes ever cull.
        "OPTIONS": {"MAX_ENTRIES": 100_000},
    }
}
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{VAR_DIR / 'snowman.sqlite3'}",
        # Persistent connections: a new PostgreSQL connection forks a backend and a new
        # SQLite one re-runs the PRAGMAs, on every request, which a round-end burst of
        # tablets pays hundreds of times a second.
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
        # Off by default: a health check is a "SELECT 1" round trip before every
        # request's first query. Without it, a connection that a database restart broke
        # fails one request per worker and is then replaced (tablets resend); turn it on
        # where connections break often (a pooler or a failover in between).
        conn_health_checks=os.environ.get("CONN_HEALTH_CHECKS", "0") == "1",
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django turns psycopg's prepared statements off. Its cursors bind parameters on the
    # client and are never prepared; only the statements every poll runs, through
    # tournaments.reads.polled_cursor, are bound by the server and so prepared, on first
    # use (docs/performance.md §9). A pooler in between must pass protocol-level
    # prepared statements (PgBouncer 1.21+ with max_prepared_statements set).
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("prepare_threshold", 0)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Django's SQLite backend, with writers queued on a lock file (snowman/sqlite).
    DATABASES["default"]["ENGINE"] = "tournaments.core.db.sqlite"
    private_dir(VAR_DIR)
    DATABASES["default"].setdefault("OPTIONS", {}).update(SQLITE_OPTIONS)
    DATABASES["default"].setdefault("TEST", {})["NAME"] = os.environ.get(
        "SQLITE_TEST_NAME", str(VAR_DIR / "test.sqlite3")
    )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
# French is `fr`, written for Canada (docs/rules.md, Glossary): browsers in Québec send
# fr-CA, which Django maps to `fr`, as it does fr-FR; one catalogue serves every
# francophone, and Django's own French strings (form errors) live under `fr` too.
# The names are each language's own: the switch shows "English / Français".
LANGUAGES = [("en", "English"), ("fr", "Français")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Canadian French formats (24-hour "14 h 05", "1 décembre 2026") for `fr`.
FORMAT_MODULE_PATH = ["snowman.formats"]
# The reader's choice lives in a cookie on their own phone (snowman/language.py): read by
# LocaleMiddleware with no query; kept a year so it outlives the event day.
LANGUAGE_COOKIE_AGE = 365 * 24 * 60 * 60
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "snowman.storage.StaticStorage"
        )
    },
}

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "director:home"
LOGOUT_REDIRECT_URL = "login"

# A director's day is long, but a forgotten laptop should not stay signed in overnight.
SESSION_COOKIE_AGE = 12 * 60 * 60

DJANGO_TABLES2_TEMPLATE = "django_tables2/bootstrap5.html"

# The hall address that tablet links and QR codes use (``bin/serve`` finds it), e.g.
# http://192.168.1.20:8000; empty: the address the console was opened at.
HALL_URL = os.environ.get("HALL_URL", "").rstrip("/")

# Addresses of reverse proxies whose X-Forwarded-For and X-Forwarded-Proto are believed.
# Without one, nobody's are: a client could name any address and dodge the throttle.
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES")

# Sign-in throttling (snowman/throttle.py): five failures lock one username from one
# address, never a whole venue behind one address; twenty from one address (password
# spraying over many usernames) lock that address. Failures while locked are not
# counted, so the lock ends when its time is up, however often someone retries.
AXES_FAILURE_LIMIT = 5
AXES_ADDRESS_FAILURE_LIMIT = int(os.environ.get("AXES_ADDRESS_FAILURE_LIMIT", "20"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("AXES_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
AXES_HANDLER = "snowman.throttle.Handler"
AXES_CLIENT_IP_CALLABLE = "tournaments.common.hall.client_ip"
AXES_LOCKOUT_CALLABLE = "snowman.throttle.lockout_response"
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_RESET_ON_SUCCESS = True
AXES_ENABLED = env_bool("AXES_ENABLED", True)

# Online registration (tournaments/services/registration.py): requests per address and
# per event, each over a window in seconds, counted in the database so that every app
# server process sees the same count.
REGISTRATION_LIMIT_PER_ADDRESS = (
    int(os.environ.get("REGISTRATION_LIMIT_PER_ADDRESS", "10")),
    3600,
)
REGISTRATION_LIMIT_PER_EVENT = (int(os.environ.get("REGISTRATION_LIMIT_PER_EVENT", "120")), 60)

# Online backups of the SQLite database (tournaments/backup.py) every few
# minutes while bin/serve runs and at every finalize; the last BACKUP_KEEP are kept.
BACKUP_DIR = Path(os.environ.get("BACKUP_DIR", VAR_DIR / "backups"))
BACKUP_KEEP = int(os.environ.get("BACKUP_KEEP", "24"))
BACKUP_MINUTES = float(os.environ.get("BACKUP_MINUTES", "5"))
# Only where the scheduled backups are taken: behind a proxy every app server but one has
# BACKUP_MINUTES=0 (docs/deploy.md), and a finalize's backup written on whichever server
# answered the director would leave a whole site's copies spread over their disks.
BACKUP_ON_FINALIZE = env_bool("BACKUP_ON_FINALIZE", not DEBUG and BACKUP_MINUTES > 0)

CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
        "base-uri": ["'self'"],
        "object-src": ["'none'"],
    }
}

# HTTPS: on behind TLS (the default with DEBUG off); bin/serve turns it off on a hall's
# plain-HTTP network, where Secure cookies would never come back (no sign-in, no tablet).
HTTPS = env_bool("HTTPS", not DEBUG)
if TRUSTED_PROXIES:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
if not DEBUG:
    SECURE_CONTENT_TYPE_NOSNIFF = True
if not DEBUG and HTTPS:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    # Preloading promises HTTPS for the whole domain in every browser, hard to take
    # back: only on request (SECURE_HSTS_PRELOAD=1), hence the deploy check's warning
    # about it is silenced.
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
    if not SECURE_HSTS_PRELOAD:
        SILENCED_SYSTEM_CHECKS = ["security.W021"]

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # A tablet link's token is a password for its table: never written to a log.
    "filters": {"redact_tokens": {"()": "snowman.middleware.RedactTokens"}},
    "formatters": {"access": {"format": "%(message)s"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["redact_tokens"]},
        "access": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stdout",
            "formatter": "access",
            "filters": ["redact_tokens"],
        },
    },
    "loggers": {
        # One line a request (bin/serve turns it on with ACCESS_LOG=1).
        "snowman.access": {
            "handlers": ["access"],
            "level": "INFO" if env_bool("ACCESS_LOG", False) else "WARNING",
            "propagate": False,
        },
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}

# What the first draw waits for, asked by the core's draw (services/rounds.py) without
# importing the contexts that answer: each a function of the event giving the refusal
# or None. The money's: every checked-in player has paid, when the event says so.
SNOWMAN_DRAW_GATES = ["tournaments.money.reads.draw_refusal"]
