"""A question as words: each with its normal form, and the literals it holds (quoted text,
numbers, capitalised names)."""

import re
from dataclasses import dataclass

from sqlagent.vocabulary import singular

# A word keeps its contraction or possessive ("don't", "country's", "students'"): split
# off, the apostrophe would open a quoted value running to the next one.
_TOKEN = re.compile(
    r"\"[^\"]+\"|“[^”]+”|\u2018[^\u2019]+\u2019|'[^']+'(?![a-z])"
    r"|(?<![\w-])-?\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\w,])|(?<![\w-])-(?=\d)[\d\.]*\d"
    r"|[A-Za-z0-9][A-Za-z0-9_\-\.&/]*(?<![\.\-])(?:['\u2019](?:s|t|re|ve|ll|d|m)\b|(?<=s)'(?!\w))?"
)
_GROUPED = re.compile(r"^-?\d{1,3}(?:,\d{3})+(?:\.\d+)?$")
_NUMBER = re.compile(r"^-?\d+(?:\.\d+)?$")
NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                "eight": 8, "nine": 9, "ten": 10, "once": 1, "twice": 2, "thrice": 3}  # fmt: skip
# Words that carry no meaning of their own for linking.
STOP = frozenset({
    "the", "a", "an", "of", "for", "to", "in", "on", "at", "and", "or", "with", "by", "is",
    "are", "was", "were", "be", "been", "do", "does", "did", "have", "has", "had", "there",
    "what", "which", "who", "whom", "whose", "how", "many", "much", "list", "show", "me", "give",
    "all", "our", "we", "their", "its", "it", "that", "this", "these", "those", "find", "return",
    "tell", "each", "every", "per", "from", "as", "than", "any", "some", "please", "i", "you",
    "they", "them", "his", "her", "he", "she", "also", "whether", "where", "when", "both",
    "just", "only", "one", "ones", "into", "about", "among", "between", "either", "else",
    "get", "let", "know", "want", "see", "display", "provide", "report",
})  # fmt: skip


@dataclass(frozen=True)
class Word:
    text: str  # as written, quotes removed
    lower: str
    lemma: str  # singular, lower case
    quoted: bool = False
    capitalised: bool = False  # a capital not at the question's start
    opens: bool = False  # the first word of a sentence

    @property
    def number(self) -> float | None:
        if _NUMBER.match(self.lower):
            return float(self.lower)
        value = NUMBER_WORDS.get(self.lower)
        return float(value) if value is not None else None

    @property
    def content(self) -> bool:
        return self.quoted or (self.lower not in STOP and self.number is None)


_MONTH_NAMES = ("january", "february", "march", "april", "may", "june", "july", "august",
                "september", "october", "november", "december")  # fmt: skip
_MONTHS = {name: number for number, name in enumerate(_MONTH_NAMES, start=1)}
_MONTH = f"({'|'.join(_MONTH_NAMES)})"
_DAY = r"(\d{1,2})(?:st|nd|rd|th)?"
# Each pattern, and which of its groups hold the year, the month and the day.
_WRITTEN_DATES = (
    (re.compile(rf"\b{_MONTH}\s+{_DAY},?\s+(\d{{4}})\b", re.I), (3, 1, 2)),  # July 5th, 2009
    (re.compile(rf"\b{_DAY}\s+(?:of\s+)?{_MONTH},?\s+(\d{{4}})\b", re.I), (3, 2, 1)),  # 5 July 2009
)


def _iso_dates(question: str) -> str:
    """Written dates ("November 5th, 2007") as ISO dates, the form stored dates compare in."""
    for pattern, (year, month, day) in _WRITTEN_DATES:

        def iso(match: re.Match[str], y: int = year, m: int = month, d: int = day) -> str:
            number = _MONTHS[match.group(m).lower()]
            return f"{match.group(y)}-{number:02d}-{int(match.group(d)):02d}"

        question = pattern.sub(iso, question)
    return question


def read_words(question: str) -> tuple[Word, ...]:
    found: list[Word] = []
    question = _iso_dates(question)
    for match in _TOKEN.finditer(question):
        raw = match.group(0)
        if raw[0] in "\"'“\u2018":
            text = raw[1:-1].strip()
            found.append(Word(text, text.lower(), text.lower(), quoted=True))
            continue
        raw = raw.replace("\u2019", "'")
        if _GROUPED.match(raw):
            raw = raw.replace(",", "")  # "2,000,000"
        text = raw[:-2] if raw.lower().endswith("'s") else raw.removesuffix("'")
        lower = text.lower()
        before = question[: match.start()].rstrip(" \"'“”(")
        opens = not before or before.endswith((".", "?", "!", ":"))  # a sentence's first word
        capital = text[:1].isupper() and not opens and lower not in STOP
        lemma = "id" if lower == "ids" else singular(lower)
        found.append(Word(text, lower, lemma, capitalised=capital, opens=opens))
    return tuple(found)
