"""General readings of English questions by the deterministic planner, on the demo
warehouse's schema: bounds on counts and numbers, rows that must not exist, owners and names
that qualify a thing, column groups, spans of days, what a configuration table allows.
None of these questions is in the demo question set."""

from dataclasses import replace
from datetime import date

import pytest

from registries.semantic_layer import Resolution, SemanticLayer, Term
from sqlagent.plan import CannotAnswer, QueryPlan
from sqlagent.question_terms import QuestionTerms, extract_terms
from sqlagent.resolution import resolve
from sqlagent.resolution.context import head_table, question_context
from sqlagent.schema_view import executable_schema
from sqlagent.secure_views import rewrite_secure_views
from sqlagent.sql_compiler import compile_plan
from sqlagent.table_selection import select_tables
from sqlagent.validation import validate_sql
from sqlagent.value_index import ValueIndex
from sqlagent.vocabulary import vocabulary

VALUES = ValueIndex(
    values=(
        ("workOrder", "status", "completed"),
        ("workOrder", "status", "on_hold"),
        ("customer", "name", "Lighthouse Power LLC"),
        ("customer", "billingState", "TX"),
        ("customerLocation", "state", "TX"),
        ("manufacturer", "name", "Grove"),
        ("employeeRole", "name", "Safety Officer"),
        ("serviceCategory", "name", "Repair"),
        ("workOrderType", "name", "Repair"),
        ("tag", "name", "Key Account"),
        ("industry", "name", "Oil & Gas"),
        ("trainingCourse", "name", "Fall Protection/Rescue"),
        ("inspection", "result", "pass"),
    ),
    codes=(("workOrder", "workOrderNumber", r"WO\-\d{6}"),),
)
CRANE = Term(
    "crane",
    synonyms=("cranes", "overhead crane"),
    resolutions=(
        Resolution("primary", ("asset",), ("asset.name",), "text_search", "crane"),
        Resolution("secondary", ("assetType",), ("assetType.name",), "text_search", "crane"),
        Resolution(
            "fallback", ("assetCategory",), ("assetCategory.name",), "text_search", "Cranes"
        ),
    ),
)
OVERTIME = Term(
    "overtime",
    synonyms=("overtime hours",),
    resolutions=(
        Resolution("primary", ("workTimeType",), ("workTimeType.name",), "text_search", "overtime"),
    ),
)


def _terms(question: str, layer: SemanticLayer) -> QuestionTerms:
    return extract_terms(question, vocabulary(layer, VALUES.values), today=date(2026, 11, 21))


def _plan(question: str, layer: SemanticLayer) -> QueryPlan:
    terms = _terms(question, layer)
    return select_tables(terms, resolve(terms, layer, VALUES), layer)


def _sql(question: str, layer: SemanticLayer) -> str:
    sql = rewrite_secure_views(compile_plan(_plan(question, layer), layer), layer).sql("mysql")
    validate_sql(sql, layer=layer, schema=executable_schema(layer))
    return sql


@pytest.fixture(scope="module")
def with_terms(warehouse_layer: SemanticLayer) -> SemanticLayer:
    return replace(warehouse_layer, terms=(CRANE, OVERTIME))


def test_a_bound_on_a_count_keeps_the_groups_that_pass_it(warehouse_layer: SemanticLayer) -> None:
    sql = _sql("Which branches have at least 50 active employees?", warehouse_layer)
    assert "GROUP BY `branch`.`id`" in sql
    assert "`employee`.`isActive` = TRUE" in sql
    assert sql.endswith("HAVING COUNT(DISTINCT `employee`.`id`) >= 50")
    assert "LIMIT" not in sql  # "at least" is a bound, not the superlative "least"


def test_how_many_groups_pass_a_bound(warehouse_layer: SemanticLayer) -> None:
    sql = _sql("How many customers have 5 or more customer locations?", warehouse_layer)
    assert sql.startswith("SELECT COUNT(*) AS count FROM (SELECT `customer`.`name`")
    assert "HAVING COUNT(DISTINCT `customerLocation`.`id`) >= 5) AS kept" in sql


def test_a_bound_on_a_number_column_with_its_unit(warehouse_layer: SemanticLayer) -> None:
    plan = _plan("List the assets with a capacity over 100 tons.", warehouse_layer)
    assert plan.anchor == "asset"
    assert [(str(f.columns[0]), f.op, f.value) for f in plan.filters] == [
        ("asset.capacityTons", ">", 100)
    ]


