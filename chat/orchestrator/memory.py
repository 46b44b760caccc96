"""Follow-up questions read against the conversation so far.

"and last month?" after a SQL answer becomes the previous question with the new date range
("How many work orders were completed last month?"), "and for Acme Corp?" the previous
question with the new value, "what about Sarah?" after a document answer the same question
about Sarah, "and her certifications?" the person's certifications. The rewrite is a
standalone question: the tool that answers it needs no memory. "why?" and "show me the
SQL" are meta questions about the previous answer; they keep its route and its data.

Only short questions that lean on what came before count (a leading "and" / "what about",
a pronoun, a bare date or value); a full question after an answer is a new question.
"""

import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from datetime import date
from typing import Any

from django.conf import settings
from django.utils import timezone

from chat.models import Route
from chat.orchestrator.context import Turn
from retrieval.services import analyze_query, readable_collection_ids
from sqlagent.services import Vocabulary, extract_terms, find_date_range

# Routes whose answers a follow-up can build on.
ANSWER_ROUTES = frozenset({Route.SQL, Route.DOCUMENTS, Route.GRAPH})
MAX_FOLLOW_UP_WORDS = 8

_META = re.compile(
    r"^(?:why|why so|why not|how come|how so|explain(?: that| this| it)?|is that right"
    r"|are you sure|sources?|(?:show|give|display|print)(?: me)? (?:the|that|your) "
    r"(?:sql|query|sources?|rows|data|table)|what (?:was|is) the (?:sql|query)"
    r"|(?:what|which) (?:sql|query|sources?|documents?)(?: did you use)?"
    r"|where (?:does it say (?:that|this|so)|did (?:you|that|this) (?:get|find|come from)"
    r"|is (?:that|this) from)|(?:what|which) (?:are|were) (?:the|your) sources"
    r"|how did you (?:get|find|calculate|work out|know|compute) (?:that|this|it))\W*$",
    re.IGNORECASE,
)
_MORE = re.compile(
    r"^(?:tell me more|more(?: details| info(?:rmation)?| please)?|go on|continue|keep going"
    r"|elaborate|expand(?: on (?:that|this|it))?|anything else)\W*$",
    re.IGNORECASE,
)
# What opens a follow-up: "and ...", "what about ...", "same for ...".
_CUE = re.compile(
    r"^\s*(?:ok(?:ay)?[,.]?\s+)?(?:and|what about|how about|same(?: thing)? (?:for|with|in)"
    r"|same|now|but|then|also)\b[\s,]*(?P<rest>.*?)[\s?.!]*$",
    re.IGNORECASE,
)
_NEW_QUESTION = re.compile(
    r"^(?:how|what|which|who|whom|whose|when|where|why|is|are|was|were|do|does|did|can"
    r"|could|should|list|show|give|tell|count)\b",
    re.IGNORECASE,
)
_PREPOSITION = re.compile(r"^(for|in|at|with|on|of|from|by|during)\s+", re.IGNORECASE)
_PRONOUN = re.compile(r"\b(his|her|their|he|she|they|him|them)\b", re.IGNORECASE)
_POSSESSIVE_PRONOUNS = {"his", "her", "their"}
_NUMBER = re.compile(
    r"\b(\d+(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
    r"\s+([a-z]+)",
    re.IGNORECASE,
)
_EMPTY_VOCABULARY = Vocabulary({}, 1)


@dataclass(frozen=True)
class FollowUp:
    kind: str  # date_range, value, person, attribute, meta, more
    question: str  # standalone: answerable without the conversation
    route: str  # the antecedent's route
    person: str | None = None  # the person a document search is re-scoped to
    reasons: list[str] = field(default_factory=list)
    base: dict[str, Any] = field(default_factory=dict)  # the antecedent answer's data

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class _Antecedent:
    route: str
    question: str  # the question that answer answered, standalone
    data: dict[str, Any]


def resolve_follow_up(
    question: str,
    history: Sequence[Turn],
    *,
    user: Any = None,
    vocabulary: Vocabulary | None = None,
    today: date | None = None,
) -> FollowUp | None:
    """The follow-up `question` makes on the last answer in `history`, or None when it is a
    question of its own. `user` lets people be recognised by the names the documents they
    may read use; `vocabulary` (the warehouse's) lets values such as "cancelled" replace
    values of the previous question."""
    text = " ".join(question.split())
    antecedent = _antecedent(history[-settings.MAX_CONVERSATION_MESSAGES :])
    if antecedent is None or not text or len(text.split()) > MAX_FOLLOW_UP_WORDS:
        return None
    follows = f"follows the {_ROUTE_NAMES[antecedent.route]} answer to {antecedent.question!r}"
    if _META.match(text):
        return FollowUp(
            "meta",
            antecedent.question,
            antecedent.route,
            reasons=[follows, f"{text!r} asks about that answer"],
            base=antecedent.data,
        )
    if _MORE.match(text):
        return FollowUp(
            "more",
            antecedent.question,
            antecedent.route,
            reasons=[follows, f"{text!r} asks for more of it"],
            base=antecedent.data,
        )
    cue = _CUE.match(text)
    if cue is None:
        # "her certifications?", "what are his certifications?", "tell me about her"
        pronoun = _PRONOUN.search(text)
        if pronoun is None:
            return None
        person = _person_of(antecedent, user)
        if person is None:
            return None
        words = text.rstrip("?.! ").split()
        if words[0].lower() in _POSSESSIVE_PRONOUNS and len(words) <= 5:
            return _rewrite(" ".join(words), antecedent, person, user, vocabulary, today, follows)
        name: str = person
        rewritten = _PRONOUN.sub(lambda m: _name_for(m, name), text)
        reasons = [follows, f"{pronoun[1]!r} is {name}"]
        return FollowUp("attribute", rewritten, antecedent.route, name, reasons, antecedent.data)
    rest = cue["rest"].strip()
    if not rest or _NEW_QUESTION.match(rest) or len(rest.split()) > 6:
        return None
    person = _person_of(antecedent, user)
    return _rewrite(rest, antecedent, person, user, vocabulary, today, follows)


