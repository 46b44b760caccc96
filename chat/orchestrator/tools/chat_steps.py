"""The default chat workflow's own steps: route, plan, and the answer to arithmetic.

`route_question`: input {} (the question, history and attachments of the run); output the
  router's decision (routing.RouteDecision) plus `question` (standalone: a follow-up is
  rewritten) and `mode`; announces it as the `route_decision` event.
`plan_step`: input {"route": decision, "plan"?: the previous plan, "results"?: {...},
  "validation"?: a rejecting verdict}; output planning.Plan.
`write_calculation`: input {"calculation": calculator output}; the answer in words.
"""

from typing import Any

from chat.models import Outcome, Route
from chat.orchestrator import planning
from chat.orchestrator.answers.common import answer, send_text
from chat.orchestrator.context import RunContext
from chat.orchestrator.routing import route_question
from chat.orchestrator.tools.registry import ToolError, register


@register("route_question", "Decides the route of the question.", uses_breaker=False)
def run_route(inputs: dict[str, Any], ctx: RunContext) -> dict[str, Any]:
    decision = route_question(
        ctx.question, ctx.history, attachments=ctx.attachments, user=ctx.user,
        analysis=ctx.analysis,
    ).to_dict()  # fmt: skip
    follow_up = decision.get("follow_up") or {}
    decision["question"] = follow_up.get("question") or ctx.question
    if decision["route"] != Route.UPLOAD and planning.arithmetic(decision["question"]):
        # A sum to work out, whatever words it shares with the data or the documents.
        decision.update(route=Route.GENERAL, confidence=1.0)
        decision["reasons"] = ["the question is arithmetic: the calculator works it out"]
    decision["mode"] = planning.mode_for(decision)
    ctx.send(
        "route_decision",
        route=decision["route"],
        confidence=round(float(decision["confidence"]), 3),
        reasons=decision["reasons"][:5],
        mode=decision["mode"],
        question=decision["question"],
        follow_up=bool(follow_up),
    )
    return decision


@register("plan_step", "Plans the next tool call of the chat workflow.", uses_breaker=False)
def run_plan(inputs: dict[str, Any], ctx: RunContext) -> dict[str, Any]:
    decision = inputs.get("route")
    if not isinstance(decision, dict):
        raise ToolError("route: the route decision is required")
    validation = inputs.get("validation") if inputs.get("retry") else None
    return planning.next_step(
        decision, inputs.get("plan") or None, inputs.get("results") or {}, validation
    ).as_dict()


@register("write_calculation", "Writes the result of a calculation.", uses_breaker=False)
def run_write_calculation(inputs: dict[str, Any], ctx: RunContext) -> dict[str, Any]:
    calculation = inputs.get("calculation") or {}
    if calculation.get("ok") is False:
        text = send_text(ctx, [f"I could not calculate that: {calculation.get('error')}"])
        return answer(
            route=Route.GENERAL,
            content=text,
            data={"error": calculation.get("error")},
            outcome=Outcome.DECLINED,
        )
    text = send_text(ctx, [f"{calculation['expression']} = **{calculation['result']}**"])
    return answer(route=Route.GENERAL, content=text, data={"calculation": calculation})
