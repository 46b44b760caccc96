"""The SQL agent: a question in, checked and safe SQL run, an answer out.

Steps 1-4 plan (terms, resolution, tables and joins); step 5 writes the SQL (an LLM when
one is configured, else the plan's compiler); 6-7 rewrite to secure views and validate;
8 runs it in the asking person's scope; 9 corrects a failure a few times; 10 finalizes.
A step that cannot proceed with confidence declines with its reason: no guess is run.
"""

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import ImproperlyConfigured
from django.utils import timezone
from sqlglot import exp

from core.databases.scope import Scope
from core.providers.llm import llm_configured
from core.providers.query_embeddings import embed_query
from registries.models import DataSource
from registries.services import SemanticLayer, load_semantic_layer
from sqlagent import correction, finalize, loosening, sql_generation
from sqlagent.answer import Attempt, EventSink, SqlAnswer, Status, StepClock, Turn
from sqlagent.data_scope import scope_for
from sqlagent.dates import DateRange
from sqlagent.declines import decline_notes
from sqlagent.execution import ExecutionError, ExecutionResult, execute_read, with_row_limit
from sqlagent.fan_out import guard_fan_out
from sqlagent.linking import LinkedPlan, Preferred, Unreadable, links_text, plan_linked
from sqlagent.linking.confidence import ResultEvidence, best_case, weigh
from sqlagent.linking.confidence import threshold as linking_threshold
from sqlagent.linking.schema_words import schema_words
from sqlagent.linking.values import stored_values
from sqlagent.nouns_by_meaning import plan_by_meaning
from sqlagent.plan import CannotAnswer, QueryPlan, UnknownWords
from sqlagent.question_terms import QuestionReading, QuestionTerms, extract_terms
from sqlagent.resolution import Resolved, resolve
from sqlagent.schema_view import executable_schema
from sqlagent.secure_views import rewrite_secure_views
from sqlagent.sql_compiler import compile_plan
from sqlagent.table_selection import select_tables
from sqlagent.validation import SQLValidationError, validate_sql
from sqlagent.value_index import value_index
from sqlagent.verified import (
    Match,
    example_columns,
    example_tables,
    examples_text,
    usable_verified,
    verified_matches,
)
from sqlagent.verified import threshold as verified_threshold
from sqlagent.vocabulary import vocabulary

EXAMPLES = 3  # related verified queries shown to the SQL writer

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Source:
    """The database a question is asked of, and how the agent reaches it."""

    layer: SemanticLayer
    url: str
    agent_login: bool  # the warehouse's read-only agent login, with key and row scope

    @property
    def curated(self) -> bool:
        """A person confirmed some of its terms (not only the bootstrap's suggestions)."""
        return any(not term.suggested for term in self.layer.terms)

    @classmethod
    def named(cls, name: str | None) -> "Source":
        layer = load_semantic_layer(name)
        url = DataSource.objects.get(name=layer.data_source).resolved_url()
        secured = any(t.secure_view for t in layer.tables.values())
        return cls(layer=layer, url=url, agent_login=secured)


@dataclass
class Planned:
    terms: QuestionTerms
    resolved: Resolved
    plan: QueryPlan | None
    declined: str = ""  # why the plan could not be made
    linked: LinkedPlan | None = None  # the schema-linked reading, when it is the one run
    verified: Match | None = None  # the verified query the question rewords, when it is run
    examples: list[Match] = field(default_factory=list)  # related verified queries


@dataclass(frozen=True)
class _Run:
    """One question on its way: where it is asked, its plan and scope, the answer so far."""

    target: Source
    planned: Planned
    scope: Scope | None
    answer: SqlAnswer
    clock: StepClock
    use_llm: bool


