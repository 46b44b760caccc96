"""Decline rather than drop a word or a shape the SQL would have to honour."""

import re

from core.language import function_words, speaker_verbs, word_tags
from registries.services import SemanticLayer
from sqlagent.dates import DATE_VERBS
from sqlagent.plan import CannotAnswer, UnknownWords
from sqlagent.question_terms import HIGHEST, LOWEST, QuestionTerms
from sqlagent.resolution import Resolved
from sqlagent.table_selection.which_too import tables_asked_beside
from sqlagent.vocabulary import phrase

# Words a question may hold that change nothing in the SQL: question and helper words,
# the shape's own words, and verbs that only link the things the question names.
FILLER = frozenset(
    """many much were was is are be been have has had doe do did there their our we us them
    it its they all any currently still one as most least top often best worst average
    number three five ten different distinct unique logged log done performed issued
    received invoiced raised identified flagged reported used own hold carry produce appear book
    led signed oversaw made make show give list name names count total sum each per
    recent latest oldest newest earliest alphabetically order ordered sorted entry record
    percent percentage share proportion ratio month year amount yet that maximum combined
    minimum mean among amongst across ever single based located situated breakdown get got
    gotten dollar dollars""".split()  # noqa: SIM905
) | {*HIGHEST, *LOWEST}


_AGGREGATE_WORDS = {"maximum": "max", "max": "max", "minimum": "min", "min": "min",
                    "average": "avg", "avg": "avg", "mean": "avg"}  # fmt: skip


def _qualifiers(resolved: Resolved, layer: SemanticLayer) -> set[str]:
    """Words of the column names of the tables involved: "billing" in "the billing e-mail
    address" of a customer whose columns say billing qualifies and changes nothing."""
    tables = set(resolved.tables()) | {ref.table for _, ref in resolved.columns}
    return {w for t in tables for c in layer.tables[t].columns for w in phrase(c).split()}


def check_understood(terms: QuestionTerms, resolved: Resolved, layer: SemanticLayer) -> None:
    """Decline rather than drop a word or a shape the SQL would have to honour."""
    question = terms.question.lower()
    second = re.search(r"\band (who|which|what|how|when|where)\b", question)
    asked_once = counted_and_measured(terms) or (
        terms.shape.aggregate == "count" and asks_how_many_again(terms)
    )
    beside = bool(tables_asked_beside(terms, resolved))
    if second and not resolved.flags_shown and not asked_once and not beside:
        raise CannotAnswer("this is two questions in one; ask them one at a time")
    spoken = terms.text
    for name, _ in terms.names:
        spoken = spoken.replace(name.lower(), " ")
    if re.search(r"\bor\b", spoken) and "or" not in resolved.consumed:
        # the compiler joins every other condition with AND
        raise CannotAnswer("conditions joined by 'or' are not compiled without an LLM yet")
    if re.search(r"\btheir (most recent|latest|last|first|earliest)\b", question):
        raise CannotAnswer("a latest row per group is not compiled without an LLM yet")
    kinds = {_AGGREGATE_WORDS[w] for w in re.findall(r"\b\w+\b", question) if w in _AGGREGATE_WORDS}
    if len(kinds) > 1:  # "the maximum, minimum and average price"
        raise CannotAnswer("several aggregates at once are not compiled without an LLM yet")
    if terms.shape.ratio and not resolved.filters:
        raise CannotAnswer("a share needs a condition over the rows whose share is asked")
    # "at least one action item": the joins already keep only rows that have one.
    compared = re.sub(r"\bat least (one|1|a|an)\b", "", terms.text)
    unplaced = [c for c in terms.comparisons if c.position not in resolved.compared]
    if unplaced or re.search(r"\b(more|fewer|less) than\b|\bat (least|most)\b", compared):
        raise CannotAnswer("this comparison is not compiled without an LLM yet")
    for value, position in terms.numbers:
        digits = terms.tokens[position].text.replace(",", "").replace(".", "").isdigit()
        if digits and value != terms.shape.top_n and position not in resolved.compared:
            raise CannotAnswer(f"I do not know what {terms.tokens[position].text} refers to")
    dated = terms.date_range is not None
    spoken_words = tuple(t.text for t in terms.tokens if not t.quoted)
    function = (
        function_words(spoken_words)
        | speaker_verbs(spoken_words)
        | _grouping_prepositions(spoken_words)
    )
    unknown = [
        w
        for w in terms.unknown
        if w not in FILLER | function
        and _stem(w) not in FILLER  # "booked", "recorded": other forms of the same verbs
        and w not in resolved.consumed
        and not (dated and _date_verb(w))
    ] + resolved.unresolved
    qualifiers = _qualifiers(resolved, layer)
    # "tagged as Government": the verb of the table the value is in (tag.name)
    filtered = {
        _stem(w)
        for _, f in resolved.filters
        for c in f.columns
        for w in (*phrase(c.column).split(), *phrase(c.table).split())
    }
    # "billed in Texas": the verb says which state column the filter reads (billingState).
    unknown = [w for w in unknown if w not in qualifiers and _stem(w) not in filtered]
    if unknown:
        raise UnknownWords(unknown)


def counted_and_measured(terms: QuestionTerms) -> bool:
    """ "how many payments did we get and what was the total", "the total value of the
    active contracts, and how many are there": one question about the same rows, their
    count and an amount of them."""
    return terms.shape.aggregate in ("sum", "avg", "min", "max") and (
        bool(re.search(r"\bhow many\b.*\band (?:what|how much)\b", terms.text))
        or asks_how_many_again(terms)
    )


def asks_how_many_again(terms: QuestionTerms) -> bool:
    """ "..., and how many are there?", "and how many overdue invoices does each have?": a
    closing "and how many" that names nothing the question had not named before asks how
    many rows the question read, not a second question."""
    tokens = [t.norm for t in terms.tokens]
    start = next(
        (i + 3 for i in range(len(tokens) - 2) if tokens[i : i + 3] == ["and", "how", "many"]),
        None,
    )
    if start is None:
        return False
    before = {m.text for m in terms.mentions if m.position < start}
    said_after = [m.text for m in terms.mentions if m.position >= start]
    given_after = [p for _, p in (*terms.names, *terms.numbers) if p >= start]
    return not given_after and all(text in before for text in said_after)


def _grouping_prepositions(words: tuple[str, ...]) -> set[str]:
    """ "recorded under each template", "across each branch": a preposition before "each"
    says the grouping the words after it name."""
    lowered = [w.lower() for w in words]
    return {
        lowered[i]
        for i, tag in enumerate(word_tags(words)[:-1])
        if tag == "IN" and lowered[i + 1] == "each"
    }


def _stem(word: str) -> str:
    for ending in ("ing", "ed"):
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            stem = word[: -len(ending)]
            # "tagged", "planned": the consonant doubled before the ending, once
            doubled = len(stem) >= 4 and stem[-1] == stem[-2] and stem[-1] not in "aeioulsfz"
            return stem[:-1] if doubled else stem
    return word


def _date_verb(word: str) -> bool:
    """ "hired in 2025": the verb says which date the range applies to (see date_column)."""
    return any(word.startswith(verb) for verb in DATE_VERBS)