@pytest.mark.parametrize(
    ("question", "reason"),
    [
        # hours of work time are an amount, not rows to count
        ("How many work orders have more than 5 hours of work time?", "comparison"),
        ("How many customers have account 337?", "337"),
        ("Which customers are in Texas or have no work orders?", "'or'"),
        ("Which customers were invoiced most?", "ranked by"),
        ('Which customers have "a" in their names?', "'a'"),
        ("What are the maximum and minimum capacities of assets?", "several aggregates"),
    ],
)
def test_it_declines_what_it_cannot_place(
    warehouse_layer: SemanticLayer, question: str, reason: str
) -> None:
    with pytest.raises(CannotAnswer) as error:
        _plan(question, warehouse_layer)
    assert reason in str(error.value)


def test_rows_that_must_not_exist(warehouse_layer: SemanticLayer) -> None:
    sql = _sql("How many customers have no work orders?", warehouse_layer)
    assert "NOT `customer`.`id` IN (SELECT `workOrder`.`customerId` FROM secure_workorder" in sql
    assert "JOIN" not in sql.split("IN (")[0]  # work orders are not joined in the outer query


def test_conditions_of_the_missing_rows_stay_with_them(warehouse_layer: SemanticLayer) -> None:
    sql = _sql("How many branches have no technicians?", warehouse_layer)
    outer, inner = sql.split(" IN (", 1)
    assert "`employee`.`isTechnician` = TRUE" in inner and "employee" not in outer.split("NOT")[0]
    located = _sql("How many customers have no active customer locations?", warehouse_layer)
    assert "`customerLocation`.`isActive` = TRUE)" in located  # said of the locations
    # a row that points nowhere has no branch either
    unplaced = _sql("How many employees are without a branch?", warehouse_layer)
    assert "(`employee`.`branchId` IS NULL OR NOT `employee`.`branchId` IN (" in unplaced


def test_a_range_after_the_missing_rows_is_theirs(warehouse_layer: SemanticLayer) -> None:
    sql = _sql("How many technicians never logged any work time in 2025?", warehouse_layer)
    outer, inner = sql.split(" IN (", 1)
    assert "`employee`.`isTechnician` = TRUE" in outer
    assert "`workTime`.`date` >= '2025-01-01'" in inner and "`workTime`.`date`" not in outer
    before = _sql("Which employees hired in 2025 have no work time?", warehouse_layer)
    outer, inner = before.split(" IN (", 1)
    assert "`employee`.`hireDate` >= '2025-01-01'" in outer and "2025" not in inner


def test_an_owner_only_qualifies_the_thing_asked_for(warehouse_layer: SemanticLayer) -> None:
    plan = _plan(
        "What are the e-mail addresses of Lighthouse Power LLC's customer contacts?",
        warehouse_layer,
    )
    assert plan.anchor == "customerContact"
    assert [str(c) for c in plan.columns] == ["customerContact.email"]
    assert [f.value for f in plan.filters] == ["Lighthouse Power LLC"]


def test_a_name_before_a_thing_qualifies_it(warehouse_layer: SemanticLayer) -> None:
    sql = _sql("What is the serial number of the newest Grove asset?", warehouse_layer)
    assert sql.startswith("SELECT `asset`.")
    assert "`manufacturer`.`name` = 'Grove'" in sql
    # the newest by its year, the first recorded among those of one year
    assert "`asset`.`yearManufactured` DESC" in sql
    assert sql.endswith("`asset`.`id` LIMIT 1")


def test_a_column_group_and_an_address_with_its_parts(warehouse_layer: SemanticLayer) -> None:
    contact = _plan("Give the site contact for work order WO-000100.", warehouse_layer)
    assert [c.column for c in contact.columns] == ["siteContactName", "siteContactPhone"]
    address = _plan("What is the billing address of Lighthouse Power LLC?", warehouse_layer)
    assert [c.column for c in address.columns] == ["billingAddress", "billingCity", "billingState"]


def test_each_of_its_groups_by_the_things(warehouse_layer: SemanticLayer) -> None:
    sql = _sql("How many employees are there in each of the branches?", warehouse_layer)
    assert "GROUP BY `branch`.`id`" in sql


