"""Which thing a word is said of: the last noun of a compound, the thing after an adjective,
the place named after a thing, the unit of an amount. Plain English readings of the term
planner on the demo warehouse's schema; none of these questions is in a question set."""

from dataclasses import replace
from datetime import date

import pytest

from registries.semantic_layer import Resolution, SemanticLayer, Term
from sqlagent.plan import CannotAnswer, QueryPlan
from sqlagent.question_terms import extract_terms
from sqlagent.resolution import resolve
from sqlagent.sql_compiler import compile_plan
from sqlagent.table_selection import select_tables
from sqlagent.value_index import ValueIndex
from sqlagent.vocabulary import vocabulary

VALUES = ValueIndex(
    values=(
        ("branch", "name", "Phoenix"),
        ("branch", "city", "Phoenix"),
        ("customer", "billingCity", "Phoenix"),
        ("customerLocation", "city", "Phoenix"),
        ("asset", "status", "out_of_service"),
        ("workOrder", "status", "scheduled"),
        ("invoice", "status", "overdue"),
        ("invoice", "status", "void"),
        ("customer", "billingState", "TX"),
        ("customer", "billingState", "AZ"),
        ("workOrder", "priority", "urgent"),
        ("workOrder", "status", "on_hold"),
    ),
    codes=(),
)
CERTIFICATION = Term(
    "certification",
    synonyms=("certifications", "cert"),
    resolutions=(
        Resolution(
            "primary",
            ("employeeCertification", "certificationType"),
            (),
            "structural",
        ),
    ),
)
OUT_OF_SERVICE = Term(
    "out of service",
    synonyms=("broken down",),
    resolutions=(Resolution("primary", ("asset",), ("asset.status",), "exact", "out_of_service"),),
)
OVERDUE = Term(
    "overdue invoice",
    resolutions=(Resolution("primary", ("invoice",), ("invoice.status",), "exact", "overdue"),),
)


def _plan(question: str, layer: SemanticLayer) -> QueryPlan:
    terms = extract_terms(question, vocabulary(layer, VALUES.values), today=date(2026, 11, 21))
    return select_tables(terms, resolve(terms, layer, VALUES), layer)


@pytest.fixture(scope="module")
def with_terms(warehouse_layer: SemanticLayer) -> SemanticLayer:
    return replace(warehouse_layer, terms=(CERTIFICATION, OUT_OF_SERVICE))


@pytest.mark.parametrize(
    ("question", "counted"),
    [
        ("How many customer assets are there?", "asset"),
        ("How many customer invoices were there in 2025?", "invoice"),
        ("How many customers are there?", "customer"),
    ],
)
def test_the_last_noun_of_a_compound_is_what_is_counted(
    warehouse_layer: SemanticLayer, question: str, counted: str
) -> None:
    plan = _plan(question, warehouse_layer)
    assert (plan.aggregate, plan.anchor) == ("count", counted)


def test_an_adjective_is_said_of_the_flag_named_after_it(warehouse_layer: SemanticLayer) -> None:
    # "technicians" is employee.isTechnician: "active" is the employees' flag, not the
    # branch's, though the branch is the table named outright.
    plan = _plan("How many active technicians does each branch have?", warehouse_layer)
    flags = {str(f.columns[0]) for f in plan.filters}
    assert flags == {"employee.isActive", "employee.isTechnician"}
    assert plan.group_table == "branch"


def test_a_place_after_a_thing_is_that_things_place(warehouse_layer: SemanticLayer) -> None:
    plan = _plan(
        "How many scheduled work orders are at customer locations in Phoenix?", warehouse_layer
    )
    places = [(str(f.columns[0]), f.value) for f in plan.filters if f.value == "Phoenix"]
    assert places == [("customerLocation.city", "Phoenix")]  # not the branch, not billing
    assert "branch" not in plan.tables


