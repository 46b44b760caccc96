"""Raw SQL the registries run against a warehouse (never against the app's database)."""

# Row estimates from the catalogue: cheap, and good enough to tell big tables from small.
MYSQL_ROW_ESTIMATES = """
SELECT TABLE_NAME, COALESCE(TABLE_ROWS, 0)
FROM information_schema.TABLES
WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE = 'BASE TABLE'
"""

# Every key of the schema in one read: MariaDB answers Django's per-table constraint query
# (key_column_usage joined to table_constraints) in ~0.2 s a table where the server holds
# many schemas, this in milliseconds for all of them.
MYSQL_INDEXES = """
SELECT TABLE_NAME, INDEX_NAME, NON_UNIQUE, COLUMN_NAME
FROM information_schema.STATISTICS
WHERE TABLE_SCHEMA = DATABASE()
ORDER BY TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX
"""

# reltuples is -1 for a table never vacuumed or analysed; the caller counts those.
POSTGRES_ROW_ESTIMATES = """
SELECT c.relname, c.reltuples::bigint
FROM pg_catalog.pg_class c
JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
WHERE c.relkind IN ('r', 'p') AND pg_catalog.pg_table_is_visible(c.oid)
"""


def count_rows(quoted_table: str) -> str:
    """An exact count, for tables the catalogue has no estimate for (name already quoted)."""
    return f"SELECT COUNT(*) FROM {quoted_table}"  # noqa: S608 - identifier quoted by the backend


# Loading sample databases (load_chinook, load_spider_db); names come quoted by the caller.
MYSQL_DATABASE_TABLES = (
    "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = %(database)s"
)
MYSQL_DATABASE_EXISTS = "SELECT 1 FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = %(database)s"
POSTGRES_DATABASE_EXISTS = "SELECT 1 FROM pg_database WHERE datname = %(database)s"
POSTGRES_TABLES = "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"


def mysql_recreate_database(quoted: str) -> str:
    return f"DROP DATABASE IF EXISTS {quoted}; CREATE DATABASE {quoted} CHARACTER SET utf8mb4"


def drop_database(quoted: str) -> str:
    return f"DROP DATABASE IF EXISTS {quoted}"


def create_database(quoted: str) -> str:
    return f"CREATE DATABASE {quoted}"


def insert_rows(quoted_table: str, quoted_columns: list[str]) -> str:
    """An INSERT with %s placeholders; a % inside a name (`%_Change_2007`) is doubled so the
    driver's parameter formatting leaves it alone."""
    marks = ", ".join(["%s"] * len(quoted_columns))
    names = ", ".join(quoted_columns).replace("%", "%%")
    return f"INSERT INTO {quoted_table.replace('%', '%%')} ({names}) VALUES ({marks})"  # noqa: S608
