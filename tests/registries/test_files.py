"""Import and export in the seed's JSON formats: round trips, and bad files that change nothing."""

import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from registries.demo_registry import DEMO_DIR, DEMO_FILES, load_demo_registry
from registries.files import FILENAMES, ImportFailed, export_all, import_files
from registries.introspection import IntrospectedSchema
from registries.models import DataSource, Relationship, Term
from registries.sync import introspect, store

from .conftest import SourceFactory

pytestmark = pytest.mark.django_db


def demo(name: str) -> dict:
    return json.loads((DEMO_DIR / name).read_text())


def state(source: DataSource) -> dict:
    return {k: v for k, v in export_all(source).items() if k != FILENAMES["merged"]}


def test_the_demo_registry_round_trips_without_loss(
    warehouse_source: DataSource, warehouse_mysql_url: str, warehouse_schema: IntrospectedSchema
) -> None:
    exported = export_all(warehouse_source)
    # What was loaded comes back out as it was written.
    assert exported["domain_registry.json"] == demo("domain_registry.json")
    assert (
        exported["display_attributes_registry.json"]["tables"]
        == demo("display_attributes_registry.json")["tables"]
    )
    assert exported["join_graph_manual.json"] == demo("join_graph_manual.json")
    assert exported["secure_views.json"] == demo("secure_views.json")
    # Into a second data source on the same database, stored from the same schema (the
    # relationships the data would add are not what is compared), and out again: the same
    # documents.
    copy = DataSource.objects.create(name="copy", url=warehouse_mysql_url, dialect="mysql")
    store(copy, warehouse_schema)
    files = [(name, json.dumps(doc)) for name, doc in exported.items()]
    import_files(copy, files)
    assert export_all(copy) == exported
    # Importing the same files again changes nothing.
    version = DataSource.objects.get(pk=copy.pk).version
    report = import_files(copy, files)
    assert not report.created and not report.updated
    assert sum(report.unchanged.values()) > 300
    assert DataSource.objects.get(pk=copy.pk).version == version + 1


def test_merged_join_graph_round_trip_keeps_kinds_and_flags(
    make_source: SourceFactory, spider_without_keys_url: str
) -> None:
    source = make_source("bare", spider_without_keys_url)
    row = Relationship.objects.filter(data_source=source).first()
    assert row is not None
    row.enabled, row.validated, row.note = False, True, "checked by hand"
    row.save()
    Relationship.objects.create(
        data_source=source,
        from_table="Orders",
        from_column="order_details",
        to_table="Products",
        to_column="product_name",
        kind="manual",
        confidence=0.4,
        cardinality="many_to_many",
        source="admin",
    )
    merged = export_all(source)["join_graph_merged.json"]
    assert merged["tables"]["Orders"]["unique_columns"] == ["order_id"]
    copy = DataSource.objects.create(name="copy", url=spider_without_keys_url, dialect="mysql")
    introspect(copy, infer=False)
    import_files(copy, [("join_graph_merged.json", json.dumps(merged))])
    assert export_all(copy)["join_graph_merged.json"] == merged
    manual = next(r for r in merged["relationships"] if r["type"] == "manual")
    assert manual["cardinality"] == "N:N" and manual["source"] == "admin"


