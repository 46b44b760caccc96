"""Question words linked to the schema, each link with a score from its evidence: the words
of a table's or column's name (`schema_words`), or a value stored in a column (`values`)."""

from dataclasses import dataclass

from core.language import word_tags
from sqlagent.linking.question import STOP, Word
from sqlagent.linking.schema_words import KIND_WORDS, Element, SchemaWords, root, stem
from sqlagent.linking.signals import (
    AGGREGATES,
    ASCENDING,
    COUNT_NOUNS,
    DESCENDING,
    ENDS,
    EXTREMES,
    ONLY_WITH_NUMBER,
    SHAPE_WORDS,
    STARTS,
    bounds_number,
    lowers,
    pattern_literal,
)
from sqlagent.linking.values import StoredValues, value_key
from sqlagent.places import COUNTRY_NAMES, DEMONYMS, US_STATES


@dataclass(frozen=True)
class Link:
    start: int  # first word
    end: int  # one past the last word
    element: Element
    score: float
    value: str | None = None  # a stored value the words name: a filter on the column
    joining: int = 0  # words of the run that only join its names ("of the")
    shared: bool = False  # completed by words said once for it and another head

    @property
    def span(self) -> range:
        return range(self.start, self.end)


def name_links(words: tuple[Word, ...], schema: SchemaWords, *, roots: bool = True) -> list[Link]:
    """Every run of words that names a table or column, with how surely; `roots`: also by
    Snowball stems, and a flag by its name without its verb."""
    lemmas = [w.lemma for w in words]
    links: list[Link] = []
    for start in range(len(words)):
        if words[start].quoted or lemmas[start] in STOP:
            continue
        for size in range(min(schema.longest + 1, len(words) - start), 0, -1):
            run = tuple(lemmas[start : start + size])
            if run[-1] in STOP or any(w.quoted for w in words[start : start + size]):
                continue
            shape = size == 1 and words[start].lower in _SAYS_SHAPE
            plural = _plural(words[start + size - 1])
            found = _named_by(run, schema, roots, plural=plural, shape=shape)
            joining = sum(1 for w in run if w in _JOINING)
            links += [Link(start, start + size, e, score, joining=joining) for e, score in found]
    links += _shared_words(words, lemmas, schema, links, roots)
    return [x for x in links if not _said_as_aggregate(x, words, links)]


def _named_by(
    run: tuple[str, ...], schema: SchemaWords, roots: bool, *, plural: bool, shape: bool = False
) -> list[tuple[Element, float]]:
    """The elements a run of lemmas names, each with its best score."""
    found: dict[Element, float] = {}
    first = run[0]
    candidates = schema.by_word.get(first, ()) + schema.by_word.get(stem(first), ())
    if roots:
        candidates += schema.by_root.get(root(first), ())
    for element in dict.fromkeys(candidates):
        if shape and len(element.names[0][0]) > 1:
            continue  # "the count", "the most": a count, not bathroom_count, most_popular
        flag = roots and element.column is not None
        names = element.names + (_without_verb(element.names[0][0]) if flag else ())
        fits = (
            s * _fit(name, run, roots) * _plural_discount(flag and plural, name, element)
            for name, s in names
        )
        score = max(fits, default=0.0)
        if score > found.get(element, 0.0):
            found[element] = score
    return [(e, score) for e, score in found.items() if score]


_SHARED = 0.95  # a name completed with words said once for two heads