def test_a_verb_not_done_yet_is_an_empty_date(warehouse_layer: SemanticLayer) -> None:
    sql = _sql("How many work orders are on hold and have not started yet?", warehouse_layer)
    assert "`workOrder`.`status` = 'on_hold'" in sql
    assert "`workOrder`.`startedAt` IS NULL" in sql


def test_days_between_two_dates(warehouse_layer: SemanticLayer) -> None:
    sql = _sql(
        "What is the maximum number of days between the scheduled start and the scheduled "
        "end of work orders?",
        warehouse_layer,
    )
    assert (
        "MAX(DATEDIFF(CAST(`workOrder`.`scheduledEnd` AS DATE), "
        "CAST(`workOrder`.`scheduledStart` AS DATE))) AS `max_days`"
    ) in sql


def test_what_a_configuration_table_allows(warehouse_layer: SemanticLayer) -> None:
    plan = _plan("Which work time types may a Safety Officer book?", warehouse_layer)
    assert plan.joins is not None
    assert plan.joins.tables == ("workTimeType", "employeeRoleWorkTimeType", "employeeRole")
    assert [f.value for f in plan.filters] == ["Safety Officer"]


def test_who_did_it_is_the_table_that_records_it(warehouse_layer: SemanticLayer) -> None:
    plan = _plan("Who signed off work order WO-000200?", warehouse_layer)
    assert plan.anchor == "workOrderSignature"


def test_the_values_of_a_named_column_are_ranked(warehouse_layer: SemanticLayer) -> None:
    sql = _sql(
        "Which parts were used most on work orders? Show the top 3 part names.", warehouse_layer
    )
    assert "GROUP BY `part`.`name`" in sql
    assert sql.endswith("LIMIT 3")


def test_which_of_them_shows_a_flag_for_every_row(warehouse_layer: SemanticLayer) -> None:
    sql = _sql("List the branches, and which of them are active.", warehouse_layer)
    assert "`branch`.`isActive`" in sql.split("FROM")[0]
    assert "WHERE" not in sql


def test_the_phone_number_of_is_not_a_count(warehouse_layer: SemanticLayer) -> None:
    plan = _plan(
        "What is the phone number of Lighthouse Power LLC's account manager?", warehouse_layer
    )
    assert plan.aggregate is None and plan.anchor == "employee"
    assert [str(c) for c in plan.columns] == ["employee.phone"]


def test_a_narrower_synonym_searches_its_own_words(with_terms: SemanticLayer) -> None:
    assert "LIKE '%overhead crane%'" in _sql("How many overhead cranes are there?", with_terms)
    # "overtime hours" names hours, not a narrower overtime
    plan = _plan("List the work time types that count overtime hours.", with_terms)
    assert [f.value for f in plan.filters] == ["overtime"]


def test_a_kind_asked_of_the_catalogue_is_its_class(with_terms: SemanticLayer) -> None:
    catalogue = _sql("Which manufacturers make cranes?", with_terms)
    assert "LOWER(`assetCategory`.`name`) LIKE '%cranes%'" in catalogue
    owned = _sql("How many cranes does Lighthouse Power LLC own?", with_terms)
    assert "LOWER(`asset`.`name`) LIKE '%crane%'" in owned


def test_function_words_change_nothing_but_negations_do(warehouse_layer: SemanticLayer) -> None:
    sql = _sql("Could you give me the work orders we have on hold?", warehouse_layer)
    assert "`workOrder`.`status` = 'on_hold'" in sql
    with pytest.raises(CannotAnswer) as error:  # "never" is a condition nothing placed
        _plan("Which customers have we never invoiced?", warehouse_layer)
    assert "'never'" in str(error.value)


def test_a_table_listed_among_the_columns_asked_is_shown(warehouse_layer: SemanticLayer) -> None:
    asked = "Show me the technicians hired in 2025 with their phone and branch."
    shown = _sql(asked, warehouse_layer).split(" FROM ")[0]
    assert "`employee`.`phone`, `branch`.`name`" in shown
    # a table the conditions need is not listed
    needed = "List the work orders of customers in TX with their work order number."
    assert "customer" not in _sql(needed, warehouse_layer).split(" FROM ")[0]


def test_the_top_rows_by_an_amount_are_groups_of_the_rows(warehouse_layer: SemanticLayer) -> None:
    sql = _sql("List the top 3 branches by total invoiced.", warehouse_layer)
    assert "GROUP BY `branch`.`id`" in sql and "ORDER BY `sum_total` DESC" in sql
    assert sql.endswith("LIMIT 3")