def ask(
    question: str,
    *,
    user: AbstractBaseUser | AnonymousUser | None = None,
    source: str | None = None,
    history: Sequence[Turn] = (),
    scope: Scope | None = None,
    today: date | None = None,
    on_event: EventSink | None = None,
    reading: QuestionReading | None = None,
) -> SqlAnswer:
    """Answer `question` from data source `source` (the default warehouse when None).

    `scope` overrides the asking user's data scope (evaluation runs unscoped). Step events
    go to `on_event` as they happen; they are also kept in the answer's trace. `reading`,
    the caller's reading of the same question, saves reading it again.
    """
    question = " ".join(question.split())
    answer = SqlAnswer(question=question)
    clock = StepClock(answer, on_event)
    if not question:
        return _decline(answer, clock, "the question is empty")
    if len(question) > settings.SQL_MAX_QUESTION_CHARS:
        limit = settings.SQL_MAX_QUESTION_CHARS
        return _decline(answer, clock, f"the question is longer than {limit} characters")
    try:
        with clock.step("source", source=source or settings.REGISTRIES_DEFAULT_DATA_SOURCE):
            target = Source.named(source)
    except (DataSource.DoesNotExist, ImproperlyConfigured) as error:
        return _fail(answer, clock, str(error))
    answer.dialect, answer.data_source = target.layer.dialect, target.layer.data_source
    if target.agent_login:
        scope = scope_for(user) if scope is None else scope
    planned = _plan(question, target, clock, today or timezone.localdate(), reading)
    _consult_verified(planned, answer, target, clock)
    answer.plan = planned.plan
    use_llm = llm_configured()
    if planned.verified is None and not use_llm and (planned.plan is None or not target.curated):
        why = _prefer_linked(planned, answer, target, clock)
        if planned.plan is None and planned.linked is None:
            _explain_decline(answer, planned.terms, target)
            # On a curated registry the term planner's reason is the surer one.
            reason = (planned.declined or why) if target.curated else (why or planned.declined)
            return _decline(answer, clock, reason)
    if planned.plan is not None:
        finalize.describe_tables(answer, planned.plan)
    run = _Run(target, planned, scope, answer, clock, use_llm)
    try:
        statement = _generate(run, history)
    except CannotAnswer as error:
        _explain_decline(answer, planned.terms, target)
        return _decline(answer, clock, str(error))
    except SQLValidationError as error:  # the LLM wrote something that is not one read
        answer.reason = f"refused: {error}"
        return finalize.failed(answer, clock)
    result = _run_with_corrections(statement, run)
    if result is None:
        return finalize.failed(answer, clock)
    if not result.rows and planned.verified is None:  # a confirmed query is not loosened
        result = _loosen_once(run) or result
    return _answered(run, result)


def _answered(run: _Run, result: ExecutionResult) -> SqlAnswer:
    """The rows as the answer, unless they show a linked reading is not sure enough."""
    answer, planned = run.answer, run.planned
    if planned.linked is not None and answer.generator == "linked":
        why = _judge_linked(planned.linked, result, run.clock)
        if why:  # what ran stays in `sql` and the trace, for whoever audits it
            _explain_decline(answer, planned.terms, run.target)
            return _decline(answer, run.clock, why)
    return finalize.answered(answer, run.clock, result, run.target.layer)


def _plan(
    question: str, target: Source, clock: StepClock, today: date, reading: QuestionReading | None
) -> Planned:
    layer = target.layer
    with clock.step("terms") as out:
        values = value_index(layer, target.url, agent=target.agent_login)
        vocab = vocabulary(layer, values.values)
        if reading is not None and reading.fits(question, vocab, today):
            terms = reading.terms
            out["read_before"] = True  # by the caller (the chat's router)
        else:
            terms = extract_terms(question, vocab, today=today)
        out["mentions"] = [m.text for m in terms.mentions]
        out["date_range"] = terms.date_range.describe() if terms.date_range else None
    with clock.step("resolution") as out:
        resolved = resolve(terms, layer, values)
        out["notes"] = resolved.notes
    try:
        with clock.step("tables") as out:
            try:
                plan = select_tables(terms, resolved, layer)
            except UnknownWords as error:
                if not target.curated:  # its term plan is not run
                    raise
                terms, resolved, plan, read = plan_by_meaning(error, terms, vocab, values, layer)
                out["by_meaning"] = [r.describe() for r in read]
            out["tables"] = plan.tables
            out["joins"] = (
                [finalize.join_text(step) for step in plan.joins.joins] if plan.joins else []
            )
    except CannotAnswer as error:
        return Planned(terms, resolved, None, str(error))
    return Planned(terms, resolved, plan)


def _consult_verified(
    planned: Planned, answer: SqlAnswer, target: Source, clock: StepClock
) -> None:
    """A question that rewords a verified query is answered with its SQL (the question's
    literals swapped in); the nearest others are kept as examples for the SQL writer."""
    pool = usable_verified(target.layer)
    if not pool:
        return
    with clock.step("verified") as out:
        try:
            vector = embed_query(answer.question)
        except Exception as error:  # an embedding service out of reach: plan as without
            log.warning("verified queries not consulted: %s", error)
            out["unavailable"] = str(error)
            return
        values = stored_values(target.layer, target.url, agent=target.agent_login)
        found = verified_matches(
            answer.question,
            vector,
            pool,
            schema=schema_words(target.layer),
            values=values,
        )
        cut = verified_threshold()
        out["candidates"] = [m.describe() for m in found[:3]]
        out["threshold"] = cut
        if found and found[0].probability >= cut:
            planned.verified = found[0]
            planned.plan = None  # the term plan does not describe this SQL
            finalize.describe_verified(answer, found[0])
            out["chosen"] = found[0].known.id
        planned.examples = [m for m in found if m is not planned.verified][:EXAMPLES]


