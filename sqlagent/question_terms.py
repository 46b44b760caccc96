"""Step 1: what a question says, before any schema decision.

Finds the phrases the vocabulary knows (terms, tables, columns, enumeration values),
literal values (quoted text, codes such as WO-001234, proper names, numbers, a date
range) and the question's shape (list, count, sum/average/min/max, group by, top-N,
ordering, distinct). Nothing here touches the warehouse.
"""

import re
from dataclasses import dataclass, field
from datetime import date

from core.language import word_tags
from sqlagent.dates import DateRange, find_date_range
from sqlagent.vocabulary import Entry, Vocabulary, singular

# A number with thousands separators ("$10,000") is one token.
_TOKEN = re.compile(
    r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|[A-Za-z0-9][A-Za-z0-9&\-\.]*(?:'s)?|\"[^\"]+\"|'[^']+'(?!s\b)"
)
_CODE = re.compile(r"^[A-Z]{1,4}-?\d{2,}$")
_QUESTION_WORDS = {"how", "what", "which", "who", "whom", "whose", "when", "where", "list",
                   "show", "give", "find", "count", "name", "is", "are", "in", "for", "of",
                   "the", "a", "an", "do", "does", "did", "and", "or", "on", "at", "by", "per",
                   "each", "with", "from", "to", "between"}  # fmt: skip
_NAME_GLUE = {"of", "&", "and", "de", "la", "van", "von"}
_NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                 "eight": 8, "nine": 9, "ten": 10, "twenty": 20}  # fmt: skip


@dataclass(frozen=True)
class Token:
    text: str  # as written, possessive and quotes removed
    norm: str  # normal form used for vocabulary matching
    start: int  # character offset in the question
    possessive: bool = False  # "Sterling Power Holdings'", "the customer's"
    quoted: bool = False  # written in quotes: a literal, never a word to skip ("a")


@dataclass(frozen=True)
class Comparison:
    """ "more than 40", "at least 200": a bound on a count or on a number column."""

    op: str  # >, >=, <, <=, =
    value: float
    position: int  # token index of the number
    words: tuple[str, ...]  # the normal forms of its words ("more", "than")


@dataclass(frozen=True)
class Mention:
    text: str
    position: int  # index of its first token
    length: int
    entries: tuple[Entry, ...]  # what it can mean, best first

    @property
    def best(self) -> Entry:
        return self.entries[0]


@dataclass(frozen=True)
class Shape:
    aggregate: str | None = None  # count, sum, avg, min, max
    group_by: str | None = None  # words after per / each / by / for each
    top_n: int | None = None
    descending: bool | None = None  # order of a superlative, top-N or "sorted by"
    order_by: str | None = None  # words after "sorted by" / "ordered by"
    alphabetical: bool = False
    distinct: bool = False
    ratio: bool = False  # percentage or share of the rows that meet a condition
    percent: bool = False  # said in percent ("what percentage"), else a fraction ("what share")
    negated: bool = False  # "no", "without", "never" (resolution reads the missing rows)
    versus_average: str | None = None  # "above the overall average": >, < against it


@dataclass(frozen=True)
class QuestionTerms:
    question: str
    tokens: tuple[Token, ...]
    mentions: tuple[Mention, ...]
    shape: Shape
    date_range: DateRange | None = None
    numbers: tuple[tuple[float, int], ...] = ()  # (value, token index)
    quoted: tuple[str, ...] = ()
    codes: tuple[str, ...] = ()
    names: tuple[tuple[str, int], ...] = ()  # proper names and the token index after them
    unknown: tuple[str, ...] = field(default=())  # content words nothing explained
    comparisons: tuple[Comparison, ...] = ()

    @property
    def text(self) -> str:
        """The question in lower case without its comparisons: "at least 200" is a bound,
        not the superlative "least"."""
        return _without_comparisons(self.question.lower())


def tokenize(question: str) -> list[Token]:
    tokens = []
    for match in _TOKEN.finditer(question):
        raw = match.group(0)
        if raw[0] in "\"'":
            tokens.append(Token(raw[1:-1], raw[1:-1].lower(), match.start(), quoted=True))
            continue
        text = raw[:-2] if raw.endswith("'s") else raw.rstrip(".")
        # "Holdings' contacts": a plural possessive keeps its apostrophe outside the token.
        possessive = raw.endswith("'s") or bool(re.match(r"'(?!\w)", question[match.end() :]))
        lowered = text.lower()
        # "e-mail" is one word; "pre-use" and "work-order" are two
        lowered = re.sub(r"\b(\w)-(\w{3,})", r"\1\2", lowered)
        if re.fullmatch(r"[a-z]+(?:-[a-z]+)+", text) and not possessive:  # names keep theirs
            # "critical-priority", "time-off": words of their own, each may name something
            offset = match.start()
            for part in text.split("-"):
                at = question.lower().index(part, offset)
                tokens.append(Token(question[at : at + len(part)], singular(part), at))
                offset = at + len(part)
            continue
        norm = " ".join(singular(w) for w in lowered.replace("-", " ").split())
        tokens.append(Token(text, norm, match.start(), possessive))
    return tokens


def extract_terms(question: str, vocab: Vocabulary, *, today: date) -> QuestionTerms:
    tokens = tokenize(question)
    date_range = find_date_range(question, today)
    in_date = _date_token_indexes(tokens, question, date_range)
    # said as examples: no condition
    in_date |= _tokens_in(tokens, [m.span() for m in _EXAMPLES.finditer(question)])
    quoted = tuple(t.text for t in tokens if t.norm == t.text.lower() and " " in t.text)
    codes = tuple(t.text for t in tokens if _CODE.match(t.text))
    names = _proper_names(question, tokens, in_date, codes)
    named = {i for _, end, length in names for i in range(end - length, end)}
    shape_words = [m.span() for m in _SHAPE_IDIOM.finditer(question)]
    shape_words += [m.span(n) for m in _BREAK_DOWN.finditer(question) for n in (1, 2)]
    in_shape = _tokens_in(tokens, shape_words + _versus_average(question.lower())[1])
    mentions = _things_not_verbs(tokens, _mentions(tokens, vocab, skip=in_date | named | in_shape))
    covered = {i for m in mentions for i in range(m.position, m.position + m.length)}
    numbers = _numbers(tokens, skip=in_date | named)
    unknown = tuple(
        t.norm
        for i, t in enumerate(tokens)
        if i not in covered | in_date | named | in_shape
        and (t.quoted or t.norm not in _QUESTION_WORDS)
        and not _CODE.match(t.text)
        and not t.norm.replace(".", "").replace(",", "").isdigit()
    )
    return QuestionTerms(
        question=question,
        tokens=tuple(tokens),
        mentions=tuple(mentions),
        shape=detect_shape(question, numbers),
        comparisons=tuple(_comparisons(tokens, numbers)),
        date_range=date_range,
        numbers=tuple(numbers),
        quoted=quoted,
        codes=codes,
        names=tuple((text, end) for text, end, _ in names),
        unknown=unknown,
    )


def _date_token_indexes(tokens: list[Token], question: str, found: DateRange | None) -> set[int]:
    if found is None:
        return set()
    start = question.lower().find(found.text)
    return _tokens_in(tokens, [(start, start + len(found.text))])


def _tokens_in(tokens: list[Token], spans: list[tuple[int, int]]) -> set[int]:
    """The tokens that start inside one of the character spans."""
    return {i for i, t in enumerate(tokens) if any(a <= t.start < b for a, b in spans)}


# Words that only say the question's shape: "broken down by type" groups, it is not the
# "broken down" a term may mean.
_SHAPE_IDIOM = re.compile(r"\b(?:broken down|grouped|split|sorted|ordered|ranked) by\b", re.I)
# "break the work orders down by status": the verb's two words, not what lies between
_BREAK_DOWN = re.compile(r"\b(break(?:s|ing)?)\b(?:\s+[\w'-]+){0,4}?\s+(down)\b", re.I)


# "(cranes, forklifts, etc.)", "(e.g. labor)", "(labor, parts, services)": a list in
# parentheses names examples of what the question asks about, not conditions on it.
_EXAMPLES = re.compile(
    r"\((?=[^()]*(?:,|\betc\b|\be\.?g\.|\bsuch as\b|\bfor example\b))[^()]*\)", re.I
)


def _proper_names(
    question: str, tokens: list[Token], skip: set[int], codes: tuple[str, ...]
) -> list[tuple[str, int, int]]:
    """Runs of capitalised words that are not the question's first word: (text, end, length)."""
    names: list[tuple[str, int, int]] = []
    i = 0
    while i < len(tokens):
        t = tokens[i]
        capital = t.text[:1].isupper() and i not in skip and t.text not in codes
        # Each sentence's first word is capitalised anyway ("Show the top 5.").
        opening = i == 0 or question[: t.start].rstrip().endswith((".", "?", "!"))
        short_caps = t.text.isupper() and len(t.text) <= 2
        if not capital or (opening and t.norm in _QUESTION_WORDS) or short_caps:
            i += 1
            continue
        j = i + 1
        while (
            j < len(tokens)
            and j not in skip
            and not _name_ends_before(question, tokens[j - 1], tokens[j])
            and (
                tokens[j].text[:1].isupper()
                or (
                    tokens[j].norm in _NAME_GLUE
                    and j + 1 < len(tokens)
                    and tokens[j + 1].text[:1].isupper()
                )
            )
        ):
            j += 1
        if opening and j == i + 1:
            i = j  # one capitalised first word is just the start of the sentence
            continue
        names.append((" ".join(tok.text for tok in tokens[i:j]), j, j - i))
        i = j
    return names


def _name_ends_before(question: str, last: Token, following: Token) -> bool:
    """ "Plano, Texas", "in Golden, Colorado. Include ...": a comma or a sentence's end
    between two capitalised words parts two names ("St. Louis" and "Inc." go on)."""
    gap = question[last.start + len(last.text) : following.start]
    return bool(re.search(r"[,;:!?]", gap)) or ("." in gap and len(last.text) > 3)


def _mentions(tokens: list[Token], vocab: Vocabulary, *, skip: set[int]) -> list[Mention]:
    """Greedy longest match of normal-form word runs against the vocabulary."""
    found: list[Mention] = []
    i = 0
    while i < len(tokens):
        if i in skip:
            i += 1
            continue
        for n in range(min(vocab.longest, len(tokens) - i), 0, -1):
            if any(k in skip for k in range(i, i + n)):
                continue
            key = " ".join(t.norm for t in tokens[i : i + n])
            if key in vocab.entries:
                found.append(Mention(key, i, n, vocab.entries[key]))
                i += n
                break
        else:
            i += 1
    return found


def _things_not_verbs(tokens: list[Token], mentions: list[Mention]) -> list[Mention]:
    """ "Which manufacturers account for the most assets", "which technicians service the
    most": a word used as a verb does the act; it does not name the table of its noun."""
    tags = word_tags(tuple(t.text for t in tokens))
    return [
        m
        for m in mentions
        if m.length > 1
        or m.best.kind not in ("table", "term", "role")
        or tags[m.position] not in _PRESENT_VERBS
    ]


_PRESENT_VERBS = frozenset({"VB", "VBP", "VBZ"})


def _numbers(tokens: list[Token], *, skip: set[int]) -> list[tuple[float, int]]:
    numbers = []
    for i, t in enumerate(tokens):
        if i in skip:
            continue
        text = t.text.replace(",", "")
        if re.fullmatch(r"\d+(?:\.\d+)?", text):
            numbers.append((float(text), i))
        elif t.norm in _NUMBER_WORDS:
            numbers.append((float(_NUMBER_WORDS[t.norm]), i))
    return numbers


# Words before a number that bound it, longest first, and the comparison they make.
_BOUNDS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("no", "more", "than"), "<="), (("no", "less", "than"), ">="),
    (("no", "fewer", "than"), ">="), (("more", "than"), ">"), (("greater", "than"), ">"),
    (("higher", "than"), ">"), (("larger", "than"), ">"), (("fewer", "than"), "<"),
    (("less", "than"), "<"), (("lower", "than"), "<"), (("smaller", "than"), "<"),
    (("at", "least"), ">="), (("at", "most"), "<="), (("up", "to"), "<="), (("over",), ">"),
    (("above",), ">"), (("under",), "<"), (("below",), "<"), (("exactly",), "="),
)  # fmt: skip
_BOUNDS_AFTER = {("or", "more"): ">=", ("or", "fewer"): "<=", ("or", "less"): "<="}
_NUMBER = r"(?:\d[\d,]*(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|twenty)\b"
_BOUND_BEFORE_TEXT = re.compile(
    r"\b(?:no (?:more|less|fewer) than|(?:more|greater|higher|larger|fewer|less|lower|smaller)"
    rf" than|at (?:least|most)|up to|over|above|under|below|exactly)\s+(?={_NUMBER})"
)
_BOUND_AFTER_TEXT = re.compile(rf"\b({_NUMBER})\s+or (?:more|fewer|less)\b")


