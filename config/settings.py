"""Settings, read only from the environment (and an optional `.env` beside manage.py).

`.env.example` documents every variable. A service whose URL is not set is run by the
project itself (`manage.py services start`), with its data under `var/`.
"""

import os
from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
# Variables already set win over the file. SWITCHBOARD_ENV_FILE names another file, or none
# when empty (a container takes its whole environment from its orchestrator).
ENV_FILE = os.environ.get("SWITCHBOARD_ENV_FILE", str(BASE_DIR / ".env"))
if ENV_FILE and Path(ENV_FILE).is_file():
    environ.Env.read_env(ENV_FILE)

# Everything the project writes at run time (embedded services' data, uploads, logs).
VAR_DIR = Path(env.str("SWITCHBOARD_VAR_DIR", default=str(BASE_DIR / "var")))

SECRET_KEY = env.str("SECRET_KEY")
DEBUG = env.bool("DEBUG", default=False)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

# --- Embedded services: used when the corresponding URL is not configured -------------
EMBEDDED_POSTGRES_PORT = env.int("EMBEDDED_POSTGRES_PORT", default=55432)
EMBEDDED_GRAPH_BOLT_PORT = env.int("EMBEDDED_GRAPH_BOLT_PORT", default=7687)
EMBEDDED_GRAPH_HTTP_PORT = env.int("EMBEDDED_GRAPH_HTTP_PORT", default=2480)
EMBEDDED_GRAPH_HEAP = env.str("EMBEDDED_GRAPH_HEAP", default="2g")
EMBEDDED_POSTGRES = "DATABASE_URL" not in env
EMBEDDED_GRAPH = "GRAPH_URL" not in env

DATABASES = {
    "default": env.db_url(
        "DATABASE_URL",
        default=f"postgres://postgres@127.0.0.1:{EMBEDDED_POSTGRES_PORT}/switchboard",
    )
}
# Each process keeps a pool of at most DB_POOL_MAX_SIZE connections, lent to a thread for
# one request, task or tool call and taken back at its end: however many threads a process
# runs, it never holds more. Every process's pool adds up against the server's
# max_connections (docs/deployment.md). DB_POOL_MAX_SIZE=0 turns the pool off; each thread
# then keeps its own connection for CONN_MAX_AGE seconds.
DB_POOL_MAX_SIZE = env.int("DB_POOL_MAX_SIZE", default=8)
if DB_POOL_MAX_SIZE:
    DATABASES["default"]["OPTIONS"] = {
        "pool": {
            "min_size": min(env.int("DB_POOL_MIN_SIZE", default=1), DB_POOL_MAX_SIZE),
            "max_size": DB_POOL_MAX_SIZE,
            # A thread waits this long for a free connection, then its request fails (503);
            # with the database down every request waits this long, so keep it short.
            "timeout": env.float("DB_POOL_TIMEOUT", default=10.0),
            # An idle connection is closed after this long (down to min_size).
            "max_idle": env.float("DB_POOL_MAX_IDLE", default=120.0),
        }
    }
    DATABASES["default"]["CONN_MAX_AGE"] = 0  # the pool keeps them; required by Django
else:
    DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=60)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
# Behind PgBouncer in transaction mode a named cursor cannot outlive its transaction.
DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = env.bool(
    "DB_DISABLE_SERVER_SIDE_CURSORS", default=False
)
# Lets two test runs share one server (pytest-django otherwise uses test_<NAME>).
DATABASES["default"]["TEST"] = {"NAME": env.str("TEST_DATABASE_NAME", default=None)}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env.str("REDIS_URL", default="redis://127.0.0.1:6379/0")

GRAPH_URL = env.str("GRAPH_URL", default=f"bolt://127.0.0.1:{EMBEDDED_GRAPH_BOLT_PORT}")
GRAPH_USER = env.str("GRAPH_USER", default="root")
GRAPH_PASSWORD = env.str("GRAPH_PASSWORD", default="switchboard-graph")
GRAPH_DATABASE = env.str("GRAPH_DATABASE", default="switchboard")

