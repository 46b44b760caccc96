"""The demo warehouse's complete registry, loaded by `manage.py load_demo_registry`."""

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from registries.models import (
    DataSource,
    DisplayAttributes,
    SchemaTable,
    SecureView,
    TableMetadata,
    Term,
)

pytestmark = pytest.mark.django_db


def test_load_demo_registry_is_complete_idempotent_and_keeps_edits(
    warehouse_mysql_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    call_command("load_demo_registry", "--url", warehouse_mysql_url)
    source = DataSource.objects.get(name="warehouse")
    tables = set(
        SchemaTable.objects.filter(data_source=source, is_view=False).values_list("name", flat=True)
    )
    roles = dict(TableMetadata.objects.filter(data_source=source).values_list("table", "role"))
    assert set(roles) == tables  # a role for every table
    hidden = set(
        TableMetadata.objects.filter(data_source=source, hidden=True).values_list(
            "table", flat=True
        )
    )
    assert hidden == {"warehouseMeta"}
    shown = set(
        DisplayAttributes.objects.filter(data_source=source).values_list("table", flat=True)
    )
    assert shown == tables - hidden  # every table a question can reach
    views = dict(SecureView.objects.filter(data_source=source).values_list("table", "view"))
    assert views["employee"] == "secure_employee" and views["workOrder"] == "secure_workorder"
    assert len(views) == SchemaTable.objects.filter(data_source=source, is_view=True).count()
    names = set(Term.objects.filter(data_source=source).values_list("name", flat=True))
    required = {"crane", "forklift", "action item", "inspection questions", "technician"}
    assert required | {"overtime", "active"} <= names
    crane = Term.objects.get(data_source=source, name="crane")
    crane.description, crane.edited_by_person = "Edited by the steward.", True
    crane.save()
    capsys.readouterr()
    call_command("load_demo_registry")
    out = capsys.readouterr().out
    assert "created nothing; updated nothing" in out and "kept 1 rows a person edited" in out
    assert Term.objects.get(pk=crane.pk).description == "Edited by the steward."


def test_without_a_warehouse_the_command_says_what_to_do() -> None:
    with pytest.raises(CommandError, match="load_warehouse"):
        call_command(
            "load_demo_registry", "--url", "mysql://root@127.0.0.1:3306/no_such_warehouse_db"
        )
