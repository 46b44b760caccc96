"""Which route a question takes: the business database (sql), the user's documents, the
knowledge graph, a general answer, a request for clarification, or an upload.

Deterministic and explainable. Each signal adds a weight to a route and says why:

- files attached, or words asking to upload (upload); greetings, thanks and questions about
  the assistant (general); questions with nothing to act on (clarification);
- the warehouse's words, read by the SQL agent's own term extraction over its vocabulary
  (domain terms, tables, columns, enumeration values and labels, codes), the shape of a
  question (count, total, top-N, per-group) and date ranges (sql);
- how strongly the question's keywords match the chunks the user may read, in particular
  the words the warehouse does not know ("wind speed", "per diem") (documents);
- people and other entities the graph knows, and words that ask how they are related
  (graph);
- the nearest admin-editable example questions of each route (embedding similarity).

A follow-up ("and last month?") takes its antecedent's route (memory.resolve_follow_up).
With an LLM configured, a low-confidence decision may be handed to it; without one the
deterministic router decides alone.
"""

import json
import logging
import math
import re
import threading
import time
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from django.conf import settings
from django.db import connection
from django.db.models import Count, Max, Q
from django.db.models.functions import Lower
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from django.utils import timezone

from chat.models import Route, RouteExample
from chat.orchestrator.context import Turn
from chat.orchestrator.memory import FollowUp, resolve_follow_up
from core.providers import llm
from core.providers.embeddings import embed_texts
from core.providers.query_embeddings import embed_query_soon, forget_queries
from retrieval import sql as retrieval_sql
from retrieval.entity_retrieval import RELATION_WORDS
from retrieval.search.keyword_search import keyword_search
from retrieval.search.query_terms import query_keywords
from retrieval.search.scope import Scope
from sqlagent.question_terms import QuestionTerms, extract_terms
from sqlagent.vocabulary import Vocabulary, phrase, singular

logger = logging.getLogger(__name__)

ROUTES: tuple[str, ...] = tuple(Route.values)
EXAMPLES_FILE = Path(__file__).resolve().parent.parent / "route_examples.json"
NEAREST_EXAMPLES = 3  # per route, averaged
SOFTMAX_TEMPERATURE = 0.12  # turns score gaps into a confidence; 0.1 apart ~ 70/30


@dataclass
class RouteDecision:
    route: str
    confidence: float  # 0..1
    reasons: list[str]
    scores: dict[str, float]
    follow_up: FollowUp | None = None
    method: str = "deterministic"  # or "llm"
    timings: dict[str, float] = field(default_factory=dict)  # ms per signal

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class _Evidence:
    """Weights per route, each with the reason it was added."""

    def __init__(self) -> None:
        self.scores = dict.fromkeys(ROUTES, 0.0)
        self.reasons: dict[str, list[tuple[float, str]]] = {route: [] for route in ROUTES}
        self.notes: list[str] = []  # what the decision had to do without, shown always

    def add(self, route: str, weight: float, reason: str) -> None:
        if weight > 0:
            self.scores[route] += weight
            self.reasons[route].append((weight, reason))