# The SQL agent's target database (mysql:// or postgres://), as its owner.
WAREHOUSE_URL = env.str(
    "WAREHOUSE_URL", default="mysql://root@127.0.0.1:3306/switchboard_warehouse"
)
WAREHOUSE_AGENT_USER = env.str("WAREHOUSE_AGENT_USER", default="switchboard_agent")
WAREHOUSE_AGENT_PASSWORD = env.str("WAREHOUSE_AGENT_PASSWORD", default="switchboard-agent")
WAREHOUSE_AES_KEY = env.str("WAREHOUSE_AES_KEY", default="switchboard-demo-key")

# --- Model providers -------------------------------------------------------------------
OPENAI_API_KEY = env.str("OPENAI_API_KEY", default="")
OPENAI_BASE_URL = env.str("OPENAI_BASE_URL", default="")
OPENAI_MODEL = env.str("OPENAI_MODEL", default="")
LLM_TIMEOUT_SECONDS = env.float("LLM_TIMEOUT_SECONDS", default=60.0)

EMBEDDING_BACKEND = env.str("EMBEDDING_BACKEND", default="local")
EMBEDDING_MODEL = env.str(
    "EMBEDDING_MODEL",
    default="all-MiniLM-L6-v2" if EMBEDDING_BACKEND == "local" else "text-embedding-3-small",
)
EMBEDDING_DIM = env.int("EMBEDDING_DIM", default=384)
EMBEDDING_BATCH_SIZE = env.int("EMBEDDING_BATCH_SIZE", default=64)
# CPU threads of the local model per process (more fight the server's own threads).
EMBEDDING_TORCH_THREADS = env.int("EMBEDDING_TORCH_THREADS", default=1)

# --- Django ----------------------------------------------------------------------------
INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "channels",
    "core",
    "registries",
    "warehouse",
    "sqlagent",
    "ingestion",
    "retrieval",
    "chat",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "core.middleware.reject_null_characters",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

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

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "chat:index"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en-us"
TIME_ZONE = env.str("TIME_ZONE", default="UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(env.str("STATIC_ROOT", default=str(VAR_DIR / "static")))
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_URL = "media/"
MEDIA_ROOT = Path(env.str("MEDIA_ROOT", default=str(VAR_DIR / "media")))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
# In development whitenoise serves straight from the app folders, no collectstatic needed.
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG

# --- Security (production values unless DEBUG; each can be overridden) -----------------
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=not DEBUG)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=not DEBUG)
SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=not DEBUG)
CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=not DEBUG)
X_FRAME_OPTIONS = "DENY"

CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": env.str("CACHE_PREFIX", default="switchboard"),
    }
}

# --- Channels and Celery ---------------------------------------------------------------
CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        "CONFIG": {
            # redis-py's default read timeout (5 s) equals the layer's blocking pop (5 s): an
            # idle consumer's read could time out first and kill the websocket.
            "hosts": [{"address": REDIS_URL, "socket_timeout": 15}],
            "prefix": env.str("CHANNELS_PREFIX", default="asgi"),
        },
    }
}

CELERY_BROKER_URL = REDIS_URL
CELERY_RESULT_BACKEND = REDIS_URL
CELERY_TASK_DEFAULT_QUEUE = env.str("CELERY_QUEUE", default="switchboard")
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = env.int("CELERY_TASK_TIME_LIMIT", default=30 * 60)
CELERY_TASK_SOFT_TIME_LIMIT = env.int("CELERY_TASK_SOFT_TIME_LIMIT", default=25 * 60)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_RESULT_EXPIRES = 24 * 3600

