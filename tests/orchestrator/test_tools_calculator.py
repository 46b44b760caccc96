"""The calculator: exact arithmetic from a small parser, clear errors, hostile input refused."""

from decimal import Decimal

import pytest

from chat.orchestrator.context import RunContext
from chat.orchestrator.tools.calculator import (
    CalculatorError,
    evaluate,
    expression_in,
    format_number,
)
from chat.orchestrator.tools.runner import call_tool

from .tool_fixtures import context


def calc(text: str) -> str:
    return format_number(evaluate(text))


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("1 + 2 * 3", "7"),
        ("(1 + 2) * 3", "9"),
        ("0.1 + 0.2", "0.3"),
        ("7 / 2", "3.5"),
        ("7 // 2", "3"),
        ("-7 // 2", "-4"),
        ("7 % 3", "1"),
        ("-7 % 3", "2"),
        ("2 ** 10", "1024"),
        ("2 ** 3 ** 2", "512"),
        ("-2 ** 2", "-4"),
        ("(-2) ** 2", "4"),
        ("2 ** -1", "0.5"),
        ("--3", "3"),
        ("15% of 80", "12"),
        ("15 percent of 80", "12"),
        ("12.5% of 1000", "125"),
        ("15%", "0.15"),
        ("200 * 15%", "30"),
        ("round(2.5)", "3"),
        ("round(3.14159, 2)", "3.14"),
        ("abs(-4.5)", "4.5"),
        ("min(4, 2, 8)", "2"),
        ("max(4, 2, 8) - 1", "7"),
        ("sqrt(16)", "4"),
        ("sqrt(2)", "1.4142135623730950488"),
        ("1e3 + 1", "1001"),
        ("1_000 * 3", "3000"),
        ("ROUND(2.345, 2)", "2.35"),
    ],
)
def test_arithmetic(expression: str, expected: str) -> None:
    assert calc(expression) == expected


@pytest.mark.parametrize(
    ("expression", "message"),
    [
        ("", "empty"),
        ("1 / 0", "division by zero"),
        ("5 // 0", "division by zero"),
        ("5 % 0", "division by zero"),
        ("0 ** -1", "division by zero"),
        ("(1 + 2", "expected ')' at the end"),
        ("1 + ", "expected a number at the end"),
        ("1 2", "unexpected '2' at position 3"),
        ("2 ** 5000", "exponent is larger than 1000"),
        ("10 ** 200", "too large"),
        ("9" * 101 + " * 9", "too large"),
        ("sqrt(-1)", "sqrt of a negative number"),
        ("(-8) ** 0.5", "negative number to a fractional power"),
        ("round(1.5, 0.5)", "whole number"),
        ("max()", "expected a number"),
        ("abs(1, 2)", "abs takes 1 arguments, not 2"),
        ("pow(2, 3)", "unknown name 'pow' at position 1"),
        ("__import__('os')", "unexpected '_' at position 1"),
        ("().__class__", "unexpected '.' at position 3"),
        ("1; 2", "unexpected ';' at position 2"),
        ("x = 1", "unexpected '=' at position 3"),
        ("x + 1", "unknown name 'x' at position 1"),
        ("1 + 2 \u2044 3", "unexpected '\u2044' at position 7"),  # a fraction slash
        ("(" * 40 + "1" + ")" * 40, "levels of nesting"),
        ("-" * 40 + "1", "levels of nesting"),
        ("1+" * 200 + "1", "longer than 300 characters"),
        ("1+" * 90 + "1", "more than 150 parts"),
    ],
)
def test_errors_say_what_and_where(expression: str, message: str) -> None:
    with pytest.raises(CalculatorError) as error:
        evaluate(expression)
    assert message in str(error.value)


def test_numbers_stay_exact() -> None:
    assert calc("1 / 3 * 3") == "1"
    assert evaluate("1 / 3") == Decimal("0.3333333333333333333333333333")
    assert calc("19.99 * 3") == "59.97"
    assert calc("100 - 99.9") == "0.1"


@pytest.mark.parametrize(
    ("question", "expression"),
    [
        ("What is 15% of 80?", "15% of 80"),
        ("what's 2 * (3 + 4)", "2 * (3 + 4)"),
        ("Calculate the value of 7 / 2.", "7 / 2"),
        ("Please compute sqrt(81)", "sqrt(81)"),
        ("3 + 4 =", "3 + 4"),
    ],
)
def test_the_expression_is_read_from_a_question(question: str, expression: str) -> None:
    assert expression_in(question) == expression


async def test_the_tool_answers_and_reports_errors_it_may_show() -> None:
    ctx, events = context(None, "What is 15% of 80?")
    result = await call_tool("calculator", {}, ctx, node="calculate")
    assert result.ok, result.error
    assert result.output == {"expression": "15% of 80", "result": "12", "value": 12.0}

    result = await call_tool("calculator", {"expression": "1 / (2 - 2)"}, ctx, node="calculate")
    assert not result.ok
    assert result.error == "Cannot calculate '1 / (2 - 2)': division by zero."
    ends = events.named("tool_end")
    assert [e["ok"] for e in ends] == [True, False]

    result = await call_tool("calculator", {"expression": ["1"]}, ctx)
    assert not result.ok and "expression: text" in result.error


async def test_the_tool_never_evaluates_python() -> None:
    ctx = RunContext(user=None, question="")
    hostile = "__import__('os').system('touch /tmp/calculator-pwned')"
    result = await call_tool("calculator", {"expression": hostile}, ctx)
    assert not result.ok
    assert "unexpected '_'" in result.error
    import os

    assert not os.path.exists("/tmp/calculator-pwned")
