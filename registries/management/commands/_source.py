"""The --data-source and --url options the registry commands share."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import CommandError, CommandParser

from core.databases.urls import with_schema
from registries.models import DataSource
from registries.models.base import dialect_of


def add_source_arguments(parser: CommandParser, *, url: bool = False) -> None:
    parser.add_argument(
        "--data-source",
        default=None,
        help="data source name (default: the warehouse, named by REGISTRIES_DEFAULT_DATA_SOURCE)",
    )
    if url:
        parser.add_argument(
            "--url", default=None, help="create or re-point the data source at this database URL"
        )
        parser.add_argument(
            "--schema",
            default=None,
            help="PostgreSQL: read only this schema (default: every non-system schema)",
        )


def data_source(options: dict[str, Any]) -> DataSource:
    name = options.get("data_source") or settings.REGISTRIES_DEFAULT_DATA_SOURCE
    url = with_schema(options["url"], options.get("schema")) if options.get("url") else None
    if url:
        try:
            dialect = dialect_of(url)
        except ValueError as error:
            raise CommandError(str(error)) from error
        source, _ = DataSource.objects.update_or_create(
            name=name, defaults={"url": url, "dialect": dialect}
        )
        return source
    if name == settings.REGISTRIES_DEFAULT_DATA_SOURCE:
        return DataSource.objects.default()
    try:
        return DataSource.objects.get(name=name)
    except DataSource.DoesNotExist:
        raise CommandError(f"no data source named {name!r}; pass --url to create it") from None
