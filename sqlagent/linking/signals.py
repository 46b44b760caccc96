"""English that says a query's shape, whatever the database: counting, aggregates,
superlatives, comparisons, grouping, ordering, negation. Generic grammar, no schema words."""

import re
from collections.abc import Sequence

from sqlagent.linking.question import Word

DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$|^\d{1,2}/\d{1,2}/\d{4}$")

AGGREGATES = {"average": "avg", "mean": "avg", "avg": "avg", "total": "sum", "sum": "sum",
              "combined": "sum", "maximum": "max", "max": "max", "minimum": "min",
              "min": "min"}  # fmt: skip
# A superlative in a list of aggregates is one: "the highest and lowest prices".
LISTED_AGGREGATES = {"highest": "max", "largest": "max", "greatest": "max", "biggest": "max",
                     "longest": "max", "oldest": "max", "latest": "max", "lowest": "min",
                     "smallest": "min", "shortest": "min", "youngest": "min",
                     "earliest": "min", "least": "min", "fewest": "min"}  # fmt: skip
# After the measure: "how old are they on average", "how many rooms in total".
POSTFIX_AGGREGATES = ((("on", "average"), "avg"), (("in", "average"), "avg"),
                      (("in", "total"), "sum"), (("altogether",), "sum"))  # fmt: skip
DESCENDING = {"highest", "largest", "biggest", "greatest", "most", "top", "best", "latest",
              "newest", "recent", "longest", "tallest", "heaviest", "oldest", "richest",
              "last", "farthest"}  # fmt: skip
ASCENDING = {"lowest", "smallest", "least", "fewest", "worst", "earliest", "shortest",
             "youngest", "cheapest", "lightest", "first", "closest"}  # fmt: skip
# "first" and "last" are superlatives only with a number ("the first 5"): "first name" is not.
ONLY_WITH_NUMBER = {"first", "last", "top"}
# Adjectives that name a measure without naming its column: "older than 30" is about age.
DIMENSIONS = {
    "old": ("age",), "oldest": ("age",), "older": ("age",),
    "young": ("age",), "youngest": ("age",), "younger": ("age",),
    "tall": ("height",), "tallest": ("height",), "taller": ("height",),
    "highest": ("height", "elevation", "altitude"), "lowest": ("height", "elevation", "altitude"),
    "short": ("height", "length"), "shortest": ("height", "length", "duration"),
    "shorter": ("height", "length"),
    "heavy": ("weight",), "heaviest": ("weight",), "heavier": ("weight",),
    "light": ("weight",), "lightest": ("weight",), "lighter": ("weight",),
    "expensive": ("price", "cost"), "cheap": ("price", "cost"), "cheapest": ("price", "cost"),
    "costly": ("cost", "price"), "priced": ("price", "cost"),
    "cheaper": ("price", "cost"), "long": ("length", "duration"),
    "longest": ("length", "duration"), "longer": ("length", "duration"),
    "big": ("size", "area", "capacity"), "biggest": ("size", "area", "capacity"),
    "large": ("size", "area", "capacity"), "largest": ("size", "area", "capacity"),
    "rich": ("wealth", "worth"), "richest": ("wealth", "worth"),
    "early": ("date", "year", "time"), "earliest": ("date", "year", "time"),
    "late": ("date", "year", "time"), "latest": ("date", "year", "time"),
    "recent": ("date", "year", "time"), "recently": ("date", "year", "time"),
    "newest": ("date", "year"),
}  # fmt: skip
# "how old", "how much": the measure asked for.
HOW_MEASURES = DIMENSIONS | {"much": ("price", "cost", "amount", "fee")}
# Verbs, by lemma, that say which measure a bound after them is on: "cost more than 10000".
MEASURE_VERBS = {"cost": ("price", "cost"), "earn": ("salary", "wage", "pay", "income"),
                 "make": ("salary", "wage", "pay", "income"), "weigh": ("weight",)}  # fmt: skip


def measure_of_verb(word: str) -> tuple[str, ...] | None:
    """The measures a verb of measure names in any of its forms ("earning", "costs")."""
    for ending, added in (("", ""), ("s", ""), ("ing", ""), ("ing", "e"), ("ed", ""), ("ed", "e")):
        if word.endswith(ending):
            found = MEASURE_VERBS.get(word[: len(word) - len(ending)] + added)
            if found:
                return found
    return None


