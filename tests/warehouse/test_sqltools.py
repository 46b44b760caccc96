"""Rewriting logical queries to secure views and transpiling them, without a database."""

from warehouse.questions import Question, normalize, same_result
from warehouse.sqltools import for_agent, to_secure_views, transpile


def test_tables_with_views_are_read_through_them_under_their_own_name() -> None:
    sql = to_secure_views("SELECT employee.firstName FROM employee JOIN branch b ON b.id = 1")
    assert "FROM secure_employee AS employee" in sql
    assert "JOIN branch AS b" in sql


def test_aliases_are_kept_and_ctes_are_left_alone() -> None:
    sql = to_secure_views(
        "WITH customer AS (SELECT 1 AS id) SELECT w.id FROM workOrder w JOIN customer c ON 1 = 1"
    )
    assert "FROM secure_workorder AS w" in sql
    assert "JOIN customer AS c" in sql


def test_postgres_gets_quoted_camel_case() -> None:
    sql = for_agent("SELECT COUNT(*) FROM workTime WHERE isApproved = FALSE", "postgres")
    assert sql == 'SELECT COUNT(*) FROM "secure_worktime" AS "workTime" WHERE "isApproved" = FALSE'
    assert transpile("SELECT 1", "mysql") == "SELECT 1"


def test_results_compare_across_drivers() -> None:
    from datetime import date
    from decimal import Decimal

    assert [normalize(v) for v in (True, Decimal("12.50"), Decimal("3"), date(2025, 1, 2))] == [
        1,
        12.5,
        3,
        "2025-01-02",
    ]
    question = Question("q", "SELECT 1", [[1], [2]], ordered=False, tags=[])
    assert same_result(question, [[2], [1]])
    assert not same_result(Question("q", "SELECT 1", [[1], [2]], True, []), [[2], [1]])
