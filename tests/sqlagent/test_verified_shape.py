"""What a question's words ask of a query's shape, against what a verified SQL does."""

import sqlglot
from sqlglot import exp

from sqlagent.linking.question import read_words
from sqlagent.verified.matching import (
    contradiction,
    said_once,
    shape,
    shape_differences,
    sql_shape,
)


def _differs(question: str, sql: str) -> set[str]:
    statement = sqlglot.parse_one(sql, read="mysql")
    assert isinstance(statement, exp.Expression)
    said, done = shape(read_words(question)), sql_shape(statement)
    return {kind for kind, value in shape_differences(said, done).items() if value}


def test_a_negation_the_sql_does_not_carry_differs() -> None:
    assert _differs(
        "Which scientists have not been assigned a project?",
        "SELECT s.name FROM assigned AS a JOIN scientists AS s ON a.scientist = s.ssn",
    ) == {"negation_differs"}


def test_a_set_operation_the_words_never_ask_differs() -> None:
    sql = (
        "SELECT name FROM broadcast WHERE time_of_day = 'Morning' INTERSECT "
        "SELECT name FROM broadcast WHERE time_of_day = 'Night'"
    )
    assert "set_differs" in _differs("Which channels are broadcast in the morning?", sql)
    assert not _differs("Which channels broadcast both in the morning and at night?", sql)


def test_a_count_asked_of_a_list_differs_and_a_subquery_is_no_or() -> None:
    assert "count_differs" in _differs(
        "How many policies does Dayana Robel hold?",
        "SELECT policy_type FROM policies WHERE customer = 'Dayana Robel'",
    )
    assert not _differs(
        "Show the names of singers who sang a song",
        "SELECT name FROM singer WHERE singer_id IN (SELECT singer_id FROM song)",
    )


def test_a_question_asked_the_other_way_round_contradicts() -> None:
    def against(asked: str, verified: str) -> str:
        return contradiction(read_words(asked), read_words(verified))

    most = "Which technician completed the most work orders in 2025?"
    assert against("Which technician completed the fewest work orders in 2025?", most)
    assert against("How many technicians completed work orders in 2025?", most)
    assert against(
        "List the five smallest unpaid invoices", "List the five largest unpaid invoices"
    )
    # rewordings: the same direction, a superlative said as a count, names that say no order
    assert not against("Who closed the most work orders in 2025?", most)
    assert not against(
        "Find the department with the most employees.",
        "Which department has the largest number of employees?",
    )
    assert not against("Give the last names of students.", "What are the first names of students?")


def test_a_negation_a_ranking_or_a_month_said_by_one_question_only() -> None:
    def once(asked: str, verified: str) -> str:
        return said_once(read_words(asked), read_words(verified))

    unpaid = "List the five largest unpaid invoices"
    assert once("List the five largest paid invoices", unpaid)
    assert once("Which invoices are not overdue?", "Which invoices are overdue?")
    assert once("Which customer owes the most?", "How much does each customer owe?")
    assert once("Hours logged in March 2025", "Hours logged in 2025")
    assert not once("Show the 5 largest unpaid invoices", unpaid)
    assert not once("Hours logged in March 2025", "How many hours were logged in March 2025?")