# --- REST API --------------------------------------------------------------------------
REST_FRAMEWORK = {
    # Token first: its WWW-Authenticate header makes a missing login a 401, not a 403.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "core.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # JSON in and out (uploads add multipart themselves): the schema names exactly these.
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    "EXCEPTION_HANDLER": "core.api_errors.api_exception_handler",
    "DEFAULT_SCHEMA_CLASS": "core.api_schema.SwitchboardSchema",
    "DEFAULT_PAGINATION_CLASS": "core.pagination.Pages",
    "PAGE_SIZE": 50,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Switchboard API",
    "DESCRIPTION": "Ask questions of your documents and your business database.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Request and response shapes apart: required, read-only and length rules are exact.
    "COMPONENT_SPLIT_REQUEST": True,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {"neo4j": {"level": "WARNING"}, "httpx": {"level": "WARNING"}},
}

# --- App settings (one section per app) ------------------------------------------------
# ingestion
# A file over this size fails in its job with a message instead of being parsed.
INGESTION_MAX_FILE_MB = env.float("INGESTION_MAX_FILE_MB", default=25.0)
# Chunk budget and overlap, in words and punctuation marks (the local model reads 256
# word pieces, a little more than 180 of these).
INGESTION_CHUNK_TOKENS = env.int("INGESTION_CHUNK_TOKENS", default=180)
INGESTION_CHUNK_OVERLAP = env.int("INGESTION_CHUNK_OVERLAP", default=30)
# SEMANTICALLY_SIMILAR edges: the cosine similarity floor and the neighbours kept per chunk.
INGESTION_SIMILARITY_THRESHOLD = env.float("INGESTION_SIMILARITY_THRESHOLD", default=0.75)
INGESTION_SIMILAR_PER_CHUNK = env.int("INGESTION_SIMILAR_PER_CHUNK", default=5)
# Sections closer than this cosine distance (name and content) share a SectionType.
INGESTION_SECTION_TYPE_DISTANCE = env.float("INGESTION_SECTION_TYPE_DISTANCE", default=0.4)
# Entities and relations: "auto" (the LLM when OPENAI_* is set, else offline), "offline", "llm".
INGESTION_EXTRACTOR = env.str("INGESTION_EXTRACTOR", default="auto")
INGESTION_TASK_MAX_RETRIES = env.int("INGESTION_TASK_MAX_RETRIES", default=4)
# Files a worker claims at once, and chunks it takes through the stages together: larger
# batches run the model and the databases in fewer, fuller calls; the chunk cap bounds
# memory whatever the files' length.
INGESTION_BATCH_FILES = env.int("INGESTION_BATCH_FILES", default=64)
INGESTION_BATCH_CHUNKS = env.int("INGESTION_BATCH_CHUNKS", default=1000)
# Threads the embedding model may use while ingesting (0: every core). Queries keep
# EMBEDDING_TORCH_THREADS; `ingest --workers N` gives each worker its share of the cores.
INGESTION_TORCH_THREADS = env.int("INGESTION_TORCH_THREADS", default=0)
# A file claimed by a worker on another host that has been silent this long is taken over.
INGESTION_STALE_SECONDS = env.int("INGESTION_STALE_SECONDS", default=900)
# Prefix of entity and section-type ids in the graph, for deployments sharing one graph.
INGESTION_GRAPH_NAMESPACE = env.str("INGESTION_GRAPH_NAMESPACE", default="")

