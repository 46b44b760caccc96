"""The admin as a data steward uses it: search, filters, validation, join graph, files."""

import json

import pytest
from django.contrib.admin.models import LogEntry
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from registries.models import DataSource, Relationship, Term

pytestmark = pytest.mark.django_db


def term_form(source: DataSource, **resolution: str) -> dict[str, str]:
    data = {
        "data_source": str(source.pk),
        "name": "boom truck",
        "synonyms": "boom trucks, knuckle boom",
        "entity": "asset",
        "description": "Truck-mounted cranes.",
        "resolutions-TOTAL_FORMS": "1",
        "resolutions-INITIAL_FORMS": "0",
        "resolutions-MIN_NUM_FORMS": "0",
        "resolutions-MAX_NUM_FORMS": "3",
        "resolutions-0-rank": "primary",
        "resolutions-0-tables": "asset",
        "resolutions-0-columns": "name",
        "resolutions-0-match_type": "text_search",
        "resolutions-0-value": "boom",
        "resolutions-0-confidence": "0.9",
    }
    data.update({f"resolutions-0-{k}": v for k, v in resolution.items()})
    return data


def test_search_and_filters(admin_client: Client, warehouse_source: DataSource) -> None:
    terms = reverse("admin:registries_term_changelist")
    page = admin_client.get(terms, {"q": "forklifts"}).content.decode()
    assert ">forklift<" in page and ">crane<" not in page
    page = admin_client.get(terms, {"suggested__exact": "1"}).content.decode()
    assert "0 terms" in page
    edges = reverse("admin:registries_relationship_changelist")
    query = {"kind__exact": "foreign_key", "q": "employeeCrew"}
    page = admin_client.get(edges, query).content.decode()
    assert "employeeCrew.employeeId -&gt; employee.id" in page
    roles = reverse("admin:registries_tablemetadata_changelist")
    page = admin_client.get(roles, {"role__exact": "assignment"}).content.decode()
    assert "employeeCrew" in page and "workOrder<" not in page


def test_adding_a_term_with_a_resolution(
    admin_client: Client, warehouse_source: DataSource
) -> None:
    response = admin_client.post(reverse("admin:registries_term_add"), term_form(warehouse_source))
    assert response.status_code == 302, response.content.decode()[:3000]
    term = Term.objects.get(name="boom truck")
    assert term.synonyms == ["boom trucks", "knuckle boom"]
    assert (term.edited_by_person, term.source) == (True, "admin")
    resolution = term.resolutions.get()
    assert resolution.columns == ["asset.name"] and resolution.value == "boom"
    entry = LogEntry.objects.get(object_id=str(term.pk))
    assert entry.is_addition() and entry.user.username == "admin"


def test_validation_names_what_is_missing_and_suggests(
    admin_client: Client, warehouse_source: DataSource
) -> None:
    data = term_form(warehouse_source, tables="crew", columns="isLead", match_type="boolean")
    data["resolutions-0-value"] = "true"
    page = admin_client.post(reverse("admin:registries_term_add"), data).content.decode()
    assert "Column &#x27;crew.isLead&#x27; does not exist in table &#x27;crew&#x27;." in page
    assert "Found in: employeeCrew." in page
    data = term_form(warehouse_source, tables="workorder")
    page = admin_client.post(reverse("admin:registries_term_add"), data).content.decode()
    assert "Did you mean: workOrder" in page
    assert not Term.objects.filter(name="boom truck").exists()


def test_a_relationship_to_a_missing_column_cannot_be_saved(
    admin_client: Client, warehouse_source: DataSource
) -> None:
    data = {
        "data_source": str(warehouse_source.pk),
        "from_table": "workTime",
        "from_column": "employeId",
        "to_table": "employee",
        "to_column": "id",
        "kind": "manual",
        "confidence": "1",
        "cardinality": "many_to_one",
        "enabled": "on",
    }
    page = admin_client.post(reverse("admin:registries_relationship_add"), data).content.decode()
    assert "Did you mean: workTime.employeeId?" in page
    assert not Relationship.objects.filter(from_column="employeId").exists()
    with pytest.raises(ValidationError, match="employeId"):
        Relationship.objects.create(
            data_source=warehouse_source,
            from_table="workTime",
            from_column="employeId",
            to_table="employee",
            to_column="id",
        )


def test_join_graph_around_a_table(admin_client: Client, warehouse_source: DataSource) -> None:
    url = reverse("admin:registries_datasource_join_graph", args=[warehouse_source.pk])
    page = admin_client.get(url, {"table": "workTime"}).content.decode()
    assert "<svg" in page and 'aria-label="Join graph of workTime"' in page
    for neighbour in ("employee", "workOrder", "workTimeType", "payrollPeriod", "crew"):
        assert f"?table={neighbour}&amp;depth=1" in page
    assert "workTime.employeeId" in page
    wider = admin_client.get(url, {"table": "workTime", "depth": "2"}).content.decode()
    assert wider.count("<circle") > page.count("<circle")
    missing = admin_client.get(url, {"table": "nope"}).content.decode()
    assert "No table named" in missing


def test_import_and_export_pages(admin_client: Client, warehouse_source: DataSource) -> None:
    export = reverse(
        "admin:registries_datasource_export", args=[warehouse_source.pk, "domain_registry.json"]
    )
    document = json.loads(admin_client.get(export).content)
    assert "crane" in document["terms"]
    document["terms"]["crane"]["synonyms"].append("derrick")
    document["terms"]["crane"]["resolution"]["primary"]["column"] = "nme"
    url = reverse("admin:registries_datasource_import", args=[warehouse_source.pk])
    bad = SimpleUploadedFile("domain_registry.json", json.dumps(document).encode())
    page = admin_client.post(url, {"upload": [bad]}).content.decode()
    assert "Nothing was imported" in page and "terms.crane.resolution.primary.columns" in page
    assert "derrick" not in Term.objects.get(name="crane").synonyms
    document["terms"]["crane"]["resolution"]["primary"]["column"] = "name"
    good = SimpleUploadedFile("domain_registry.json", json.dumps(document).encode())
    response = admin_client.post(url, {"upload": [good]})
    assert response.status_code == 302
    assert "derrick" in Term.objects.get(name="crane").synonyms
    history = LogEntry.objects.filter(object_id=str(warehouse_source.pk)).first()
    assert history is not None and "Imported domain_registry.json" in history.get_change_message()


def test_introspect_action_and_history(admin_client: Client, warehouse_source: DataSource) -> None:
    url = reverse("admin:registries_datasource_changelist")
    data = {"action": "introspect_action", "_selected_action": [str(warehouse_source.pk)]}
    response = admin_client.post(url, data, follow=True)
    assert "135 tables, 68 views" in response.content.decode()
    assert LogEntry.objects.filter(change_message__contains="Introspected").exists()
