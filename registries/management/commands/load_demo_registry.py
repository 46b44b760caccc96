from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError

from registries.demo_registry import WarehouseMissing, load_demo_registry
from registries.files import ImportFailed

from ._source import add_source_arguments, data_source


class Command(BaseCommand):
    help = (
        "Introspect the demo warehouse and load its complete registry (terms, display "
        "attributes, table roles, secure views). Idempotent; keeps rows a person edited."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        add_source_arguments(parser, url=True)

    def handle(self, *args: Any, **options: Any) -> None:
        source = data_source(options)
        try:
            introspection, report = load_demo_registry(source)
        except WarehouseMissing as error:
            raise CommandError(str(error)) from error
        except (ImproperlyConfigured, DatabaseError, OSError) as error:
            raise CommandError(
                f"{source.name}: cannot read the warehouse ({error}); load it first with "
                "`manage.py load_warehouse`, or point WAREHOUSE_URL at it"
            ) from error
        except ImportFailed as failed:
            raise CommandError(
                f"the demo registry does not fit {source.name}: {failed}"
            ) from failed
        self.stdout.write(introspection.summary())
        self.stdout.write(f"{source.name} demo registry: {report.summary()}")
