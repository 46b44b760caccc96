"""The schema-linked planner on a business database as introspection alone describes it
(the demo warehouse's tables, bootstrapped with no term confirmed): flags, dates found by
their type, periods, counts asked up front, and what it cannot place."""

from datetime import date
from typing import Any

import pytest
import sqlglot

from core.databases.scope import Scope
from sqlagent.agent import ask
from sqlagent.answer_matching import matches
from sqlagent.execution import execute_read
from sqlagent.third_party import source_for_url

from .agent_fixtures import agent_warehouse_url, no_llm

__all__ = ["agent_warehouse_url", "no_llm"]

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("no_llm")]


@pytest.fixture
def asked(agent_warehouse_url: str, settings: Any) -> Any:
    settings.SQL_LINKED_MIN_CONFIDENCE = 0  # the reading, whatever the fitted threshold
    source, _ = source_for_url(agent_warehouse_url)

    def run(question: str) -> Any:
        return ask(question, source=source, scope=Scope())

    return run


def _gold(sql: str, url: str) -> list[tuple[Any, ...]]:
    return execute_read(sql, url=url, agent=False, max_rows=10_000).rows


READINGS = [
    (  # a yes-or-no column said of the rows is a condition on them
        "How many active vehicles are there?",
        "SELECT COUNT(*) FROM vehicle WHERE isActive",
    ),
    (  # ... and a negation asks for the others
        "How many customers are not active?",
        "SELECT COUNT(*) FROM customer WHERE NOT isActive",
    ),
    (  # "headcount" is a count
        "What is the headcount of active employees?",
        "SELECT COUNT(*) FROM employee WHERE isActive",
    ),
    (  # is_tax_exempt is "tax exempt"
        "How many customers are tax exempt?",
        "SELECT COUNT(*) FROM customer WHERE isTaxExempt",
    ),
    (  # a year bounds the table's date, whatever the column is called (paidOn)
        "How many payments were received in 2025?",
        "SELECT COUNT(*) FROM payment WHERE YEAR(paidOn) = 2025",
    ),
    (  # "hired" names hireDate by its root, not terminationDate or createdAt
        "How many employees were hired in 2024?",
        "SELECT COUNT(*) FROM employee WHERE YEAR(hireDate) = 2024",
    ),
    (  # a year after a comparison bounds the table's date
        "How many employees were hired after 2020?",
        "SELECT COUNT(*) FROM employee WHERE hireDate > '2020-12-31'",
    ),
    (  # a count and "how much" beside it: the total
        "How many payments came in during 2025, and how much did they add up to?",
        "SELECT COUNT(*), SUM(amount) FROM payment WHERE YEAR(paidOn) = 2025",
    ),
    (  # rows listed "with" columns are shown by their name too
        "List the branches with their city and state.",
        "SELECT name, city, state FROM branch",
    ),
    (  # a table listed among the columns asked is its rows' name
        "List the parts with their part number and manufacturer.",
        "SELECT p.partNumber, p.name, m.name FROM part p JOIN manufacturer m "
        "ON m.id = p.manufacturerId",
    ),
    (  # "each month of 2025" where no column holds the month: the date's month
        "How many quotes were issued in each month of 2025?",
        "SELECT MONTH(issuedOn), COUNT(*) FROM quote WHERE YEAR(issuedOn) = 2025 "
        "GROUP BY MONTH(issuedOn)",
    ),
    (  # a state said in another form of its word ('void')
        "How many invoices were voided?",
        "SELECT COUNT(*) FROM invoice WHERE status = 'void'",
    ),
    (  # a year before a noun bounds that table's date
        "How many 2025 quotes are there?",
        "SELECT COUNT(*) FROM quote WHERE YEAR(issuedOn) = 2025",
    ),
    (  # a written date is compared as a date
        "How many employees were hired after March 3rd, 2021?",
        "SELECT COUNT(*) FROM employee WHERE hireDate > '2021-03-03'",
    ),
    (  # a word whose meaning no other named table joins to ("set": app settings) is dropped
        "How many customers are on each set of payment terms?",
        "SELECT pt.name, COUNT(*) FROM customer c JOIN paymentTerm pt "
        "ON pt.id = c.paymentTermId GROUP BY pt.name",
    ),
    (  # "each type" of incident, said as incidentTypeId without its id: by the type's name
        "Count the incidents of each type.",
        "SELECT t.name, COUNT(*) FROM incident i JOIN incidentType t "
        "ON t.id = i.incidentTypeId GROUP BY t.name",
    ),
]


@pytest.mark.parametrize(("question", "gold"), READINGS)
def test_a_business_question_is_read_from_the_schema_alone(
    asked: Any, agent_warehouse_url: str, question: str, gold: str
) -> None:
    answer = asked(question)
    assert answer.status == "answered", answer.reason
    assert answer.generator == "linked"
    assert matches(_gold(gold, agent_warehouse_url), answer.rows, ordered=False), answer.sql


def test_a_count_asked_up_front_limits_the_superlative(asked: Any) -> None:
    answer = asked("Which 3 customers have the most invoices?")
    assert answer.status == "answered", answer.reason
    assert len(answer.rows) == 3
    assert "LIMIT 3" in answer.sql


def test_a_flag_said_of_rows_nothing_names_is_declined_with_them(asked: Any) -> None:
    answer = asked("How many active trucks are there?")
    assert answer.status == "declined"
    assert "active trucks" in answer.reason


def test_a_name_the_database_does_not_hold_is_not_dropped(asked: Any) -> None:
    answer = asked("How many customers are there in Narnia?")
    assert answer.status == "declined"
    assert "Narnia" in answer.reason  # not every customer, as if it were not asked


