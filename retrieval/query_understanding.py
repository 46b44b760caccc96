"""What a question is about before it is searched: the people it names (matched against the
Person entities of the collections the reader may see, not guessed from capital letters)
and whether it asks for a part of documents ("Alexis skills section only", "All Python
skills"), which section routing answers, or is a plain semantic question."""

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import reduce
from operator import or_
from typing import Literal

from django.contrib.postgres.search import SearchQuery
from spacy.lang.en.stop_words import STOP_WORDS as SPACY_STOP_WORDS

from ingestion.models import Chunk, EntityMention
from ingestion.services import TECHNOLOGIES

from .named_documents import NamedDocuments


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


Route = Literal["section_based_scoped", "section_based_cross_document", "semantic"]


@dataclass(frozen=True)
class PersonMention:
    name: str  # the words as the question writes them ("Alexis", "Sarah Chen")
    entity_ids: tuple[str, ...]  # graph ids of every readable person they can mean
    document_ids: tuple[str, ...]  # the documents about those people (or mentioning them)


@dataclass(frozen=True)
class QueryAnalysis:
    query: str
    persons: tuple[PersonMention, ...]
    route: Route
    attribute_phrase: str | None  # what part of a document is asked for ("skills")
    document_ids: tuple[str, ...]  # documents the named people scope to (may be empty)
    # Words that narrow a cross-document section question ("python" in "All Python
    # skills"): they name what the section must hold, not the section.
    topic_terms: tuple[str, ...] = field(default=())


# Words that name a part of a résumé or report. A question naming one of them, or ending
# in "section", asks for that part rather than for any text about the subject.
ATTRIBUTE_WORDS = _words(
    """skills skill expertise competencies competency experience experiences education
    certifications certification certificates certificate licenses license licences
    qualifications qualification background summary profile history employment career
    projects achievements accomplishments awards honors honours patents publications
    training courses languages interests hobbies references objective responsibilities
    strengths volunteering volunteer memberships affiliations"""
)
SECTION_WORDS = frozenset({"section", "sections", "part", "heading"})
# Asking across documents: "all Python skills", "every certification section".
CROSS_DOCUMENT_CUES = frozenset(
    {"all", "every", "each", "everyone", "everyone's", "everybody", "across", "list"}
)
# Words around an attribute that say how to show it, not what it is.
FILLER_WORDS = _words(
    """show only just give list tell find get display return please section sections part
    heading resume résumé cv document file table nothing else entire whole full complete
    me about all every each everyone everybody across"""
)
# Given names that are also ordinary words: they count as a name only when the question
# clearly uses them as one (capitalized mid-sentence, possessive, or with the surname).
COMMON_WORD_NAMES = _words(
    """will mark may june april august bill pat art rose joy hope faith chase drew gene guy
    jack ray sue frank grant dean summer rich lane wade dawn page max dale penny ruby amber
    iris victor miles norman sandy rusty bud hunter mason carter cliff glen heath"""
)
STOP_WORDS = frozenset(SPACY_STOP_WORDS)
_TECHNOLOGY_NAMES = frozenset(
    spelling.lower()
    for canonical, others in TECHNOLOGIES.items()
    for spelling in (canonical, *others)
)

# A word (keeping "Node.js", "C++", "O'Brien" whole), or a mark that ends a clause.
_WORD = re.compile(r"[^\W\d_][\w\-.+#'\u2019]*|[?!;,]")
_POSSESSIVE = re.compile(r"['\u2019]s?$")


@dataclass
class _Token:
    text: str  # as written, without a possessive
    lower: str
    position: int
    possessive: bool
    punctuation: bool


def tokenize(query: str) -> list[_Token]:
    tokens: list[_Token] = []
    for match in _WORD.finditer(query):
        raw = match.group()
        if raw in "?!;,":
            tokens.append(_Token(raw, raw, len(tokens), False, True))
            continue
        stripped = raw.rstrip(".-")
        possessive = bool(_POSSESSIVE.search(stripped)) and len(stripped) > 2
        text = _POSSESSIVE.sub("", stripped) if possessive else stripped
        if text:
            tokens.append(_Token(text, text.lower(), len(tokens), possessive, False))
        if raw.endswith(".") and not re.search(r"\.\w", raw):
            tokens.append(_Token(".", ".", len(tokens), False, True))
    return tokens


