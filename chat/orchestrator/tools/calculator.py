"""Tool `calculator`: arithmetic from a small parser, never `eval`.

Grammar (usual precedence, `**` binds right and tighter than unary minus, as in Python):

    expression := term (("+" | "-") term)*
    term       := unary (("*" | "/" | "//" | "%") unary)*
    unary      := ("-" | "+") unary | power
    power      := percent ("**" unary)?
    percent    := atom ("%" "of" unary | "percent" "of" unary | "%" | "percent")?
    atom       := NUMBER | "(" expression ")" | NAME "(" expression ("," expression)* ")"

Functions: round(x[, digits]), abs(x), min(...), max(...), sqrt(x). "15% of 80" is 12;
"15%" alone is 0.15; `a % b` between two numbers is the remainder. Numbers are exact
decimals ("0.1 + 0.2" is 0.3), computed to 28 significant digits and shown to 20.

Input: {"expression": str} (default: the question asked, with words such as "what is"
around the arithmetic left out). Output: {"expression", "result": str (exact),
"value": float}.
"""

import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import (
    ROUND_HALF_UP,
    Context,
    Decimal,
    DivisionByZero,
    InvalidOperation,
    Overflow,
)
from typing import Any

from chat.orchestrator.context import RunContext
from chat.orchestrator.token_cursor import TokenCursor
from chat.orchestrator.tools.registry import ToolError, register

MAX_CHARS = 300
MAX_TOKENS = 150
MAX_DEPTH = 30
MAX_EXPONENT = 1000
MAX_MAGNITUDE = Decimal(10) ** 100
CONTEXT = Context(prec=28, Emax=999_999, Emin=-999_999)
# Results are shown to 20 significant digits, so that 1 / 3 * 3 reads 1, not 0.99...9.
SHOWN = Context(prec=20, Emax=999_999, Emin=-999_999)

_TOKEN = re.compile(
    r"\s*(?:(?P<number>(?:\d[\d_]*(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)"
    r"|(?P<op>\*\*|//|[-+*/%(),])"
    r"|(?P<name>[A-Za-z]+))"
)


class CalculatorError(ValueError):
    """An expression that cannot be computed; the message says where and why."""


@dataclass(frozen=True)
class Token:
    kind: str  # number, op, name, end
    text: str
    position: int


def tokenize(text: str) -> list[Token]:
    if len(text) > MAX_CHARS:
        raise CalculatorError(f"the expression is longer than {MAX_CHARS} characters")
    tokens: list[Token] = []
    position = 0
    while position < len(text):
        if text[position:].strip() == "":
            break
        match = _TOKEN.match(text, position)
        if match is None or match.end() == position:
            start = position + len(text[position:]) - len(text[position:].lstrip())
            raise CalculatorError(f"unexpected {text[start]!r} at position {start + 1}")
        kind = match.lastgroup or ""
        start = match.start(kind)
        tokens.append(Token(kind, match.group(kind).lower(), start))
        position = match.end()
        if len(tokens) > MAX_TOKENS:
            raise CalculatorError(f"the expression has more than {MAX_TOKENS} parts")
    tokens.append(Token("end", "", len(text)))
    return tokens


def _sqrt(x: Decimal) -> Decimal:
    if x < 0:
        raise CalculatorError("sqrt of a negative number")
    return x.sqrt(CONTEXT)


def _round(x: Decimal, digits: Decimal = Decimal(0)) -> Decimal:
    if digits != digits.to_integral_value() or not -20 <= digits <= 20:
        raise CalculatorError("round: the number of digits is a whole number from -20 to 20")
    return x.quantize(Decimal(1).scaleb(-int(digits)), rounding=ROUND_HALF_UP, context=CONTEXT)


FUNCTIONS: dict[str, tuple[Callable[..., Decimal], int, int]] = {
    # name: (function, fewest arguments, most arguments)
    "round": (_round, 1, 2),
    "abs": (lambda x: abs(x), 1, 1),
    "min": (lambda *xs: min(xs), 1, 50),
    "max": (lambda *xs: max(xs), 1, 50),
    "sqrt": (_sqrt, 1, 1),
}


# What may follow "15%" when it is a share rather than the remainder operator.
_AFTER_SHARE = frozenset({")", ",", "+", "-", "*", "/", "//", "**"})


