"""A database nobody described: with the bootstrap's suggestions alone, the SQL agent's
planner already answers simple questions, checked against SQL written by hand."""

from datetime import date

import pymysql
import pytest

from registries.bootstrap import bootstrap
from registries.semantic_layer_loader import load_semantic_layer
from sqlagent.answer_matching import matches
from sqlagent.execution import execute_read
from sqlagent.question_terms import extract_terms
from sqlagent.resolution import resolve
from sqlagent.schema_view import executable_schema
from sqlagent.secure_views import rewrite_secure_views
from sqlagent.sql_compiler import compile_plan
from sqlagent.table_selection import select_tables
from sqlagent.validation import validate_sql
from sqlagent.value_index import value_index
from sqlagent.vocabulary import vocabulary

from .conftest import SourceFactory

pytestmark = pytest.mark.django_db

QUESTIONS = [
    ("How many albums are there?", "SELECT COUNT(*) FROM Album", False),
    ("List all genres.", "SELECT Name FROM Genre", False),
    (
        "How many customers are in Brazil?",
        "SELECT COUNT(*) FROM Customer WHERE Country = 'Brazil'",
        False,
    ),
    (
        "How many tracks are there in each genre?",
        "SELECT g.Name, COUNT(*) FROM Track t JOIN Genre g ON g.GenreId = t.GenreId "
        "GROUP BY g.GenreId, g.Name",
        False,
    ),
    (
        "Which artists have the most albums? Show the top 3.",
        "SELECT ar.Name, COUNT(*) AS n FROM Album al JOIN Artist ar ON ar.ArtistId = al.ArtistId "
        "GROUP BY ar.ArtistId, ar.Name ORDER BY n DESC, ar.Name LIMIT 3",
        True,
    ),
    ("What is the total of all invoices?", "SELECT SUM(Total) FROM Invoice", False),
]


def _gold(url: str, sql: str) -> list[tuple[object, ...]]:
    database = url.rsplit("/", 1)[1]
    conn = pymysql.connect(host="127.0.0.1", user="root", database=database)
    try:
        with conn.cursor() as cursor:
            cursor.execute(sql)
            return list(cursor.fetchall())
    finally:
        conn.close()


def test_simple_questions_are_answered_from_the_bootstrap_alone(
    make_source: SourceFactory, chinook_mysql_url: str
) -> None:
    source = make_source("chinook-bootstrap", chinook_mysql_url)
    bootstrap(source)
    layer = load_semantic_layer(source.name)
    values = value_index(layer, chinook_mysql_url, agent=False)
    vocab = vocabulary(layer, values.values)
    for question, gold_sql, ordered in QUESTIONS:
        terms = extract_terms(question, vocab, today=date(2026, 11, 21))
        plan = select_tables(terms, resolve(terms, layer, values), layer)
        sql = rewrite_secure_views(compile_plan(plan, layer), layer).sql(dialect="mysql")
        validate_sql(sql, layer=layer, schema=executable_schema(layer))
        answer = execute_read(sql, url=chinook_mysql_url, agent=False, max_rows=1000)
        assert matches(_gold(chinook_mysql_url, gold_sql), answer.rows, ordered=ordered), (
            question,
            sql,
        )