def route_question(
    question: str,
    history: Sequence[Turn] = (),
    *,
    attachments: Sequence[str] = (),
    user: Any = None,
) -> RouteDecision:
    """Decide the route of `question`. `user` decides which documents and entities count
    (none without one)."""
    started = time.perf_counter()
    timings: dict[str, float] = {}
    text = " ".join(question.split())
    if attachments:
        files = ", ".join(Path(a).name for a in attachments[:3])
        return _decided(Route.UPLOAD, [f"{len(attachments)} file(s) attached: {files}"], started)
    if not text:
        return _decided(Route.CLARIFICATION, ["the question is empty"], started)
    words = _warehouse_words()
    timings["warehouse"] = _ms(started)
    follow_up = resolve_follow_up(text, history, user=user, vocabulary=words.vocabulary)
    timings["memory"] = _ms(started) - timings["warehouse"]
    if follow_up is not None:
        return _decided(follow_up.route, follow_up.reasons, started, follow_up=follow_up)
    evidence = _Evidence()
    text = _without_greeting(text, evidence)
    embedding = embed_query_soon(text)  # the model runs while the database is read
    clock = time.perf_counter()
    vague = _lexical(text, evidence, has_history=bool(history))
    explained = _warehouse(text, words, evidence)
    timings["sql_terms"] = _ms(clock)
    collection_ids = _readable_collections(user)
    clock = time.perf_counter()
    named = _entities(text, collection_ids, evidence)
    timings["entities"] = _ms(clock)
    clock = time.perf_counter()
    _documents(text, collection_ids, words, explained | named, evidence)
    timings["documents"] = _ms(clock)
    clock = time.perf_counter()
    _examples(text, embedding, evidence)
    timings["examples"] = _ms(clock)
    if vague:
        # Nothing to act on: whatever else matched, matched by accident ("status" is a
        # column, "more" a word in a policy).
        for route in (Route.SQL, Route.DOCUMENTS, Route.GRAPH):
            evidence.scores[route] *= 0.3
    decision = _decide(evidence)
    if decision.confidence < settings.ORCHESTRATOR_ROUTER_LLM_BELOW and llm.llm_configured():
        clock = time.perf_counter()
        decision = _ask_llm(text, history, decision)
        timings["llm"] = _ms(clock)
    decision.timings = {**timings, "total": _ms(started)}
    return decision


def _decided(
    route: str, reasons: list[str], started: float, *, follow_up: FollowUp | None = None
) -> RouteDecision:
    scores = {r: float(r == route) for r in ROUTES}
    return RouteDecision(
        str(route), 0.95, list(reasons), scores, follow_up, timings={"total": _ms(started)}
    )


def _decide(evidence: _Evidence) -> RouteDecision:
    scores = {route: round(score, 3) for route, score in evidence.scores.items()}
    ranked = sorted(ROUTES, key=lambda r: -evidence.scores[r])
    best, second = ranked[0], ranked[1]
    top = max(evidence.scores.values())
    exps = {r: math.exp((evidence.scores[r] - top) / SOFTMAX_TEMPERATURE) for r in ROUTES}
    confidence = exps[best] / sum(exps.values())
    reasons = [reason for _, reason in sorted(evidence.reasons[best], key=lambda x: -x[0])][:5]
    if evidence.scores[second] > 0:
        reasons.append(f"next best: {second} ({scores[second]:.2f} against {scores[best]:.2f})")
    if not evidence.reasons[best]:
        reasons.insert(0, "no signal points anywhere")
    return RouteDecision(best, round(confidence, 3), reasons + evidence.notes, scores)


def _ms(since: float) -> float:
    return round((time.perf_counter() - since) * 1000, 2)


def clear_caches() -> None:
    """Forget the warehouse words, the example index and the chunk counts (they are rebuilt
    on the next question)."""
    global _example_index
    with _warehouse_lock:
        _warehouse_cache.layer = _warehouse_cache.words = None
    with _example_lock:
        _example_index = None
    _chunk_counts.clear()
    forget_queries()


# --- general, clarification, upload: the words themselves ---------------------------------