def test_a_word_used_as_a_verb_names_no_table(warehouse_layer: SemanticLayer) -> None:
    # not the services counted per service: "service" here is what technicians do
    with pytest.raises(CannotAnswer):
        _plan("Which technicians service the most assets?", warehouse_layer)
    # the same word as a noun still names it
    assert "`service`" in _sql("How many services were done on assets in TX?", warehouse_layer)


ACTIVE = Term(
    "active",
    resolutions=(
        Resolution("primary", ("employee",), ("employee.isActive",), "boolean", "true"),
        Resolution("secondary", ("customer",), ("customer.isActive",), "boolean", "true"),
    ),
)


def test_a_term_before_a_thing_that_stores_it_is_that_value(
    warehouse_layer: SemanticLayer,
) -> None:
    layer = replace(warehouse_layer, terms=(ACTIVE,))
    values = ValueIndex(
        values=(*VALUES.values, ("customerContract", "status", "active")), codes=VALUES.codes
    )
    vocab = vocabulary(layer, values.values)

    def sql(question: str) -> str:
        terms = extract_terms(question, vocab, today=date(2026, 11, 21))
        plan = select_tables(terms, resolve(terms, layer, values), layer)
        return compile_plan(plan, layer).sql("mysql")

    # "contracts", the last word of customerContract's name, names its rows
    contracts = sql("How many active contracts auto-renew?")
    assert "`customerContract`.`status` = 'active'" in contracts
    assert "isActive" not in contracts and "employee" not in contracts
    customers = sql("Which customers have an active contract that auto-renews?")
    assert "`customerContract`.`status` = 'active'" in customers
    assert "`customer`.`isActive`" not in customers
    # a thing with the term's own column keeps the term's flag
    assert "`customer`.`isActive` = TRUE" in sql("How many active customers are in TX?")


def test_words_joined_by_hyphens_are_read_one_by_one(warehouse_layer: SemanticLayer) -> None:
    values = ValueIndex(
        values=(
            ("inspectionActionItem", "priority", "critical"),
            ("inspectionActionItem", "status", "open"),
        ),
        codes=(),
    )
    question = "How many critical-priority inspection action items are still open?"
    terms = extract_terms(
        question, vocabulary(warehouse_layer, values.values), today=date(2026, 1, 1)
    )
    plan = select_tables(terms, resolve(terms, warehouse_layer, values), warehouse_layer)
    assert sorted((str(f.columns[0]), f.value) for f in plan.filters) == [
        ("inspectionActionItem.priority", "critical"),
        ("inspectionActionItem.status", "open"),
    ]
    # a name keeps its hyphen: "Pre-Use" is part of the template's name, not two words
    named = extract_terms(
        "List the questions of the Forklift Daily Pre-Use Check template.",
        vocabulary(warehouse_layer, values.values),
        today=date(2026, 1, 1),
    )
    assert any("Pre-Use" in name for name, _ in named.names)


def test_a_number_said_after_a_number_column_is_its_value(warehouse_layer: SemanticLayer) -> None:
    plan = _plan("How many employee skills are at level 5?", warehouse_layer)
    assert [(str(f.columns[0]), f.op, f.value) for f in plan.filters] == [
        ("employeeSkill.level", "=", 5)
    ]
    bound = _plan("How many employee skills have a level of more than 3?", warehouse_layer)
    assert [(str(f.columns[0]), f.op, f.value) for f in bound.filters] == [
        ("employeeSkill.level", ">", 3)
    ]


def test_other_forms_of_words_that_change_nothing_change_nothing(
    with_terms: SemanticLayer,
) -> None:
    plan = _plan("How many overtime hours were booked in 2025?", with_terms)  # as "book"
    assert plan.anchor is not None
    with pytest.raises(CannotAnswer, match="'audited'"):  # no such verb is known
        _plan("How many overtime hours were audited in 2025?", with_terms)


def test_of_things_named_one_after_the_other_the_last_is_counted(
    warehouse_layer: SemanticLayer,
) -> None:
    sql = _sql("Which asset categories have more than 400 customer assets?", warehouse_layer)
    assert sql.endswith("HAVING COUNT(DISTINCT `asset`.`id`) > 400")  # not customers


