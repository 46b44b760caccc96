"""Workflow conditions and state paths: a small language parsed by hand and evaluated over
the workflow state (nested dicts and lists). Never `eval`: the text is tokenized and parsed
by recursive descent into closures that only read dict keys and list items, so no name,
attribute or function outside the whitelist is reachable.

Grammar (docs/orchestrator.md, "Conditions"):

    expr       := and_expr ("or" and_expr)*
    and_expr   := not_expr ("and" not_expr)*
    not_expr   := "not" not_expr | comparison
    comparison := operand [("==" | "!=" | "<" | "<=" | ">" | ">=" | "in" | "not in") operand]
    operand    := "-" NUMBER | literal | list | "(" expr ")" | call | path
    path       := NAME ("." NAME | "[" expr "]")*
    call       := FUNCTION "(" [expr ("," expr)*] ")"

A path that is missing (an absent key, an index out of range, a step into something that is
not a dict or list) is None; evaluation never raises. An ordering comparison of values that
cannot be ordered (a number and None, a string and a list) is false.
"""

import re
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from chat.orchestrator.token_cursor import TokenCursor

MAX_LENGTH = 1000  # characters of one expression
MAX_DEPTH = 32  # nesting of parentheses, brackets, calls and `not`

Scope = Mapping[str, Any]
Evaluator = Callable[[Scope], Any]


class ConditionError(ValueError):
    """An expression that cannot be compiled; `position` is the 1-based column."""

    def __init__(self, message: str, position: int) -> None:
        super().__init__(f"{message} at position {position}")
        self.position = position


# The one root name that is not a state key: `state.x` and `x` are the same path, so that
# node fields may be written either way.
STATE_ROOT = "state"
KEYWORDS = frozenset({"and", "or", "not", "in"})
CONSTANTS: dict[str, Any] = {
    "true": True,
    "false": False,
    "null": None,
    "True": True,
    "False": False,
    "None": None,
}


def _length(value: Any) -> int:
    return len(value) if isinstance(value, str | list | dict) else 0


def _lower(value: Any) -> Any:
    return value.lower() if isinstance(value, str) else None


def _upper(value: Any) -> Any:
    return value.upper() if isinstance(value, str) else None


def _any(value: Any) -> bool:
    return isinstance(value, list) and any(value)


def _all(value: Any) -> bool:
    return isinstance(value, list) and all(value)


FUNCTIONS: dict[str, Callable[[Any], Any]] = {
    "len": _length,
    "lower": _lower,
    "upper": _upper,
    "any": _any,
    "all": _all,
}


@dataclass(frozen=True)
class Token:
    kind: str  # name, number, string, op, end
    text: str
    value: Any
    position: int  # 1-based column


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NUMBER = re.compile(r"\d+(?:\.\d+)?(?:[eE][+-]?\d+)?")
_OPERATORS = ("==", "!=", "<=", ">=", "<", ">", "(", ")", "[", "]", ",", ".", "-")
_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", "'": "'", '"': '"'}


def _check_characters(text: str) -> None:
    """Outside string literals only ASCII is allowed (no look-alike letters, no full-width
    underscores); control and format characters (bidi overrides, zero-width joiners) are
    refused everywhere, since they make the text read differently from what it does."""
    for index, char in enumerate(text):
        if unicodedata.category(char) in ("Cc", "Cf") and char not in " \t":
            raise ConditionError(f"control character U+{ord(char):04X} not allowed", index + 1)


def tokenize(text: str) -> list[Token]:
    if len(text) > MAX_LENGTH:
        raise ConditionError(f"expression longer than {MAX_LENGTH} characters", MAX_LENGTH + 1)
    _check_characters(text)
    tokens: list[Token] = []
    index = 0
    while index < len(text):
        char = text[index]
        if char in " \t":
            index += 1
            continue
        position = index + 1
        if char in "'\"":
            value, index = _string(text, index)
            tokens.append(Token("string", text[position - 1 : index], value, position))
            continue
        if match := _NUMBER.match(text, index):
            raw = match.group()
            number: int | float = float(raw) if any(c in raw for c in ".eE") else int(raw)
            tokens.append(Token("number", raw, number, position))
            index = match.end()
            continue
        if match := _NAME.match(text, index):
            name = match.group()
            if name.startswith("_"):
                raise ConditionError(f"names starting with '_' are not allowed: {name}", position)
            tokens.append(Token("name", name, name, position))
            index = match.end()
            continue
        operator = next((op for op in _OPERATORS if text.startswith(op, index)), None)
        if operator is None:
            shown = char if char.isprintable() else f"U+{ord(char):04X}"
            hint = " (use == to compare)" if char == "=" else ""
            raise ConditionError(f"unexpected character {shown!r}{hint}", position)
        tokens.append(Token("op", operator, operator, position))
        index += len(operator)
    tokens.append(Token("end", "", None, len(text) + 1))
    return tokens