def test_an_amount_per_row_of_its_own_table_is_not_grouped(
    warehouse_layer: SemanticLayer,
) -> None:
    plan = _plan("What are the average travel miles per dispatch?", warehouse_layer)
    assert (plan.aggregate, str(plan.measure)) == ("avg", "dispatch.travelMiles")
    assert plan.group_table is None and plan.group_column is None
    grouped = _plan("What are the average travel miles per crew?", warehouse_layer)
    assert grouped.group_table == "crew"  # another table's rows are groups


def test_a_terms_tables_keep_their_order(with_terms: SemanticLayer) -> None:
    # The term lists the employees' certifications first; the alphabet would count types.
    plan = _plan("How many certifications expire in 2026?", with_terms)
    assert plan.anchor == "employeeCertification"
    sql = compile_plan(plan, with_terms).sql("mysql", identify=True)
    assert "COUNT(DISTINCT `employeeCertification`.`id`)" in sql


def test_the_words_of_a_grouping_are_not_a_term(with_terms: SemanticLayer) -> None:
    plan = _plan("What is the total invoice amount broken down by customer?", with_terms)
    assert plan.group_table == "customer"
    assert not [f for f in plan.filters if f.columns[0].column == "status"]
    assert _plan("How many assets are broken down?", with_terms).filters[0].value == (
        "out_of_service"
    )


@pytest.mark.parametrize("said", ["not counting", "excluding", "leaving out", "other than"])
def test_words_that_leave_a_value_out(warehouse_layer: SemanticLayer, said: str) -> None:
    plan = _plan(f"How many invoices are there, {said} void ones?", warehouse_layer)
    assert [(str(f.columns[0]), f.op, f.value) for f in plan.filters] == [
        ("invoice.status", "!=", "void")
    ]


def test_the_group_is_the_last_noun_of_a_compound(warehouse_layer: SemanticLayer) -> None:
    plan = _plan("How many work orders are there per customer industry?", warehouse_layer)
    assert (plan.group_table, plan.anchor) == ("industry", "workOrder")


@pytest.mark.parametrize(
    ("said", "kind"),
    [("type of work order", "workOrderType"), ("customer type", "customerType")],
)
def test_a_kind_of_thing_is_the_type_table_its_rows_refer_to(
    warehouse_layer: SemanticLayer, said: str, kind: str
) -> None:
    plan = _plan(f"How many invoices are there for each {said}?", warehouse_layer)
    assert plan.group_table == kind


def test_a_number_with_thousands_separators_is_one_bound(warehouse_layer: SemanticLayer) -> None:
    # "total" is the column the bound compares, not a sum asked for
    plan = _plan("List the invoices with a total over $12,500.50.", warehouse_layer)
    assert [(str(f.columns[0]), f.op, f.value) for f in plan.filters] == [
        ("invoice.total", ">", 12500.5)
    ]
    assert plan.aggregate is None


def test_a_bound_on_a_term_that_names_its_rows(with_terms: SemanticLayer) -> None:
    layer = replace(with_terms, terms=(*with_terms.terms, OVERDUE))
    plan = _plan("Which customers have more than 3 overdue invoices?", layer)
    assert (plan.group_table, plan.having) == ("customer", (">", 3))
    assert [str(f.columns[0]) for f in plan.filters] == ["invoice.status"]


def test_values_of_one_column_joined_by_or_are_either(warehouse_layer: SemanticLayer) -> None:
    plan = _plan("How many invoices are overdue or void?", warehouse_layer)
    assert [(str(f.columns[0]), f.op, f.value) for f in plan.filters] == [
        ("invoice.status", "in", ("overdue", "void"))
    ]
    sql = compile_plan(plan, warehouse_layer).sql("mysql", identify=True)
    assert "`invoice`.`status` IN ('overdue', 'void')" in sql
    states = _plan("Which customers are billed in Texas or Arizona?", warehouse_layer)
    assert [(str(f.columns[0]), f.op, f.value) for f in states.filters] == [
        ("customer.billingState", "in", ("TX", "AZ"))
    ]
    with pytest.raises(CannotAnswer, match="'or'"):  # two tables: whose rows, then?
        _plan("How many customer locations are in Phoenix or are void?", warehouse_layer)