_GREETING = re.compile(
    r"^(?:hi|hello|hey|hiya|howdy|greetings|good (?:morning|afternoon|evening|day)|yo)"
    r"(?: there| team| all| everyone)?\b[\s,.!]*",
    re.IGNORECASE,
)
_THANKS = re.compile(
    r"^(?:ok(?:ay)?[, ]*)?(?:thanks?|thank you|thx|ty|cheers|great|perfect|nice|cool|got it"
    r"|awesome|bye|goodbye|see you)\b[\w\s,.!']{0,30}$",
    re.IGNORECASE,
)
_ABOUT_ASSISTANT = re.compile(
    r"\b(?:what (?:can|could) you do|who (?:are|r) you|what are you|what is switchboard"
    r"|what (?:kind|sort|type)s? of (?:questions|things)|what (?:questions )?can i ask"
    r"|how (?:do|can|should) i use (?:you|this|it|the chat)|how does (?:this|the) "
    r"(?:chat|assistant|thing) work|what (?:data|documents|information|databases?|sources) "
    r"(?:do|can) you (?:have|access|search|see|read|use)|which (?:documents|data|databases?"
    r"|sources|collections) (?:can|do) you|(?:are|is) (?:you|it) able to|can you (?:help|answer)"
    r"(?: me)?(?: with)?|answer questions about|your (?:capabilities|features|limits)"
    r"|talking to|help me with)\b",
    re.IGNORECASE,
)
# Asking to add files: "upload this file", "ingest these two resumes", "can you add this to
# my documents?"; not "imported parts" or "the price index".
_UPLOAD = re.compile(
    r"^\s*(?:please\s+)?(?:upload|ingest|index|import)\b"
    r"|\b(?:upload|ingest|index|import)(?:ing)?\s+(?:this|these|that|it|them|(?:the\s+)?attached)\b"
    r"|\bto (?:upload|ingest)\b|\b(?:to|into) (?:the|my|our) (?:knowledge base|collection)\b"
    r"|\b(?:upload|ingest|index|import|add|save|store)(?:ing)?\b[\w\s'-]{0,30}?"
    r"\b(?:files?|documents?|pdfs?|docx|spreadsheets?|résumés?|resumes?)\b",
    re.IGNORECASE,
)
# Words that on their own give nothing to act on.
_VAGUE = frozenset({
    "more", "details", "detail", "that", "this", "it", "one", "ones", "other", "same", "again",
    "different", "please", "help", "why", "what", "how", "status", "numbers", "number", "info",
    "information", "thing", "things", "stuff", "check", "him", "her", "them", "they", "those",
    "these", "something", "anything", "everything", "explain", "show", "tell", "me", "about",
    "can", "you", "it's", "wrong", "list", "usual", "the", "a", "an", "and", "or", "but", "so",
    "ok", "okay", "now", "then", "there", "here", "is", "are", "was", "were", "do", "does", "did",
    "report", "data", "which", "who", "when", "where", "whats"
})  # fmt: skip
_FRAGMENT = re.compile(r"^(?:and|what about|how about|same (?:for|with|in)|same)\b", re.IGNORECASE)


def _without_greeting(text: str, evidence: _Evidence) -> str:
    """A greeting is general on its own; before a question, the question counts."""
    match = _GREETING.match(text)
    if match is None:
        return text
    rest = text[match.end() :].strip()
    if len(rest.split()) >= 3:
        return rest
    evidence.add(Route.GENERAL, 1.2, "a greeting")
    return text


def _lexical(text: str, evidence: _Evidence, *, has_history: bool) -> bool:
    """Upload, general and clarification cues; True when the question is too vague."""
    if _UPLOAD.search(text):
        evidence.add(Route.UPLOAD, 1.2, "asks to upload or ingest a file")
    if _THANKS.match(text):
        evidence.add(Route.GENERAL, 1.2, "thanks or a goodbye")
    about_assistant = bool(_ABOUT_ASSISTANT.search(text))
    if about_assistant:
        evidence.add(Route.GENERAL, 0.9, "asks about the assistant itself")
    words = [w.lower() for w in re.findall(r"[\w']+", text)]
    if not about_assistant and all(w in _VAGUE for w in words):
        evidence.add(Route.CLARIFICATION, 1.0, "nothing to act on: only words like " + (
            ", ".join(repr(w) for w in words[:3]) or "punctuation"))  # fmt: skip
        return True
    if _FRAGMENT.match(text) and len(words) <= 5:
        why = "continues an earlier answer that is not there" if not has_history else (
            "reads like a follow-up, but of nothing the last answer asked")  # fmt: skip
        evidence.add(Route.CLARIFICATION, 0.9, why)
        return True
    return False


# --- sql: the warehouse's words ---------------------------------------------------------------


@dataclass(frozen=True)
class _WarehouseWords:
    vocabulary: Vocabulary | None  # None: the registry or warehouse is not reachable
    words: frozenset[str]  # single words of terms, tables and columns (not values)
    codes: tuple[str, ...]  # regexes of code shapes (WO-\d{6})
    note: str = ""


@dataclass
class _WarehouseCache:
    layer: Any = None  # the SemanticLayer snapshot the words were read from
    words: _WarehouseWords | None = None
    retry_at: float = 0.0  # when words built without the warehouse's values are retried


_warehouse_cache = _WarehouseCache()
_warehouse_lock = threading.Lock()
WAREHOUSE_RETRY_SECONDS = 300