def test_an_amount_said_after_a_thing_is_its_own_total(warehouse_layer: SemanticLayer) -> None:
    sql = _sql("What is the average invoice amount for each customer type?", warehouse_layer)
    assert "AVG(`invoice`.`total`)" in sql and "invoiceLine" not in sql
    lines = _sql("What is the average amount of invoice lines?", warehouse_layer)
    assert "AVG(`invoiceLine`.`amount`)" in lines  # the lines have an amount of their own


def test_the_different_values_of_a_column_are_listed_once(warehouse_layer: SemanticLayer) -> None:
    sql = _sql("What different payment methods are there?", warehouse_layer)
    assert sql.startswith("SELECT DISTINCT `payment`.`method` FROM")
    assert sql.endswith("ORDER BY `payment`.`method`")
    counted = _sql("How many different payment methods are there?", warehouse_layer)
    assert "COUNT(" in counted and "SELECT DISTINCT" not in counted


def test_an_aggregate_of_a_thing_is_of_its_own_total(warehouse_layer: SemanticLayer) -> None:
    sql = _sql(
        "Which customers' average invoice is bigger than the overall average invoice?",
        warehouse_layer,
    )
    assert "AVG(`invoice`.`total`)" in sql and "HAVING" in sql


def test_a_date_column_is_named_without_its_date_word(warehouse_layer: SemanticLayer) -> None:
    sql = _sql("Which equipment has calibration due before April 1, 2026?", warehouse_layer)
    assert "`equipment`.`calibrationDueOn` < '2026-04-01'" in sql


def test_a_superlative_of_a_number_column_ranks_the_rows(warehouse_layer: SemanticLayer) -> None:
    sql = _sql("Which quote has the largest total?", warehouse_layer)  # a column, not a sum
    assert "SUM(" not in sql and "ORDER BY `quote`.`total` DESC" in sql and sql.endswith("LIMIT 1")
    lowest = _sql("List the 3 employees with the lowest hourly rate.", warehouse_layer)
    assert "`employee`.`hourlyRate` ASC" in lowest and lowest.endswith("LIMIT 3")
    summed = _sql("Which customer has the largest total of invoices?", warehouse_layer)
    assert "SUM(`invoice`.`total`)" in summed and summed.endswith("LIMIT 1")
    counted = _sql("Which branch has the largest number of employees?", warehouse_layer)
    assert "COUNT(DISTINCT `employee`.`id`)" in counted and "GROUP BY `branch`.`id`" in counted
    with pytest.raises(CannotAnswer, match="highest and the lowest"):
        _plan("What are the largest and the smallest quote totals?", warehouse_layer)


@pytest.mark.parametrize(
    "question",
    [
        "How many incidents are there per certification type?",
        "What is the average training score per incident type?",
        "How many incidents per training course?",
    ],
)
def test_tables_that_only_share_an_unnamed_parent_are_not_joined(
    warehouse_layer: SemanticLayer, question: str
) -> None:
    # An incident and a training record meet only through the employee both belong to:
    # joined, each incident would count every course that employee ever took.
    with pytest.raises(CannotAnswer) as error:
        _plan(question, warehouse_layer)
    assert "meet only through employee rows" in str(error.value)


def test_a_named_parent_joins_its_children(warehouse_layer: SemanticLayer) -> None:
    sql = _sql("What is the average training score of employees with incidents?", warehouse_layer)
    assert "JOIN secure_incident" in sql and "AVG(`employeeTraining`.`score`)" in sql


def test_what_the_business_did_names_no_condition(warehouse_layer: SemanticLayer) -> None:
    sql = _sql("How many quotes have we drafted for customers in TX?", warehouse_layer)
    assert "COUNT(DISTINCT `quote`.`id`)" in sql and "'TX'" in sql
    sql = _sql("List the payment methods of the payments we took in 2025.", warehouse_layer)
    assert "`payment`.`method`" in sql and "2025" in sql
    # what the verb yields is what is asked, and a negated verb is a condition
    with pytest.raises(CannotAnswer, match="'drafted'"):
        _plan("What have we drafted for customers in TX?", warehouse_layer)
    with pytest.raises(CannotAnswer, match="'drafted'"):
        _plan("Which customers have we not drafted quotes for?", warehouse_layer)
    # a verb of the rows' own is not the business's
    with pytest.raises(CannotAnswer, match="'drafted'"):
        _plan("How many quotes were drafted for customers in TX?", warehouse_layer)


