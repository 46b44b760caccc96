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


def _named(table: str, column: str | None, *names: tuple[str, float]) -> Element:
    return Element(table, column, "text", tuple((tuple(n.split()), s) for n, s in names))


def _chosen(question: str, *elements: Element) -> dict[str, str]:
    words = read_words(question)
    chosen = choose(name_links(words, indexed(list(elements)))).choices
    return {" ".join(w.lower for w in words[c.start : c.end]): str(c.link.element) for c in chosen}


def test_words_said_once_for_two_listed_heads_complete_both_names() -> None:
    budget = [
        _named("Budgets", "budget_type_code", ("budget type code", 1.0), ("budget type", 0.75)),
        _named("Budgets", "budget_type_description", ("budget type description", 1.0)),
        _named("Documents", None, ("document", 1.0)),
        _named("Documents", "description", ("description", 1.0)),
    ]
    before = _chosen("list the budget type codes and descriptions of documents", *budget)
    assert before["descriptions"] == "Budgets.budget_type_description"
    kinds = [
        _named("Kinds", "kind_code", ("kind code", 1.0), ("kind", 0.75)),
        _named("Kinds", "kind_description", ("kind description", 1.0), ("description", 0.6)),
        _named("Items", None, ("item", 1.0)),
        _named("Items", "description", ("description", 1.0)),
        _named("Items", "unit_list_price", ("unit list price", 1.0)),  # runs of four read
    ]
    after = _chosen("the description and code of the kind most items have", *kinds)
    assert after["description"] == "Kinds.kind_description"
    # said of the items alone, the description is theirs
    assert _chosen("the description and kind of the items", *kinds)["description"] == (
        "Items.description"
    )


def test_a_column_said_once_after_two_tables_is_of_both() -> None:
    leagues = [
        _named("Country", None, ("country", 1.0)),
        _named("Country", "name", ("name", 1.0)),
        _named("League", None, ("league", 1.0)),
        _named("League", "name", ("name", 1.0)),
    ]
    chosen = _chosen("list every country and league name", *leagues)
    assert (chosen["country"], chosen["name"]) == ("Country.name", "League.name")
    # counted, the countries are rows, not names
    counted = _chosen("the number of country and league names", *leagues)
    assert counted["country"] == "Country"