# "above the overall average", "a higher average rate than the company-wide average":
# the comparative word, and "than the ... average" it is measured against.
_AVERAGE = r"(?:the\s+)?(?:overall\s+|company[- ]wide\s+|total\s+|general\s+)?(?:average|mean)\b"
_VERSUS_AVERAGE = (
    re.compile(
        r"\b(?:(?P<up>more|greater|higher|bigger|larger)|(?P<down>less|fewer|lower|smaller))\b"
        rf"(?:\s+[a-z'-]+){{0,4}}?\s+(?P<than>than\s+{_AVERAGE})"
    ),
    re.compile(rf"\b(?:(?P<up>above|over)|(?P<down>below|under))\s+(?P<than>{_AVERAGE})"),
)


def _versus_average(q: str) -> tuple[str | None, list[tuple[int, int]]]:
    """The comparison with an average and the spans of its own words (the words between
    a comparative and "than", "a higher average rate than", stay the question's)."""
    found = next((m for pattern in _VERSUS_AVERAGE if (m := pattern.search(q))), None)
    if found is None:
        return None, []
    word = "up" if found.group("up") else "down"
    return (">" if word == "up" else "<"), [found.span(word), found.span("than")]


def _without_comparisons(q: str) -> str:
    q = _BOUND_AFTER_TEXT.sub(r"\1", _BOUND_BEFORE_TEXT.sub("", q))
    _, spans = _versus_average(q)
    for start, end in reversed(spans):
        q = q[:start] + " " * (end - start) + q[end:]
    return q