def _name_parts(text: str) -> list[str]:
    return [part for part in re.split(r"[^\w]+", text.lower()) if part and not part.isdigit()]


@dataclass
class _Candidate:
    graph_id: str
    name: str
    spellings: set[str]  # lower-case words of the name and of its readable mentions
    documents: dict[str, int]  # document id -> mentions there


def _candidates(words: set[str], collection_ids: Sequence[int]) -> list[_Candidate]:
    """Person entities, mentioned in the given collections, whose name or a mention of
    them contains one of the words. Aliases recorded from other collections are only
    used to narrow the search: a spelling counts when a readable mention uses it."""
    if not words or not collection_ids:
        return []
    pattern = r"\m(" + "|".join(sorted(re.escape(w) for w in words)) + r")\M"
    # The word index finds the few people any word names; the pattern then checks them.
    said = reduce(or_, (SearchQuery(w, config="simple") for w in sorted(words)))
    rows = (
        EntityMention.objects.filter(
            entity__type="Person",
            entity__search_words=said,
            entity__search_names__iregex=pattern,
            document__collection_id__in=list(collection_ids),
        )
        .values_list("entity__graph_id", "entity__name", "surface", "document_id")
        .order_by()
    )
    found: dict[str, _Candidate] = {}
    for graph_id, name, surface, document_id in rows:
        candidate = found.setdefault(
            graph_id, _Candidate(graph_id, name, set(_name_parts(name)), {})
        )
        candidate.spellings.update(_name_parts(surface))
        key = str(document_id)
        candidate.documents[key] = candidate.documents.get(key, 0) + 1
    return list(found.values())


def _lower_case_words(words: set[str], collection_ids: Sequence[int]) -> set[str]:
    """Which of these words the readable text also writes in lower case: ordinary words
    ("cloud", "will") rather than names, whatever a person's entity is called. The
    full-text index narrows each check to the chunks holding the word."""
    found = {w for w in words if w in STOP_WORDS or w in COMMON_WORD_NAMES}
    for word in words - found:
        if (
            Chunk.objects.filter(
                collection_id__in=list(collection_ids),
                search_vector=SearchQuery(word, config="english"),
                # Not inside an address: "bob.kessler@example.com" is no lower-case "bob".
                text__regex=rf"(^|[^\w.@/-]){re.escape(word)}($|[^\w.@/-]|\.(?![\w]))",
            )
            .order_by()
            .exists()
        ):
            found.add(word)
    return found


def _capitalized(token: _Token) -> bool:
    return token.text[:1].isupper() and not token.text.isupper()


def _plausible_name(
    tokens: list[_Token], start: int, end: int, ordinary: set[str], names: list[str]
) -> bool:
    """Whether the words that matched known people are used as a name here: not inside
    a longer capitalized name ("Cedar Loop Analytics", "Switchboard Lifting Services");
    ordinary words ("Will", "Mark", and the "Forklift" of an entity wrongly typed a
    person) only when capitalized, and either the whole name, a possessive first name
    ("Will's") or a first name inside the sentence ("ask Mark about")."""
    group = tokens[start:end]
    before = tokens[start - 1] if start > 0 else None
    after = tokens[end] if end < len(tokens) else None
    sentence_start = before is None or before.punctuation

    def joins(token: _Token | None) -> bool:
        return bool(
            token
            and not token.punctuation
            and _capitalized(token)
            and token.lower not in ATTRIBUTE_WORDS | FILLER_WORDS | STOP_WORDS
        )

    if (joins(before) and not sentence_start) or (joins(after) and not group[-1].possessive):
        return False
    # "in progress" is no name unless written as one ("will patterson" may be).
    function_words = [t for t in group if t.lower in STOP_WORDS - COMMON_WORD_NAMES]
    if function_words and not all(_capitalized(t) for t in group):
        return False
    if any(t.lower not in ordinary for t in group):
        return True
    if not all(_capitalized(t) for t in group):
        return False
    words = [t.lower for t in group]
    parts = [_name_parts(name) for name in names]
    if any(words == p for p in parts):
        return True
    first_name = any(p and p[0] == words[0] for p in parts) and len(group) == 1
    return first_name and (group[-1].possessive or not sentence_start)


