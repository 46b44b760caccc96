"""Loads what the first question would otherwise wait for (the tool catalog's imports and
the embedding model, several seconds on a small machine), in the background at start."""

import logging
import threading

logger = logging.getLogger(__name__)


def warm_up() -> None:
    try:
        import chat.orchestrator.tools.catalog  # noqa: F401
        from core.providers.embeddings import embed_texts

        embed_texts(["warm up"])
    except Exception:  # a service not up yet must not stop the server from starting
        logger.warning("warm-up failed; the first question will load what it needs", exc_info=True)


def warm_up_in_background() -> None:
    threading.Thread(target=warm_up, name="warm-up", daemon=True).start()