def _warehouse_words() -> _WarehouseWords:
    """The SQL agent's vocabulary for the default data source, rebuilt when the registry's
    version changes; when the warehouse cannot be read, the registry's words alone (values
    are read from the warehouse), tried again after a while."""
    from registries.semantic_layer_loader import load_semantic_layer
    from sqlagent.vocabulary import vocabulary

    try:
        layer = load_semantic_layer()
    except Exception as error:  # no registry yet, database trouble
        logger.warning("routing without the warehouse registry: %s", error)
        return _WarehouseWords(None, frozenset(), (), "the warehouse registry is unavailable")
    cached = _warehouse_cache.words
    if (
        cached is not None
        and _warehouse_cache.layer is layer
        and (not cached.note or time.monotonic() < _warehouse_cache.retry_at)
    ):
        return cached
    with _warehouse_lock:
        built = _warehouse_cache.words
        if built is not None and built is not cached and _warehouse_cache.layer is layer:
            return built  # another thread built it meanwhile
        values: tuple[tuple[str, str, str], ...] = ()
        codes: tuple[str, ...] = ()
        note = ""
        try:
            from sqlagent.agent import Source
            from sqlagent.value_index import value_index

            source = Source.named(None)
            index = value_index(layer, source.url, agent=source.agent_login)
            values, codes = index.values, tuple(pattern for _, _, pattern in index.codes)
        except Exception as error:
            logger.warning("routing without warehouse values: %s", error)
            note = "the warehouse's values are unavailable"
        vocab = vocabulary(layer, values)
        plain = frozenset(
            word
            for key, entries in vocab.entries.items()
            if any(e.kind != "value" for e in entries)
            for word in key.split()
        )
        words = _WarehouseWords(vocab, plain, codes, note)
        _warehouse_cache.layer, _warehouse_cache.words = layer, words
        _warehouse_cache.retry_at = time.monotonic() + WAREHOUSE_RETRY_SECONDS
        return words


_COUNTABLE = re.compile(r"\b(?:list|show|which|what are the|give me)\b", re.IGNORECASE)
_CODE_TOKEN = re.compile(r"\b[A-Z]{1,4}-?\d{2,}\b")


def _warehouse(text: str, words: _WarehouseWords, evidence: _Evidence) -> set[str]:
    """Adds the SQL signals; returns the lower-case words the warehouse explained."""
    if words.note:
        evidence.notes.append(words.note)
    if words.vocabulary is None:
        return set()
    terms = extract_terms(text, words.vocabulary, today=timezone.localdate())
    in_date = _date_tokens(terms)
    content = [
        i
        for i, t in enumerate(terms.tokens)
        if t.norm not in _FUNCTION_WORDS
        and not t.norm.replace(".", "").isdigit()
        and i not in in_date
    ]
    covered: dict[int, float] = {}
    named: list[str] = []
    values: list[tuple[str, float]] = []
    for mention in terms.mentions:
        tokens = terms.tokens[mention.position : mention.position + mention.length]
        kind = mention.best.kind
        weight = 0.4 if kind == "column" else 1.0
        if kind == "value":
            # "Lighthouse Power LLC" and "overhead bridge crane" say warehouse; "paid" or
            # "long" are values somewhere too, but say little.
            strength = _value_strength(tokens)
            values.append((mention.text, strength))
            weight = 1.0 if strength >= 0.2 else 0.5
        for i in range(mention.position, mention.position + mention.length):
            covered[i] = max(covered.get(i, 0.0), weight)
        if weight == 1.0:
            named.append(mention.text)
    for name, end in terms.names:
        # Proper names are the agent's to resolve later; here it is enough that the
        # warehouse holds one by that name ("Sterling Power Holdings").
        entries = words.vocabulary.entries.get(phrase(name), ())
        if any(e.kind == "value" for e in entries):
            values.append((name, 0.35))
            named.append(name)
            for i in range(end - len(name.split()), end):
                covered[i] = 1.0
    if content:
        share = sum(covered.get(i, 0.0) for i in content) / len(content)
        if share:
            evidence.add(
                Route.SQL, 0.6 * share,
                f"warehouse words cover {share:.0%} of the question"
                + (f": {', '.join(dict.fromkeys(named))}" if named else ""),
            )  # fmt: skip
    codes = [c for c in _CODE_TOKEN.findall(text) if any(re.fullmatch(p, c) for p in words.codes)]
    strength = max([0.35 if codes else 0.0, *(s for _, s in values)])
    if strength:
        shown = codes + [v for v, _ in values]
        evidence.add(Route.SQL, strength, f"names warehouse values: {', '.join(shown)}")
    shape = terms.shape
    asks = [
        label
        for label, present in (
            ("a count", shape.aggregate == "count"),
            (f"a {shape.aggregate}", shape.aggregate not in (None, "count")),
            (f"per {shape.group_by}", bool(shape.group_by)),
            (f"top {shape.top_n}", bool(shape.top_n)),
            ("a share", shape.ratio),
        )
        if present
    ]
    if asks:
        evidence.add(Route.SQL, 0.35 if named else 0.1, "asks for " + ", ".join(asks))
    elif named and _COUNTABLE.search(text):
        evidence.add(Route.SQL, 0.15, "asks to list warehouse records")
    if terms.date_range is not None:
        evidence.add(
            Route.SQL, 0.15 if named else 0.05,
            f"date range {terms.date_range.text!r} ({terms.date_range.describe()})",
        )  # fmt: skip
    return {
        part
        for i, weight in covered.items()
        if weight == 1.0
        for part in terms.tokens[i].text.lower().split()
    }