def test_a_count_of_things_the_database_does_not_hold_is_declined(asked: Any) -> None:
    answer = asked("How many unicorns were completed?")
    assert answer.status == "declined"  # not the completed service tasks
    assert "unicorns" in answer.reason


def test_a_count_per_something_the_database_does_not_hold_is_declined(asked: Any) -> None:
    answer = asked("How many vehicles do we have for each horoscope?")
    assert answer.status == "declined"  # not one count of every vehicle
    assert "horoscope" in answer.reason
    grouped = asked("How many vehicles do we have for each branch?")
    assert grouped.status == "answered" and "GROUP BY" in grouped.sql, grouped.reason


def test_rows_ordered_by_a_column_show_it(asked: Any) -> None:
    answer = asked("List the payment ids in order of amount, highest first.")
    assert answer.status == "answered", answer.reason
    amounts = [row[-1] for row in answer.rows]
    assert answer.columns[-1].lower().endswith("amount"), answer.sql  # what orders them
    assert amounts == sorted(amounts, reverse=True) and len(set(amounts)) > 1


def test_a_superlative_breaks_ties_the_same_way_every_time(asked: Any) -> None:
    answer = asked("Which branch has the most employees?")
    assert answer.status == "answered", answer.reason
    order = sqlglot.parse_one(answer.sql, read="mysql").args["order"].expressions
    assert len(order) >= 2, answer.sql  # the count, then what ties are ordered by


def test_the_top_rows_by_a_total_are_grouped_and_ordered_by_it(
    asked: Any, agent_warehouse_url: str
) -> None:
    answer = asked("Which 3 customers have the highest total payment amount?")
    assert answer.status == "answered", answer.reason
    gold = _gold(
        "SELECT c.name, SUM(p.amount) AS total FROM payment p JOIN invoice i "
        "ON i.id = p.invoiceId JOIN customer c ON c.id = i.customerId "
        "GROUP BY c.id, c.name ORDER BY total DESC LIMIT 3",
        agent_warehouse_url,
    )
    assert matches(gold, answer.rows, ordered=True), answer.sql


@pytest.mark.parametrize(
    ("question", "descending"),
    [
        ("Top 4 crews by number of dispatches", True),
        ("Crews ranked by the number of their dispatches, fewest first", False),
    ],
)
def test_rows_ranked_by_the_rows_of_another_table_they_have(
    asked: Any, agent_warehouse_url: str, question: str, descending: bool
) -> None:
    """ "by number of X": each row's X counted and ordered by, not one count of all rows."""
    answer = asked(question)
    assert answer.status == "answered", answer.reason
    counts = dict(
        _gold(
            "SELECT c.name, COUNT(d.id) FROM crew c JOIN dispatch d ON d.crewId = c.id "
            "GROUP BY c.id, c.name",
            agent_warehouse_url,
        )
    )
    names = [row[0] for row in answer.rows]
    assert set(names) <= set(counts) and len(names) == len(set(names)), answer.sql
    shown = [counts[name] for name in names]
    assert shown == sorted(shown, reverse=descending), answer.sql
    if descending:  # the top rows are the ones with the most
        assert shown[0] == max(counts.values()) and len(names) == 4


@pytest.mark.parametrize(
    "question",
    [
        "How many payments were received in the first quarter of 2026?",
        "How many payments came in last quarter?",  # asked on 2026-04-15
        "How many payments were received between January and March 2026?",
    ],
)
def test_a_calendar_period_bounds_the_date_of_the_rows(
    agent_warehouse_url: str, settings: Any, question: str
) -> None:
    settings.SQL_LINKED_MIN_CONFIDENCE = 0
    source, _ = source_for_url(agent_warehouse_url)
    answer = ask(question, source=source, scope=Scope(), today=date(2026, 4, 15))
    assert answer.status == "answered", answer.reason
    gold = _gold(
        "SELECT COUNT(*) FROM payment WHERE paidOn >= '2026-01-01' AND paidOn < '2026-04-01'",
        agent_warehouse_url,
    )
    assert gold[0][0] > 0 and matches(gold, answer.rows, ordered=False), answer.sql


def test_last_year_is_a_period_where_no_column_is_called_that(asked: Any) -> None:
    answer = asked("How many payments were received last year?")
    assert "'20" in answer.sql, answer.sql  # dates bound it: no column is "last year"


def test_a_word_that_leaves_a_value_out(asked: Any, agent_warehouse_url: str) -> None:
    answer = asked("How many invoices are there, ignoring the void ones?")
    assert answer.status == "answered", answer.reason
    gold = _gold("SELECT COUNT(*) FROM invoice WHERE status <> 'void'", agent_warehouse_url)
    assert matches(gold, answer.rows, ordered=False), answer.sql


def test_a_count_of_a_word_nothing_reads_is_declined(asked: Any) -> None:
    answer = asked("How many plumbrs completed work orders in 2025?")
    assert answer.status == "declined"  # not some count of the work orders
    assert "plumbrs" in answer.reason


def test_rows_that_only_repeat_the_value_named_are_declined(asked: Any) -> None:
    # the asset type 'Tower Crane' is the only thing read: its name, shown, says nothing
    answer = asked("What does the tower crane manual say about wind limits?")
    assert answer.status == "declined"
    assert "repeat" in answer.reason


def test_how_many_of_a_quantity_each_row_holds_is_every_rows_own(asked: Any) -> None:
    # "each one": the hours of every service template, not their total
    answer = asked("For the service templates, how many estimated hours does each one need?")
    assert answer.status == "answered", answer.reason
    assert "SUM(" not in answer.sql and "estimatedHours" in answer.sql
    assert len(answer.rows) > 1
    answer = asked("How many estimated hours do the service templates need?")
    assert "SUM(" in answer.sql  # said of them all, the total
