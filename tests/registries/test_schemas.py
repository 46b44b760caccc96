"""A PostgreSQL database whose tables live outside `public` and declare neither primary nor
foreign keys, keyed as such databases often are (`author.aid`, `writes.aid`)."""

import os
import re
from collections.abc import Iterator
from contextlib import closing
from typing import Any

import psycopg
import pytest
from django.core.management import call_command

from core.databases.scope import Scope
from registries.models import DataSource, Relationship, SchemaTable
from sqlagent.agent import ask

pytestmark = pytest.mark.django_db(transaction=True)

SERVER = "postgres://postgres@127.0.0.1:5432"
NAME = re.sub(r"\W", "_", os.environ.get("TEST_DATABASE_NAME") or "test_registries")[:40]
DATABASE = f"{NAME}_schemas"
URL = f"{SERVER}/{DATABASE}"
SCRIPT = """
CREATE SCHEMA research;
CREATE TABLE research.author (aid int, name text);
CREATE TABLE research.publication (pid int, title text, year int);
CREATE TABLE research.writes (aid int, pid int);
INSERT INTO research.author VALUES (1, 'Ada Byron'), (2, 'Alan Turing');
INSERT INTO research.publication VALUES (10, 'Notes', 1843), (11, 'Computable Numbers', 1936),
  (12, 'Computing Machinery', 1950);
INSERT INTO research.writes VALUES (1, 10), (2, 11), (2, 12);
CREATE SCHEMA scratch;
CREATE TABLE scratch.draft (id int, body text);
"""


@pytest.fixture(scope="module")
def database() -> Iterator[str]:
    with closing(psycopg.connect(f"{SERVER}/postgres", autocommit=True)) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DATABASE}"')
        conn.execute(f'CREATE DATABASE "{DATABASE}"')
    with closing(psycopg.connect(URL, autocommit=True)) as conn:
        conn.execute(SCRIPT)
    yield URL
    with closing(psycopg.connect(f"{SERVER}/postgres", autocommit=True)) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)')


def _tables(name: str) -> set[str]:
    return set(SchemaTable.objects.filter(data_source__name=name).values_list("name", flat=True))


def test_every_non_system_schema_is_read(database: str) -> None:
    call_command("introspect_schema", "--data-source", "all", "--url", database, "--bootstrap")
    assert _tables("all") == {"author", "publication", "writes", "draft"}


def test_schema_reads_only_the_one_named(database: str) -> None:
    call_command(
        "introspect_schema", "--data-source", "one", "--url", database, "--schema", "research"
    )
    assert _tables("one") == {"author", "publication", "writes"}
    assert DataSource.objects.get(name="one").url.endswith("?schema=research")


def test_joins_are_inferred_without_declared_keys_and_checked_on_the_data(database: str) -> None:
    call_command("introspect_schema", "--data-source", "keys", "--url", database, "--bootstrap")
    edges = {
        (r.from_table, r.from_column, r.to_table, r.to_column): r
        for r in Relationship.objects.filter(data_source__name="keys")
    }
    assert ("writes", "aid", "author", "aid") in edges
    assert ("writes", "pid", "publication", "pid") in edges
    for row in edges.values():
        assert row.kind == "inferred" and not row.validated  # a person may still confirm it
        assert "sampled values found" in row.note
        assert row.confidence >= 0.7


def test_the_agent_joins_along_inferred_relationships(database: str, settings: Any) -> None:
    settings.SQL_LINKED_MIN_CONFIDENCE = 0  # the join, whatever the fitted threshold
    call_command("introspect_schema", "--data-source", "papers", "--url", database, "--bootstrap")
    answer = ask(
        "What are the titles of publications written by Alan Turing?",
        source="papers",
        scope=Scope(),
    )
    assert answer.status == "answered", answer.reason
    assert sorted(row[-1] for row in answer.rows) == ["Computable Numbers", "Computing Machinery"]