def _date_tokens(terms: QuestionTerms) -> set[int]:
    if terms.date_range is None:
        return set()
    return {i for i, t in enumerate(terms.tokens) if t.text.lower() in terms.date_range.text}


def _value_strength(tokens: Sequence[Any]) -> float:
    if any(t.text[:1].isupper() for t in tokens) or _CODE_TOKEN.fullmatch(tokens[0].text):
        return 0.35
    return 0.2 if len(tokens) > 1 else 0.08


_FUNCTION_WORDS = frozenset({
    "how", "what", "which", "who", "whom", "whose", "when", "where", "why", "list", "show",
    "give", "find", "count", "name", "is", "are", "was", "were", "in", "for", "of", "the", "a",
    "an", "do", "does", "did", "and", "or", "on", "at", "by", "per", "each", "with", "from", "to",
    "between", "me", "our", "we", "us", "i", "my", "you", "your", "their", "its", "that", "this",
    "these", "those", "there", "be", "been", "have", "has", "had", "many", "much", "all", "any",
    "some", "get", "can", "could", "should", "would", "will", "it", "please", "tell", "about"
})  # fmt: skip


# --- documents: keyword evidence in what the user may read ------------------------------------


def _readable_collections(user: Any) -> tuple[int, ...]:
    if user is None:
        return ()
    from ingestion.models import Collection

    return tuple(Collection.objects.readable_by(user).values_list("pk", flat=True))


_DOCUMENT_CUES = re.compile(
    r"\b(?:polic(?:y|ies)|manual|procedure|handbook|guideline|rules?|allowed|permitted"
    r"|must|required?|requirements?|allowance|per diem|section|resume|résumé|cv|summari[sz]e"
    r"|describe|explain|according to|what happens|how (?:do|should|can) (?:i|we|you)"
    r"|what does .{1,40} mean|in the app|mobile app|is it ok|am i|do i|can i|may i"
    r"|how long (?:is|are|does|do|must|should)|(?:is|are) used (?:for|to|when|on))\b",
    re.IGNORECASE,
)
# Questions about how things are done or what a rule allows, not about records:
# "How is travel time paid?", "Can a cancelled work order be reopened?".
_RULE_QUESTION = re.compile(
    r"^(?:(?:how|when|why) (?:is|are|do|does|should|must|can|may) (?!there\b)"
    r"|(?:can|may|must|should|is|are|do|does) (?:a|an|the|i|you|my|someone|anyone|employees?"
    r"|technicians?|crews?|staff)\b)",
    re.IGNORECASE,
)