_BOUNDS = (("greater", ">="), ("more", ">="), ("larger", ">="), ("higher", ">="),
           ("less", "<="), ("smaller", "<="), ("lower", "<="), ("fewer", "<="))  # fmt: skip
# Reading a comparison: the words before a number and the operator they give.
COMPARATORS = (
    (("at", "least"), ">="), (("no", "less", "than"), ">="), (("not", "less", "than"), ">="),
    (("at", "most"), "<="), (("no", "more", "than"), "<="), (("not", "more", "than"), "<="),
    (("more", "than"), ">"), (("greater", "than"), ">"), (("larger", "than"), ">"),
    (("bigger", "than"), ">"), (("higher", "than"), ">"), (("older", "than"), ">"),
    (("taller", "than"), ">"), (("heavier", "than"), ">"), (("longer", "than"), ">"),
    (("later", "than"), ">"), (("over",), ">"), (("above",), ">"), (("exceeding",), ">"),
    (("exceeds",), ">"), (("after",), ">"), (("since",), ">="),
    (("less", "than"), "<"), (("fewer", "than"), "<"), (("smaller", "than"), "<"),
    (("lower", "than"), "<"), (("younger", "than"), "<"), (("shorter", "than"), "<"),
    (("lighter", "than"), "<"), (("cheaper", "than"), "<"), (("earlier", "than"), "<"),
    (("below",), "<"), (("under",), "<"), (("before",), "<"), (("prior", "to"), "<"),
    (("up", "to"), "<="), (("no", "later", "than"), "<="), (("no", "earlier", "than"), ">="),
    (("newer", "than"), ">"), (("beyond",), ">"),
    # "whose age is greater 30", "older 40": the comparative alone, right before its number
    *(((word,), ">") for word in ("greater", "larger", "bigger", "higher", "older", "taller")),
    *(((word,), "<") for word in ("smaller", "lower", "younger", "shorter", "cheaper")),
    (("equal", "to"), "="), (("equals",), "="), (("exactly",), "="),
    # "greater than or equal to", "equal to or less than"
    *(((word, "than", "or", "equal", "to"), op) for word, op in _BOUNDS),
    *((("equal", "to", "or", word, "than"), op) for word, op in _BOUNDS),
)  # fmt: skip
AFTER_NUMBER = {("or", "more"): ">=", ("or", "greater"): ">=", ("or", "above"): ">=",
                ("or", "less"): "<=", ("or", "fewer"): "<=", ("or", "below"): "<=",
                ("or", "higher"): ">=", ("or", "lower"): "<=", ("or", "over"): ">=",
                ("or", "under"): "<=", ("or", "later"): ">=", ("or", "after"): ">=",
                ("or", "earlier"): "<=", ("or", "before"): "<=", ("or", "older"): ">=",
                ("or", "younger"): "<=", ("or", "larger"): ">=", ("or", "bigger"): ">=",
                ("or", "smaller"): "<=", ("or", "taller"): ">=", ("or", "shorter"): "<=",
                ("or", "heavier"): ">=", ("or", "lighter"): "<=", ("or", "longer"): ">=",
                ("or", "cheaper"): "<=", ("or", "newer"): ">="}  # fmt: skip
GROUP_WORDS = (("for", "each"), ("for", "every"), ("in", "each"), ("of", "each"),
               ("by", "each"), ("per",), ("each",), ("grouped", "by"), ("group", "by"),
               ("for", "all", "different"), ("for", "different"))  # fmt: skip
ORDER_WORDS = (("ordered", "by"), ("order", "by"), ("sorted", "by"), ("sort", "by"),
               ("ranked", "by"), ("order", "of"), ("arranged", "by"),
               ("in", "descending", "order", "of"), ("in", "ascending", "order", "of"),
               ("in", "descending", "order", "by"), ("in", "ascending", "order", "by"),
               ("in", "decreasing", "order", "of"), ("in", "increasing", "order", "of"),
               ("in", "an", "descending", "order", "of"), ("in", "the", "order", "of"),
               ("descending", "order", "of"), ("ascending", "order", "of"),
               ("by", "ascending"), ("by", "descending"), ("by", "increasing"),
               ("by", "decreasing"))  # fmt: skip
