"""Rows that must not exist: "technicians with no work time", "customers without
invoices", "never logged work time", "branches with no active technicians"."""

from sqlagent.question_terms import QuestionTerms
from sqlagent.resolution.resolved import Resolved, mention_lengths


def resolve_absent(terms: QuestionTerms, out: Resolved) -> None:
    """ "technicians with no work time", "customers without invoices", "never logged work
    time", "branches with no active technicians": rows of the table named after the
    negation, or of the one table its conditions are on, must not exist."""
    norms = [t.norm for t in terms.tokens]
    lengths = mention_lengths(terms)
    entities = {pos: t for pos, t, _ in out.entities}
    conditions = {pos: f.columns[0].table for pos, f in out.filters}
    found = []
    for i, word in enumerate(norms):
        if word not in ("no", "without", "never") or word in out.consumed:
            continue
        if i + 1 < len(norms) and norms[i + 1] in ("longer", "more", "less", "fewer"):
            continue
        reach = 3 if word == "never" else 2  # "never logged any work time"
        after = sorted(pos for pos in entities if i < pos <= i + reach + 1)
        if after:
            # "no customer signature": a compound whose head is not read: not placed
            if after[0] + lengths.get(after[0], 1) not in entities:
                found.append(
                    (i, after[0], sorted({t for p, t, _ in out.entities if p == after[0]}))
                )
            continue
        qualified = _conditions_after(i + 1, norms, lengths, conditions)
        if len(set(qualified.values())) == 1:  # "no active technicians": employee rows
            found.append((i, min(qualified), sorted(set(qualified.values()))))
    if len(found) != 1:
        return  # two negations, or none placed: the words stay unexplained and it declines
    i, position, tables = found[0]
    out.absent += [(position, table) for table in tables]
    out.consumed.add(norms[i])
    out.notes.append(f"{norms[i]!r}: no {' or '.join(tables)} rows")


def _conditions_after(
    i: int, norms: list[str], lengths: dict[int, int], conditions: dict[int, str]
) -> dict[int, str]:
    """The conditions said one after another from token `i` on (past "any", "a")."""
    found: dict[int, str] = {}
    while i < len(norms):
        if norms[i] in ("any", "a", "an"):
            i += 1
        elif i in conditions:
            found[i] = conditions[i]
            i += lengths.get(i, 1)
        else:
            break
    return found
