"""Checks a generated Cypher query before it runs: one read-only statement over the labels,
relationship types and properties that exist. A tokenizer reads it the way the server
would (strings, back-quoted names and comments are single tokens), so a forbidden word
inside a string literal is harmless and one hidden after a comment is still seen."""

import re
from dataclasses import dataclass

WRITE_CLAUSES = frozenset(
    {"CREATE", "MERGE", "SET", "DELETE", "DETACH", "REMOVE", "CALL", "LOAD", "FOREACH", "DROP"}
)
_TOKEN = re.compile(
    r"""
    (?P<space>\s+)
  | (?P<line_comment>//[^\n]*)
  | (?P<block_comment>/\*.*?\*/)
  | (?P<string>'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")
  | (?P<quoted>`(?:[^`]|``)*`)
  | (?P<param>\$\w+)
  | (?P<number>\d+(?:\.\d+)?)
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<symbol>\.\.|<>|<=|>=|=~|->|<-|[(){}\[\]:.,;|=<>+\-*/%^])
    """,
    re.VERBOSE | re.DOTALL,
)


class UnsafeCypher(ValueError):
    pass


@dataclass(frozen=True)
class Token:
    kind: str
    text: str

    @property
    def name(self) -> str:
        return self.text[1:-1].replace("``", "`") if self.kind == "quoted" else self.text


def tokenize(query: str) -> list[Token]:
    tokens: list[Token] = []
    position = 0
    while position < len(query):
        match = _TOKEN.match(query, position)
        if match is None:
            raise UnsafeCypher(f"cannot read the query at {query[position : position + 20]!r}")
        kind = match.lastgroup or ""
        if kind not in ("space", "line_comment", "block_comment"):
            tokens.append(Token(kind, match.group()))
        position = match.end()
    return tokens


@dataclass(frozen=True)
class GraphSchema:
    labels: frozenset[str]
    relationship_types: frozenset[str]
    properties: frozenset[str]


def check_read_only(query: str, schema: GraphSchema) -> list[Token]:
    """The query's tokens when it is safe to run; UnsafeCypher saying why when not."""
    tokens = tokenize(query)
    if not tokens:
        raise UnsafeCypher("the query is empty")
    tokens = _without_final_semicolons(tokens)
    _check_clauses(tokens)
    _check_names(tokens, schema)
    return tokens


def _without_final_semicolons(tokens: list[Token]) -> list[Token]:
    while tokens and tokens[-1].text == ";":
        tokens.pop()
    return tokens


def _check_clauses(tokens: list[Token]) -> None:
    """One statement that reads: no clause that writes or calls out."""
    words = {t.text.upper() for t in tokens if t.kind == "name"}
    if any(t.text == ";" for t in tokens):
        raise UnsafeCypher("only one statement may run")
    forbidden = sorted(words & WRITE_CLAUSES)
    if forbidden:
        raise UnsafeCypher(f"not read-only: {', '.join(forbidden)}")
    if "CSV" in words and "LOAD" in words:
        raise UnsafeCypher("not read-only: LOAD CSV")
    if "MATCH" not in words or "RETURN" not in words:
        raise UnsafeCypher("a query must MATCH and RETURN")


def _check_names(tokens: list[Token], schema: GraphSchema) -> None:
    """Every label, relationship type and property the query names exists; no procedure or
    namespaced function is called."""
    brackets: list[str] = []
    expect_name = False  # after ":" outside a map: a label, or a type inside "[...]"
    for index, token in enumerate(tokens):
        text = token.text
        if expect_name:
            if text in ("|", ":"):  # "[:A|B]", "[:A|:B]"
                continue
            expect_name = False
            if token.kind in ("name", "quoted"):
                expect_name = _check_label_or_type(tokens, index, brackets, schema)
                continue
        if text in "([{":
            brackets.append(text)
        elif text in ")]}" and brackets:
            brackets.pop()
        if text == ":" and (not brackets or brackets[-1] != "{"):
            expect_name = True
        if text == "." and 0 < index < len(tokens) - 1:
            _check_property(tokens, index, schema)


def _check_label_or_type(
    tokens: list[Token], index: int, brackets: list[str], schema: GraphSchema
) -> bool:
    """The name after ":" is a known label, or a known type inside "[...]"; whether another
    type follows ("[:A|B]")."""
    token = tokens[index]
    in_relationship = bool(brackets) and brackets[-1] == "["
    known = schema.relationship_types if in_relationship else schema.labels
    if token.name not in known:
        kind = "relationship type" if in_relationship else "label"
        raise UnsafeCypher(f"unknown {kind}: {token.name}")
    return in_relationship and _text_at(tokens, index + 1) == "|"


def _check_property(tokens: list[Token], index: int, schema: GraphSchema) -> None:
    """`name.name`: a known property, not a call of a procedure or namespaced function."""
    before, after = tokens[index - 1], tokens[index + 1]
    if after.kind not in ("name", "quoted") or before.kind not in ("name", "quoted"):
        return
    if _text_at(tokens, index + 2) in ("(", "."):
        raise UnsafeCypher(f"procedures and namespaced functions are not allowed: {before.name}.")
    if after.name not in schema.properties:
        raise UnsafeCypher(f"unknown property: {after.name}")


def _text_at(tokens: list[Token], index: int) -> str:
    return tokens[index].text if index < len(tokens) else ""


def with_limit(query: str, limit: int) -> str:
    """The query with a LIMIT when it has none at its end."""
    tokens = _without_final_semicolons(tokenize(query))
    has_limit = len(tokens) >= 2 and tokens[-2].text.upper() == "LIMIT"
    body = query.strip().rstrip(";")
    return body if has_limit else f"{body}\nLIMIT {int(limit)}"