def _comparisons(tokens: list[Token], numbers: list[tuple[float, int]]) -> list[Comparison]:
    found = []
    norms = [t.norm for t in tokens]
    for value, index in numbers:
        before = (b for b in _BOUNDS if tuple(norms[max(0, index - len(b[0])) : index]) == b[0])
        bound = next(before, None)
        if bound is None:
            after = tuple(norms[index + 1 : index + 3])
            if after not in _BOUNDS_AFTER:
                continue
            bound = (after, _BOUNDS_AFTER[after])
        words, op = bound
        if words == ("at", "least") and value == 1:
            continue  # "at least one action item": the join keeps rows that have one
        found.append(Comparison(op, value, index, words))
    return found


_AMOUNTS = (
    ("avg", r"\b(average|avg|mean)\b"),
    ("sum", r"\b(total|sum of|in total|how much|combined)\b"),
    ("min", r"\b(minimum|smallest amount|lowest value)\b"),
    ("max", r"\b(maximum|largest amount|highest value)\b"),
)


_HELPER_VERBS = frozenset({"have", "has", "had", "do", "does", "did", "is", "are", "was", "were"})
# Superlatives of a number: the rows with the highest or lowest of it come first.
HIGHEST = ("highest", "largest", "biggest", "greatest")
LOWEST = ("lowest", "smallest")
_SUPERLATIVES = "|".join(HIGHEST + LOWEST)
_RANKED_TOTAL = re.compile(rf"\b(?:{_SUPERLATIVES}) total\b(?! (?:of|amount|value))")