def _credible(candidate: _Candidate, words: list[str], titled: "_Titled") -> bool:
    """A person matched by part of the name ("Alexis") must be one the collections say
    much about: mentioned twice, or the subject of a document. An entity the extractor
    typed a person by mistake ("Core Concepts", once) is not found by one of its words."""
    if words == _name_parts(candidate.name) or sum(candidate.documents.values()) >= 2:
        return True
    return bool(titled.about([candidate]))


class _Titled:
    """The readable documents about each candidate, asked once per candidate: those whose
    title opens with the full name or whose file is named after it, whether or not the
    extractor found the name inside."""

    def __init__(self, collection_ids: Sequence[int]) -> None:
        self._named = NamedDocuments(collection_ids)
        self._documents: dict[str, dict[str, str]] = {}  # graph id -> {document id: path}

    def about(self, candidates: list[_Candidate]) -> dict[str, str]:
        found: dict[str, str] = {}
        for candidate in candidates:
            if candidate.graph_id not in self._documents:
                parts = _name_parts(candidate.name)
                self._documents[candidate.graph_id] = (
                    self._named.named_after(parts) if parts else {}
                )
            found.update(self._documents[candidate.graph_id])
        return found


def _subject_documents(candidates: list[_Candidate], titled: _Titled) -> tuple[str, ...]:
    """The documents about these people: those titled or named after one of them, most
    mentions first; failing that, every readable document that mentions them."""
    mentions: dict[str, int] = {}
    for candidate in candidates:
        for document_id, count in candidate.documents.items():
            mentions[document_id] = max(mentions.get(document_id, 0), count)
    about = titled.about(candidates)
    if about:
        by_path = sorted(about, key=lambda d: about[d])
        return tuple(sorted(by_path, key=lambda d: -mentions.get(d, 0)))
    return tuple(sorted(mentions, key=lambda d: (-mentions[d], d)))


def find_persons(
    tokens: list[_Token], collection_ids: Sequence[int]
) -> tuple[list[PersonMention], set[int]]:
    """People the question names, and the positions of the words that name them."""
    words = {t.lower for t in tokens if not t.punctuation and len(t.lower) >= 2}
    candidates = _candidates(words, collection_ids)
    if not candidates:
        return [], set()
    matches: list[set[str]] = [
        set()
        if token.punctuation
        else {c.graph_id for c in candidates if token.lower in c.spellings}
        for token in tokens
    ]
    by_id = {c.graph_id: c for c in candidates}
    titled = _Titled(collection_ids)
    matched_words = {t.lower for t, ids in zip(tokens, matches, strict=True) if ids}
    ordinary = _lower_case_words(matched_words, collection_ids)
    persons: list[PersonMention] = []
    used: set[int] = set()
    i = 0
    while i < len(tokens):
        ids = matches[i]
        if not ids:
            i += 1
            continue
        # Grow the name over the next words while one person still fits them all
        # ("Sarah" then "Chen"); a possessive ends a name.
        end = i + 1
        while end < len(tokens) and not tokens[end - 1].possessive and ids & matches[end]:
            ids = ids & matches[end]
            end += 1
        names = [by_id[g].name for g in ids]
        spelled = [t.lower for t in tokens[i:end]]
        chosen = [by_id[g] for g in sorted(ids) if _credible(by_id[g], spelled, titled)]
        if chosen and _plausible_name(tokens, i, end, ordinary, names):
            # "Sarah Chen" over "Sarah": with more words matched, keep the people whose
            # names hold every word (already so by the intersection above).
            persons.append(
                PersonMention(
                    name=" ".join(t.text for t in tokens[i:end]),
                    entity_ids=tuple(c.graph_id for c in chosen),
                    document_ids=_subject_documents(chosen, titled),
                )
            )
            used.update(range(i, end))
        i = end
    return persons, used


