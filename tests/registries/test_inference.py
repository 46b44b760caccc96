"""Name inference and identifier words, on schemas written out by hand."""

from registries.inference import EXACT, PLURAL, SHARED_KEY, SUFFIX, infer_relationships
from registries.introspection import ColumnInfo, ForeignKey, IntrospectedSchema, TableInfo
from registries.models import TableRole
from registries.naming import human, plural, singular, words
from registries.semantic_layer import ROLES


def table(name: str, *columns: str, pk: tuple[str, ...] = ("id",), text: tuple[str, ...] = ()):
    cols = tuple(
        ColumnInfo(c, "text" if c in text else "integer", "", False, False, c in pk)
        for c in columns
    )
    return TableInfo(name, False, cols)


def edges(schema: IntrospectedSchema) -> dict[tuple[str, str], tuple[str, str, float]]:
    return {
        (e.from_table, e.from_column): (e.to_table, e.to_column, e.confidence)
        for e in infer_relationships(schema)
    }


def test_words_split_camel_snake_and_acronyms() -> None:
    assert words("workOrderId") == ["work", "order", "id"]
    assert words("Invoice_Line_Items") == ["invoice", "line", "items"]
    assert words("inspectionQAAttachment") == ["inspection", "qa", "attachment"]
    assert human("inspectionQuestionAnswers") == "inspection question answer"
    assert singular("categories") == "category" and plural("category") == "categories"
    assert singular("addresses") == "address" and singular("status") == "status"


def test_camel_case_ids_point_at_the_named_table() -> None:
    schema = IntrospectedSchema(
        (
            table("workOrder", "id", "title", text=("title",)),
            table("workTime", "id", "workOrderId", "createdByUserId"),
            table("user", "id"),
        ),
        (),
    )
    found = edges(schema)
    assert found[("workTime", "workOrderId")] == ("workOrder", "id", EXACT)
    # Only the end of the name names a table: a weaker guess.
    assert found[("workTime", "createdByUserId")] == ("user", "id", SUFFIX)


def test_snake_case_plural_tables_and_shared_keys() -> None:
    schema = IntrospectedSchema(
        (
            table("Customers", "customer_id", "name", pk=("customer_id",), text=("name",)),
            table("Orders", "order_id", "customer_id", pk=("order_id",)),
            table("Invoices", "invoice_number", "order_id", pk=("invoice_number",)),
            table("Payments", "payment_id", "invoice_number", pk=("payment_id",)),
        ),
        (),
    )
    found = edges(schema)
    assert found[("Orders", "customer_id")] == ("Customers", "customer_id", PLURAL)
    assert found[("Invoices", "order_id")] == ("Orders", "order_id", PLURAL)
    assert found[("Payments", "invoice_number")] == ("Invoices", "invoice_number", SHARED_KEY)
    # A table's own key is not a reference to itself.
    assert ("Customers", "customer_id") not in found


def test_declared_keys_mismatched_types_and_unknown_stems_are_left_alone() -> None:
    schema = IntrospectedSchema(
        (
            table("Artist", "ArtistId", "Name", pk=("ArtistId",), text=("Name",)),
            table("Album", "AlbumId", "ArtistId", "GenreId", pk=("AlbumId",)),
            table(
                "Track", "TrackId", "AlbumId", "supervisorId", pk=("TrackId",), text=("AlbumId",)
            ),
        ),
        (ForeignKey("Album", "ArtistId", "Artist", "ArtistId"),),
    )
    found = edges(schema)
    assert ("Album", "ArtistId") not in found  # declared already
    assert ("Album", "GenreId") not in found  # no such table
    assert ("Track", "AlbumId") not in found  # text cannot reference an integer key
    assert ("Track", "supervisorId") not in found


def test_the_models_offer_exactly_the_semantic_layer_roles() -> None:
    assert set(TableRole.values) == set(ROLES)
