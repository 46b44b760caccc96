"""Introspection of real MariaDB and PostgreSQL databases, and re-runs that keep edits."""

import dataclasses

import pytest

from registries.inference import SHARED_KEY
from registries.introspection import read_schema, warehouse_connection
from registries.models import DataSource, Relationship, SchemaColumn, SchemaTable
from registries.sync import store

from .conftest import SourceFactory

pytestmark = pytest.mark.django_db


def edge(source: DataSource, from_: str, to: str) -> Relationship:
    from_table, from_column = from_.split(".")
    to_table, to_column = to.split(".")
    return Relationship.objects.get(
        data_source=source,
        from_table=from_table,
        from_column=from_column,
        to_table=to_table,
        to_column=to_column,
    )


def column(source: DataSource, reference: str) -> SchemaColumn:
    table, name = reference.split(".")
    return SchemaColumn.objects.get(table__data_source=source, table__name=table, name=name)


def test_chinook_on_mariadb(make_source: SourceFactory, chinook_mysql_url: str) -> None:
    source = make_source("chinook", chinook_mysql_url)
    assert source.dialect == "mysql" and source.introspected_at is not None
    assert SchemaTable.objects.filter(data_source=source).count() == 11
    fk = edge(source, "Track.AlbumId", "Album.AlbumId")
    assert (fk.kind, fk.confidence, fk.validated, fk.source) == (
        "foreign_key",
        1.0,
        True,
        "introspection",
    )
    assert Relationship.objects.filter(data_source=source, kind="foreign_key").count() == 11
    assert edge(source, "Employee.ReportsTo", "Employee.EmployeeId").cardinality == "many_to_one"
    assert column(source, "Track.UnitPrice").data_type == "decimal"
    assert column(source, "Invoice.InvoiceDate").data_type == "datetime"
    assert column(source, "Track.Name").data_type == "text"
    assert column(source, "Track.Composer").nullable is not False
    track_id = column(source, "Track.TrackId")
    assert track_id.primary_key and track_id.unique and not track_id.nullable
    playlist_keys = SchemaColumn.objects.filter(
        table__data_source=source, table__name="PlaylistTrack", primary_key=True
    )
    assert {c.name for c in playlist_keys} == {"PlaylistId", "TrackId"}
    assert SchemaTable.objects.get(data_source=source, name="Track").row_estimate > 1000


def test_chinook_on_postgresql(make_source: SourceFactory, chinook_postgres_url: str) -> None:
    source = make_source("chinook-pg", chinook_postgres_url)
    assert source.dialect == "postgres"
    assert edge(source, "track.album_id", "album.album_id").kind == "foreign_key"
    assert edge(source, "invoice_line.track_id", "track.track_id").confidence == 1.0
    assert column(source, "invoice.total").data_type == "decimal"
    assert column(source, "track.name").data_type == "text"
    # reltuples is unknown before PostgreSQL first analyses a table: then rows are counted.
    assert SchemaTable.objects.get(data_source=source, name="track").row_estimate == 3503


def test_spider_databases(make_source: SourceFactory, spider_urls: dict[str, str]) -> None:
    source = make_source("invoices", spider_urls["customers_and_invoices"])
    assert SchemaTable.objects.filter(data_source=source).count() == 9
    declared = Relationship.objects.filter(data_source=source, kind="foreign_key")
    assert declared.count() == 11
    store_ = make_source("store", spider_urls["department_store"])
    assert Relationship.objects.filter(data_source=store_, kind="foreign_key").count() >= 13
    hr = make_source("hr", spider_urls["hr_1"])
    assert SchemaTable.objects.filter(data_source=hr).count() == 7


def test_names_recover_the_foreign_keys_a_database_does_not_declare(
    make_source: SourceFactory, spider_urls: dict[str, str], spider_without_keys_url: str
) -> None:
    declared = make_source("declared", spider_urls["customers_and_invoices"])
    bare = make_source("bare", spider_without_keys_url)
    truth = {
        (r.from_table, r.from_column, r.to_table, r.to_column)
        for r in Relationship.objects.filter(data_source=declared, kind="foreign_key")
    }
    inferred = Relationship.objects.filter(data_source=bare)
    assert not inferred.filter(kind="foreign_key").exists()
    found = {(r.from_table, r.from_column, r.to_table, r.to_column) for r in inferred}
    assert truth <= found
    for row in inferred:
        assert row.kind == "inferred" and row.source == "inference" and not row.validated
        assert 0 < row.confidence < 1
    shared = edge(bare, "Financial_Transactions.invoice_number", "Invoices.invoice_number")
    # Named like Invoices' key, and every sampled value is one: surer than the name alone.
    assert shared.confidence > SHARED_KEY
    assert "sampled values found in Invoices" in shared.note


