from core import cypher
from core.providers import graph


def ensure_graph_schema() -> int:
    """Apply every constraint and index; safe to repeat at each start."""
    for statement in cypher.SCHEMA:
        graph.run_write(statement)
    return len(cypher.SCHEMA)
