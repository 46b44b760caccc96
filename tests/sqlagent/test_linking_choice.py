"""Which meaning a run of words takes: the tables the question names, the joins a meaning
adds, and how alike two words must be to be one word."""

from sqlagent.linking.chosen import choose
from sqlagent.linking.links import Link, name_links
from sqlagent.linking.question import read_words
from sqlagent.linking.schema_words import Element, indexed


def _table(name: str, start: int, score: float) -> Link:
    return Link(start, start + 1, Element(name, None, "table", (((name.lower(),), 1.0),)), score)


def _column(table: str, column: str, start: int, end: int) -> Link:
    words = tuple(column.split("_"))
    return Link(start, end, Element(table, column, "text", ((words, 1.0),)), 1.0)


def test_a_table_joined_to_a_named_one_wins_a_tie() -> None:
    # "the number of items in each order": Order_Items is joined to Orders, the other
    # table of items only through invoices
    links = [
        _table("Orders", 5, 1.0),
        _table("Invoice_Line_Items", 2, 0.6),
        _table("Order_Items", 2, 0.6),
    ]
    alone = {c.start: c.table for c in choose(links).choices}
    assert alone[2] == "Invoice_Line_Items"  # the tie goes by name without the joins
    refers = frozenset({("Order_Items", "Orders"), ("Invoice_Line_Items", "Invoices")})
    joined = {c.start: c.table for c in choose(links, refers=refers).choices}
    assert joined[2] == "Order_Items"


def test_a_table_a_run_names_less_surely_than_another_is_not_named_by_it() -> None:
    # "students ... courses ... personal name": the courses are Courses, so the personal
    # name is the students', not that of Course_Authors_and_Tutors (named "course" too)
    links = [
        _table("Students", 0, 1.0),
        _table("Courses", 4, 1.0),
        _table("Course_Authors_and_Tutors", 4, 0.8),
        _column("Course_Authors_and_Tutors", "personal_name", 7, 9),
        _column("Students", "personal_name", 7, 9),
    ]
    chosen = {c.start: c.table for c in choose(links).choices}
    assert chosen[7] == "Students"


def _links(question: str, *columns: str) -> set[str]:
    schema = indexed([Element("t", c, "text", ((tuple(c.split("_")), 1.0),)) for c in columns])
    return {str(x.element) for x in name_links(read_words(question), schema)}


def test_words_of_one_stem_meet_but_words_that_merely_start_alike_do_not() -> None:
    assert _links("when was it settled", "settlement") == {"t.settlement"}
    assert _links("which parts are discontinued", "discount") == set()
    assert _links("the departure of each flight", "department") == set()


def test_a_meaning_in_the_table_of_another_words_column_wins_a_tie() -> None:
    # "the description of role code ED": several tables have a description; the role
    # code's table is the one meant, adding no table to join
    described = [
        Link(1, 2, Element(t, f"{t}_description", "text", ((("description",), 0.9),)), 0.9)
        for t in ("Document_Status", "Roles")
    ]
    said = ((("role", "code"), 1.0),)
    codes = [  # the roles' own code, and the employees' code referring to it
        Link(3, 5, Element("Employees", "role_code", "text", said), 1.0),
        Link(3, 5, Element("Roles", "role_code", "text", said, owned=1), 1.0),
    ]
    chosen = {c.start: c.table for c in choose([*described, *codes]).choices}
    assert chosen[3] == "Roles"
    assert chosen[1] == "Roles"
