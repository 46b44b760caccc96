"""With an LLM configured, a decision the signals are unsure of is handed to it."""

import logging
import re
from collections.abc import Sequence

from chat.models import Route
from chat.orchestrator.context import Turn
from chat.orchestrator.routing.decision import ROUTES, RouteDecision
from core.providers import llm

logger = logging.getLogger(__name__)

_ROUTE_HELP = {
    Route.SQL: "counts, totals, lists and records from the company's business database "
    "(work orders, customers, invoices, employees, assets, inspections, work time)",
    Route.DOCUMENTS: "what the user's documents say: policies, the user manual, résumés",
    Route.GRAPH: "how people, companies and projects in the documents are related",
    Route.GENERAL: "greetings, thanks, questions about the assistant itself",
    Route.CLARIFICATION: "too vague or ambiguous to act on",
    Route.UPLOAD: "adding files to the documents",
}


def ask_llm(text: str, history: Sequence[Turn], decision: RouteDecision) -> RouteDecision:
    recent = "\n".join(f"{t.role}: {t.content[:200]}" for t in list(history)[-4:]) or "(none)"
    options = "\n".join(f"- {route}: {_ROUTE_HELP[Route(route)]}" for route in ROUTES)
    prompt = (
        "Classify the user's question into exactly one route. Answer with the route name "
        f"only.\n\nRoutes:\n{options}\n\nConversation so far:\n{recent}\n\n"
        f"Question: {text}"
    )
    try:
        reply = llm.complete([{"role": "user", "content": prompt}]).text
    except Exception as error:  # the model is down or refused: the signals decide
        logger.warning("the router could not ask the LLM: %s", error)
        decision.reasons.append("the language model could not be asked; the signals decided")
        return decision
    named = {r: m.start() for r in ROUTES if (m := re.search(rf"\b{r}\b", reply.lower()))}
    chosen = min(named, key=named.__getitem__) if named else None  # the first one it names
    if chosen is None:
        decision.reasons.append(f"the language model answered no route ({reply[:40]!r})")
        return decision
    reasons = [
        f"the language model chose {chosen} (the signals were unsure: {decision.route} "
        f"at {decision.confidence:.2f})",
        *decision.reasons,
    ]
    # The model gives no probability: 0.6 says decided, not certain.
    return RouteDecision(
        chosen, max(decision.confidence, 0.6), reasons, decision.scores, method="llm"
    )
