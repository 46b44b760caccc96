"""What the other routes tried for the same question found, said in words: a database that
declined is shown as a decline with its reason, documents that had nothing are said to have
had nothing. One route's output is never presented as the answer to another's question."""

from typing import Any

from chat.models import Outcome, Route

DATABASE_DECLINED = "The business database could not answer this: {reason}."
DOCUMENTS_EMPTY = "Nothing in the documents you can read matches this question."
GRAPH_EMPTY = "The knowledge graph records nothing that answers this."


def sql_answer(sql: dict[str, Any]) -> dict[str, Any]:
    """The SqlAnswer dict of the sql_agent tool's output (or the output itself)."""
    inner = sql.get("answer")
    return inner if isinstance(inner, dict) else sql


def database_declined(tried: dict[str, Any]) -> str:
    """The SQL agent's decline, when it was asked and declined; else ""."""
    sql = tried.get("sql")
    if not isinstance(sql, dict):
        return ""
    inner = sql_answer(sql)
    if sql.get("ok") is False:
        return DATABASE_DECLINED.format(reason=str(sql.get("error") or "it failed").rstrip("."))
    if inner.get("status") in ("declined", "error"):
        reason = str(inner.get("reason") or "it could not read the question").rstrip(".")
        return DATABASE_DECLINED.format(reason=reason)
    return ""


def database_found_none(tried: dict[str, Any]) -> dict[str, Any] | None:
    """The SQL agent's result when it ran and found no rows: that is the database's answer
    (nothing matches), better than passages that do not answer."""
    sql = tried.get("sql")
    if not isinstance(sql, dict) or sql.get("ok") is False:
        return None
    return sql if sql_answer(sql).get("status") == "empty" else None


def notes(tried: dict[str, Any], *, answering: str) -> list[str]:
    """Sentences about the routes other than `answering` that were tried and did not answer."""
    found: list[str] = []
    if answering != Route.SQL and (declined := database_declined(tried)):
        found.append(declined)
    documents = tried.get("documents")
    if (
        answering != Route.DOCUMENTS
        and isinstance(documents, dict)
        and not documents.get("results")
    ):
        found.append(DOCUMENTS_EMPTY)
    graph = tried.get("graph")
    if answering != Route.GRAPH and isinstance(graph, dict) and not graph.get("facts"):
        found.append(GRAPH_EMPTY)
    return found


def unanswered(routed: str) -> str:
    """The outcome of a question nothing answered: a database question was declined; any
    other was not found."""
    return Outcome.DECLINED if routed == Route.SQL else Outcome.NOT_FOUND
