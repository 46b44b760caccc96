"""Loads what the first question would otherwise wait for, in the background as a server
process starts (`manage.py serve`): the tool catalog's imports, the embedding model,
routing's index of example questions and the SQL agent's stored values and verified
queries. Several seconds on a small machine, paid by each
server process rather than by its first question. It only reads."""

import logging
import threading

from django.db import connections

logger = logging.getLogger(__name__)


def warm_up() -> None:
    try:
        import chat.orchestrator.tools.runner  # noqa: F401 - registers the shipped tools
        from chat.orchestrator.routing import example_index
        from core.providers.query_embeddings import embed_query
        from sqlagent.services import warm_up_sql_agent

        embed_query("warm up")
        example_index()
        warm_up_sql_agent()
    except Exception:  # a service not up yet must not stop the server from starting
        logger.warning("warm-up failed; the first question will load what it needs", exc_info=True)


def warm_up_in_background() -> None:
    threading.Thread(target=_warm_up_and_close, name="warm-up", daemon=True).start()


def _warm_up_and_close() -> None:
    try:
        warm_up()
    finally:
        connections.close_all()  # the thread's own connections: it asks nothing more
