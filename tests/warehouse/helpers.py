"""Small helpers shared by the warehouse tests."""

from core.databases.urls import EngineName
from warehouse.engines import Connection


def fetch(conn: Connection, sql: str, params: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    with conn.cursor() as cur:
        cur.execute(sql, params or None)
        return [tuple(row) for row in cur.fetchall()]


def quoted(engine: EngineName, sql: str) -> str:
    """Write test SQL once with backticks; PostgreSQL wants double quotes."""
    return sql.replace("`", '"') if engine == "postgres" else sql