# Participles that arrange rows: "grouped by", "sorted by" say how, not who did it.
_ARRANGING = frozenset({"grouped", "sorted", "ordered", "split", "ranked", "arranged",
                        "organized", "organised", "divided", "separated", "categorized",
                        "categorised", "segmented", "bucketed"})  # fmt: skip


def _passive_agent(q: str, at: int, question: str) -> bool:
    """Whether the "by" at `at` follows a past participle that does not arrange and names
    who did it ("declined by customers", "made by the Grove company"), not the groups ("issued
    by branch", "completed by each technician")."""
    if not q.startswith("by", at):
        return False
    words = tuple(re.findall(r"[a-z0-9']+", q))
    before = len(re.findall(r"[a-z0-9']+", q[:at])) - 1
    if before < 0 or before + 2 >= len(words) or words[before] in _ARRANGING:
        return False
    tags = word_tags(words)
    after = words[before + 2]
    named = re.search(rf"\bby {re.escape(after)}\b", question, re.IGNORECASE)
    a_name = named is not None and named.group(0)[3:4].isupper()  # "made by Grove"
    bare = tags[before + 2] == "NN" and not a_name  # "by branch": the groups
    return tags[before] == "VBN" and after not in ("each", "every") and not bare


def detect_shape(question: str, numbers: list[tuple[float, int]]) -> Shape:
    q = _without_comparisons(question.lower())
    aggregate = None
    # "the number of" counts; "the phone number of" names a column
    counted = rf"(?:^|\b(?:the|a|total|what|which|and|of|by|with|in|{_SUPERLATIVES}))\s+number of"
    if re.search(rf"\b(how many|count of|count the)\b|{counted}", q):
        aggregate = "count"
    # An amount said outright wins over a count ("how many hours in total"); "the largest
    # total" ranks by a total column and sums nothing ("the largest total of" does).
    amounts = _RANKED_TOTAL.sub(" ", q)
    aggregate = next((name for name, said in _AMOUNTS if re.search(said, amounts)), aggregate)
    group = re.search(
        r"\b(?:per|for each|each|by|in each|broken down by|grouped by)\s+([a-z][a-z' -]*?)"
        r"(?=\s+(?:in|during|between|from|since|for|with|and|were|was|is|are|have|has|had)\b"
        r"|\s*[?.,(]|$)",
        q,
    )
    top = (
        re.search(r"\btop\s+(\d+|one|two|three|four|five|ten)\b", q)
        or re.search(
            r"^(?:which|what are the|list the|(?:show|give)(?: me)? the)\s+"
            r"(\d+|three|five|ten)\b",
            q,
        )
        or re.search(
            rf"\b(\d{{1,3}}|three|five|ten)\s+(?:\w+\s+){{0,3}}?(?:most|least|{_SUPERLATIVES})\b", q
        )
    )
    top_n = None
    if top:
        word = top.group(1)
        top_n = int(word) if word.isdigit() else {"one": 1, "two": 2, "three": 3, "four": 4,
                                                   "five": 5, "ten": 10}[word]  # fmt: skip
    descending = None
    if re.search(r"\b(most|highest|largest|biggest|top|latest|newest|most recent|best)\b", q):
        descending = True
    elif re.search(r"\b(least|lowest|smallest|fewest|oldest|earliest|worst)\b", q):
        descending = False
    order = re.search(r"\b(?:sorted|ordered|sort|order) by\s+([a-z][a-z ]*?)(?=[?.,]|$)", q)
    if order and re.search(r"\bdesc(ending)?\b", q):
        descending = True
    group_by = group.group(1).strip() if group and not q.startswith("who ") else None
    if group and _passive_agent(q, group.start(), question):
        group_by = None  # "quotes declined by customers": who declined them, no grouping
    if group_by and group_by.split()[0] in _HELPER_VERBS:
        group_by = None  # "how many does each have": each of the rows already named
    if group_by:
        # "at each of its locations" groups by the locations
        group_by = re.sub(r"^of (?:its|their|the|our|his|her|these|those) ", "", group_by)
    return Shape(
        aggregate=aggregate,
        group_by=group_by,
        top_n=top_n,
        descending=descending,
        order_by=order.group(1).strip() if order else None,
        alphabetical=bool(re.search(r"\balphabetical(ly)?\b|\bin order\b", q)),
        distinct=bool(re.search(r"\b(distinct|unique|different)\b", q)),
        ratio=bool(re.search(r"\b(percent(age)?|share|ratio|proportion|%)", q)),
        percent=bool(re.search(r"\bpercent(age)?\b|%", q)),
        negated=bool(re.search(r"\b(no|without|never|none|not any|no longer)\b", q)),
        versus_average=_versus_average(_BOUND_BEFORE_TEXT.sub("", question.lower()))[0],
    )


@dataclass(frozen=True)
class QuestionReading:
    """Terms extracted from a question over one vocabulary on one day: a caller that read
    the question already (the chat's router) hands it to `ask`, which reuses it when it
    reads the same question over the same vocabulary on the same day."""

    terms: QuestionTerms
    vocabulary: Vocabulary
    today: date

    def fits(self, question: str, vocabulary: Vocabulary, today: date) -> bool:
        return (
            self.terms.question == question
            and self.vocabulary is vocabulary
            and self.today == today
        )
