"""Evaluation details on a small database of its own: ties at a top-n cut, per-db tallies,
and a database nobody described, bootstrapped on first use."""

from collections.abc import Iterator
from contextlib import closing

import pymysql
import pytest

from registries.models import DataSource
from sqlagent.evaluation import Case, evaluate, tied_golds
from sqlagent.third_party import source_for_url

from .agent_fixtures import PREFIX, no_llm

__all__ = ["no_llm"]

DATABASE = f"{PREFIX}_eval_teams"
URL = f"mysql://root@127.0.0.1:3306/{DATABASE}"


@pytest.fixture(scope="module")
def teams_url() -> Iterator[str]:
    """Teams with wins: two share the most, so "the team with the most wins" has two answers."""
    with closing(pymysql.connect(host="127.0.0.1", user="root", autocommit=True)) as conn:
        with conn.cursor() as cursor:
            cursor.execute(f"DROP DATABASE IF EXISTS `{DATABASE}`")
            cursor.execute(f"CREATE DATABASE `{DATABASE}`")
            cursor.execute(
                f"CREATE TABLE `{DATABASE}`.`team` (`team_id` INT PRIMARY KEY, "
                "`name` VARCHAR(40) NOT NULL, `wins` INT NOT NULL)"
            )
            cursor.execute(
                f"INSERT INTO `{DATABASE}`.`team` VALUES "
                "(1, 'Otters', 9), (2, 'Herons', 9), (3, 'Voles', 4), (4, 'Moles', 2)"
            )
        yield URL
        with conn.cursor() as cursor:
            cursor.execute(f"DROP DATABASE IF EXISTS `{DATABASE}`")


def test_rows_tied_at_the_cut_are_other_right_answers(teams_url: str) -> None:
    case = Case("Which team won most?", "SELECT `name` FROM `team` ORDER BY `wins` DESC LIMIT 1")
    others = tied_golds(case, teams_url, [("Otters",)])
    assert sorted(others) == [[("Herons",)], [("Otters",)]]
    top_two = Case("Top two?", "SELECT `name` FROM `team` ORDER BY `wins` DESC LIMIT 2")
    assert tied_golds(top_two, teams_url, [("Otters",), ("Herons",)]) == []  # no tie at the cut
    unlimited = Case("All?", "SELECT `name` FROM `team` ORDER BY `wins` DESC")
    assert tied_golds(unlimited, teams_url, [("Otters",)]) == []


@pytest.mark.usefixtures("no_llm")
def test_a_database_nobody_described_is_bootstrapped_and_tallied_per_db(
    teams_url: str, db: None
) -> None:
    cases = [
        Case("How many teams are there?", "SELECT COUNT(*) FROM `team`", db="teams"),
        Case("How many unicorns are there?", "SELECT COUNT(*) FROM `team`", db="teams"),
    ]
    report = evaluate(cases, source_for=lambda case: source_for_url(teams_url))
    source = DataSource.objects.get(url=teams_url)
    assert source.introspected_at is not None
    assert source.schema_tables.filter(name="team").exists()
    verdicts = [o.verdict for o in report.outcomes]
    assert verdicts[1] == "declined"
    assert verdicts[0] in ("correct", "declined")  # never wrong on a plain count
    figures = report.by_db()["teams"]
    assert figures["scored"] == 2 and figures["declined"] == verdicts.count("declined")