def test_a_reference_with_one_dangling_value_is_still_inferred(
    make_source: SourceFactory, spider_urls: dict[str, str]
) -> None:
    # hr_1 declares no key from departments to locations, and one department's location
    # is not among the locations: one value missing of seven is a row left dangling
    source = make_source("hr", spider_urls["hr_1"])
    found = edge(source, "departments.LOCATION_ID", "locations.LOCATION_ID")
    assert found.kind == "inferred"
    assert "6 of 7 sampled values found in locations" in found.note


@pytest.mark.parametrize("engine", ["mysql", "postgres"])
def test_the_demo_warehouse(
    make_source: SourceFactory, engine: str, request: pytest.FixtureRequest
) -> None:
    url = request.getfixturevalue(f"warehouse_{engine}_url")
    source = make_source(f"warehouse-{engine}", url)
    tables = SchemaTable.objects.filter(data_source=source)
    assert tables.filter(is_view=False).count() >= 120
    assert tables.filter(is_view=True, name="secure_employee").exists()
    assert column(source, "employee.isTechnician").data_type == "boolean"
    assert column(source, "employee.hireDate").data_type == "date"
    # Encrypted at rest in the table; the secure view carries the readable type.
    assert column(source, "employee.firstName").data_type == "binary"
    assert column(source, "secure_employee.firstName").data_type == "text"
    assert column(source, "employee.employeeNumber").unique
    fk = edge(source, "workTime.employeeId", "employee.id")
    assert fk.kind == "foreign_key" and fk.confidence == 1.0
    assert Relationship.objects.filter(data_source=source, kind="foreign_key").count() >= 150


@pytest.mark.parametrize("database", ["warehouse_mysql_url", "chinook_mysql_url"])
def test_mysql_keys_read_at_once_are_the_constraints_of_each_table(
    database: str, request: pytest.FixtureRequest
) -> None:
    """One read of the schema's indexes gives the primary and unique keys that Django's
    per-table constraint query gives (composite keys, unique columns, plain indexes)."""
    url = request.getfixturevalue(database)
    schema = read_schema(url)
    with warehouse_connection(url) as connection, connection.cursor() as cursor:
        for table in schema.tables:
            if table.is_view:
                continue
            constraints = connection.introspection.get_constraints(cursor, table.name)
            primary = {c for k in constraints.values() if k["primary_key"] for c in k["columns"]}
            unique = {
                k["columns"][0]
                for k in constraints.values()
                if k["unique"] and len(k["columns"]) == 1
            }
            assert {c.name for c in table.columns if c.primary_key} == primary, table.name
            assert {c.name for c in table.columns if c.unique} == unique, table.name
    composite = [t.name for t in schema.tables if sum(c.primary_key for c in t.columns) > 1]
    assert composite or database != "chinook_mysql_url"  # PlaylistTrack's


def test_rerunning_updates_what_changed_and_keeps_person_edits(
    make_source: SourceFactory, chinook_mysql_url: str
) -> None:
    source = make_source("chinook", chinook_mysql_url)
    person = edge(source, "Track.GenreId", "Genre.GenreId")
    person.enabled, person.edited_by_person, person.confidence = False, True, 0.3
    person.save()
    machine = edge(source, "Track.MediaTypeId", "MediaType.MediaTypeId")
    machine.confidence = 0.5  # as if the database said otherwise last time
    machine.save()
    schema = read_schema(chinook_mysql_url)
    # The database changed: Track lost MediaTypeId and GenreId, Album gained a column.
    track = schema.table("Track")
    album = schema.table("Album")
    gone = {"MediaTypeId", "GenreId"}
    changed = dataclasses.replace(
        schema,
        tables=tuple(
            dataclasses.replace(t, columns=tuple(c for c in t.columns if c.name not in gone))
            if t is track
            else dataclasses.replace(
                t, columns=(*t.columns, dataclasses.replace(t.columns[1], name="Year"))
            )
            if t is album
            else t
            for t in schema.tables
        ),
        foreign_keys=tuple(
            fk
            for fk in schema.foreign_keys
            if (fk.from_table, fk.from_column) != ("Track", "MediaTypeId")
        ),
    )
    store(source, schema)
    assert edge(source, "Track.MediaTypeId", "MediaType.MediaTypeId").confidence == 1.0
    version = DataSource.objects.get(pk=source.pk).version
    report = store(source, changed)
    assert DataSource.objects.get(pk=source.pk).version == version + 1  # one bump per run
    assert "column Track.MediaTypeId" in report.removed
    assert column(source, "Album.Year")
    assert not Relationship.objects.filter(data_source=source, from_column="MediaTypeId").exists()
    kept = edge(source, "Track.GenreId", "Genre.GenreId")
    assert (kept.enabled, kept.confidence, kept.edited_by_person) == (False, 0.3, True)
