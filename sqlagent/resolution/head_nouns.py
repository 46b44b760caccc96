"""Words the vocabulary does not know that still name a table: the last word of a table's
name ("each type" after work orders: workOrderType), or the act a table records ("who
signed off": workOrderSignature)."""

from core.language import speaker_verbs
from registries.services import SemanticLayer
from sqlagent.question_terms import QuestionTerms
from sqlagent.resolution.context import nearest
from sqlagent.resolution.resolved import Resolved, position_of
from sqlagent.vocabulary import phrase

# Words that complete a verb ("signed off", "checked out") and add nothing to it.
_PARTICLES = frozenset({"off", "out", "up"})


def resolve_head_noun(
    word: str, terms: QuestionTerms, layer: SemanticLayer, context: set[str], out: Resolved
) -> None:
    """ "work orders of each type", "safety checks of each template": a word that ends a
    table's name means that table when the question's other tables single it out, either
    by name (workOrder + type) or as the nearest through the joins."""
    if len(word) < 4 or _said_done(word, terms) or _resolve_doer(word, terms, layer, context, out):
        return
    for stem in (word[:-2], word[:-1]) if word.endswith("ed") else ():
        if stem in layer.tables and not out.entities:  # "the amount invoiced": invoice
            position = position_of(word, terms)
            out.entities.append((position, stem, f"{word!r}: {stem} rows"))
            return
    candidates = [t for t in layer.tables if phrase(t).split()[-1:] == [word]]
    # "the site contact on work order X" is workOrder.siteContactName, not another table.
    # A key column ("workOrderTypeId") names the table it points to, the candidate itself.
    in_columns = any(
        word in phrase(c).split()
        for t in context
        for c in layer.tables[t].columns
        if not c.endswith("Id")
    )
    if not candidates or in_columns:
        return
    by_name = [t for t in candidates if any(phrase(t) == f"{phrase(c)} {word}" for c in context)]
    chosen = by_name if len(by_name) == 1 else nearest(candidates, context, layer)
    if len(chosen) != 1:
        return
    position = position_of(word, terms)
    out.entities.append((position, chosen[0], f"{word!r}: the {chosen[0]} of the question"))
    out.consumed.add(word)
    out.notes.append(f"{word!r} -> {chosen[0]}")


def _said_done(word: str, terms: QuestionTerms) -> bool:
    """ "the locations we service": what the business did, not the table of its noun."""
    return word in speaker_verbs(tuple(t.text for t in terms.tokens if not t.quoted))


def _resolve_doer(
    word: str, terms: QuestionTerms, layer: SemanticLayer, context: set[str], out: Resolved
) -> bool:
    """ "Who signed off work order X": the people asked for are the rows that record the
    act, the table of the question's table named for the verb's noun (workOrderSignature)."""
    position = position_of(word, terms)
    if position == 0 or terms.tokens[position - 1].norm != "who" or not word.endswith("ed"):
        return False
    stems = [s for s in (word[:-2], word[:-1]) if len(s) >= 4]
    found = {
        t
        for t in layer.tables
        for c in context
        for stem in stems
        if (name := phrase(t)).startswith(f"{phrase(c)} ")
        and name.split()[-1].startswith(stem)
        and len(name.split()) == len(phrase(c).split()) + 1
    }
    if len(found) != 1:
        return False
    table = found.pop()
    out.entities.append((position, table, f"{word!r}: the {table} rows record who did it"))
    out.consumed.add(word)
    after = terms.tokens[position + 1].norm if position + 1 < len(terms.tokens) else ""
    if after in _PARTICLES:  # "signed off"
        out.consumed.add(after)
    out.notes.append(f"{word!r} -> {table}")
    return True
