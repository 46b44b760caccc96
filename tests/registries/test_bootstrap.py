"""Bootstrap: suggestions for a database nobody described, from its schema alone."""

import pytest

from registries.bootstrap import Col, Shape, bootstrap, suggest_role
from registries.models import DisplayAttributes, TableMetadata, Term
from registries.semantic_layer_loader import load_semantic_layer

from .conftest import SourceFactory

pytestmark = pytest.mark.django_db


def test_chinook_gets_labels_roles_and_terms(
    make_source: SourceFactory, chinook_mysql_url: str
) -> None:
    source = make_source("chinook", chinook_mysql_url)
    report = bootstrap(source)
    assert (report.display_attributes, report.roles) == (11, 11)
    labels = {
        d.table: d.primary_label for d in DisplayAttributes.objects.filter(data_source=source)
    }
    assert labels["Artist"] == ["Name"]
    assert labels["Album"] == ["Title"]
    assert labels["Customer"] == ["FirstName", "LastName"]
    shown = DisplayAttributes.objects.get(data_source=source, table="Customer").display_columns
    assert shown[0] == "CustomerId" and "Phone" not in shown and len(shown) <= 5
    roles = {m.table: m.role for m in TableMetadata.objects.filter(data_source=source)}
    assert roles["PlaylistTrack"] == "bridge"  # nothing but two foreign keys
    assert roles["InvoiceLine"] == "content_child"
    assert roles["Genre"] == "reference"
    assert roles["Invoice"] == "instance"
    track = Term.objects.get(data_source=source, name="track")
    assert "tracks" in track.synonyms and track.suggested and track.source == "bootstrap"
    assert track.resolutions.get().tables == ["Track"]
    assert Term.objects.get(data_source=source, name="media type").synonyms == [
        "media types",
        "MediaType",
    ]
    everything = [
        *DisplayAttributes.objects.filter(data_source=source),
        *TableMetadata.objects.filter(data_source=source),
        *Term.objects.filter(data_source=source),
    ]
    assert all(row.suggested for row in everything)


def test_satellites_assignments_and_flag_terms(
    make_source: SourceFactory, warehouse_mysql_url: str
) -> None:
    source = make_source("wh", warehouse_mysql_url)
    bootstrap(source)
    roles = {m.table: m.role for m in TableMetadata.objects.filter(data_source=source)}
    assert roles["employeeSkill"] == "bridge"
    assert roles["inspectionSignature"] == "satellite"
    assert roles["workOrderAttachment"] == "satellite"
    assert roles["inspectionQuestionAnswer"] == "content_child"
    assert roles["customerBillingConfiguration"] == "configuration"
    technician = Term.objects.get(data_source=source, name="technician")
    resolution = technician.resolutions.get()
    assert (resolution.match_type, resolution.columns, resolution.value) == (
        "boolean",
        ["employee.isTechnician"],
        True,
    )
    # isActive is on many tables: on its own it names nothing, so no term is guessed.
    assert not Term.objects.filter(data_source=source, name="active").exists()


def test_rerunning_keeps_what_exists(
    make_source: SourceFactory, spider_urls: dict[str, str]
) -> None:
    source = make_source("hr", spider_urls["hr_1"])
    bootstrap(source)
    row = DisplayAttributes.objects.get(data_source=source, table="employees")
    row.primary_label, row.edited_by_person, row.suggested = ["EMAIL"], True, False
    row.save()
    again = bootstrap(source)
    assert (again.display_attributes, again.roles, again.terms) == (0, 0, 0)
    assert DisplayAttributes.objects.get(pk=row.pk).primary_label == ["EMAIL"]


def test_a_new_database_is_answerable_from_bootstrap_alone(
    make_source: SourceFactory, spider_urls: dict[str, str]
) -> None:
    source = make_source("invoices", spider_urls["customers_and_invoices"])
    bootstrap(source)
    layer = load_semantic_layer("invoices")
    assert set(layer.tables) >= {"Customers", "Orders", "Invoices", "Products"}
    customers = layer.tables["Customers"]
    assert customers.label_columns == ("customer_first_name", "customer_last_name")
    assert customers.primary_key == "customer_id" and customers.role
    names = {t.name: t for t in layer.terms}
    assert "customers" in names["customer"].synonyms
    assert names["order item"].resolutions[0].tables == ("Order_Items",)
    assert any(r.from_table == "Orders" and r.to_table == "Customers" for r in layer.relationships)


def test_a_table_named_after_its_two_parents_bridges_them() -> None:
    def pairing(name: str, left: str, right: str) -> Shape:
        columns = [
            Col(f"{left}_id", "integer", True, False),
            Col(f"{right}_id", "integer", True, False),
        ]
        return Shape(name, columns, {f"{left}_id": left, f"{right}_id": right})

    # a joining word and plurals between the parents' names, an assignment word or not
    assert suggest_role(pairing("Participants_in_Events", "Participants", "Events")) == "bridge"
    assert suggest_role(pairing("Customer_Addresses", "Customers", "Addresses")) == "bridge"
    assert suggest_role(pairing("Staff_Assignments", "Staff", "Departments")) == "assignment"
