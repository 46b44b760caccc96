"""The cursor both small expression parsers walk their tokens with (workflow conditions
and the calculator): a list of tokens that ends in an "end" token, and a nesting depth."""

from typing import Generic, Protocol, TypeVar


class _Token(Protocol):
    @property
    def kind(self) -> str: ...
    @property
    def text(self) -> str: ...


T = TypeVar("T", bound=_Token)


class TokenCursor(Generic[T]):
    def __init__(self, tokens: list[T]) -> None:
        self.tokens = tokens
        self.index = 0
        self.depth = 0

    @property
    def current(self) -> T:
        return self.tokens[self.index]

    def _at(self, kind: str, text: str | None = None) -> bool:
        token = self.current
        return token.kind == kind and (text is None or token.text == text)

    def _advance(self) -> T:
        token = self.current
        self.index += 1
        return token

    def _take(self, kind: str, text: str | None = None) -> T | None:
        return self._advance() if self._at(kind, text) else None
