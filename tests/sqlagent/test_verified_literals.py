"""Fitting a verified SQL to a rewording: which literals change, and into what."""

import sqlglot
from sqlglot import exp

from sqlagent.linking.question import read_words
from sqlagent.linking.values import StoredValues, value_key
from sqlagent.verified.literals import fit_literals

VALUES = StoredValues(
    {
        value_key(v): ((t, c, v),)
        for t, c, v in [
            ("singer", "Country", "France"),
            ("singer", "Country", "United States"),
            ("song", "Genre", "Rock"),
        ]
    },
    longest=2,
)


def _fit(asked: str, verified: str, sql: str) -> tuple[str, list[tuple[str, str]], int]:
    statement = sqlglot.parse_one(sql, read="mysql")
    assert isinstance(statement, exp.Expression)
    fitted = fit_literals(read_words(asked), read_words(verified), statement, VALUES)
    return fitted.statement.sql(dialect="mysql"), fitted.swapped, fitted.unnamed


def test_a_stored_value_of_the_same_column_takes_its_stored_spelling() -> None:
    sql, swapped, unnamed = _fit(
        "How many singers are from the united states?",
        "How many singers are from France?",
        "SELECT COUNT(*) FROM singer WHERE Country = 'France'",
    )
    assert sql == "SELECT COUNT(*) FROM singer WHERE Country = 'United States'"
    assert swapped == [("'France'", "'United States'")] and unnamed == 0


def test_a_value_of_another_column_is_not_swapped_in() -> None:
    sql, swapped, unnamed = _fit(
        "How many singers are from Rock?",
        "How many singers are from France?",
        "SELECT COUNT(*) FROM singer WHERE Country = 'France'",
    )
    assert "'France'" in sql and not swapped and unnamed == 1


def test_numbers_swap_for_numbers_and_a_named_literal_stays_wherever_it_moved() -> None:
    sql, swapped, _ = _fit(
        "Which singers of France are older than 40?",
        "Show the singers from France older than 30",
        "SELECT name FROM singer WHERE Country = 'France' AND age > 30",
    )
    assert "age > 40" in sql and "'France'" in sql
    assert swapped == [("30", "40")]


def test_a_like_pattern_keeps_its_wildcards() -> None:
    sql, swapped, _ = _fit(
        'Which songs have "love" in the title?',
        'Which songs have "rain" in the title?',
        "SELECT title FROM song WHERE title LIKE '%rain%'",
    )
    assert "LIKE '%love%'" in sql and swapped == [("'%rain%'", "'%love%'")]


def test_a_literal_the_question_never_spells_stays_as_confirmed() -> None:
    sql, swapped, unnamed = _fit(
        "List the active singers",
        "Show the singers who are active",
        "SELECT name FROM singer WHERE is_active = 'Y'",
    )
    assert "'Y'" in sql and not swapped and unnamed == 0


def test_a_word_named_again_for_one_literal_is_not_swapped_into_another() -> None:
    sql, swapped, unnamed = _fit(
        "Which publishers did not publish a book in 1989?",
        "Show publishers with a book published in 1989 and a book in 1990.",
        "SELECT publisher FROM book_club WHERE year = 1989 INTERSECT "
        "SELECT publisher FROM book_club WHERE year = 1990",
    )
    assert "year = 1990" in sql and "year = 1989" in sql
    assert not swapped and unnamed == 1
