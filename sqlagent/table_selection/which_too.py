""" "Which parts are low, and at which stock location?", "the 5 largest invoices and which
customer each was for": a closing "and which X" asks for X beside each row listed, not a
second question."""

from sqlagent.question_terms import QuestionTerms
from sqlagent.resolution import Resolved
from sqlagent.resolution.resolved import mention_lengths

_PREPOSITIONS = frozenset({"at", "in", "from", "for", "with", "to", "on", "under", "of"})
# What may follow the thing asked: the rows it belongs to, said again in passing ("each
# was for", "it belongs to", "they are at", "has them").
_TRAILING = frozenset({"each", "it", "they", "them", "one", "was", "were", "is", "are", "has",
                       "have", "had", "for", "to",
                       "at", "in", "from", "with", "on", "of", "belong", "belongs", "belonged",
                       "located", "based", "do", "does", "did"})  # fmt: skip


def tables_asked_beside(terms: QuestionTerms, resolved: Resolved) -> list[str]:
    """The tables a closing "and [at] which <thing>" asks for; empty when the words after
    it say more than that."""
    norms = [t.norm for t in terms.tokens]
    lengths = mention_lengths(terms)
    for position, table, _ in resolved.entities:
        before = norms[max(0, position - 3) : position]
        if not before or before[-1] != "which":
            continue
        lead = before[:-1]
        if lead and lead[-1] in _PREPOSITIONS:
            lead = lead[:-1]
        if not lead or lead[-1] != "and":
            continue
        rest = norms[position + lengths.get(position, 1) :]
        if all(word in _TRAILING for word in rest):
            return [table]
    return []