def _documents(
    text: str,
    collection_ids: tuple[int, ...],
    words: _WarehouseWords,
    explained: set[str],
    evidence: _Evidence,
) -> None:
    """Document wording, and keyword evidence over the readable chunks. Words the
    warehouse or the entity names already explained (`explained`) do not count as words
    only the documents know."""
    cues = {m.lower() for m in _DOCUMENT_CUES.findall(text)}
    if _RULE_QUESTION.search(text):
        cues.add("a question of how or whether")
    if cues:
        evidence.add(
            Route.DOCUMENTS, min(0.25 * len(cues), 0.5),
            "document wording: " + ", ".join(sorted(cues)),
        )  # fmt: skip
    if not collection_ids:
        return
    terms = query_keywords(text)
    if not terms:
        return
    params: dict[str, Any] = {
        "terms": terms,
        "collections": list(collection_ids),
        "documents": [],
    }
    with connection.cursor() as cursor:
        total = _readable_chunks(cursor, params)
        cursor.execute(retrieval_sql.TERM_FREQUENCIES, params)
        frequencies = {term: int(df) for term, df in cursor.fetchall()}
    if not total:
        return
    idf = {
        t: math.log(1.0 + (total - frequencies[t] + 0.5) / (frequencies[t] + 0.5)) for t in terms
    }
    hits = keyword_search(terms, Scope(collection_ids, ()), weights=idf, limit=1)
    best = hits[0].score if hits else 0.0
    # Words the documents hold and the warehouse does not know say most: "wind", "per
    # diem", "kubernetes". Words both know ("work order") say little either way.
    own = [
        t for t in terms if frequencies[t] and t not in explained
        and not _stems(t) & words.words and not _CODE_TOKEN.fullmatch(t.upper())
    ]  # fmt: skip
    weight_all = sum(idf.values()) or 1.0
    share = sum(idf[t] for t in own) / weight_all
    if best:
        evidence.add(
            Route.DOCUMENTS, 0.25 * best, f"keywords match your documents ({best:.2f}, best chunk)"
        )
    if own:
        evidence.add(
            Route.DOCUMENTS, 0.7 * share,
            f"words only your documents know: {', '.join(own[:5])} ({share:.0%} of the weight)",
        )  # fmt: skip


_chunk_counts: dict[tuple[int, ...], tuple[float, int]] = {}
CHUNK_COUNT_SECONDS = 30.0  # an idf needs the number of chunks, not to the last one


def _readable_chunks(cursor: Any, params: dict[str, Any]) -> int:
    key = tuple(params["collections"])
    cached = _chunk_counts.get(key)
    if cached is not None and time.monotonic() < cached[0]:
        return cached[1]
    cursor.execute(retrieval_sql.READABLE_CHUNK_COUNT, params)
    total = int(cursor.fetchone()[0])
    _chunk_counts[key] = (time.monotonic() + CHUNK_COUNT_SECONDS, total)
    return total


def _stems(word: str) -> set[str]:
    """The word and the forms the warehouse's vocabulary may hold ("invoiced" -> "invoice")."""
    found = {word, singular(word)}
    for ending, replacement in (("ed", ""), ("d", ""), ("ing", ""), ("ing", "e"), ("es", "")):
        if word.endswith(ending) and len(word) > len(ending) + 2:
            found.add(word[: -len(ending)] + replacement)
    return found


# --- graph: entities and relations --------------------------------------------------------------

_RELATION_CUES = re.compile(
    r"\b(?:"
    + "|".join(re.escape(w) for w in RELATION_WORDS)
    + r"|worked (?:at|alongside)|works? at|connected|connections?|linked|related|relationships?"
    r"|in common|network|colleagues?|coworkers?|co-workers?|teammates?|who else|knows?"
    r"|experience with|experienced|skills|technologies|tools does|projects|organi[sz]ations"
    r"|companies|employers|studied|universit(?:y|ies)|schools?|based in|lives? in"
    r"|certifications? does|hold|holds)\b",
    re.IGNORECASE,
)
_LIST_OF_ENTITIES = re.compile(
    r"^(?:who\b|whom\b|which (?:people|persons|colleagues|companies|organi[sz]ations|projects"
    r"|universities|technologies|skills|tools|certifications)|what (?:projects|companies"
    r"|organi[sz]ations|skills|technologies|tools|certifications|connects|links)"
    r"|how (?:is|are) .{1,60} (?:connected|related|linked))",
    re.IGNORECASE,
)
# A capitalized word after the first, a possessive, or a first word that is no question
# word: only then can a question name someone ("Alexis", "Mark's", "bob's skills").
_MAY_NAME_SOMEONE = re.compile(
    r"\s[A-Z]|['\u2019]s?\b|^(?!(?i:how|what|which|who|whom|whose|when|where|why|is|are|do"
    r"|does|did|can|could|should|list|show|give|tell|find|count|hi|hello|hey)\b)[A-Z]"
)
# Entity types whose names make a question about people and organisations.
_GRAPH_TYPES = frozenset({"Person", "Organization", "Project"})