ORDER_VERBS = {"sort", "sorted", "order", "ordered", "rank", "ranked", "arrange", "arranged"}
TIMES = {"once", "twice", "thrice"}  # "used more than twice": a count of rows
DESCENDING_ORDER = {"descending", "decreasing", "desc", "reverse", "largest", "highest",
                    "most", "big", "high", "biggest", "greatest"}  # fmt: skip
NEGATIONS = {"not", "no", "never", "without", "none", "nobody", "neither", "nor", "n't",
             "dont", "doesnt", "didnt", "havent", "hasnt", "isnt", "arent", "wasnt", "werent",
             "wont", "cant", "cannot", "couldnt", "wouldnt", "hadnt"}  # fmt: skip
# Words that leave out the rows holding the value after them: "ignoring void invoices"
# ("other than", "leaving out" are read as pairs where they are used).
EXCLUSIONS = frozenset({"excluding", "except", "ignoring", "besides"})
DISTINCT_WORDS = {"different", "distinct", "unique"}
# Nouns that say a count: alone, a part of a longer column name or a stem, they are the count
# ("the numbers of the trains" are train_number).
COUNT_NOUNS = frozenset({"count", "counts", "number"})
# Nouns that count rows of whatever is asked about: "the number of records of each type".
ROW_NOUNS = frozenset({"record", "records", "entry", "entries", "row", "rows", "time", "times",
                       "instance", "instances", "occurrence", "occurrences"})  # fmt: skip
# The words a request opens with before what it asks for: "what is the ...", "return the".
ASKING = frozenset({"what", "whats", "is", "are", "was", "were", "the", "find", "return", "give",
                    "show", "me", "list", "tell", "us", "please", "s"})  # fmt: skip
DETERMINERS = frozenset({"the", "their", "its", "his", "her", "corresponding", "respective"})
# After "most" or "least": how often a value occurs, a count per value.
FREQUENCY = frozenset({"common", "popular", "frequent", "frequently", "often", "commonly",
                       "times"})  # fmt: skip
# Between a subject and what is said of it: "the color that is most common".
LINKING_WORDS = frozenset({"is", "are", "was", "were", "that", "which", "the"})
EVERYTHING = (("all", "information"), ("all", "the", "information"), ("all", "details"),
              ("all", "the", "details"), ("all", "info"), ("everything",), ("all", "data"),
              ("all", "the", "data"), ("all", "attributes"))  # fmt: skip
# "the most number of orders", "the largest count of stops": a superlative over a count.
COUNTED_BY = (("number", "of"), ("count", "of"), ("amount", "of"))
EXTREMES = {"maximum": True, "max": True, "minimum": False, "min": False}  # descending?
SUPERLATIVES = frozenset(DESCENDING | ASCENDING | set(EXTREMES)) - ONLY_WITH_NUMBER
COUNT_WORDS = (("how", "many"), ("number", "of"), ("count", "of"), ("count",),
               ("total", "number"), ("headcount",))  # fmt: skip
LIKE_WORDS = {"contain", "contains", "containing", "include", "includes", "including",
              "like", "substring", "word", "start", "starts", "starting", "begin",
              "begins", "beginning", "end", "ends", "ending"}  # fmt: skip
# Words between a count and what it counts: "how many of the different kinds of jobs".
BEFORE_COUNTED = frozenset({"of", "the", "our", "all", "different", "distinct", "unique", "kind",
                            "kinds", "type", "types", "sort", "sorts"})  # fmt: skip
# Words after which a verb comes: relative pronouns, auxiliaries, negation.
VERB_LEAD = frozenset({"who", "that", "which", "did", "does", "do", "not", "never", "are", "is",
                       "was", "were", "been", "have", "has", "had"})  # fmt: skip
# Words that say the next word is text to look for, quoted or not: "the letter s".
LITERAL_NOUNS = frozenset({"letter", "letters", "character", "characters", "char", "word",
                           "string", "substring", "phrase"})  # fmt: skip
CONTAINS = frozenset({"contain", "contains", "containing", "include", "includes", "including"})
_NO_LITERAL = frozenset({"in", "of", "and", "or", "at", "to", "as", "from", "with", "for", "is",
                         "are", "that", "which"})  # fmt: skip
