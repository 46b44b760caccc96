"""What the domains read of a turn's question, kept for the turn: the router reads the
question, and the route that runs reuses the reading instead of making it again."""

from collections.abc import Sequence

from retrieval.services import KeywordEvidence, QueryAnalysis, analyze_query, keyword_evidence
from sqlagent.services import QuestionReading


class QuestionAnalysis:
    """Query understanding (people, attribute, section asked for) per text and readable
    collections, made at most once per turn: `query` is a retrieval `QueryReader`, and the
    router, the search and the graph answers all read through it. `sql` is the SQL agent's
    reading of the question (its terms), which the agent reuses; `keywords` the retrieval's
    keyword evidence, which the router and the answer writers share."""

    def __init__(self) -> None:
        self._queries: dict[tuple[str, tuple[int, ...]], QueryAnalysis] = {}
        self.reads = 0  # query readings actually made (the rest were reused)
        self.sql: QuestionReading | None = None
        self._keywords: dict[tuple[str, tuple[int, ...]], KeywordEvidence | None] = {}

    def query(self, text: str, collection_ids: Sequence[int]) -> QueryAnalysis:
        key = (text, tuple(sorted(collection_ids)))
        if key not in self._queries:
            self._queries[key] = analyze_query(text, collection_ids=collection_ids)
            self.reads += 1
        return self._queries[key]

    def keywords(self, text: str, collection_ids: Sequence[int]) -> KeywordEvidence | None:
        """How the question's keywords stand in the readable chunks (the router weighs it;
        the answer writers judge passages and unknown words with it)."""
        key = (text, tuple(sorted(collection_ids)))
        if key not in self._keywords:
            self._keywords[key] = keyword_evidence(text, tuple(collection_ids))
        return self._keywords[key]

    def person_names(self, text: str, collection_ids: Sequence[int]) -> list[str]:
        return [person.name for person in self.query(text, collection_ids).persons]