def test_each_year_of_rows_is_by_their_date(warehouse_layer: SemanticLayer) -> None:
    sql = _sql("How many payments were made each year?", warehouse_layer)
    assert "GROUP BY YEAR(`payment`." in sql and "vehicle" not in sql


def test_a_closing_how_many_asks_the_count_of_the_same_rows(
    warehouse_layer: SemanticLayer,
) -> None:
    sql = _sql("What is the combined total of the invoices billed in TX, and how many are there?",
               warehouse_layer)  # fmt: skip
    assert "SUM(`invoice`.`total`)" in sql and "COUNT(DISTINCT `invoice`.`id`)" in sql
    sql = _sql(
        "Which three customers have the most completed work orders, and how many work orders "
        "does each have?",
        warehouse_layer,
    )
    assert "GROUP BY `customer`.`id`" in sql and "COUNT(DISTINCT `workOrder`.`id`)" in sql
    assert sql.endswith("LIMIT 3")
    # a closing question that names something new is a second question
    with pytest.raises(CannotAnswer, match="two questions"):
        _plan("How many quotes are there for customers in TX and how many are for Grove?",
              warehouse_layer)  # fmt: skip


def test_closing_out_rows_is_their_completion(warehouse_layer: SemanticLayer) -> None:
    sql = _sql("In which month of 2025 did we close out the most work orders?", warehouse_layer)
    assert "MONTH(`workOrder`.`completedAt`)" in sql and "scheduledStart" not in sql


def test_a_word_before_a_compound_is_said_of_its_last_noun(
    warehouse_layer: SemanticLayer,
) -> None:
    # "active service contracts" are contracts that are active, not contracts reached from
    # services (by their employee) whose status is active
    terms = _terms("List the active service contracts.", warehouse_layer)
    active = next(m for m in terms.mentions if m.text == "active")
    assert head_table(active, terms, warehouse_layer) == "customerContract"


def test_a_preposition_before_each_says_the_grouping(warehouse_layer: SemanticLayer) -> None:
    sql = _sql("How many work orders were logged within each branch?", warehouse_layer)
    assert "GROUP BY `branch`.`id`" in sql
    sql = _sql("How many incidents were logged under each incident type?", warehouse_layer)
    assert "GROUP BY `incidentType`.`id`" in sql


def test_groups_said_before_the_verb_end_at_it(warehouse_layer: SemanticLayer) -> None:
    sql = _sql("How many inspections per template have been recorded?", warehouse_layer)
    assert "GROUP BY `inspectionTemplate`.`id`" in sql


def test_by_after_a_participle_names_who_did_it(warehouse_layer: SemanticLayer) -> None:
    # "made by Grove" says who made them: a condition, no groups
    sql = _sql("How many assets were made by Grove?", warehouse_layer)
    assert "GROUP BY" not in sql and "`manufacturer`.`name` = 'Grove'" in sql
    # a bare noun after it, or "each", still names the groups
    sql = _sql("How many invoices were issued by branch?", warehouse_layer)
    assert "GROUP BY `branch`.`id`" in sql
    sql = _sql("How many quotes were there, grouped by customer?", warehouse_layer)
    assert "GROUP BY `customer`.`id`" in sql


def test_a_grouping_word_is_first_a_column_of_the_rows_named(
    warehouse_layer: SemanticLayer,
) -> None:
    # the customers' own billing state, not the state of their locations (left unjoined)
    sql = _sql("Give me the number of customers for each state.", warehouse_layer)
    assert "GROUP BY `customer`.`billingState`" in sql and "customerLocation" not in sql


def test_a_name_said_in_the_plural_sets_the_context(warehouse_layer: SemanticLayer) -> None:
    # "Safety Officers" is the stored role 'Safety Officer': ambiguous words ("hourly rate")
    # are then read among the roles' employees, not the customers' rates
    terms = _terms(
        "What is the mean hourly rate of the Safety Officers we employ?", warehouse_layer
    )
    context, _ = question_context(terms, warehouse_layer, VALUES)
    assert "employeeRole" in context


def test_where_rows_are_located_is_their_place(warehouse_layer: SemanticLayer) -> None:
    sql = _sql("How many customers are located in Texas?", warehouse_layer)
    assert "`customer`.`billingState` = 'TX'" in sql


