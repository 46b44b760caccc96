"""Which route a question takes: the business database (sql), the user's documents, the
knowledge graph, a general answer, a request for clarification, or an upload.

Deterministic and explainable. The router asks the domains what they can make of the
question and weighs their evidence; each weight says why it was added:

- files attached, or words asking to upload (upload); greetings, thanks and questions about
  the assistant (general); questions with nothing to act on (clarification) (`wording`);
- the SQL agent's reading of the question over its vocabulary (domain terms, tables,
  columns, enumeration values and labels, codes), the shape of the question (count, total,
  top-N, per-group) and date ranges (sql, `signals.sql`);
- how strongly the question's keywords match the chunks the user may read, in particular
  the words the warehouse does not know ("wind speed", "per diem") (documents);
- people and other entities the graph knows, and words that ask how they are related
  (graph);
- the nearest admin-editable example questions of each route (`examples`).

A follow-up ("and last month?") takes its antecedent's route (memory.resolve_follow_up).
With an LLM configured, a low-confidence decision may be handed to it (`llm_choice`);
without one the deterministic router decides alone. The question is read once: the
`QuestionAnalysis` the router fills is handed to whichever route runs.
"""

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from django.conf import settings

from chat.models import Route
from chat.orchestrator.analysis import QuestionAnalysis
from chat.orchestrator.context import Turn
from chat.orchestrator.memory import resolve_follow_up
from chat.orchestrator.routing import signals, wording
from chat.orchestrator.routing.decision import (
    ROUTES,
    Evidence,
    RouteDecision,
    decide,
    decided,
    ms_since,
)
from chat.orchestrator.routing.examples import (
    EXAMPLES_FILE,
    ExampleIndex,
    add_examples,
    example_index,
    forget_examples,
    shipped_examples,
)
from chat.orchestrator.routing.llm_choice import ask_llm
from core.providers import llm
from core.providers.query_embeddings import embed_query_soon, forget_queries
from retrieval.services import readable_collection_ids
from sqlagent.services import forget_warehouse_words, warehouse_words

__all__ = [
    "EXAMPLES_FILE",
    "ROUTES",
    "ExampleIndex",
    "RouteDecision",
    "clear_caches",
    "example_index",
    "route_question",
    "shipped_examples",
]


def route_question(
    question: str,
    history: Sequence[Turn] = (),
    *,
    attachments: Sequence[str] = (),
    user: Any = None,
    analysis: QuestionAnalysis | None = None,
) -> RouteDecision:
    """Decide the route of `question`. `user` decides which documents and entities count
    (none without one). `analysis`, when given, keeps what the domains read of the
    question for the route that runs."""
    started = time.perf_counter()
    timings: dict[str, float] = {}
    text = " ".join(question.split())
    if attachments:
        files = ", ".join(Path(a).name for a in attachments[:3])
        return decided(Route.UPLOAD, [f"{len(attachments)} file(s) attached: {files}"], started)
    if not text:
        return decided(Route.CLARIFICATION, ["the question is empty"], started)
    words = warehouse_words()
    timings["warehouse"] = ms_since(started)
    follow_up = resolve_follow_up(text, history, user=user, vocabulary=words.vocabulary)
    timings["memory"] = ms_since(started) - timings["warehouse"]
    if follow_up is not None:
        return decided(follow_up.route, follow_up.reasons, started, follow_up=follow_up)
    evidence = Evidence()
    text = wording.without_greeting(text, evidence)
    embedding = embed_query_soon(text)  # the model runs while the database is read
    clock = time.perf_counter()
    vague = wording.lexical(text, evidence, has_history=bool(history))
    reading = analysis or QuestionAnalysis()
    sql = signals.sql(text, words, evidence)
    reading.sql = sql.reading
    timings["sql_terms"] = ms_since(clock)
    collection_ids = readable_collection_ids(user)
    clock = time.perf_counter()
    named = signals.graph(
        text, collection_ids, lambda: reading.person_names(text, collection_ids), evidence
    )
    timings["entities"] = ms_since(clock)
    clock = time.perf_counter()
    signals.documents(
        text,
        lambda: reading.keywords(text, collection_ids),
        words,
        sql.explained | named,
        evidence,
    )
    timings["documents"] = ms_since(clock)
    clock = time.perf_counter()
    add_examples(embedding, evidence)
    timings["examples"] = ms_since(clock)
    if vague:
        # Nothing to act on: whatever else matched, matched by accident ("status" is a
        # column, "more" a word in a policy).
        for route in (Route.SQL, Route.DOCUMENTS, Route.GRAPH):
            evidence.scores[route] *= 0.3
    decision = decide(evidence)
    if decision.confidence < settings.ORCHESTRATOR_ROUTER_LLM_BELOW and llm.llm_configured():
        clock = time.perf_counter()
        decision = ask_llm(text, history, decision)
        timings["llm"] = ms_since(clock)
    decision.timings = {**timings, "total": ms_since(started)}
    return decision


def clear_caches() -> None:
    """Forget the warehouse words and the example index (they are rebuilt on the next
    question)."""
    forget_warehouse_words()
    forget_examples()
    forget_queries()
