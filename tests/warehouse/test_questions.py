"""The development question set: well formed, and every gold query gives its answer."""

from collections import Counter

import pytest

from core.databases.urls import EngineName
from warehouse.engines import Connection
from warehouse.questions import Question, load_questions, run_sql, same_result

QUESTIONS = load_questions()


def test_the_set_is_large_and_varied() -> None:
    assert len(QUESTIONS) >= 60
    assert len({q.question for q in QUESTIONS}) == len(QUESTIONS)
    tags = Counter(tag for q in QUESTIONS for tag in q.tags)
    for tag in ("count", "top-n", "date-range", "multi-hop", "boolean", "text-filter"):
        assert tags[tag] >= 3, tag
    assert tags["secure-view"] >= 8
    assert all(q.expected for q in QUESTIONS), "every question has an answer in the data"


def test_ordered_questions_order_their_rows() -> None:
    for question in QUESTIONS:
        if question.ordered:
            assert "ORDER BY" in question.sql.upper(), question.question


@pytest.mark.parametrize(
    "question", QUESTIONS, ids=[f"q{n:02d}" for n in range(1, len(QUESTIONS) + 1)]
)
def test_gold_sql_gives_the_expected_result(
    engine: EngineName, agent: Connection, question: Question
) -> None:
    rows = run_sql(agent, engine, question.sql)
    assert same_result(question, rows), f"{question.question}\n{rows[:5]}"