def _runs(tokens: list[_Token], skip: set[int]) -> list[list[_Token]]:
    """Word runs left once names, fillers and stop words are out; "of"/"and" join two
    attribute words ("summary of qualifications")."""
    runs: list[list[_Token]] = [[]]
    for token in tokens:
        keep = (
            token.position not in skip
            and not token.punctuation
            and token.lower not in FILLER_WORDS
            and (token.lower not in STOP_WORDS or token.lower in ATTRIBUTE_WORDS)
        )
        joins = (
            token.lower in ("of", "and", "&")
            and runs[-1]
            and runs[-1][-1].lower in ATTRIBUTE_WORDS
            and token.position + 1 < len(tokens)
            and tokens[token.position + 1].lower in ATTRIBUTE_WORDS
        )
        if keep or joins:
            runs[-1].append(token)
        elif runs[-1]:
            runs.append([])
    return [run for run in runs if run]


def _attribute(tokens: list[_Token], skip: set[int]) -> tuple[str | None, tuple[str, ...]]:
    """The attribute phrase and the topic words beside it."""
    section_positions = {t.position for t in tokens if t.lower in SECTION_WORDS}
    best: list[_Token] = []
    best_weight = 0
    for run in _runs(tokens, skip):
        weight = sum(2 for t in run if t.lower in ATTRIBUTE_WORDS)
        # "Education section", "the Tidewater section": what comes right before the
        # word "section" names the section even when it is no usual attribute word.
        if run[-1].position + 1 in section_positions or run[0].position - 2 in section_positions:
            weight += 1
        if weight and weight >= best_weight:
            best, best_weight = run, weight
    if not best:
        return None, ()
    topics = tuple(t.lower for t in best if t.lower in _TECHNOLOGY_NAMES)
    words = [t.lower for t in best if t.lower not in _TECHNOLOGY_NAMES]
    marked = [i for i, w in enumerate(words) if w in ATTRIBUTE_WORDS]
    if marked:
        # One qualifier before the attribute ("industry experience", "core
        # competencies"); words further out are the subject ("crane operator license").
        words = words[max(0, marked[0] - 1) : marked[-1] + 1]
    if not words:
        return None, ()
    return " ".join(words), topics


def names_a_part(query: str) -> bool:
    """Whether the question names a part of documents ("skills", "the Tidewater section"):
    the words alone decide, without a query, so a search can skip section routing when
    nothing could be routed."""
    return _attribute(tokenize(query), set())[0] is not None


def analyze_query(query: str, *, collection_ids: Sequence[int]) -> QueryAnalysis:
    """Names, route and attribute of one question. Only entities mentioned in
    `collection_ids` are considered, so a name known only from a document the reader may
    not see is not recognised."""
    if not isinstance(query, str) or not query.strip():
        raise ValueError("the question is empty")
    tokens = tokenize(query)
    persons, used = find_persons(tokens, collection_ids)
    attribute, topics = _attribute(tokens, used)
    document_ids: list[str] = []
    for person in persons:
        document_ids.extend(d for d in person.document_ids if d not in document_ids)
    route: Route = "semantic"
    if attribute and persons:
        route = "section_based_scoped"
    elif attribute and (
        any(t.lower in CROSS_DOCUMENT_CUES for t in tokens)
        or any(t.lower in SECTION_WORDS for t in tokens)
    ):
        route = "section_based_cross_document"
    return QueryAnalysis(
        query=query,
        persons=tuple(persons),
        route=route,
        attribute_phrase=attribute,
        document_ids=tuple(document_ids),
        topic_terms=topics if route == "section_based_cross_document" else (),
    )


# How a caller reads a question: analyze_query, or a caller's memo of it (the chat reads a
# question once a turn and hands the reading to the route that runs).
QueryReader = Callable[[str, Sequence[int]], QueryAnalysis]


def read_query(query: str, collection_ids: Sequence[int]) -> QueryAnalysis:
    return analyze_query(query, collection_ids=collection_ids)