def test_conditions_on_one_tables_rows_joined_by_or(warehouse_layer: SemanticLayer) -> None:
    plan = _plan("How many work orders are urgent or on hold?", warehouse_layer)
    assert [f.op for f in plan.filters] == ["any"]
    sql = compile_plan(plan, warehouse_layer).sql("mysql", identify=True)
    assert "WHERE (`workOrder`.`priority` = 'urgent' OR `workOrder`.`status` = 'on_hold')" in sql


def test_a_things_number_is_its_own_number_column(warehouse_layer: SemanticLayer) -> None:
    job = Term("job", resolutions=(Resolution("primary", ("workOrder",), (), "structural"),))
    layer = replace(warehouse_layer, terms=(job,))
    # workOrder has workOrderNumber and poNumber: the one named for the thing
    plan = _plan("List the job numbers of scheduled jobs.", layer)
    assert plan.aggregate is None
    assert [str(c) for c in plan.columns] == ["workOrder.workOrderNumber"]
    assert _plan("What is the number of scheduled jobs?", layer).aggregate == "count"


def test_a_word_ending_a_tables_name_is_that_table_though_a_key_says_it_too(
    warehouse_layer: SemanticLayer,
) -> None:
    job = Term("job", resolutions=(Resolution("primary", ("workOrder",), (), "structural"),))
    layer = replace(warehouse_layer, terms=(job,))
    # workOrder's workOrderTypeId says "type" too: it points at the table meant
    plan = _plan("How many job types are there?", layer)
    assert (plan.aggregate, plan.anchor) == ("count", "workOrderType")


def test_a_count_and_an_amount_of_the_same_groups(warehouse_layer: SemanticLayer) -> None:
    question = "For each payment method, how many payments were made and what was the total?"
    plan = _plan(question, warehouse_layer)
    assert (plan.aggregate, str(plan.measure), plan.counted_too) == (
        "sum",
        "payment.amount",
        True,
    )
    sql = compile_plan(plan, warehouse_layer).sql("mysql", identify=True)
    assert "COUNT(DISTINCT `payment`.`id`) AS `count`, SUM(`payment`.`amount`)" in sql
    with pytest.raises(CannotAnswer, match="two questions"):
        _plan("How many payments were made and which customer paid most?", warehouse_layer)


def test_each_groups_average_against_the_overall_average(warehouse_layer: SemanticLayer) -> None:
    question = "Which crews have an average travel miles below the overall average?"
    plan = _plan(question, warehouse_layer)
    assert (plan.group_table, plan.aggregate, plan.versus_average) == ("crew", "avg", "<")
    sql = compile_plan(plan, warehouse_layer).sql("mysql", identify=True)
    assert sql.endswith(
        "HAVING ROUND(AVG(`dispatch`.`travelMiles`), 2) < (SELECT AVG(`dispatch`.`travelMiles`)"
        " FROM `crew` JOIN `dispatch` ON `dispatch`.`crewId` = `crew`.`id`)"
    )


def test_each_row_against_the_average_of_the_same_rows(warehouse_layer: SemanticLayer) -> None:
    plan = _plan("List the overdue invoices with a total above the average.", warehouse_layer)
    assert (plan.aggregate, str(plan.measure), plan.versus_average) == (
        None,
        "invoice.total",
        ">",
    )
    sql = compile_plan(plan, warehouse_layer).sql("mysql", identify=True)
    # the average is over the overdue invoices, the rows the question is about
    assert (
        "`invoice`.`total` > (SELECT AVG(`invoice`.`total`) FROM `invoice` "
        "WHERE `invoice`.`status` = 'overdue')"
    ) in sql


def test_a_list_in_parentheses_gives_examples_not_conditions(
    warehouse_layer: SemanticLayer,
) -> None:
    plan = _plan(
        "How many assets are there per asset category (cranes, hoists, etc.)?", warehouse_layer
    )
    assert (plan.group_table, plan.filters) == ("assetCategory", [])
    # a kind two references away: asset -> assetType -> assetCategory
    assert _plan(
        "How many assets are there per category of asset?", warehouse_layer
    ).group_table == ("assetCategory")