def _prefer_linked(planned: Planned, answer: SqlAnswer, target: Source, clock: StepClock) -> str:
    """The linked reading, where the term planner has no plan or nobody confirmed the
    registry's terms. On such a registry the term planner's plan is not run either: made
    from suggested terms alone it was wrong about as often as right on development data,
    and it carries no confidence to gate it. Returns why the linked reading was not taken."""
    preferred = example_columns(planned.examples)
    planned.linked, why = _link(answer.question, target, clock, preferred, planned.terms.date_range)
    if planned.linked is not None:
        answer.tables = [
            {"table": t, "reason": "named by the question"} for t in planned.linked.intent.tables
        ]
    if planned.linked is not None or not target.curated:
        planned.plan = answer.plan = None
    return why


def _link(
    question: str,
    target: Source,
    clock: StepClock,
    preferred: Preferred,
    period: DateRange | None = None,
) -> tuple[LinkedPlan | None, str]:
    """The schema-linked reading when it is sure enough, else why not. Where two meanings
    of a word are as likely, the one related verified queries use is taken."""
    with clock.step("linking") as out:
        values = stored_values(target.layer, target.url, agent=target.agent_login)
        try:
            linked = plan_linked(question, target.layer, values, preferred, period)
        except Unreadable as error:
            out["declined"] = str(error)
            return None, str(error)
        out["links"] = linked.links
        out["confidence"] = linked.confidence  # before its rows are known
        out["evidence"] = linked.evidence.features()
    best, cut = best_case(linked.evidence), linking_threshold()
    if best < cut:  # no rows could make it sure enough: not run
        return None, (
            f"my best reading of the question is not sure enough to run (confidence at most "
            f"{best:.2f}, below {cut:.2f})"
        )
    return linked, ""


def _judge_linked(linked: LinkedPlan, result: ExecutionResult, clock: StepClock) -> str:
    """The linked reading's confidence once its rows are known; why it is not answered
    when that is below the threshold (its rows are not shown)."""
    rows = ResultEvidence.of(result.rows, result.truncated)
    confidence, cut = weigh(linked.evidence, rows), linking_threshold()
    with clock.step("confidence") as out:
        out["confidence"] = confidence
        out["threshold"] = cut
        out["evidence"] = {**linked.evidence.features(), **rows.features()}
    if confidence >= cut:
        return ""
    caution = rows.caution()
    return (
        f"my best reading of the question is not sure enough to answer (confidence "
        f"{confidence:.2f}, below {cut:.2f}" + (f"; {caution}" if caution else "") + ")"
    )


def _reading(question: str, target: Source) -> LinkedPlan | None:
    """The schema-linked reading at any confidence, as context for an LLM."""
    values = stored_values(target.layer, target.url, agent=target.agent_login)
    try:
        return plan_linked(question, target.layer, values)
    except Unreadable:
        return None


def _generate(run: _Run, history: Sequence[Turn]) -> exp.Expression:
    question, target, planned, answer = run.answer.question, run.target, run.planned, run.answer
    if planned.verified is not None:
        answer.generator = "verified"
        return planned.verified.statement
    if planned.linked is not None:
        answer.generator = "linked"
        return planned.linked.statement
    with run.clock.step("generation", generator="llm" if run.use_llm else "compiler") as out:
        if run.use_llm:
            tables = sql_generation.tables_in_context(
                planned.plan, planned.resolved, target.layer, question=question
            )
            reading = (
                _reading(question, target) if planned.plan is None or not target.curated else None
            )
            if reading is not None:
                tables = list(dict.fromkeys([*reading.intent.tables, *tables]))
            tables = list(dict.fromkeys([*tables, *example_tables(planned.examples)]))
            try:
                generated = sql_generation.generate_sql(
                    question=question,
                    layer=target.layer,
                    tables=tables,
                    plan=planned.plan,
                    history=history,
                    links=links_text(reading) if reading is not None else "",
                    examples=examples_text(planned.examples, target.layer),
                )
            except sql_generation.LLMUnavailable as error:
                if planned.plan is None:
                    raise
                # The model is down, the plan is not: answer from the compiled plan.
                out["llm_unavailable"] = str(error)
            else:
                answer.generator = "llm"
                out["usage"] = generated.usage
                return sql_generation.parse_generated(generated.sql, target.layer)
        assert planned.plan is not None
        answer.generator = "compiler"
        return compile_plan(planned.plan, target.layer)


