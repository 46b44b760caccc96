"""What to do next for a routed question: the planner of the default chat workflow.

The plan is a queue of tool steps. One-way mode runs the queue and then validates; ReAct
mode (a question the router was unsure of) looks at each result as it comes and, when it
does not answer, re-plans with the next most likely route, up to MAX_STEPS steps. A result
the validator rejects is re-planned the same way with its feedback, at most MAX_RETRIES
times. With an LLM configured, the model proposes the first steps from the tool list; a
reply that is not a valid plan falls back to the deterministic one.
"""

import json
import logging
import re
from dataclasses import asdict, dataclass, field
from typing import Any

from chat.models import Route
from chat.orchestrator.tools.calculator import CalculatorError, evaluate, expression_in
from chat.orchestrator.validation import check_deterministic
from core.providers import llm

logger = logging.getLogger(__name__)

MAX_STEPS = 5
MAX_RETRIES = 2
# Below this router confidence the question is run ReAct-style: results decide what follows.
REACT_BELOW = 0.6
# Where each tool's output lands in the workflow state (`results.<key>`), and which route
# its answer belongs to.
RESULT_KEYS = {
    "sql_agent": "sql",
    "document_search": "documents",
    "knowledge_graph": "graph",
    "entity_query": "entities",
    "calculator": "calculation",
    "upload_document": "upload",
}
ROUTE_OF_TOOL = {
    "sql_agent": Route.SQL,
    "document_search": Route.DOCUMENTS,
    "knowledge_graph": Route.GRAPH,
    "entity_query": Route.GRAPH,
    "calculator": Route.GENERAL,
    "upload_document": Route.UPLOAD,
}
# Routes whose tools may stand in for one another when a result does not answer.
ANSWERING_ROUTES = (Route.SQL, Route.DOCUMENTS, Route.GRAPH)
PLANNER_TOOLS = {
    "sql_agent": "answers from the business database (inputs: question)",
    "document_search": "searches the person's documents (inputs: query, person?)",
    "knowledge_graph": "answers from the entity graph (inputs: question)",
    "entity_query": "who or what is related to a named entity (inputs: entity?, question)",
    "calculator": "exact arithmetic (inputs: expression)",
}


@dataclass
class Step:
    tool: str
    inputs: dict[str, Any]
    why: str

    @property
    def route(self) -> str:
        return ROUTE_OF_TOOL[self.tool]


@dataclass
class Plan:
    mode: str  # one_way | react
    route: str  # the route whose answer is written
    next: str = "respond"  # a tool name, or "respond"
    inputs: dict[str, Any] = field(default_factory=dict)
    why: str = ""
    primary: str = ""  # the results key the validator reads
    queue: list[dict[str, Any]] = field(default_factory=list)
    taken: list[str] = field(default_factory=list)
    attempt: int = 0
    method: str = "deterministic"

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def mode_for(decision: dict[str, Any]) -> str:
    uncertain = decision.get("confidence", 1.0) < REACT_BELOW
    return "react" if uncertain and decision.get("route") in ANSWERING_ROUTES else "one_way"


def next_step(
    decision: dict[str, Any],
    previous: dict[str, Any] | None,
    results: dict[str, Any],
    validation: dict[str, Any] | None = None,
) -> Plan:
    """The plan after `previous` (None: the first plan). `validation` is given when the
    validator rejected the results and asks for a re-plan."""
    if not previous:
        return _first(decision)
    plan = Plan(**previous)
    if validation is not None:
        plan.attempt += 1
        return _instead(plan, decision, results, reason=str(validation.get("feedback") or ""))
    if plan.mode == "react" and plan.taken and not _answers(plan, results):
        return _instead(plan, decision, results, reason="the last result does not answer")
    return _pop(plan)


def _first(decision: dict[str, Any]) -> Plan:
    route = str(decision.get("route") or Route.GENERAL)
    plan = Plan(mode=mode_for(decision), route=route)
    steps = _llm_steps(decision) if route in ANSWERING_ROUTES and llm.llm_configured() else None
    if steps:
        plan.method = "llm"
        plan.route = steps[0].route
    else:
        steps = _steps_for(route, decision)
    plan.queue = [asdict(step) for step in steps]
    return _pop(plan)


