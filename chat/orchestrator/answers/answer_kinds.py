"""The kind of words a question asks for, and whether a sentence holds such words.

"How long before I can try again?" asks for a time ("for 15 minutes"), "how many hours of
training" for a number of hours, "at what temperature" for degrees. The extractive answer
ranks the sentences that hold such words higher; the kinds are those of English questions,
not of one set of documents. A question's own numbers and dates are no answer to it.

The wh-phrase counts where a clause starts ("If one of our guys is hurt, how fast does
OSHA have to be notified?"), so "what do I do when ..." asks for no time.
"""

import re
from dataclasses import dataclass

_NUMBER_WORDS = (
    "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|"
    "fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|"
    "eighty|ninety|hundred|thousand|million|billion|half|dozen|single|once|twice"
)
_NUMBER = rf"(?:\d[\d,.]*|(?:{_NUMBER_WORDS})\b)"
_TIME_UNITS = "second|minute|hour|day|week|month|quarter|year|shift|business day"
_MONTHS = "jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec"
_TIME = re.compile(
    rf"\b(?:{_NUMBER}\s*(?:\w+\s)?(?:{_TIME_UNITS})s?\b|(?:19|20)\d\d\b"
    rf"|(?:{_MONTHS})[a-z]*\.?\s+\d{{1,2}}\b|\d{{1,2}}(?::\d\d)?\s*(?:a\.?m|p\.?m)\b"
    r"|(?:daily|weekly|monthly|quarterly|annually|yearly|hourly|immediately|every\s+\w+|"
    r"same day|next day|monday|tuesday|wednesday|thursday|friday|saturday|sunday))",
    re.IGNORECASE,
)
_ANY_NUMBER = re.compile(rf"\b{_NUMBER}|\$\s?\d|\d\s?%", re.IGNORECASE)
_DEGREES = re.compile(rf"{_NUMBER}\s*(?:°|degrees?\b|º)", re.IGNORECASE)
# Units a count of them is said in: "how many hours" is answered in hours, not in years.
_UNITS = frozenset({"second", "minute", "hour", "day", "week", "month", "year", "mile", "foot",
                    "inch", "pound", "ton", "kilogram", "meter", "metre", "kilometer", "dollar",
                    "percent", "point"})  # fmt: skip

_CLAUSE_START = r"(?:^|[.?!,;:]\s*|\b(?:and|but|so|then)\s+)"
_ASKS = (
    ("degrees", re.compile(rf"{_CLAUSE_START}(?:at )?(?:what|which) temperature\b|"
                           r"\bhow (?:hot|cold|warm)\b", re.I)),
    ("time", re.compile(rf"{_CLAUSE_START}(?:when|since when|by when|until when)\b|"
                        r"\b(?:what|which) (?:year|date|day|month|time)\b|"
                        r"\bhow (?:long|soon|fast|quickly|often|frequently)\b", re.I)),
    ("number", re.compile(r"\bhow (?:many|much|old|far|big|large|heavy|tall)\b|"
                          r"\bwhat (?:percent|percentage|share|number)\b", re.I)),
)  # fmt: skip
_COUNTED = re.compile(r"\bhow many (\w+)", re.IGNORECASE)


@dataclass(frozen=True)
class Kind:
    name: str  # time | number | degrees
    unit: str | None = None  # "how many hours": hour

    def held_by(self, sentence: str, question: str = "") -> bool:
        """Whether the sentence holds words of this kind the question does not say itself."""
        pattern = {"time": _TIME, "degrees": _DEGREES}.get(self.name, _ANY_NUMBER)
        asked = question.lower()
        for match in pattern.finditer(sentence):
            found = match.group(0).strip().lower()
            if found in asked:
                continue
            if self.unit is None or _unit_follows(sentence, match.end(), self.unit):
                return True
        return False


def asked_kind(question: str) -> Kind | None:
    """The kind of words that answer `question`, when its wording says one."""
    for name, asks in _ASKS:
        if asks.search(question):
            counted = _COUNTED.search(question) if name == "number" else None
            unit = _singular(counted.group(1).lower()) if counted else None
            return Kind(name, unit if unit in _UNITS else None)
    return None


def answer_type(question: str, sentence: str) -> float:
    """1.0 when the sentence holds the kind of words the question asks for."""
    kind = asked_kind(question)
    return 1.0 if kind is not None and kind.held_by(sentence, question) else 0.0


def _unit_follows(sentence: str, end: int, unit: str) -> bool:
    after = re.findall(r"[a-z]+", sentence[end : end + 30].lower())[:3]
    return any(_singular(word) == unit for word in after)


def _singular(word: str) -> str:
    if word == "feet":
        return "foot"
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word
