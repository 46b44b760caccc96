import pytest

from registries.semantic_layer import SemanticLayer
from sqlagent.schema_view import executable_schema
from sqlagent.secure_views import rewrite_secure_views
from sqlagent.validation import SQLValidationError, parse_single_read, validate_sql


def _check(sql: str, layer: SemanticLayer) -> str:
    statement = rewrite_secure_views(parse_single_read(sql, layer.dialect), layer)
    rewritten = statement.sql(dialect=layer.dialect)
    validate_sql(rewritten, layer=layer, schema=executable_schema(layer))
    return rewritten


def test_logical_names_are_rewritten_to_secure_views(warehouse_layer: SemanticLayer) -> None:
    sql = _check(
        "SELECT employee.firstName, w.hours FROM employee "
        "JOIN workTime w ON w.employeeId = employee.id",
        warehouse_layer,
    )
    assert "secure_employee AS employee" in sql
    assert "FROM employee " not in sql


@pytest.mark.parametrize(
    ("sql", "fragment"),
    [
        ("DROP TABLE employee", "only SELECT"),
        ("DELETE FROM employee", "only SELECT"),
        ("UPDATE employee SET isActive = 0", "only SELECT"),
        ("INSERT INTO branch (name) VALUES ('x')", "only SELECT"),
        ("SELECT 1; DROP TABLE employee", "one statement"),
        ("SELECT id FROM branch; DELETE FROM branch", "one statement"),
        ("SET @customerIds = NULL", "SET"),
        ("SELECT @aesKey", "session variable"),
        ("SELECT @@version", "system variable"),
        ("SELECT id INTO @x FROM branch", "INTO"),
        ("SELECT id FROM branch FOR UPDATE", "locking"),
        ("SELECT LOAD_FILE('/etc/passwd')", "LOAD_FILE"),
        ("SELECT SLEEP(5)", "SLEEP"),
        ("SELECT AES_DECRYPT(firstName, 'k') FROM employee", "AES_DECRYPT"),
        ("SELECT * FROM mysql.user", "outside the warehouse"),
        ("SELECT * FROM information_schema.tables", "outside the warehouse"),
        ("SELECT nothing FROM branch", "branch.nothing does not exist"),
        ("SELECT id FROM branchez", "did you mean branch"),
        ("SELECT b.id FROM branch AS b JOIN customer AS c ON c.nope = b.id", "nope"),
    ],
)
def test_unsafe_or_wrong_sql_is_refused(
    warehouse_layer: SemanticLayer, sql: str, fragment: str
) -> None:
    with pytest.raises(SQLValidationError) as error:
        _check(sql, warehouse_layer)
    assert fragment in str(error.value)


def test_a_base_table_of_personal_data_is_refused(warehouse_layer: SemanticLayer) -> None:
    schema = executable_schema(warehouse_layer)
    with pytest.raises(SQLValidationError) as error:
        validate_sql("SELECT firstName FROM employee", layer=warehouse_layer, schema=schema)
    assert "secure_employee" in str(error.value)


def test_union_into_a_base_pii_table_is_refused(warehouse_layer: SemanticLayer) -> None:
    schema = executable_schema(warehouse_layer)
    with pytest.raises(SQLValidationError):
        validate_sql(
            "SELECT name FROM branch UNION SELECT firstName FROM employee",
            layer=warehouse_layer,
            schema=schema,
        )


def test_column_errors_say_where_the_column_really_is(warehouse_layer: SemanticLayer) -> None:
    with pytest.raises(SQLValidationError) as error:
        _check("SELECT w.hireDate FROM workTime AS w", warehouse_layer)
    message = str(error.value)
    assert "workTime.hireDate does not exist" in message
    assert "Found in: employee" in message


def test_comments_and_ctes_are_fine(warehouse_layer: SemanticLayer) -> None:
    sql = _check(
        "WITH b AS (SELECT id, name FROM branch) /* branches */ SELECT b.name FROM b -- end",
        warehouse_layer,
    )
    assert "branch" in sql


def test_mysql_reads_column_names_in_any_case(warehouse_layer: SemanticLayer) -> None:
    assert "NAME" in _check("SELECT NAME FROM branch", warehouse_layer)
    with pytest.raises(SQLValidationError, match="COLOUR does not exist"):
        _check("SELECT COLOUR FROM branch", warehouse_layer)


def test_a_subquery_column_is_checked_in_its_own_scope(warehouse_layer: SemanticLayer) -> None:
    # branchId is vehicle's, not branch's; a correlated reference reaches the outer query.
    sql = "SELECT name FROM branch WHERE NOT id IN (SELECT branchId FROM vehicle)"
    assert "vehicle" in _check(sql, warehouse_layer)
    _check(
        "SELECT name FROM branch WHERE EXISTS (SELECT 1 FROM vehicle WHERE branchId = id)",
        warehouse_layer,
    )
    with pytest.raises(SQLValidationError, match="wheels"):
        _check("SELECT name FROM branch WHERE id IN (SELECT wheels FROM vehicle)", warehouse_layer)