_ROUTE_NAMES: dict[str, str] = {
    Route.SQL: "database",
    Route.DOCUMENTS: "documents",
    Route.GRAPH: "knowledge-graph",
}


def _antecedent(history: Sequence[Turn]) -> _Antecedent | None:
    """The latest answer a follow-up can build on, with the question it answered."""
    for index in range(len(history) - 1, -1, -1):
        turn = history[index]
        if turn.role != "assistant":
            continue
        if turn.route not in ANSWER_ROUTES:
            return None  # "thanks" was answered in between: the thread moved on
        asked = _asked(turn.data) or next(
            (t.content for t in reversed(history[:index]) if t.role == "user"), ""
        )
        return _Antecedent(turn.route, " ".join(asked.split()), dict(turn.data)) if asked else None
    return None


def _asked(data: dict[str, Any]) -> str:
    """The standalone question an answer's data records (the SQL agent's `question`, a
    search's `query`), also one level down (`{"answer": {...}}`)."""
    for key in ("question", "query"):
        if isinstance(data.get(key), str) and data[key].strip():
            return str(data[key])
    for value in data.values():
        if isinstance(value, dict):
            found = _asked(value)
            if found:
                return found
    return ""


def _rewrite(
    rest: str,
    antecedent: _Antecedent,
    person: str | None,
    user: Any,
    vocabulary: Vocabulary | None,
    today: date | None,
    follows: str,
) -> FollowUp | None:
    previous = antecedent.question
    day = today or timezone.localdate()
    words = rest.split()
    if words[0].lower() in _POSSESSIVE_PRONOUNS:
        if not person:
            return None
        # "and her certifications?" -> "Alexis Torres' certifications"
        asked = " ".join([_pronoun_to_name(words[0], person), *words[1:]])
        reasons = [follows, f"{words[0]!r} is {person}", f"asks for {' '.join(words[1:])}"]
        return FollowUp("attribute", asked, antecedent.route, person, reasons, antecedent.data)
    new_range = find_date_range(rest, day)
    if new_range is None and find_date_range(f"in {rest}", day) is not None:
        rest = f"in {rest}"  # "same for 2026", "and March?": a bare year or month
        new_range = find_date_range(rest, day)
    if new_range is not None and _only_date(rest, new_range.text):
        phrase = _date_phrase(rest, new_range.text)
        old_range = find_date_range(previous, day)
        if old_range is not None:
            start = previous.lower().find(old_range.text)
            rewritten = previous[:start] + phrase + previous[start + len(old_range.text) :]
        else:
            rewritten = _append(previous, phrase)
        return FollowUp(
            "date_range", rewritten, antecedent.route,
            person if antecedent.route != Route.SQL else None,
            [follows, f"new date range: {phrase} ({new_range.describe()})"], antecedent.data,
        )  # fmt: skip
    preposition = _PREPOSITION.match(rest)
    value = rest[preposition.end() :] if preposition else rest
    value = re.sub(r"\s+ones?$", "", value)  # "and cancelled ones?"
    if not value or len(value.split()) > 5:
        return None
    spans = _spans(previous, vocabulary if antecedent.route == Route.SQL else None, day)
    if person and person in previous:
        # The person, not the run of capitals around it ("Summarize Sarah Chen").
        at = previous.index(person)
        spans = [sp for sp in spans if sp[1] <= at or sp[0] >= at + len(person)]
        spans.append((at, at + len(person)))
    replaced = _best_span(spans, value, preposition[1].lower() if preposition else None, previous)
    if replaced is not None:
        start, end = replaced
        old = previous[start:end]
        rewritten = previous[:start] + value + previous[end:]
        reasons = [follows, f"{value!r} in place of {old!r}"]
    else:
        old = ""
        rewritten = _append(previous, rest if preposition else f"for {value}")
        reasons = [follows, f"adds {rest!r}"]
    new_person = None
    if antecedent.route != Route.SQL and _is_person(value, old, person, user):
        new_person = value
    elif antecedent.route != Route.SQL and old != person:
        new_person = person  # the person stays when something else changes
    kind = "person" if new_person and new_person == value else "value"
    return FollowUp(kind, rewritten, antecedent.route, new_person, reasons, antecedent.data)