def test_a_bad_file_changes_nothing_and_every_problem_has_a_location(
    warehouse_source: DataSource,
) -> None:
    before = state(warehouse_source)
    version = DataSource.objects.get(pk=warehouse_source.pk).version
    domain = {
        "version": 1,
        "terms": {
            "crane": {
                "entity": "asset",
                "synonyms": "cranes",
                "resolution": {
                    "primary": {"table": "assets", "column": "name", "match_type": "text_search"},
                    "secondary": {"table": "crew", "column": "isLead", "match_type": "boolean"},
                    "tertiary": {"table": "asset"},
                },
            },
            "brand new term": {
                "entity": "asset",
                "resolution": {"primary": {"table": "asset", "match_type": "structural"}},
            },
        },
    }
    display = {"version": 2, "tables": {"asset": {"display_columns": ["id", "nmae"]}}}
    manual = {
        "version": 1,
        "relationships": [
            {"from_table": "workTime", "from_column": "employeeId", "to_table": "employee"},
            {
                "from_table": "workTime",
                "from_column": "employeeId",
                "to_table": "employee",
                "to_column": "uid",
                "confidence": 3,
            },
        ],
        "table_metadata": {"employeeCrew": {"role": "junction"}},
    }
    files = [
        ("domain_registry.json", json.dumps(domain)),
        ("display_attributes_registry.json", json.dumps(display)),
        ("join_graph_manual.json", json.dumps(manual)),
        ("secure_views.json", '{"version": 1, "secure_views": {"employee": {"view": }}}'),
    ]
    with pytest.raises(ImportFailed) as failed:
        import_files(warehouse_source, files)
    problems = {p.location: p.message for p in failed.value.problems}
    text = str(failed.value)
    assert "domain_registry.json: terms.crane.synonyms" in problems
    assert (
        "Did you mean: asset"
        in problems["domain_registry.json: terms.crane.resolution.primary.tables"]
    )
    found_in = problems["domain_registry.json: terms.crane.resolution.secondary.columns"]
    assert (
        "Column 'crew.isLead' does not exist in table 'crew'. Found in: employeeCrew." in found_in
    )
    assert (
        "needs a value" in problems["domain_registry.json: terms.crane.resolution.secondary.value"]
    )
    assert "unknown field" in problems["domain_registry.json: terms.crane.resolution.tertiary"]
    assert "expected version 1, found 2" in problems["display_attributes_registry.json: version"]
    assert (
        "Did you mean: asset.name"
        in problems["display_attributes_registry.json: tables.asset.display_columns"]
    )
    assert (
        "missing required field 'to_column'" in problems["join_graph_manual.json: relationships[0]"]
    )
    assert "from 0 to 1" in problems["join_graph_manual.json: relationships[1].confidence"]
    assert "Column 'employee.uid'" in problems["join_graph_manual.json: relationships[1].to_column"]
    assert "not one of" in problems["join_graph_manual.json: table_metadata.employeeCrew.role"]
    assert "secure_views.json: line 1, column" in text and "not valid JSON" in text
    # Nothing at all was stored, not even the one good term.
    assert state(warehouse_source) == before
    assert DataSource.objects.get(pk=warehouse_source.pk).version == version
    assert not Term.objects.filter(name="brand new term").exists()


def test_import_keeps_person_edits_unless_told_and_replace_removes(
    warehouse_source: DataSource,
) -> None:
    crane = Term.objects.get(data_source=warehouse_source, name="crane")
    crane.synonyms, crane.edited_by_person = ["derrick"], True
    crane.save()
    Term.objects.create(data_source=warehouse_source, name="scratch", entity="x")
    files = [(name, (DEMO_DIR / name).read_text()) for name in DEMO_FILES]
    report = import_files(warehouse_source, files, replace=True)
    assert "term crane" in report.kept_person_edits
    assert Term.objects.get(pk=crane.pk).synonyms == ["derrick"]
    assert not Term.objects.filter(name="scratch").exists()
    import_files(warehouse_source, files, keep_person_edits=False)
    crane.refresh_from_db()
    assert "cranes" in crane.synonyms and not crane.edited_by_person


def test_commands_export_and_import(warehouse_source: DataSource, tmp_path: Path) -> None:
    call_command("export_registry", str(tmp_path))
    assert {p.name for p in tmp_path.iterdir()} == set(FILENAMES.values())
    broken = tmp_path / "domain_registry.json"
    broken.write_text(broken.read_text().replace('"table": "asset"', '"table": "asets"', 1))
    with pytest.raises(CommandError, match="nothing was imported") as failed:
        call_command("import_registry", str(broken))
    assert "Table 'asets' does not exist" in str(failed.value)
    call_command("import_registry", *[str(p) for p in tmp_path.iterdir() if p != broken])


def test_the_demo_registry_removes_what_an_earlier_one_shipped_and_no_more(
    warehouse_source: DataSource,
) -> None:
    # A term an earlier demo registry shipped, one imported from elsewhere, and a shipped
    # one a person edited since: only the first is the demo's to take back.
    Term.objects.create(data_source=warehouse_source, name="retired", entity="x", source="demo")
    Term.objects.create(data_source=warehouse_source, name="imported", entity="x", source="import")
    Term.objects.create(
        data_source=warehouse_source, name="edited", entity="x", source="demo",
        edited_by_person=True,
    )  # fmt: skip
    _, report = load_demo_registry(warehouse_source)
    names = set(Term.objects.filter(data_source=warehouse_source).values_list("name", flat=True))
    assert "retired" not in names and {"imported", "edited", "crane"} <= names
    assert report.removed["terms"] == 1 and "term edited" in report.kept_person_edits
