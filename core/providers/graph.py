"""The Bolt graph driver (Neo4j 5 in production, ArcadeDB's Bolt plugin embedded).

Queries live in each app's `cypher` module; this one only runs them.
"""

import re
from dataclasses import dataclass
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


@dataclass(frozen=True)
class GraphServer:
    kind: str  # "Neo4j" or "ArcadeDB" (or whatever else speaks Bolt)
    version: str
    agent: str  # as the server introduced itself
    bolt: str

    def __str__(self) -> str:
        return f"{self.kind} {self.version} (Bolt {self.bolt}; {self.agent})"


def server() -> GraphServer:
    """The graph server's kind and version, from its Bolt greeting."""
    info = get_driver().get_server_info()
    return describe(info.agent or "", info.protocol_version)


def describe(agent: str, protocol_version: tuple[int, ...]) -> GraphServer:
    """ "Neo4j/5.26.0" is Neo4j 5.26.0; "Neo4j/5.26.0 compatible (ArcadeDB 26.10.2)" is
    ArcadeDB 26.10.2."""
    bolt = ".".join(str(part) for part in protocol_version)
    named = re.search(r"\(([A-Za-z][\w-]*) ([\w.+-]+)\)", agent)
    if named:
        return GraphServer(named[1], named[2], agent, bolt)
    kind, _, version = agent.partition("/")
    return GraphServer(kind or "unknown", version.split(" ")[0] or "unknown", agent, bolt)