# retrieval
# (search: hybrid search, expansion, re-ranking, traces, evaluation)
# Defaults of graphrag_search (the API takes each per request).
RETRIEVAL_TOP_K = env.int("RETRIEVAL_TOP_K", default=10)
# Cosine floor for vector hits and for following SEMANTICALLY_SIMILAR edges; the best
# RETRIEVAL_TOP_K vector hits are kept even under it (a fixed floor depends on the model).
RETRIEVAL_SIMILARITY_THRESHOLD = env.float("RETRIEVAL_SIMILARITY_THRESHOLD", default=0.7)
RETRIEVAL_KEYWORD_BOOST = env.float("RETRIEVAL_KEYWORD_BOOST", default=0.3)
RETRIEVAL_MAX_HOPS = env.int("RETRIEVAL_MAX_HOPS", default=1)
RETRIEVAL_SEMANTIC_EXPANSION_LIMIT = env.int("RETRIEVAL_SEMANTIC_EXPANSION_LIMIT", default=100)
RETRIEVAL_HIERARCHICAL_EXPANSION_LIMIT = env.int(
    "RETRIEVAL_HIERARCHICAL_EXPANSION_LIMIT", default=50
)
# Chunks reached through an entity both chunks mention; entities mentioned in more readable
# chunks than RETRIEVAL_ENTITY_MAX_DEGREE are too common to connect anything.
RETRIEVAL_ENTITY_EXPANSION_LIMIT = env.int("RETRIEVAL_ENTITY_EXPANSION_LIMIT", default=50)
RETRIEVAL_ENTITY_MAX_DEGREE = env.int("RETRIEVAL_ENTITY_MAX_DEGREE", default=25)
# Chunks reached through the title bridge: a chunk naming another document by its title.
RETRIEVAL_TITLE_EXPANSION_LIMIT = env.int("RETRIEVAL_TITLE_EXPANSION_LIMIT", default=50)
# Candidates each first-stage search fetches, and how many of the best seeds are expanded.
RETRIEVAL_FETCH_LIMIT = env.int("RETRIEVAL_FETCH_LIMIT", default=150)
# BM25 keyword stage: term-frequency saturation and length normalisation.
RETRIEVAL_BM25_K1 = env.float("RETRIEVAL_BM25_K1", default=1.2)
RETRIEVAL_BM25_B = env.float("RETRIEVAL_BM25_B", default=0.75)
RETRIEVAL_EXPAND_SEEDS = env.int("RETRIEVAL_EXPAND_SEEDS", default=5)
# "learned" (weights fitted on development questions, retrieval/search/ranker.json),
# "weighted" (the documented hybrid score) or "rrf" (reciprocal rank fusion).
RETRIEVAL_FUSION = env.str("RETRIEVAL_FUSION", default="learned")
# The learned fusion's weights: a file `manage.py train_ranker --out` wrote (empty: the
# weights shipped with the code).
RETRIEVAL_RANKER_MODEL = env.str("RETRIEVAL_RANKER_MODEL", default="")
RETRIEVAL_PATH_WEIGHT = env.float("RETRIEVAL_PATH_WEIGHT", default=0.35)
RETRIEVAL_PROXIMITY_WEIGHT = env.float("RETRIEVAL_PROXIMITY_WEIGHT", default=0.1)
RETRIEVAL_RRF_K = env.int("RETRIEVAL_RRF_K", default=60)
# HNSW candidate list size at query time (pgvector hnsw.ef_search).
RETRIEVAL_HNSW_EF_SEARCH = env.int("RETRIEVAL_HNSW_EF_SEARCH", default=100)
# Fewer readable chunks than this: vector search scans them exactly, as fast as the index.
RETRIEVAL_VECTOR_EXACT_CHUNKS = env.int("RETRIEVAL_VECTOR_EXACT_CHUNKS", default=2000)

# (graph: query understanding, section routing, entity and knowledge-graph questions)
# Section routing: sections whose name (or type) is at least this close to the attribute
# phrase match; their chunks rank by weight x section + (1 - weight) x chunk similarity.
RETRIEVAL_SECTION_THRESHOLD = env.float("RETRIEVAL_SECTION_THRESHOLD", default=0.5)
RETRIEVAL_SECTION_WEIGHT = env.float("RETRIEVAL_SECTION_WEIGHT", default=0.6)
# A section scores as its type's best-matching name times this ("Skills" ~ "Technical
# Expertise"), and at most this many sections feed one routed question.
RETRIEVAL_SECTION_TYPE_WEIGHT = env.float("RETRIEVAL_SECTION_TYPE_WEIGHT", default=0.9)
RETRIEVAL_SECTION_MAX_SECTIONS = env.int("RETRIEVAL_SECTION_MAX_SECTIONS", default=50)
# Row cap appended to a generated knowledge-graph query that has no LIMIT of its own.
RETRIEVAL_GRAPH_QUERY_LIMIT = env.int("RETRIEVAL_GRAPH_QUERY_LIMIT", default=50)