def _shared_words(
    words: tuple[Word, ...],
    lemmas: list[str],
    schema: SchemaWords,
    links: list[Link],
    roots: bool,
) -> list[Link]:
    """Words said once for two listed heads: "the budget type codes and descriptions" (the
    budget type's description), "the description and code of the attraction type" (the
    attraction type's description), "the country and league names" (the country's).
    Each such link stands for the head alone, and the reading takes it before the head's
    other meanings (`chosen`)."""
    lows = lowers(words)
    shared: list[Link] = []
    for link in links:
        if link.score < 0.75 or link.value is not None or link.element.is_table:
            continue
        run = tuple(lemmas[link.start : link.end])
        head = link.end + 1  # "<modifiers> code and description"
        listed = link.end - link.start >= 2 and lows[link.end : head] in (["and"], [","])
        if listed and head < len(words) and not words[head].quoted:
            shared += _completed((*run[:-1], lemmas[head]), head, schema, roots, words)
        head = link.start - 2  # "description and <head> of the attraction type"
        before = head >= 0 and lows[head + 1] in ("and", ",") and not words[head].quoted
        if before and len(run) >= 2 and "of" not in run and not _counted_at(lows, head):
            # "the checking and <savings balances>": the checking balance, of the table
            # "checking" names
            tables = _tables_at(head, links)
            completed = _completed((lemmas[head], *run[1:]), head, schema, roots, words)
            shared += [x for x in completed if x.element.table in tables]
        if "of" in run[1:-1] and before:
            owner = tuple(w for w in run[run.index("of") :] if w not in _JOINING)
            shared += _completed((*owner, lemmas[head]), head, schema, roots, words)
        other = link.start - 3  # "the country and <league> names": the country's name
        listed = len(run) == 1 and other >= 0 and lows[other + 1 : other + 2] == ["and"]
        if listed and _tables_at(other + 2, links) and not _counted_at(lows, other):
            shared += _of_table_before(link, other, links)
    return shared


def _tables_at(head: int, links: list[Link]) -> set[str]:
    """The tables the word at `head` alone surely names."""
    return {
        x.element.table
        for x in links
        if (x.start, x.end) == (head, head + 1) and x.element.is_table and x.score >= 0.9
    }


def _counted_at(lows: list[str], head: int) -> bool:
    """ "the number of schools and total enrollment": the schools are counted."""
    return lows[max(0, head - 2) : head] in (["number", "of"], ["count", "of"], ["how", "many"])


def _of_table_before(link: Link, head: int, links: list[Link]) -> list[Link]:
    """The column `link` names, in the table the word at `head` names, where that table has
    a column of the same name."""
    tables = _tables_at(head, links)
    return [
        Link(head, head + 1, x.element, _SHARED * x.score, shared=True)
        for x in links
        if x.span == link.span
        and x.element.table in tables
        and x.score >= 0.75
        and not x.element.primary_key  # a key names the table's rows, not a column of them
    ]


def _completed(
    run: tuple[str, ...], head: int, schema: SchemaWords, roots: bool, words: tuple[Word, ...]
) -> list[Link]:
    if run[-1] in STOP or run[0] in STOP:
        return []
    found = _named_by(run, schema, roots, plural=_plural(words[head]))
    sure = [(e, score) for e, score in found if score >= 0.75]
    return [Link(head, head + 1, e, _SHARED * score, shared=True) for e, score in sure]


_JOINING = ("of", "the")  # "amount of the settlement"

# A plural names rows: "transactions" is `Financial_Transactions` more surely than
# `transaction_type` shortened ("transaction types" would name that column).
_PLURAL_KIND_FREE = 0.75


def _plural(word: Word) -> bool:
    return word.lower != word.lemma and not word.quoted


def _plural_discount(plural: bool, name: tuple[str, ...], element: Element) -> float:
    return _PLURAL_KIND_FREE if plural and _kind_free(name, element) else 1.0


def _kind_free(name: tuple[str, ...], element: Element) -> bool:
    """Whether the name is the column's without its kind word ("transaction" of
    `transaction_type`); a name column's rows are its table's (`Location_Name`)."""
    full = element.names[0][0]
    return len(full) > 1 and full[-1] in KIND_WORDS - {"name"} and name[-1:] == full[-2:-1]


def _said_as_aggregate(link: Link, words: tuple[Word, ...], links: list[Link]) -> bool:
    """ "the total travel miles", "the average hourly rate": an aggregate's word right
    before a measure the question names is the aggregate, not a column of its name
    (`invoice.total`); so is each of "the total and average enrollment", and "the total
    number of domestic passengers"."""
    if link.end - link.start != 1 or words[link.start].lower not in AGGREGATES:
        return False
    if link.start and words[link.start - 1].lower in AGGREGATES:
        return False  # "the average total number of passengers": Total_Passengers, averaged
    at = link.end
    while at < len(words) and words[at].lower in _LISTING and at - link.end < 4:
        at += 1  # "and average"
    return any(
        (link.end <= other.start <= link.end + 1 or other.start == at)
        and other.element.numeric
        and other.element != link.element
        and other.end - other.start >= 1
        and words[other.start].lower not in AGGREGATES
        for other in links
    )


_LISTING = frozenset({"and", "or", ",", "the", "number", "amount", "of"}) | frozenset(AGGREGATES)