def _steps_for(route: str, decision: dict[str, Any]) -> list[Step]:
    question = str(decision.get("question") or "")
    follow_up = decision.get("follow_up") or {}
    if route == Route.SQL:
        return [Step("sql_agent", {"question": question}, "a question of the business data")]
    if route == Route.DOCUMENTS:
        person = follow_up.get("person") or ""
        why = f"documents about {person}" if person else "a question of the documents"
        return [Step("document_search", {"query": question, "person": person}, why)]
    if route == Route.GRAPH:
        return [
            Step("knowledge_graph", {"question": question}, "facts from the entity graph"),
            Step("entity_query", {"question": question}, "the entities related to it"),
        ]
    if route == Route.UPLOAD:
        return [Step("upload_document", {}, "files to ingest")]
    if route == Route.GENERAL and (expression := arithmetic(question)):
        return [Step("calculator", {"expression": expression}, "arithmetic")]
    return []


def arithmetic(question: str) -> str:
    """The expression when the whole question is one the calculator can work out."""
    expression = expression_in(question)
    if not re.search(r"\d", expression):
        return ""
    try:
        evaluate(expression)
    except CalculatorError:
        return ""
    return expression


def _pop(plan: Plan) -> Plan:
    if not plan.queue or len(plan.taken) >= MAX_STEPS:
        plan.next, plan.inputs, plan.why, plan.queue = "respond", {}, "the plan is done", []
        return plan
    step = Step(**plan.queue.pop(0))
    plan.next, plan.inputs, plan.why = step.tool, step.inputs, step.why
    plan.taken.append(step.tool)
    plan.route = step.route
    if not (step.tool == "entity_query" and plan.primary):  # it completes knowledge_graph
        plan.primary = RESULT_KEYS[step.tool]
    return plan


def _answers(plan: Plan, results: dict[str, Any]) -> bool:
    result = results.get(plan.primary) if plan.primary else None
    return plan.route not in ANSWERING_ROUTES or check_deterministic(plan.route, result).ok


def _instead(plan: Plan, decision: dict[str, Any], results: dict[str, Any], *, reason: str) -> Plan:
    """Try the next most likely route not tried yet; none left: respond with what there is
    (the answer writer says what was not found)."""
    if plan.queue and plan.mode != "react":  # steps still planned come first
        return _pop(plan)
    tried = {ROUTE_OF_TOOL[tool] for tool in plan.taken}
    scores = decision.get("scores") or {}
    others = sorted(
        (route for route in ANSWERING_ROUTES if route not in tried and scores.get(route, 0) > 0),
        key=lambda route: -scores.get(route, 0),
    )
    if not others or len(plan.taken) >= MAX_STEPS:
        plan.next, plan.inputs, plan.queue = "respond", {}, []
        plan.why = f"{reason}; no other route to try" if reason else "no other route to try"
        return plan
    steps = _steps_for(others[0], decision)
    steps[0].why = f"{reason}: trying {others[0]} instead" if reason else steps[0].why
    plan.queue = [asdict(step) for step in steps]
    plan.primary = ""
    return _pop(plan)


_PLAN_PROMPT = """You plan the tool calls that answer a question. Tools:
{tools}
The router's reading: route {route} (confidence {confidence:.2f}).
Question: {question}
Reply with JSON only: {{"steps": [{{"tool": "<name>", "inputs": {{...}}, "why": "..."}}]}},
at most {max_steps} steps, the tool that answers the question first."""


def _llm_steps(decision: dict[str, Any]) -> list[Step] | None:
    prompt = _PLAN_PROMPT.format(
        tools="\n".join(f"- {name}: {what}" for name, what in PLANNER_TOOLS.items()),
        route=decision.get("route"),
        confidence=float(decision.get("confidence") or 0),
        question=decision.get("question"),
        max_steps=MAX_STEPS,
    )
    try:
        reply = llm.complete([{"role": "user", "content": prompt}]).text
        return parse_steps(reply)
    except Exception as error:  # the deterministic plan answers without the model
        logger.warning("no plan from the language model: %s", error)
        return None


def parse_steps(reply: str) -> list[Step]:
    match = re.search(r"\{.*\}", reply, re.DOTALL)
    if match is None:
        raise ValueError("no JSON object in the reply")
    raw = json.loads(match.group(0)).get("steps")
    if not isinstance(raw, list) or not raw:
        raise ValueError("no steps")
    steps = []
    for item in raw[:MAX_STEPS]:
        tool = item.get("tool") if isinstance(item, dict) else None
        inputs = item.get("inputs") or {}
        if tool not in PLANNER_TOOLS or not isinstance(inputs, dict):
            raise ValueError(f"not a step: {item!r}")
        steps.append(Step(tool, inputs, str(item.get("why") or "the model's plan")))
    return steps