# sqlagent (names follow the original SQL agent's settings)
SQL_CONFIDENCE_THRESHOLD = env.float("SQL_CONFIDENCE_THRESHOLD", default=0.7)
SQL_MAX_JOIN_HOPS = env.int("SQL_MAX_JOIN_HOPS", default=4)
SQL_MAX_TABLES_IN_CONTEXT = env.int("SQL_MAX_TABLES_IN_CONTEXT", default=20)
SQL_MAX_SUGGESTED_PATHS = env.int("SQL_MAX_SUGGESTED_PATHS", default=3)
SQL_MAX_RELATIONSHIPS_DISPLAY = env.int("SQL_MAX_RELATIONSHIPS_DISPLAY", default=50)
SQL_MAX_RELATIONSHIPS_IN_PROMPT = env.int("SQL_MAX_RELATIONSHIPS_IN_PROMPT", default=20)
SQL_MAX_COLUMNS_IN_SCHEMA = env.int("SQL_MAX_COLUMNS_IN_SCHEMA", default=50)
SQL_MAX_COLUMNS_IN_VALIDATION = env.int("SQL_MAX_COLUMNS_IN_VALIDATION", default=100)
SQL_MAX_COLUMNS_IN_CORRECTION = env.int("SQL_MAX_COLUMNS_IN_CORRECTION", default=100)
SQL_MAX_SQL_HISTORY_LENGTH = env.int("SQL_MAX_SQL_HISTORY_LENGTH", default=2000)
SQL_MAX_FALLBACK_TABLES = env.int("SQL_MAX_FALLBACK_TABLES", default=5)
SQL_MAX_TABLES_IN_SELECTION_PROMPT = env.int("SQL_MAX_TABLES_IN_SELECTION_PROMPT", default=250)
SQL_CORRECTION_MAX_ATTEMPTS = env.int("SQL_CORRECTION_MAX_ATTEMPTS", default=3)
SQL_PRE_VALIDATION_ENABLED = env.bool("SQL_PRE_VALIDATION_ENABLED", default=True)
SQL_AGENT_MAX_ITERATIONS = env.int("SQL_AGENT_MAX_ITERATIONS", default=15)
SQL_STATEMENT_TIMEOUT_MS = env.int("SQL_STATEMENT_TIMEOUT_MS", default=15000)
# Warehouse cell values reach an LLM only when this is on; prompts carry the schema.
SQL_SEND_VALUES_TO_LLM = env.bool("SQL_SEND_VALUES_TO_LLM", default=False)
SQL_SAMPLE_ROWS = env.int("SQL_SAMPLE_ROWS", default=0)
DOMAIN_EXTRACTION_ENABLED = env.bool("DOMAIN_EXTRACTION_ENABLED", default=True)
MAX_QUERY_ROWS = env.int("MAX_QUERY_ROWS", default=100)
SQL_MAX_QUESTION_CHARS = env.int("SQL_MAX_QUESTION_CHARS", default=2000)
# Rows a person with no data scope sees: "none" (safe: nobody is unlimited by accident) or
# "all" (an internal deployment where staff see every customer; the demo's .env sets it).
SQL_DEFAULT_SCOPE = env.str("SQL_DEFAULT_SCOPE", default="none")
if SQL_DEFAULT_SCOPE not in ("all", "none"):
    raise ImproperlyConfigured(f"SQL_DEFAULT_SCOPE must be all or none, not {SQL_DEFAULT_SCOPE!r}")