def _only_date(rest: str, date_text: str) -> bool:
    """Whether the follow-up is nothing but a date ("in 2024", "last month")."""
    leftover = rest.lower().replace(date_text, " ")
    return not re.sub(r"\b(for|in|during|of|the|same|year|period)\b|\W", "", leftover)


def _date_phrase(rest: str, date_text: str) -> str:
    # "for 2026" or a bare "2026" reads "in 2026" inside the previous question.
    phrase = rest[rest.lower().find(date_text) :][: len(date_text)]
    if re.fullmatch(r"(?:for|of|during)?\s*(?:19|20)\d\d", phrase, re.IGNORECASE):
        return "in " + phrase.split()[-1]
    return phrase


def _append(previous: str, addition: str) -> str:
    return f"{previous.rstrip(' ?.!')} {addition}?"


def _spans(previous: str, vocabulary: Vocabulary | None, day: date) -> list[tuple[int, int]]:
    """Character spans of the previous question a new value may replace: its proper names
    ("Lighthouse Power LLC", "Dallas"), its enumeration values ("completed") and counted
    things ("six years")."""
    terms = extract_terms(previous, vocabulary or _EMPTY_VOCABULARY, today=day)
    spans: list[tuple[int, int]] = []
    for name, end in terms.names:
        last = terms.tokens[end - 1]
        start = terms.tokens[end - len(name.split())].start
        spans.append((start, last.start + len(last.text)))
    for mention in terms.mentions:
        if mention.best.kind == "value":
            last = terms.tokens[mention.position + mention.length - 1]
            spans.append((terms.tokens[mention.position].start, last.start + len(last.text)))
    spans.extend(match.span() for match in _NUMBER.finditer(previous))
    return spans


def _best_span(
    spans: list[tuple[int, int]], value: str, preposition: str | None, previous: str
) -> tuple[int, int] | None:
    """The span the new value most likely replaces: one sharing a word with it ("Project
    Lumen" for "Project Harbor", "six years" for "10 years"), else one after the same
    preposition ("at TechCorp" for "at Cedar Loop Analytics"), else the only name."""
    if not spans:
        return None
    new_words = {w.lower() for w in re.findall(r"\w+", value)}

    def rank(span: tuple[int, int]) -> tuple[int, int, int]:
        old_words = {w.lower() for w in re.findall(r"\w+", previous[span[0] : span[1]])}
        before = previous[: span[0]].split()[-1:]
        same_preposition = bool(preposition and before and before[0].lower() == preposition)
        return (len(old_words & new_words), same_preposition, span[0])

    best = max(spans, key=rank)
    shared, same_preposition, _ = rank(best)
    if shared or same_preposition or len(spans) == 1:
        return best
    # Several names and nothing ties the new value to one: a capitalized value replaces
    # the last capitalized name ("And Phoenix?" after "... the Dallas branch ... ?").
    names = [s for s in spans if previous[s[0]].isupper()]
    return names[-1] if value[:1].isupper() and names else None


def _person_of(antecedent: _Antecedent, user: Any) -> str | None:
    """The person the previous question was about, if any: a person the reader's documents
    name (query understanding), else a capitalized name matching a source's file name
    (sarah_chen.docx)."""
    if antecedent.route == Route.SQL:
        return None
    if user is not None:
        collection_ids = readable_collection_ids(user)
        persons = analyze_query(antecedent.question, collection_ids=collection_ids).persons
        if persons:
            return persons[0].name
    files = " ".join(
        str(source.get("file_name", "")).lower()
        for source in antecedent.data.get("sources", [])
        if isinstance(source, dict)
    )
    terms = extract_terms(antecedent.question, _EMPTY_VOCABULARY, today=timezone.localdate())
    for name, _ in terms.names:
        words = name.split()
        # The run may hold more than the name ("Summarize Sarah Chen"): any two or more
        # consecutive words of it that a file is named after.
        for size in range(len(words), 1, -1):
            for start in range(len(words) - size + 1):
                part = words[start : start + size]
                if "_".join(p.lower() for p in part) in files:
                    return " ".join(part)
    return None


def _is_person(value: str, old: str, person: str | None, user: Any) -> bool:
    if person and old and (old == person or old in person or person in old):
        return True  # the new value takes the previous person's place
    if user is None or not value[:1].isupper():
        return False
    collection_ids = readable_collection_ids(user)
    return bool(analyze_query(value, collection_ids=collection_ids).persons)


def _pronoun_to_name(pronoun: str, person: str) -> str:
    if pronoun.lower() in _POSSESSIVE_PRONOUNS:
        return f"{person}'" if person.endswith("s") else f"{person}'s"
    return person


def _name_for(match: re.Match[str], person: str) -> str:
    # "her" before a word is possessive ("her certifications"), at the end it is not
    # ("tell me about her").
    pronoun = match[1]
    followed = re.match(r"\s+\w", match.string[match.end() :])
    if pronoun.lower() == "her" and not followed:
        return person
    return _pronoun_to_name(pronoun, person)
