"""The development question set (questions.jsonl): questions, gold SQL, expected results.

Gold SQL is MySQL dialect over *logical* table names (`employee`, `workOrder`), as a user
or the agent's generator would write it; `sqltools.for_agent` rewrites it to the secure
views and transpiles it, and it runs as the agent login with the AES key set and no scope.

    python -m warehouse.questions           # check every question on both engines
    python -m warehouse.questions --refresh  # recompute `expected` (engines must agree)

Both commands first load the test warehouses (see testing.py) if they are not loaded.
"""

from __future__ import annotations

import argparse
import json
import sys
from contextlib import closing
from dataclasses import asdict, dataclass, replace
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

from core.databases.base import Connection
from core.databases.urls import EngineName

from .sqltools import for_agent
from .testing import agent_connection, ensure_test_warehouses

QUESTIONS_FILE = Path(__file__).with_name("questions.jsonl")
Rows = list[list[Any]]


@dataclass(frozen=True)
class Question:
    question: str
    sql: str
    expected: Rows
    ordered: bool
    tags: list[str]


def load_questions(path: Path = QUESTIONS_FILE) -> list[Question]:
    with path.open(encoding="utf-8") as lines:
        return [Question(**json.loads(line)) for line in lines if line.strip()]


def save_questions(questions: list[Question], path: Path = QUESTIONS_FILE) -> None:
    text = "".join(json.dumps(asdict(q), ensure_ascii=False) + "\n" for q in questions)
    path.write_text(text, encoding="utf-8")


def normalize(value: Any) -> Any:
    """One JSON value for what the two drivers return differently (bool vs 0/1, Decimal
    vs int, datetime objects)."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, Decimal | float):
        number = round(float(value), 2)
        return int(number) if number.is_integer() else number
    if isinstance(value, datetime):
        return value.strftime("%Y-%m-%d %H:%M:%S")
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, bytes):
        return value.decode()
    return value


def run_sql(conn: Connection, engine: EngineName, sql: str) -> Rows:
    with conn.cursor() as cur:
        cur.execute(for_agent(sql, engine))
        return [[normalize(v) for v in row] for row in cur.fetchall()]


def same_result(question: Question, rows: Rows) -> bool:
    if question.ordered:
        return rows == question.expected
    return _sorted(rows) == _sorted(question.expected)


def _sorted(rows: Rows) -> list[str]:
    return sorted(json.dumps(row) for row in rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--refresh", action="store_true", help="rewrite expected results")
    args = parser.parse_args(argv)
    urls = ensure_test_warehouses()
    questions = load_questions()
    results: dict[EngineName, list[Rows | str]] = {}
    for engine, url in urls.items():
        with closing(agent_connection(url)) as conn:
            results[engine] = [_try(conn, engine, q.sql) for q in questions]
    problems, refreshed = [], []
    for index, question in enumerate(questions):
        mysql, postgres = results["mysql"][index], results["postgres"][index]
        if isinstance(mysql, str) or isinstance(postgres, str):
            problems.append(f"#{index + 1} fails: {mysql if isinstance(mysql, str) else postgres}")
        elif not same_result(replace(question, expected=mysql), postgres):
            problems.append(f"#{index + 1} differs between engines: {question.question}")
        elif not args.refresh and not same_result(question, mysql):
            problems.append(f"#{index + 1} does not give its expected result: {question.question}")
        refreshed.append(replace(question, expected=mysql) if isinstance(mysql, list) else question)
    if args.refresh and not problems:
        save_questions(refreshed)
    for problem in problems:
        print(problem, file=sys.stderr)
    print(f"{len(questions)} questions, {len(problems)} problems")
    return 1 if problems else 0


def _try(conn: Connection, engine: EngineName, sql: str) -> Rows | str:
    try:
        return run_sql(conn, engine, sql)
    except Exception as error:  # reported per question, so one bad query shows them all
        return f"{engine}: {error}"


if __name__ == "__main__":
    raise SystemExit(main())