# A schema-linked plan runs at this confidence or above; unset, the cut fitted with the
# confidence model on development data (sqlagent/linking/confidence.json).
SQL_LINKED_MIN_CONFIDENCE = env.float("SQL_LINKED_MIN_CONFIDENCE", default=None)
# Words no table, column or value names are linked by meaning with the embedding model (off:
# on development data it answered more but was no surer, see docs/sqlagent.md).
SQL_LINK_BY_MEANING = env.bool("SQL_LINK_BY_MEANING", default=False)
# A question that rewords a verified query at this probability or above reuses its SQL
# (None: the threshold fitted on development databases, sqlagent/verified/matching.json).
SQL_VERIFIED_MIN_PROBABILITY = env.float("SQL_VERIFIED_MIN_PROBABILITY", default=None)

# registries
# The data source the SQL agent answers from when none is named (its URL: WAREHOUSE_URL).
REGISTRIES_DEFAULT_DATA_SOURCE = env.str("REGISTRIES_DEFAULT_DATA_SOURCE", default="warehouse")
# Third-party sample databases (Chinook, Spider) for load_chinook and load_spider_db.
DATASETS_DIR = Path(env.str("DATASETS_DIR", default=str(BASE_DIR.parent / "shared" / "datasets")))

# chat
# Messages of the conversation kept in context for routing, follow-ups and prompts.
MAX_CONVERSATION_MESSAGES = env.int("MAX_CONVERSATION_MESSAGES", default=20)
# Longest question accepted; longer ones get a clear 400, nothing is stored.
CHAT_MAX_MESSAGE_CHARS = env.int("CHAT_MAX_MESSAGE_CHARS", default=4000)
# Conversations untouched for this many days are deleted by a periodic task (0: never).
CHAT_RETENTION_DAYS = env.int("CHAT_RETENTION_DAYS", default=90)
# Bearer token of the backend-for-frontend calling POST /internal/chat/stream (empty: off).
CHAT_SERVICE_TOKEN = env.str("CHAT_SERVICE_TOKEN", default="")
# Run by the worker's embedded beat (scripts/run starts the worker with --beat).
CELERY_BEAT_SCHEDULE = {
    "chat-delete-stale-sessions": {"task": "chat.delete_stale_sessions", "schedule": 3600.0},
    "chat-delete-old-uploads": {"task": "chat.delete_old_uploads", "schedule": 3600.0},
}

# orchestrator
ORCHESTRATOR_TOOL_TIMEOUT_SECONDS = env.float("ORCHESTRATOR_TOOL_TIMEOUT_SECONDS", default=30.0)
# Worker threads the tools of all runs share in one process.
ORCHESTRATOR_TOOL_THREADS = env.int("ORCHESTRATOR_TOOL_THREADS", default=16)
ORCHESTRATOR_BREAKER_FAILURES = env.int("ORCHESTRATOR_BREAKER_FAILURES", default=3)
ORCHESTRATOR_BREAKER_OPEN_SECONDS = env.int("ORCHESTRATOR_BREAKER_OPEN_SECONDS", default=60)
# Redis key prefix of the shared breaker state (tests use their own).
ORCHESTRATOR_BREAKER_PREFIX = env.str("ORCHESTRATOR_BREAKER_PREFIX", default="switchboard:breaker")
# The workflow a chat question runs.
ORCHESTRATOR_CHAT_WORKFLOW = env.str("ORCHESTRATOR_CHAT_WORKFLOW", default="chat")
# Called in each server process of `manage.py serve` as it starts (core does not know chat).
SERVER_WARMUP = "chat.warmup.warm_up_in_background"
# With an LLM configured, routing decisions less confident than this are left to it.
ORCHESTRATOR_ROUTER_LLM_BELOW = env.float("ORCHESTRATOR_ROUTER_LLM_BELOW", default=0.5)
