from decimal import Decimal

from sqlagent.answer_matching import matches


def test_extra_columns_and_column_order_are_allowed() -> None:
    gold = [["Denver", 3], ["Tulsa", 1]]
    answer = [(7, 1, "Tulsa", "OK"), (4, 3, "Denver", "CO")]
    assert matches(gold, answer, ordered=False)


def test_row_order_counts_only_when_the_gold_orders() -> None:
    gold = [["a"], ["b"]]
    assert matches(gold, [("b",), ("a",)], ordered=False)
    assert not matches(gold, [("b",), ("a",)], ordered=True)
    assert matches(gold, [("a",), ("b",)], ordered=True)


def test_rows_must_agree_together_not_column_by_column() -> None:
    gold = [["x", 1], ["y", 2]]
    assert not matches(gold, [("x", 2), ("y", 1)], ordered=False)


def test_numbers_compare_after_rounding_and_types_normalise() -> None:
    assert matches([[4.05]], [(Decimal("4.0549"),)], ordered=False)
    assert matches([[1]], [(True,)], ordered=False)
    assert not matches([[4.05]], [(Decimal("4.07"),)], ordered=False)


def test_missing_rows_or_columns_fail() -> None:
    assert not matches([["a"], ["b"]], [("a",)], ordered=False)
    assert not matches([["a", 1]], [("a",)], ordered=False)
    assert matches([], [], ordered=False)