STARTS = {"start", "starts", "starting", "begin", "begins", "beginning"}
ENDS = {"end", "ends", "ending"}
ALPHABETICAL = re.compile(r"\balphabetic(al)?(ly)?\b|\blexicographic", re.I)


def pattern_literal(words: tuple[Word, ...], lows: list[str], i: int) -> bool:
    """Whether the word at `i` is text a column is searched for: quoted, right after a word
    that introduces text ("the letter M", "the word you"), or a name or capitals right after
    "contains" ("addresses that contain TN")."""
    word = words[i]
    if word.quoted:
        return True
    before = lows[i - 1] if i else ""
    if lows[i] in _NO_LITERAL or word.number is not None:
        return False
    if before in LITERAL_NOUNS:
        return True
    return before in CONTAINS and (word.capitalised or word.text.isupper())


def lowers(words: tuple[Word, ...]) -> list[str]:
    return [w.lower.replace("'", "") for w in words]


def phrase_at(lows: list[str], index: int, phrases: tuple[tuple[str, ...], ...]) -> int:
    """The length of the longest of `phrases` starting at `index` (0 when none does)."""
    best = 0
    for phrase in phrases:
        if tuple(lows[index : index + len(phrase)]) == phrase:
            best = max(best, len(phrase))
    return best


def bounds_number(lows: list[str], index: int) -> bool:
    """Whether the word at `index` is the number of a comparison ("more than 2", "exactly
    two", "two or more"): a bound, not a stored value."""
    if tuple(lows[index + 1 : index + 3]) in AFTER_NUMBER:
        return True
    return any(
        tuple(lows[index - len(phrase) : index]) == phrase for phrase, _ in COMPARATORS
    ) or lows[index - 1 : index] == ["between"]


def comparator_at(lows: list[str], index: int) -> tuple[str, int] | None:
    """The operator a comparison starting at `index` gives, and its length in words."""
    best: tuple[str, int] | None = None
    for phrase, op in COMPARATORS:
        if tuple(lows[index : index + len(phrase)]) == phrase and (
            best is None or len(phrase) > best[1]
        ):
            best = (op, len(phrase))
    return best


# Every word that says something about a query's shape: one left unread is a warning sign.
SHAPE_WORDS = frozenset(
    set(AGGREGATES) | DESCENDING | ASCENDING | NEGATIONS | DISTINCT_WORDS | LIKE_WORDS
    | {w for phrase, _ in COMPARATORS for w in phrase} | set(DIMENSIONS) | ORDER_VERBS
    | {"each", "per", "every", "both", "only", "except", "also", "total", "number", "count",
       "times", "average", "percentage", "percent", "share", "ratio", "same", "different"}
) - {"the", "to", "at", "no", "than", "or", "up"}  # fmt: skip


_HIGH = frozenset({"high", "highest", "large", "largest", "big", "biggest", "most", "many"})
_LOW = frozenset({"low", "lowest", "small", "smallest", "little", "least", "few", "fewest"})


def from_to(lows: Sequence[str]) -> tuple[int, int, bool] | None:
    """ "from low to high", "from the largest to the smallest": the words and whether the
    order descends."""
    for i, low in enumerate(lows):
        if low != "from":
            continue
        rest = [w for w in lows[i + 1 : i + 7] if w != "the"]
        if len(rest) >= 3 and rest[1] == "to":
            if rest[0] in _HIGH and rest[2] in _LOW:
                return i, i + 1 + lows[i + 1 :].index(rest[2]) + 1, True
            if rest[0] in _LOW and rest[2] in _HIGH:
                return i, i + 1 + lows[i + 1 :].index(rest[2]) + 1, False
    return None


# "in the range of 8000 and 12000", "within the range 7000 to 12000": between the two.
_RANGES = (("in", "the", "range", "of"), ("within", "the", "range", "of"),
           ("in", "the", "range"), ("within", "the", "range"), ("in", "range"))  # fmt: skip


def range_said(lows: list[str], i: int) -> int:
    """How many words at `i` say a range its two bounds follow (0: none)."""
    return next((len(r) for r in _RANGES if tuple(lows[i : i + len(r)]) == r), 0)