def test_a_comma_parts_two_names(warehouse_layer: SemanticLayer) -> None:
    terms = _terms(
        "Which sites do we have in Austin, Texas? Show Lighthouse Power LLC's too.", warehouse_layer
    )
    assert [name for name, _ in terms.names] == ["Austin", "Texas", "Lighthouse Power LLC"]


def test_what_we_do_to_the_rows_names_no_table(warehouse_layer: SemanticLayer) -> None:
    # "do we service" is the business's act, not a join to the service table
    sql = _sql("How many customer locations do we service in Texas?", warehouse_layer)
    assert "`customerLocation`.`state` = 'TX'" in sql and "service" not in sql


def test_breaking_rows_down_by_a_column_groups_them(warehouse_layer: SemanticLayer) -> None:
    sql = _sql("Can you break the work orders down by status?", warehouse_layer)
    assert "GROUP BY `workOrder`.`status`" in sql and "out_of_service" not in sql


def test_a_name_before_a_thing_is_of_the_table_nearest_it(warehouse_layer: SemanticLayer) -> None:
    # 'Repair' is a work order type and a service category: said of work orders, their type
    sql = _sql("How many Repair work orders do we have?", warehouse_layer)
    assert "`workOrderType`.`name` = 'Repair'" in sql and "serviceCategory" not in sql


def test_the_verb_of_the_table_a_value_is_in_changes_nothing(
    warehouse_layer: SemanticLayer,
) -> None:
    # 'Key Account' is a tag's name: "tagged" only restates it
    sql = _sql("List the customers tagged Key Account.", warehouse_layer)
    assert "`tag`.`name` = 'Key Account'" in sql


def test_a_verb_that_names_a_column_is_the_column_as_a_noun(
    warehouse_layer: SemanticLayer,
) -> None:
    # "makes" of vehicles is vehicle.make; "which manufacturers make cranes" is a verb
    sql = _sql("List the distinct makes of our vehicles.", warehouse_layer)
    assert "SELECT DISTINCT `vehicle`.`make`" in sql


def test_the_currency_of_an_amount_changes_nothing(warehouse_layer: SemanticLayer) -> None:
    sql = _sql("What is the total dollar amount of all invoices?", warehouse_layer)
    assert "SUM(`invoice`.`total`)" in sql


def test_a_name_is_found_whatever_its_punctuation(warehouse_layer: SemanticLayer) -> None:
    sql = _sql("How many customers are in the Oil & Gas industry?", warehouse_layer)
    assert "`industry`.`name` = 'Oil & Gas'" in sql


def test_a_word_is_read_in_the_table_that_pairs_the_named_ones(
    warehouse_layer: SemanticLayer,
) -> None:
    # "passed" of the training that pairs employees and the course, not an inspection's
    # result one join away from the employees
    sql = _sql("How many employees have passed the Fall Protection/Rescue course?", warehouse_layer)
    assert "`employeeTraining`.`isPassed` = TRUE" in sql and "inspection" not in sql


@pytest.mark.parametrize(
    ("question", "grouped"),
    [
        ("How many work orders are there per work-order type?", "`workOrderType`.`id`"),
        ("How many invoices are there per customer's industry?", "`industry`.`id`"),
    ],
)
def test_a_group_name_with_a_hyphen_or_a_possessive_still_groups(
    warehouse_layer: SemanticLayer, question: str, grouped: str
) -> None:
    # both had been dropped, and every row counted once
    assert f"GROUP BY {grouped}" in _sql(question, warehouse_layer)


@pytest.mark.parametrize(
    ("question", "beside"),
    [
        ("List the inactive customer locations, and in which state?", None),
        ("Which vehicles are inactive, and which branch has them?", "`branch`.`name`"),
        ("Show the 3 most recent payments and which invoice each was for.", "`invoice`.`id`"),
    ],
)
def test_a_closing_and_which_asks_for_a_thing_beside_each_row(
    warehouse_layer: SemanticLayer, question: str, beside: str | None
) -> None:
    if beside is None:  # a column, not a thing: asked by name as before
        assert "`customerLocation`.`state`" in _sql(question, warehouse_layer)
        return
    sql = _sql(question, warehouse_layer)
    shown = sql.split(" FROM ")[0]
    assert beside in shown and "JOIN" in sql