# Alone, these say the query's shape even where they are part of a longer column name.
_SAYS_SHAPE = COUNT_NOUNS | ((DESCENDING | ASCENDING) - ONLY_WITH_NUMBER) | set(EXTREMES)


def _without_verb(name: tuple[str, ...]) -> tuple[tuple[tuple[str, ...], float], ...]:
    """The column is_tax_exempt is "tax exempt" (the table Has_Allergy is not "allergy")."""
    return ((name[1:], 0.9),) if len(name) > 1 and name[0] in ("is", "has", "can", "was") else ()


def _fit(name: tuple[str, ...], run: tuple[str, ...], roots: bool) -> float:
    """How well a run of question words matches a name: exactly, by stems, or as "amount
    of settlement" for settlement_amount (the words about the other way round)."""
    if name == run:
        return 1.0
    inner = tuple(w for w in run if w not in _JOINING)
    if len(inner) != len(name) or inner[0] in STOP:
        return 0.0
    # "number of trains" is a count, not train_number: the words are not turned about.
    readings = [(inner, 1.0)] + ([] if inner[0] in ("number", "count") else [(inner[::-1], 0.9)])
    if "of" in run[1:-1] and readings[1:]:
        # "the description of the attraction type": attraction_type_description
        at = run.index("of")
        head = tuple(w for w in run[:at] if w not in _JOINING)
        readings.append((tuple(w for w in run[at + 1 :] if w not in _JOINING) + head, 0.9))
    for candidate, weight in readings:
        if candidate == name:
            return 0.95 * weight
        if all(_same_stem(a, b, roots) for a, b in zip(candidate, name, strict=True)):
            return 0.8 * weight
        if _shortened(candidate, name):
            return 0.75 * weight
    return 0.0


def _shortened(said: tuple[str, ...], name: tuple[str, ...]) -> bool:
    """A name of several words, one of them cut short and the rest as said: "population
    density" for `pop_density`."""
    if len(name) < 2:
        return False
    cut = [
        3 <= len(b) <= 4 and len(a) >= len(b) + 2 and a.startswith(b)
        for a, b in zip(said, name, strict=True)
    ]
    same = [a == b for a, b in zip(said, name, strict=True)]
    return sum(cut) == 1 and all(c or s for c, s in zip(cut, same, strict=True))


def _same_stem(a: str, b: str, roots: bool) -> bool:
    """Words of one root, by a crude or (`roots`) a Snowball stem; a word that says a count
    is itself ("count" is not "country")."""
    same = (stem(a) == stem(b) and alike(a, b)) or (roots and root(a) == root(b))
    return a == b or (same and a not in COUNT_NOUNS)


def alike(a: str, b: str) -> bool:
    """Words that share most of the shorter one: "settled" and "settlement", not
    "discontinued" and "discount" or "departure" and "department"."""
    shorter = min(len(a), len(b))
    shared = next((i for i in range(shorter) if a[i] != b[i]), shorter)
    return shared >= 0.7 * shorter


def value_links(words: tuple[Word, ...], values: StoredValues, schema: SchemaWords) -> list[Link]:
    """Runs of words that are a stored value. Quoted and capitalised text is surely meant as
    a value; a plain word that also names part of the schema hardly ever is."""
    elements = {(e.table, e.column): e for e in schema.elements if e.column}
    lows = lowers(words)
    tags = word_tags(tuple(w.text for w in words))
    links: list[Link] = []
    for start in range(len(words)):
        for size in range(min(values.longest, len(words) - start), 0, -1):
            run = words[start : start + size]
            if size > 1 and any(w.quoted for w in run):
                continue
            if pattern_literal(words, lows, start) and (
                not run[0].quoted or set(lows[max(0, start - 3) : start]) & (STARTS | ENDS)
            ):
                break  # "the letter M", "starts with 'Orb'": text searched for, not stored
            if size == 1 and (
                _a_count_or_bound(run[0], lows, start)
                or _a_verb(run[0], tags, start)
                or lows[start : start + 2] == ["no", "longer"]  # a negation, not the stored 'no'
            ):
                continue
            text = run[0].text if run[0].quoted else " ".join(w.text for w in run)
            found = schema.term_values.get(value_key(text)) or values.find(text)
            found = found or (_sex_codes(run[0], values) if size == 1 else ())
            found = found or _place_values(run, values)
            form = not found and size == 1 and not run[0].quoted
            if form:  # "voided" where 'void' is stored: a surer link than none, less than the word
                found = values.find_form(run[0].text)
            if not found:
                continue
            score = _value_score(run, schema) * (_OTHER_FORM if form else 1.0)
            for table, column, value in found:
                element = elements.get((table, column))
                if element is not None and score:
                    own = max(score, _names_own_value(run, element))
                    links.append(Link(start, start + size, element, own, value=value))
    return links