def _prepare(statement: exp.Expression, target: Source, clock: StepClock, *, guard: bool) -> str:
    """Steps 6 and 7: secure views, fan-out guard, row limit, then validation. A verified
    query's counts are as a person confirmed them: `guard` is off for it."""
    layer = target.layer
    with clock.step("rewrite") as out:
        notes: list[str] = []
        if guard:
            statement, notes = guard_fan_out(statement, layer)
        statement = rewrite_secure_views(statement, layer)
        statement = with_row_limit(statement, settings.MAX_QUERY_ROWS)
        sql = statement.sql(dialect=layer.dialect, identify=True)
        out["fan_out"] = notes
    if settings.SQL_PRE_VALIDATION_ENABLED:
        with clock.step("validation"):
            validate_sql(sql, layer=layer, schema=executable_schema(layer))
    return sql


def _execute(sql: str, run: _Run) -> ExecutionResult:
    target = run.target
    with run.clock.step("execution") as out:
        result = execute_read(sql, url=target.url, agent=target.agent_login, scope=run.scope)
        out["rows"] = len(result.rows)
        out["truncated"] = result.truncated
    return result


def _run_with_corrections(statement: exp.Expression, run: _Run) -> ExecutionResult | None:
    """Run the SQL; on a validation or execution error, correct and retry a few times."""
    target, answer, clock = run.target, run.answer, run.clock
    repaired_by: str | None = None
    for attempt in range(settings.SQL_CORRECTION_MAX_ATTEMPTS + 1):
        sql = statement.sql(dialect=target.layer.dialect, identify=True)
        current = Attempt(sql=sql, repaired_by=repaired_by)
        answer.attempts.append(current)
        try:
            answer.logical_sql = sql
            sql = _prepare(statement, target, clock, guard=run.planned.verified is None)
            current.sql = answer.sql = sql
            return _execute(sql, run)
        except (SQLValidationError, ExecutionError) as error:
            current.error = str(error)
            if isinstance(error, SQLValidationError) and _unsafe(error):
                answer.reason = f"refused: {error}"
                return None
        if attempt == settings.SQL_CORRECTION_MAX_ATTEMPTS:
            break
        try:
            with clock.step("correction", attempt=attempt + 1) as out:
                repaired = correction.correct(
                    statement,
                    error=current.error or "",
                    question=answer.question,
                    layer=target.layer,
                    plan=run.planned.plan,
                    attempts=answer.attempts,
                    use_llm=run.use_llm,
                )
                out["repaired_by"] = repaired.repaired_by if repaired else None
        except SQLValidationError as error:
            if _unsafe(error):
                answer.reason = f"refused: {error}"
                return None
            current.error = str(error)
            break
        except CannotAnswer as error:  # the LLM could not be reached for the correction
            current.error = f"{current.error}; {error}"
            break
        if repaired is None:
            break
        statement = repaired.statement
        repaired_by = repaired.repaired_by
    answer.reason = answer.reason or f"the SQL still failed after corrections: {current.error}"
    return None


def _unsafe(error: SQLValidationError) -> bool:
    """Writes, forbidden functions and several statements are refused, never corrected."""
    return any(issue.code in ("not_read", "forbidden") for issue in error.issues)


def _loosen_once(run: _Run) -> ExecutionResult | None:
    """An empty result is asked again once with looser filters before saying none found."""
    answer = run.answer
    with run.clock.step("loosening") as out:
        looser = loosening.loosen(
            question=answer.question, layer=run.target.layer, plan=run.planned.plan,
            sql=answer.sql or "", generator=answer.generator,
        )  # fmt: skip
        out["changes"] = looser.changes if looser else []
    if looser is None:
        return None
    kept_sql, kept_attempts, kept_logical = answer.sql, list(answer.attempts), answer.logical_sql
    result = _run_with_corrections(looser.statement, run)
    if result is None or not result.rows:
        answer.sql, answer.attempts, answer.logical_sql = kept_sql, kept_attempts, kept_logical
        answer.reason = ""
        return None
    answer.loosened = looser.changes
    return result


def _explain_decline(answer: SqlAnswer, terms: QuestionTerms, target: Source) -> None:
    values = value_index(target.layer, target.url, agent=target.agent_login)
    notes = decline_notes(terms, vocabulary(target.layer, values.values))
    answer.understood, answer.unknown, answer.nearby = notes.understood, notes.unknown, notes.nearby


def _decline(answer: SqlAnswer, clock: StepClock, reason: str) -> SqlAnswer:
    return _stop(answer, clock, "declined", reason, "I cannot answer this with confidence")


def _fail(answer: SqlAnswer, clock: StepClock, reason: str) -> SqlAnswer:
    return _stop(answer, clock, "error", reason, "The question could not be answered")


def _stop(answer: SqlAnswer, clock: StepClock, status: Status, reason: str, lead: str) -> SqlAnswer:
    """End without an answer: the status, the reason, and a sentence saying so."""
    answer.status = status
    answer.reason = reason
    answer.answer = f"{lead}: {reason}."
    clock.finish()
    return answer