class Parser(TokenCursor[Token]):
    def __init__(self, text: str) -> None:
        super().__init__(tokenize(text))

    def _expect(self, text: str) -> None:
        if self._take("op", text) is None:
            raise CalculatorError(f"expected {text!r} {self._where()}")

    def _where(self) -> str:
        token = self.current
        if token.kind == "end":
            return "at the end"
        return f"at position {token.position + 1} ({token.text!r})"

    def parse(self) -> Decimal:
        if self.current.kind == "end":
            raise CalculatorError("the expression is empty")
        value = self.expression()
        if self.current.kind != "end":
            raise CalculatorError(f"unexpected {self.current.text!r} {self._where()}")
        return value

    def _nested(self, parse: Callable[[], Decimal]) -> Decimal:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise CalculatorError(f"more than {MAX_DEPTH} levels of nesting")
        try:
            return parse()
        finally:
            self.depth -= 1

    def expression(self) -> Decimal:
        value = self.term()
        while True:
            if self._take("op", "+"):
                value = _checked(CONTEXT.add(value, self.term()))
            elif self._take("op", "-"):
                value = _checked(CONTEXT.subtract(value, self.term()))
            else:
                return value

    def term(self) -> Decimal:
        value = self.unary()
        while True:
            token = self.current
            if token.kind == "op" and token.text in ("*", "/", "//", "%"):
                self.index += 1
                value = _binary(token.text, value, self.unary())
            else:
                return value

    def unary(self) -> Decimal:
        if self._take("op", "-"):
            return self._nested(lambda: CONTEXT.minus(self.unary()))
        if self._take("op", "+"):
            return self._nested(self.unary)
        return self.power()

    def power(self) -> Decimal:
        base = self.percent()
        if self._take("op", "**"):
            exponent = self._nested(self.unary)
            return _power(base, exponent)
        return base

    def percent(self) -> Decimal:
        value = self.atom()
        token = self.current
        is_sign = token.kind == "op" and token.text == "%"
        is_word = token.kind == "name" and token.text == "percent"
        if not (is_sign or is_word):
            return value
        following = self.tokens[self.index + 1]
        if following.kind == "name" and following.text == "of":
            self.index += 2
            whole = self._nested(self.unary)
            return _checked(CONTEXT.divide(CONTEXT.multiply(value, whole), Decimal(100)))
        if is_word or following.kind == "end" or following.text in _AFTER_SHARE:
            self.index += 1  # "15%" on its own: a share
            return CONTEXT.divide(value, Decimal(100))
        return value  # `a % b`: the remainder, read by term()

    def atom(self) -> Decimal:
        token = self.current
        if token.kind == "number":
            self.index += 1
            try:
                return _checked(Decimal(token.text.replace("_", "")))
            except InvalidOperation:
                raise CalculatorError(f"not a number: {token.text!r}") from None
        if self._take("op", "("):
            value = self._nested(self.expression)
            self._expect(")")
            return value
        if token.kind == "name":
            if token.text not in FUNCTIONS:
                known = ", ".join(FUNCTIONS)
                raise CalculatorError(
                    f"unknown name {token.text!r} at position {token.position + 1}; "
                    f"functions: {known}"
                )
            self.index += 1
            return self._call(token)
        raise CalculatorError(f"expected a number {self._where()}")

    def _call(self, token: Token) -> Decimal:
        function, fewest, most = FUNCTIONS[token.text]
        self._expect("(")
        arguments = [self._nested(self.expression)]
        while self._take("op", ","):
            arguments.append(self._nested(self.expression))
        self._expect(")")
        if not fewest <= len(arguments) <= most:
            wanted = str(fewest) if fewest == most else f"{fewest} to {most}"
            raise CalculatorError(f"{token.text} takes {wanted} arguments, not {len(arguments)}")
        return _checked(function(*arguments))


def _checked(value: Decimal) -> Decimal:
    if abs(value) > MAX_MAGNITUDE:
        raise CalculatorError("the result is too large (more than 10^100)")
    return value


def _binary(op: str, a: Decimal, b: Decimal) -> Decimal:
    if op == "*":
        return _checked(CONTEXT.multiply(a, b))
    if b == 0:
        raise CalculatorError("division by zero")
    if op == "/":
        return _checked(CONTEXT.divide(a, b))
    if op == "//":
        return _checked(CONTEXT.divide(a, b).to_integral_value(rounding="ROUND_FLOOR"))
    # Python's sign rule: the remainder takes the divisor's sign.
    return _checked(a - b * CONTEXT.divide(a, b).to_integral_value(rounding="ROUND_FLOOR"))


def _power(base: Decimal, exponent: Decimal) -> Decimal:
    if abs(exponent) > MAX_EXPONENT:
        raise CalculatorError(f"the exponent is larger than {MAX_EXPONENT}")
    if base == 0 and exponent < 0:
        raise CalculatorError("division by zero")
    if base < 0 and exponent != exponent.to_integral_value():
        raise CalculatorError("a negative number to a fractional power")
    try:
        return _checked(CONTEXT.power(base, exponent))
    except (Overflow, InvalidOperation):
        raise CalculatorError("the result is too large (more than 10^100)") from None


def evaluate(expression: str) -> Decimal:
    try:
        return Parser(expression).parse()
    except (DivisionByZero, Overflow, InvalidOperation):
        raise CalculatorError("the result cannot be computed") from None


def format_number(value: Decimal) -> str:
    """Plain notation, no exponent, no trailing zeros: 12, 0.3, 1234.5."""
    value = SHOWN.plus(value)
    if value == value.to_integral_value():
        return str(int(value))
    text = format(value.normalize(CONTEXT), "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


# Words around the arithmetic in a question: "What is 15% of 80?", "calculate 2*(3+4)".
_LEADING = re.compile(
    r"^\s*(?:please\s+)?(?:(?:what(?:'s| is)|how much is|calculate|compute|evaluate|work out)"
    r"\s+)?(?:the\s+)?(?:value\s+of\s+)?",
    re.IGNORECASE,
)


def expression_in(question: str) -> str:
    return _LEADING.sub("", question).strip().rstrip("?.!= ").strip()


def calculate(inputs: dict[str, Any], ctx: RunContext) -> dict[str, Any]:
    given = inputs.get("expression")
    if given is not None and not isinstance(given, str | int | float):
        raise ToolError("expression: text such as '15% of 80' or '2 * (3 + 4)'")
    expression = str(given).strip() if given is not None else expression_in(ctx.question)
    try:
        value = evaluate(expression)
    except CalculatorError as error:
        raise ToolError(f"Cannot calculate {expression[:80]!r}: {error}.") from error
    return {"expression": expression, "result": format_number(value), "value": float(value)}


@register(
    "calculator",
    "Exact arithmetic: + - * / // % **, parentheses, round abs min max sqrt, 'x% of y'; "
    "inputs: expression.",
    uses_breaker=False,
)
def run(inputs: dict[str, Any], ctx: RunContext) -> dict[str, Any]:
    return calculate(inputs, ctx)
