"""A database nobody described gets a data source of its own, from introspection and the
bootstrap's suggestions alone (no hand-written registry rows)."""

import re
from typing import Any

from django.conf import settings
from django.core.management.base import CommandParser

from core.databases.urls import with_schema
from registries.models import DataSource
from registries.services import bootstrap, dialect_of, introspect


def source_for_url(url: str) -> tuple[str, str]:
    """The data source reading `url`, created and bootstrapped on first use."""
    if url == settings.WAREHOUSE_URL:
        return DataSource.objects.default().name, url
    found = DataSource.objects.filter(url=url).first()
    if found is None:
        database = url.rstrip("/").rsplit("/", 1)[-1].split("?")[0]
        name = re.sub(r"[^a-z0-9-]+", "-", database.lower()).strip("-")[:60] or "database"
        if DataSource.objects.filter(name=name).exists():
            name = f"{name}-{DataSource.objects.count()}"
        found = DataSource.objects.create(name=name, url=url, dialect=dialect_of(url))
    if found.introspected_at is None:
        introspect(found)
        bootstrap(found)
    return found.name, url


class UnknownSource(LookupError):
    pass


def source_for_line(
    db: str | None,
    *,
    db_url: str | None = None,
    schema: str | None = None,
    warehouse: str | None = None,
    data_source: str | None = None,
) -> tuple[str, str]:
    """The data source a question-set line is for: its `db` in the `db_url` template, else
    the `warehouse` URL, else the data source named (the default one when None)."""
    if db and db_url:
        return source_for_url(with_schema(db_url.format(db=db), schema))
    if warehouse:
        return source_for_url(with_schema(warehouse, schema))
    try:
        found = (
            DataSource.objects.get(name=data_source)
            if data_source
            else DataSource.objects.default()
        )
    except DataSource.DoesNotExist as error:
        raise UnknownSource(f"no data source named {data_source!r}") from error
    return found.name, found.resolved_url()


def source_options(options: dict[str, Any]) -> dict[str, Any]:
    """`source_for_line`'s arguments from a command's options of the same names."""
    names = ("db_url", "schema", "warehouse", "data_source")
    return {name: options.get(name) for name in names}


def add_source_arguments(parser: CommandParser) -> None:
    """A command's --data-source, --db-url and --schema, as `source_options` reads them."""
    parser.add_argument("--data-source", help="the data source, by name (default: the warehouse)")
    parser.add_argument(
        "--db-url",
        metavar="TEMPLATE",
        help='URL for lines with a "db", e.g. mysql://root@127.0.0.1:3306/spider_{db}',
    )
    parser.add_argument(
        "--schema", help="PostgreSQL: read only this schema of the databases named by URL"
    )
