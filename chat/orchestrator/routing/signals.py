"""The domains' evidence, weighed: what the business database's vocabulary explains (sql),
what the readable documents hold (documents), and which people and organisations of those
documents a question names (graph). The domains report; the weights are the router's."""

import re
from collections.abc import Callable

from django.utils import timezone

from chat.models import Route
from chat.orchestrator.routing.decision import Evidence
from chat.orchestrator.routing.wording import (
    COUNTABLE,
    DOCUMENT_CUES,
    LIST_OF_ENTITIES,
    MAY_NAME_SOMEONE,
    RELATION_CUES,
    RULE_QUESTION,
    VAGUE,
)
from retrieval.services import GRAPH_TYPES, KeywordEvidence, known_entities
from sqlagent.services import (
    CODE_TOKEN,
    FUNCTION_WORDS,
    SqlEvidence,
    WarehouseWords,
    assess_question,
    singular,
)


def sql(text: str, words: WarehouseWords, evidence: Evidence) -> SqlEvidence:
    """Adds the SQL signals; returns the SQL agent's reading of the question."""
    if words.note:
        evidence.notes.append(words.note)
    found = assess_question(text, words, today=timezone.localdate())
    if found.coverage:
        evidence.add(
            Route.SQL, 0.6 * found.coverage,
            f"warehouse words cover {found.coverage:.0%} of the question"
            + (f": {', '.join(dict.fromkeys(found.named))}" if found.named else ""),
        )  # fmt: skip
    strength = max([0.35 if found.codes else 0.0, *(s for _, s in found.values)])
    if strength:
        shown = found.codes + [v for v, _ in found.values]
        evidence.add(Route.SQL, strength, f"names warehouse values: {', '.join(shown)}")
    if found.asks:
        evidence.add(Route.SQL, 0.35 if found.named else 0.1, "asks for " + ", ".join(found.asks))
    elif found.named and COUNTABLE.search(text):
        evidence.add(Route.SQL, 0.15, "asks to list warehouse records")
    if found.date_range is not None:
        written, understood = found.date_range
        evidence.add(
            Route.SQL, 0.15 if found.named else 0.05, f"date range {written!r} ({understood})"
        )
    return found


def documents(
    text: str,
    keywords: Callable[[], KeywordEvidence | None],
    words: WarehouseWords,
    explained: set[str],
    evidence: Evidence,
) -> None:
    """Document wording, and keyword evidence over the readable chunks. Words the
    warehouse or the entity names already explained (`explained`) do not count as words
    only the documents know."""
    cues = {m.lower() for m in DOCUMENT_CUES.findall(text)}
    if RULE_QUESTION.search(text):
        cues.add("a question of how or whether")
    if cues:
        evidence.add(
            Route.DOCUMENTS, min(0.25 * len(cues), 0.5),
            "document wording: " + ", ".join(sorted(cues)),
        )  # fmt: skip
    found = keywords()
    if found is None:
        return
    # Words the documents hold and the warehouse does not know say most: "wind", "per
    # diem", "kubernetes". Words both know ("work order") say little either way.
    own = [
        t for t in found.terms if found.frequencies[t] and t not in explained
        and not _stems(t) & words.words and not CODE_TOKEN.fullmatch(t.upper())
    ]  # fmt: skip
    weight_all = sum(found.idf.values()) or 1.0
    share = sum(found.idf[t] for t in own) / weight_all
    if found.best:
        evidence.add(
            Route.DOCUMENTS, 0.25 * found.best,
            f"keywords match your documents ({found.best:.2f}, best chunk)",
        )  # fmt: skip
    if own:
        evidence.add(
            Route.DOCUMENTS, 0.7 * share,
            f"words only your documents know: {', '.join(own[:5])} ({share:.0%} of the weight)",
        )  # fmt: skip


def _stems(word: str) -> set[str]:
    """The word and the forms the warehouse's vocabulary may hold ("invoiced" -> "invoice")."""
    found = {word, singular(word)}
    for ending, replacement in (("ed", ""), ("d", ""), ("ing", ""), ("ing", "e"), ("es", "")):
        if word.endswith(ending) and len(word) > len(ending) + 2:
            found.add(word[: -len(ending)] + replacement)
    return found


def graph(
    text: str,
    collection_ids: tuple[int, ...],
    people: Callable[[], list[str]],
    evidence: Evidence,
) -> set[str]:
    """Adds the graph signals; returns the lower-case words of the entity names found.
    `people` names the persons query understanding finds in the question."""
    relation = [m.lower() for m in RELATION_CUES.findall(text)]
    listing = bool(LIST_OF_ENTITIES.search(text))
    known = (
        known_entities(text, collection_ids, ignore=FUNCTION_WORDS | VAGUE)
        if collection_ids
        else []
    )
    # First names and possessives ("Alexis", "bob's") need query understanding; a full
    # name found already does not.
    full_name = any(kind == "Person" for _, kind in known)
    maybe = collection_ids and not full_name and MAY_NAME_SOMEONE.search(text)
    named = list(dict.fromkeys([*(people() if maybe else []),
                                *(n for n, t in known if t in GRAPH_TYPES)]))  # fmt: skip
    other = [n for n, t in known if t not in GRAPH_TYPES and n not in named]
    if named:
        evidence.add(Route.GRAPH, 0.25, f"names people or organisations: {', '.join(named[:4])}")
        evidence.add(Route.DOCUMENTS, 0.25, f"your documents speak of {', '.join(named[:4])}")
    elif other:
        evidence.add(Route.GRAPH, 0.1, f"names entities of your documents: {', '.join(other[:4])}")
    if relation:
        weight = 0.45 if (named or other or listing) else 0.15
        evidence.add(Route.GRAPH, weight, "asks how things relate: " + ", ".join(
            dict.fromkeys(relation)))  # fmt: skip
    if listing and (relation or named or other):
        evidence.add(Route.GRAPH, 0.2, "asks which people or organisations")
    return {word for name in [*named, *other] for word in re.findall(r"[\w+#.\-]+", name.lower())}
