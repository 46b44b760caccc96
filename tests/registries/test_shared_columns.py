"""Tables nothing joins, joined by a column they share when the data says one refers to
the other; on a small MariaDB database written for these tests."""

from collections.abc import Iterator

import pymysql
import pytest

from registries.models import DataSource, Relationship

from .conftest import MYSQL, PREFIX, SourceFactory

DATABASE = f"{PREFIX}_shared_columns"[:64]
SCHEMA = [
    # Each tutor has a room of their own; pupils sit in rooms; no key says so.
    "CREATE TABLE tutors (tutor_name VARCHAR(40), room INT)",
    "CREATE TABLE pupils (pupil_name VARCHAR(40), grade INT, room INT)",
    "INSERT INTO tutors VALUES ('Ada', 101), ('Ben', 102), ('Cy', 103)",
    "INSERT INTO pupils VALUES ('Dee', 1, 101), ('Eli', 1, 101), ('Fay', 2, 102), ('Gus', 2, 103)",
    # Visits name a room no tutor has: the values say no reference.
    "CREATE TABLE visits (visitor VARCHAR(40), room INT)",
    "INSERT INTO visits VALUES ('Hal', 101), ('Ivy', 999)",
    # Two logs, neither with one row a room: no side is a key.
    "CREATE TABLE cleaning (cleaned_on DATE, wing VARCHAR(10))",
    "CREATE TABLE repairs (repaired_on DATE, wing VARCHAR(10))",
    "INSERT INTO cleaning VALUES ('2026-01-01', 'east'), ('2026-01-02', 'east')",
    "INSERT INTO repairs VALUES ('2026-01-03', 'east'), ('2026-01-04', 'east')",
    # Lessons refer to courses by a declared key, and both hold the course's title.
    "CREATE TABLE courses (course_id INT PRIMARY KEY, title VARCHAR(40))",
    "CREATE TABLE lessons (lesson_id INT PRIMARY KEY, course_id INT, title VARCHAR(40),"
    " FOREIGN KEY (course_id) REFERENCES courses (course_id))",
    "INSERT INTO courses VALUES (1, 'Sums'), (2, 'Maps')",
    "INSERT INTO lessons VALUES (10, 1, 'Sums'), (11, 2, 'Maps'), (12, 2, 'Maps')",
]


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    server = pymysql.connect(host="127.0.0.1", port=3306, user="root", autocommit=True)
    with server.cursor() as cursor:
        cursor.execute(f"DROP DATABASE IF EXISTS `{DATABASE}`")
        cursor.execute(f"CREATE DATABASE `{DATABASE}`")
        cursor.execute(f"USE `{DATABASE}`")
        for statement in SCHEMA:
            cursor.execute(statement)
    yield f"{MYSQL}/{DATABASE}"
    with server.cursor() as cursor:
        cursor.execute(f"DROP DATABASE IF EXISTS `{DATABASE}`")
    server.close()


def _edges(source: DataSource) -> dict[tuple[str, str], Relationship]:
    return {
        (f"{r.from_table}.{r.from_column}", f"{r.to_table}.{r.to_column}"): r
        for r in Relationship.objects.filter(data_source=source)
    }


def test_a_shared_column_joins_tables_nothing_else_joins(
    make_source: SourceFactory, url: str
) -> None:
    edges = _edges(make_source("shared", url))
    found = edges[("pupils.room", "tutors.room")]  # to the side where each room is once
    assert found.kind == "inferred" and not found.validated
    assert 0 < found.confidence < 1
    assert "nothing else joins them" in found.note
    assert ("tutors.room", "pupils.room") not in edges


def test_no_shared_column_edge_where_the_data_or_the_schema_says_otherwise(
    make_source: SourceFactory, url: str
) -> None:
    edges = _edges(make_source("shared", url))
    froms = {edge[0] for edge in edges}
    assert "visits.room" not in froms  # room 999 is no tutor's
    assert not {"cleaning.wing", "repairs.wing"} & froms  # "east" twice on both sides
    # lessons' titles are all courses' titles, but a declared key already joins them
    assert ("lessons.course_id", "courses.course_id") in edges
    assert "lessons.title" not in froms