def _entities(text: str, collection_ids: tuple[int, ...], evidence: _Evidence) -> set[str]:
    """Adds the graph signals; returns the lower-case words of the entity names found."""
    relation = [m.lower() for m in _RELATION_CUES.findall(text)]
    listing = bool(_LIST_OF_ENTITIES.search(text))
    known = _known_entities(text, collection_ids) if collection_ids else []
    # First names and possessives ("Alexis", "bob's") need query understanding; a full
    # name found already does not.
    full_name = any(kind == "Person" for _, kind in known)
    maybe = collection_ids and not full_name and _MAY_NAME_SOMEONE.search(text)
    people = _people(text, collection_ids) if maybe else []
    named = list(dict.fromkeys([*people, *(n for n, t in known if t in _GRAPH_TYPES)]))
    other = [n for n, t in known if t not in _GRAPH_TYPES and n not in named]
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


def _people(text: str, collection_ids: tuple[int, ...]) -> list[str]:
    from retrieval.query_understanding import analyze_query

    return [p.name for p in analyze_query(text, collection_ids=collection_ids).persons]


def _known_entities(text: str, collection_ids: tuple[int, ...]) -> list[tuple[str, str]]:
    """Entities of readable documents whose whole name is a run of the question's words."""
    tokens = re.findall(r"[\w+#.\-]+", text.lower().replace("'s ", " "))
    runs = {
        " ".join(tokens[i : i + n]).strip(".")
        for n in range(1, 5)
        for i in range(len(tokens) - n + 1)
    }
    runs = {r for r in runs if len(r) >= 3 and r not in _FUNCTION_WORDS and r not in _VAGUE}
    if not runs:
        return []
    from ingestion.models import Entity, EntityMention

    readable = EntityMention.objects.filter(chunk__collection_id__in=collection_ids)
    rows = (
        Entity.objects.annotate(lowered=Lower("name"))
        .filter(lowered__in=runs, pk__in=readable.values("entity_id"))
        .values_list("name", "type")
        .distinct()
    )
    # A one-word person or organisation counts only when written as the name it is: the
    # extractor's "Crane" organisation is no reason to read "crane lifts" as a name.
    return [
        (name, kind)
        for name, kind in rows
        if " " in name
        or kind not in _GRAPH_TYPES
        or re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text)
    ]


# --- examples: the nearest admin-editable questions --------------------------------------------


@dataclass(frozen=True)
class ExampleIndex:
    fingerprint: tuple[Any, ...]
    routes: tuple[str, ...]
    questions: tuple[str, ...]
    vectors: Any  # numpy array, one normalised row per question

    def nearest(self, vector: Any) -> dict[str, list[tuple[float, str]]]:
        """Per route, its NEAREST_EXAMPLES most similar examples (cosine, best first)."""
        similarities = self.vectors @ vector if len(self.questions) else np.zeros(0)
        found: dict[str, list[tuple[float, str]]] = {route: [] for route in ROUTES}
        for index in np.argsort(-similarities):
            route = self.routes[index]
            if route in found and len(found[route]) < NEAREST_EXAMPLES:
                found[route].append((float(similarities[index]), self.questions[index]))
        return found


_example_index: ExampleIndex | None = None
_example_checked = 0.0  # when the RouteExample rows were last compared with the index
_example_lock = threading.Lock()
# Another process's admin edit is seen within this many seconds; this process's at once.
EXAMPLES_RECHECK_SECONDS = 10.0


@receiver([post_save, post_delete], sender=RouteExample)
def _examples_changed(**kwargs: Any) -> None:
    global _example_checked
    _example_checked = 0.0


