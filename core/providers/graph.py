"""The Bolt graph driver (Neo4j 5 in production, ArcadeDB's Bolt plugin embedded).

Queries live in each app's `cypher` module; this one only runs them.
"""

from functools import lru_cache
from typing import Any, LiteralString

from django.conf import settings
from neo4j import Driver, GraphDatabase


@lru_cache(maxsize=1)
def get_driver() -> Driver:
    return GraphDatabase.driver(
        settings.GRAPH_URL,
        auth=(settings.GRAPH_USER, settings.GRAPH_PASSWORD),
        connection_timeout=5.0,
        max_transaction_retry_time=10.0,
    )


def run_read(query: LiteralString, **params: Any) -> list[dict[str, Any]]:
    with get_driver().session(database=settings.GRAPH_DATABASE) as session:
        return session.execute_read(lambda tx: [r.data() for r in tx.run(query, params)])


def run_write(query: LiteralString, **params: Any) -> list[dict[str, Any]]:
    with get_driver().session(database=settings.GRAPH_DATABASE) as session:
        return session.execute_write(lambda tx: [r.data() for r in tx.run(query, params)])


def close() -> None:
    if get_driver.cache_info().currsize:
        get_driver().close()
        get_driver.cache_clear()