def _names_own_value(run: tuple[Word, ...], element: Element) -> float:
    """ "the good customers" of `good_or_bad_customer`: a word of a column's name that the
    column stores is its value (the name lists what it holds), not the column."""
    if len(run) != 1 or run[0].quoted:
        return 0.0
    return _OWN_VALUE if {run[0].lemma, run[0].lower} & set(element.names[0][0]) else 0.0


_OWN_VALUE = 0.9


_OTHER_FORM = 0.9  # a value met in another form of its word

# How a sex is stored in a code column: "male students" where `Sex` holds 'M'.
_SEXES = {"male": "M", "man": "M", "men": "M", "boy": "M",
          "female": "F", "woman": "F", "women": "F", "girl": "F"}  # fmt: skip
_SEX_COLUMNS = frozenset({"sex", "gender"})


def _sex_codes(word: Word, values: StoredValues) -> tuple[tuple[str, str, str], ...]:
    """A word for a sex, where a column named for it stores the code letter."""
    code = _SEXES.get(word.lemma) or _SEXES.get(word.lower)
    if code is None:
        return ()
    return tuple(f for f in values.find(code) if f[1].lower() in _SEX_COLUMNS)


def _place_values(run: tuple[Word, ...], values: StoredValues) -> tuple[tuple[str, str, str], ...]:
    """A US state said in full where a column stores its two-letter code ("California":
    'CA'), as the term planner reads it; a country by another of its names ("the US":
    'USA') or by its people's adjective ("Italian airports": 'Italy')."""
    said = " ".join(w.lower for w in run)
    code = US_STATES.get(said)
    if code:
        return tuple(f for f in values.find(code) if len(f[2]) == 2)
    if not all(w.text[:1].isupper() for w in run):
        return ()  # "tell us": a pronoun, not the US; "polish": a verb
    names = DEMONYMS.get(said) or next((n for n in COUNTRY_NAMES if said in n), ())
    return tuple(f for name in names if name != said for f in values.find(name))


# Verbs in the present, which a plain word stored as a value hardly ever is: "tracks that
# belong to Jazz" is no track named 'Belong' ("cancelled", "completed" may be statuses).
_PRESENT_VERBS = frozenset({"VB", "VBP", "VBZ"})


# After these a word is read as a thing, whatever its tag says ("by bus or walk").
_BEFORE_THINGS = frozenset({"IN", "CC", "DT", "TO", "PRP$"})


def _a_verb(word: Word, tags: tuple[str, ...], at: int) -> bool:
    after_thing_word = at > 0 and tags[at - 1] in _BEFORE_THINGS
    plain = not (word.quoted or word.capitalised)
    return tags[at] in _PRESENT_VERBS and plain and not after_thing_word


def _a_count_or_bound(word: Word, lows: list[str], index: int) -> bool:
    """ "two airports", "more than 2 stops", "the top 10": a number word written out, a
    number a comparison bounds or a limit, or a plain word that says the query's shape, is
    not a stored value."""
    if word.quoted or word.capitalised:
        return False
    if word.number is None:
        return word.lower in SHAPE_WORDS or word.lower in ONLY_WITH_NUMBER
    limit = lows[index - 1 : index] in (["top"], ["first"], ["last"])
    return not word.lower[:1].isdigit() or limit or bounds_number(lows, index)


def _value_score(run: tuple[Word, ...], schema: SchemaWords) -> float:
    if run[0].quoted:
        return 1.0
    if all(w.lower in STOP for w in run):
        return 0.0
    if any(w.capitalised for w in run) or any(ch.isdigit() for w in run for ch in w.text):
        return 0.95
    if len(run) == 1 and run[0].lemma in schema.by_word:
        return 0.35  # "name", "city": a word of the schema first
    return 0.7 if len(value_key(" ".join(w.text for w in run))) > 2 else 0.3