def _string(text: str, start: int) -> tuple[str, int]:
    quote = text[start]
    parts: list[str] = []
    index = start + 1
    while index < len(text):
        char = text[index]
        if char == quote:
            return "".join(parts), index + 1
        if char == "\\":
            escaped = text[index + 1 : index + 2]
            if escaped not in _ESCAPES:
                raise ConditionError(f"unknown escape \\{escaped}", index + 1)
            parts.append(_ESCAPES[escaped])
            index += 2
            continue
        parts.append(char)
        index += 1
    raise ConditionError("unterminated string", start + 1)


class _Parser(TokenCursor[Token]):
    def __init__(self, text: str) -> None:
        super().__init__(tokenize(text))

    def _expect(self, kind: str, text: str) -> Token:
        if not self._at(kind, text):
            raise ConditionError(f"expected {text!r}, found {self._shown()}", self.current.position)
        return self._advance()

    def _shown(self) -> str:
        return "the end" if self.current.kind == "end" else repr(self.current.text)

    def _nested(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise ConditionError(f"nested deeper than {MAX_DEPTH} levels", self.current.position)

    def parse(self) -> Evaluator:
        if self._at("end"):
            raise ConditionError("empty expression", 1)
        evaluator = self._or()
        if not self._at("end"):
            raise ConditionError(f"unexpected {self._shown()}", self.current.position)
        return evaluator

    def _or(self) -> Evaluator:
        left = self._and()
        while self._at("name", "or"):
            self._advance()
            left = _either(left, self._and())
        return left

    def _and(self) -> Evaluator:
        left = self._not()
        while self._at("name", "and"):
            self._advance()
            left = _both(left, self._not())
        return left

    def _not(self) -> Evaluator:
        if self._at("name", "not"):
            self._advance()
            self._nested()
            operand = self._not()
            self.depth -= 1
            return lambda scope: not operand(scope)
        return self._comparison()

    def _comparison(self) -> Evaluator:
        left = self._operand()
        operator = self._comparison_operator()
        if operator is None:
            return left
        right = self._operand()
        if self._comparison_operator() is not None:
            raise ConditionError(
                "chained comparisons are not supported; join them with 'and'",
                self.tokens[self.index - 1].position,
            )
        return _compare(operator, left, right)

    def _comparison_operator(self) -> str | None:
        token = self.current
        if token.kind == "op" and token.text in ("==", "!=", "<", "<=", ">", ">="):
            self._advance()
            return token.text
        if self._at("name", "in"):
            self._advance()
            return "in"
        if self._at("name", "not") and self.tokens[self.index + 1].text == "in":
            self.index += 2
            return "not in"
        return None

    def _operand(self) -> Evaluator:
        token = self.current
        if token.kind in ("number", "string"):
            self._advance()
            return _constant(token.value)
        if self._at("op", "-"):
            self._advance()
            if not self._at("number"):
                raise ConditionError("'-' must be followed by a number", token.position)
            return _constant(-self._advance().value)
        if self._at("op", "("):
            self._advance()
            self._nested()
            inner = self._or()
            self._expect("op", ")")
            self.depth -= 1
            return inner
        if self._at("op", "["):
            return self._list()
        if token.kind == "name":
            return self._name()
        raise ConditionError(f"expected a value, found {self._shown()}", token.position)

    def _list(self) -> Evaluator:
        self._advance()
        self._nested()
        items: list[Evaluator] = []
        while not self._at("op", "]"):
            items.append(self._or())
            if not self._at("op", ","):
                break
            self._advance()
        self._expect("op", "]")
        self.depth -= 1
        return lambda scope: [item(scope) for item in items]

    def _name(self) -> Evaluator:
        token = self._advance()
        name = token.text
        if name in CONSTANTS:
            return _constant(CONSTANTS[name])
        if name in KEYWORDS:
            raise ConditionError(f"unexpected {name!r}", token.position)
        if self._at("op", "("):
            return self._call(token)
        steps: list[Evaluator | str] = [] if name == STATE_ROOT else [name]
        while self._at("op", ".") or self._at("op", "["):
            if self._advance().text == ".":
                if not self._at("name") or self.current.text in KEYWORDS:
                    raise ConditionError(f"expected a name after '.', found {self._shown()}",
                                         self.current.position)  # fmt: skip
                steps.append(self._advance().text)
            else:
                self._nested()
                steps.append(self._or())
                self._expect("op", "]")
                self.depth -= 1
        return _path(tuple(steps))

    def _call(self, name: Token) -> Evaluator:
        function = FUNCTIONS.get(name.text)
        if function is None:
            known = ", ".join(sorted(FUNCTIONS))
            raise ConditionError(f"unknown function {name.text!r} (known: {known})", name.position)
        self._advance()
        self._nested()
        argument = self._or()
        if self._at("op", ","):
            raise ConditionError(f"{name.text}() takes one argument", self.current.position)
        self._expect("op", ")")
        self.depth -= 1
        return lambda scope: function(argument(scope))


def _constant(value: Any) -> Evaluator:
    return lambda scope: value


def _either(left: Evaluator, right: Evaluator) -> Evaluator:
    return lambda scope: left(scope) or right(scope)


def _both(left: Evaluator, right: Evaluator) -> Evaluator:
    return lambda scope: left(scope) and right(scope)


def _step(value: Any, key: Any) -> Any:
    """One step down a path: dict keys and list positions only, never attributes."""
    if isinstance(value, Mapping) and isinstance(key, str | int) and not isinstance(key, bool):
        return value.get(key if isinstance(key, str) else str(key))
    if isinstance(value, list) and isinstance(key, int) and not isinstance(key, bool):
        return value[key] if -len(value) <= key < len(value) else None
    return None


def _path(steps: tuple[Evaluator | str, ...]) -> Evaluator:
    def evaluate(scope: Scope) -> Any:
        value: Any = scope
        for step in steps:
            value = _step(value, step if isinstance(step, str) else step(scope))
            if value is None:
                return None
        return value

    return evaluate


def _contains(container: Any, item: Any) -> bool:
    if isinstance(container, str):
        return isinstance(item, str) and item in container
    if isinstance(container, list):
        return item in container
    if isinstance(container, Mapping):
        return isinstance(item, str) and item in container
    return False


def _ordered(operator: str, left: Any, right: Any) -> bool:
    numbers = (int, float)
    comparable = (isinstance(left, numbers) and isinstance(right, numbers)) or (
        isinstance(left, str) and isinstance(right, str)
    )
    if not comparable:
        return False
    if operator == "<":
        return bool(left < right)
    if operator == "<=":
        return bool(left <= right)
    if operator == ">":
        return bool(left > right)
    return bool(left >= right)


def _compare(operator: str, left: Evaluator, right: Evaluator) -> Evaluator:
    if operator == "==":
        return lambda scope: bool(left(scope) == right(scope))
    if operator == "!=":
        return lambda scope: bool(left(scope) != right(scope))
    if operator == "in":
        return lambda scope: _contains(right(scope), left(scope))
    if operator == "not in":
        return lambda scope: not _contains(right(scope), left(scope))
    return lambda scope: _ordered(operator, left(scope), right(scope))


@dataclass(frozen=True)
class Condition:
    """A compiled expression: `evaluate` gives its value, `holds` its truth."""

    text: str
    _evaluate: Evaluator

    def evaluate(self, state: Scope) -> Any:
        return self._evaluate(state)

    def holds(self, state: Scope) -> bool:
        return bool(self._evaluate(state))


@lru_cache(maxsize=2048)
def compile_condition(text: str) -> Condition:
    """Compile once (cached by text), evaluate many times; ConditionError when invalid."""
    if not isinstance(text, str):
        raise ConditionError("an expression must be a string", 1)
    return Condition(text, _Parser(text).parse())


_ASSIGNABLE = re.compile(r"[A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z][A-Za-z0-9_]*)*")


def parse_target(text: str) -> tuple[str, ...]:
    """A path written to (a node's output): dotted names, e.g. `search` or `draft.review`,
    with the optional `state.` prefix."""
    if not isinstance(text, str) or not _ASSIGNABLE.fullmatch(text):
        raise ConditionError(f"an output path is dotted names, not {text!r}", 1)
    names = tuple(text.split("."))
    if names[0] == STATE_ROOT:
        names = names[1:]
    if not names or any(name in KEYWORDS or name in CONSTANTS for name in names):
        raise ConditionError(f"{text!r} is not a state path", 1)
    return names


def assign(state: dict[str, Any], target: tuple[str, ...], value: Any) -> None:
    """Write `value` at `target`, creating (or replacing non-dict) parents with dicts."""
    node = state
    for name in target[:-1]:
        child = node.get(name)
        if not isinstance(child, dict):
            child = node[name] = {}
        node = child
    node[target[-1]] = value