def shipped_examples(path: Path = EXAMPLES_FILE) -> list[tuple[str, str]]:
    """(route, question) pairs of chat/route_examples.json."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return [(route, q) for route, questions in data["examples"].items() for q in questions]


def example_index() -> ExampleIndex:
    """The example questions with their embeddings, built once per process and rebuilt
    when the RouteExample rows change: a save or delete in this process is seen at once;
    otherwise one small query, at most every EXAMPLES_RECHECK_SECONDS, compares the number
    of rows, of enabled rows and the latest edit time with the index's."""
    global _example_index, _example_checked
    cached = _example_index
    if cached is not None and time.monotonic() - _example_checked < EXAMPLES_RECHECK_SECONDS:
        return cached
    seen = RouteExample.objects.aggregate(
        rows=Count("id"), enabled=Count("id", filter=Q(enabled=True)), latest=Max("updated_at")
    )
    fingerprint = (seen["rows"], seen["enabled"], seen["latest"], settings.EMBEDDING_MODEL)
    _example_checked = time.monotonic()
    if cached is not None and cached.fingerprint == fingerprint:
        return cached
    with _example_lock:
        if _example_index is not None and _example_index.fingerprint == fingerprint:
            return _example_index
        if seen["rows"]:
            pairs = list(
                RouteExample.objects.filter(enabled=True)
                .order_by("route", "id")
                .values_list("route", "question")
            )
        else:
            pairs = shipped_examples()
        vectors = np.array(embed_texts([q for _, q in pairs]), dtype=np.float32)
        _example_index = ExampleIndex(
            fingerprint, tuple(r for r, _ in pairs), tuple(q for _, q in pairs),
            vectors.reshape(len(pairs), -1) if pairs else np.zeros((0, 1), dtype=np.float32),
        )  # fmt: skip
        return _example_index


def _examples(text: str, embedding: "Future[list[float]]", evidence: _Evidence) -> None:
    index = example_index()
    if not index.questions:
        return
    nearest = index.nearest(np.array(embedding.result(), dtype=np.float32))
    for route, found in nearest.items():
        if not found:
            continue
        similarity = sum(s for s, _ in found) / len(found)
        evidence.add(
            route, max(similarity, 0.0),
            f"near example questions ({similarity:.2f}): {found[0][1]!r}",
        )  # fmt: skip


# --- an LLM, when one is configured and the signals disagree ----------------------------------

_ROUTE_HELP = {
    Route.SQL: "counts, totals, lists and records from the company's business database "
    "(work orders, customers, invoices, employees, assets, inspections, work time)",
    Route.DOCUMENTS: "what the user's documents say: policies, the user manual, résumés",
    Route.GRAPH: "how people, companies and projects in the documents are related",
    Route.GENERAL: "greetings, thanks, questions about the assistant itself",
    Route.CLARIFICATION: "too vague or ambiguous to act on",
    Route.UPLOAD: "adding files to the documents",
}


def _ask_llm(text: str, history: Sequence[Turn], decision: RouteDecision) -> RouteDecision:
    recent = "\n".join(f"{t.role}: {t.content[:200]}" for t in list(history)[-4:]) or "(none)"
    options = "\n".join(f"- {route}: {_ROUTE_HELP[Route(route)]}" for route in ROUTES)
    prompt = (
        "Classify the user's question into exactly one route. Answer with the route name "
        f"only.\n\nRoutes:\n{options}\n\nConversation so far:\n{recent}\n\n"
        f"Question: {text}"
    )
    try:
        reply = llm.complete([{"role": "user", "content": prompt}]).text
    except Exception as error:  # the model is down or refused: the signals decide
        logger.warning("the router could not ask the LLM: %s", error)
        decision.reasons.append("the language model could not be asked; the signals decided")
        return decision
    named = {r: m.start() for r in ROUTES if (m := re.search(rf"\b{r}\b", reply.lower()))}
    chosen = min(named, key=named.__getitem__) if named else None  # the first one it names
    if chosen is None:
        decision.reasons.append(f"the language model answered no route ({reply[:40]!r})")
        return decision
    reasons = [
        f"the language model chose {chosen} (the signals were unsure: {decision.route} "
        f"at {decision.confidence:.2f})",
        *decision.reasons,
    ]
    # The model gives no probability: 0.6 says decided, not certain.
    return RouteDecision(
        chosen, max(decision.confidence, 0.6), reasons, decision.scores, method="llm"
    )
