import pytest

from chat.orchestrator.conditions import (
    MAX_DEPTH,
    MAX_LENGTH,
    ConditionError,
    assign,
    compile_condition,
    parse_target,
)

STATE = {
    "question": "Who leads Atlas?",
    "route": {"route": "sql", "confidence": 0.72},
    "validation": {"ok": False, "feedback": "no rows"},
    "triage": {"intents": ["ai_search", "news_script"], "preferred_agent": None},
    "results": [{"score": 0.9, "tags": ["a"]}, {"score": 0.4, "tags": []}],
    "reporter": "summary",
    "verdicts": {"summary": [{"decision": "revise"}, {"decision": "accept"}]},
    "counts": {"0": "zero-key"},
    "empty": [],
    "name": "Ada",
}


def value(text: str) -> object:
    return compile_condition(text).evaluate(STATE)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("route.route == 'sql' and route.confidence >= 0.6", True),
        ("route.route == 'sql' and route.confidence >= 0.8", False),
        ("not validation.ok", True),
        ("'ai_search' in triage.intents", True),
        ("'multi' not in triage.intents", True),
        ("len(results) > 0", True),
        ("len(empty) > 0", False),
        ('verdicts[reporter][-1].decision == "accept"', True),
        ("verdicts[reporter][0].decision", "revise"),
        ("verdicts['summary'][1].decision", "accept"),
        ("results[0].tags[0]", "a"),
        ("state.results[1].score < 0.5", True),
        ("counts[0]", "zero-key"),
        ("route.confidence > 0.7 or route.route == 'documents'", True),
        ("(route.route == 'documents' or route.route == 'sql') and not empty", True),
        ("lower(name) == 'ada' and upper(name) == 'ADA'", True),
        ("any([false, 0, 'x'])", True),
        ("all([true, 1, ''])", False),
        ("[1, 2.5, 'x', null, true] == [1, 2.5, \"x\", None, True]", True),
        ("-1 < 0", True),
        ("1e3 == 1000", True),
        ("'las' in question", True),
        ("'it\\'s' == \"it's\"", True),
        ("route.route != 'graph'", True),
        ("'b' > 'a'", True),
    ],
)
def test_expressions_evaluate_over_the_state(text: str, expected: object) -> None:
    assert value(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "missing",
        "missing.deeper.still",
        "route.route.deeper",  # a step into a string
        "results[9].score",
        "results['x']",
        "verdicts[missing]",
        "triage.preferred_agent.name",
        "results[true]",  # a bool is not a position
    ],
)
def test_missing_paths_are_none(text: str) -> None:
    assert value(text) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("missing >= 0.6", False),  # None cannot be ordered: false, not an exception
        ("missing < 0.6", False),
        ("'3' > 2", False),
        ("results > 1", False),
        ("'x' in missing", False),
        ("1 in question", False),
        ("missing == null", True),
        ("len(missing) == 0", True),
        ("lower(route) == null", True),
        ("any(question)", False),
    ],
)
def test_mismatched_types_never_raise(text: str, expected: object) -> None:
    assert value(text) == expected


def test_compiled_once_and_reused() -> None:
    first = compile_condition("route.confidence >= 0.5")
    assert compile_condition("route.confidence >= 0.5") is first
    assert first.holds({"route": {"confidence": 0.5}})
    assert not first.holds({"route": {"confidence": 0.4}})
    assert not first.holds({})


def test_attribute_steps_only_read_dict_keys() -> None:
    # A path never reaches a Python attribute, even one with a plain name.
    assert compile_condition("question.upper").evaluate({"question": "abc"}) is None
    assert compile_condition("results.count").evaluate({"results": [1, 2]}) is None
    assert compile_condition("d.keys").evaluate({"d": {"a": 1}}) is None


@pytest.mark.parametrize(
    ("text", "position", "fragment"),
    [
        ("__import__('os').system('id')", 1, "names starting with '_'"),
        ("route.__class__", 7, "names starting with '_'"),
        ("results[0].__dict__", 12, "names starting with '_'"),
        ("_private", 1, "names starting with '_'"),
        ("eval('1')", 1, "unknown function 'eval'"),
        ("getattr(route, 'x')", 1, "unknown function 'getattr'"),
        ("route.route = 'sql'", 13, "use == to compare"),
        ("lambda: 1", 7, "unexpected character ':'"),
        ("route.route == 'sql", 16, "unterminated string"),
        ('"abc', 1, "unterminated string"),
        ("'a\\x41'", 3, "unknown escape"),
        ("route.route == 'sql' and", 25, "expected a value"),
        ("a < b < c", 7, "chained comparisons"),
        ("len(a, b)", 6, "takes one argument"),
        ("(a == 1", 8, "expected ')'"),
        ("a.", 3, "expected a name after '.'"),
        ("a.in", 3, "expected a name after '.'"),
        ("a b", 3, "unexpected 'b'"),
        ("", 1, "empty expression"),
        ("a ** 2", 3, "unexpected character '*'"),
        ("a; b", 2, "unexpected character ';'"),
        ("{'a': 1}", 1, "unexpected character '{'"),
        ("f'{x}'", 2, "unexpected \"'{x}'\""),  # an f-string prefix is just a name
        ("- a", 1, "'-' must be followed by a number"),
    ],
)
def test_invalid_input_is_refused_with_its_position(
    text: str, position: int, fragment: str
) -> None:
    with pytest.raises(ConditionError) as raised:
        compile_condition(text)
    assert raised.value.position == position
    assert fragment in str(raised.value)
    assert f"at position {position}" in str(raised.value)


@pytest.mark.parametrize(
    ("text", "position"),
    [
        ("\uff3f\uff3fimport\uff3f\uff3f", 1),  # full-width low lines
        ("rout\u0435 == 1", 5),  # Cyrillic e inside a name
        ("route\u200b == 1", 6),  # zero-width space
        ("'a' == 'a\u202e'", 10),  # right-to-left override inside a string
        ("a\x00", 2),  # NUL
        ("\u00e9t\u00e9", 1),  # letters outside ASCII are not names
    ],
)
def test_unicode_tricks_are_refused(text: str, position: int) -> None:
    with pytest.raises(ConditionError) as raised:
        compile_condition(text)
    assert raised.value.position == position


def test_unicode_inside_a_string_literal_is_text() -> None:
    assert compile_condition("name == 'Zo\u00eb'").holds({"name": "Zo\u00eb"})


def test_nesting_and_length_are_bounded() -> None:
    depth = MAX_DEPTH + 1
    with pytest.raises(ConditionError, match="nested deeper"):
        compile_condition("(" * depth + "1" + ")" * depth)
    with pytest.raises(ConditionError, match="nested deeper"):
        compile_condition("not " * depth + "x")
    with pytest.raises(ConditionError, match="nested deeper"):
        compile_condition("[" * depth + "]" * depth)
    with pytest.raises(ConditionError, match="nested deeper"):
        compile_condition("a" + "[b" * depth + "]" * depth)
    with pytest.raises(ConditionError, match=f"longer than {MAX_LENGTH}") as raised:
        compile_condition("a or " * 300 + "b")
    assert raised.value.position == MAX_LENGTH + 1
    # Just inside the limits compiles and evaluates.
    inside = MAX_DEPTH - 1
    assert compile_condition("(" * inside + "1" + ")" * inside).evaluate({}) == 1


def test_non_string_is_refused() -> None:
    with pytest.raises(ConditionError):
        compile_condition(42)


def test_output_targets_are_dotted_names() -> None:
    assert parse_target("search") == ("search",)
    assert parse_target("state.draft.review") == ("draft", "review")
    for bad in ("a[0]", "a..b", "__x", "a.__class__", "state", "a.not", "1a", "", "a b"):
        with pytest.raises(ConditionError):
            parse_target(bad)


def test_assign_creates_parents_and_replaces_non_dicts() -> None:
    state: dict = {"draft": "text"}
    assign(state, ("draft", "review"), {"decision": "accept"})
    assign(state, ("a", "b", "c"), 1)
    assert state == {"draft": {"review": {"decision": "accept"}}, "a": {"b": {"c": 1}}}
