"""Step 2: map what the question says to tables, columns and filters.

`resolve` reads the question's terms in passes, one module per kind of wording:
- `context`: the tables named outright, which ambiguous words are read in;
- `mentions` and `terms`: phrases the vocabulary knows; a domain term through its ranked
  resolutions (`terms` says how);
- `head_nouns`: unknown words that name a table ("each type", "who signed off");
- `names`: codes and proper names as values, owners and names that only qualify a thing;
- `comparisons`: bounds on a number column or on a count of rows;
- `numbered`: a thing's number ("the ticket numbers": workOrderNumber);
- `either`: values of one column joined by "or" ("in Texas or Arizona");
- `absence`: rows that must not exist ("no work time");
- `date_words`: the days between two dates, "not started yet";
- `clauses`: "may a ... book", "and which of them ...".
What they find gathers in a `Resolved`.
"""

from registries.services import SemanticLayer
from sqlagent.question_terms import QuestionTerms
from sqlagent.resolution.absence import resolve_absent
from sqlagent.resolution.clauses import resolve_permission, resolve_shown_flags
from sqlagent.resolution.comparisons import resolve_comparison
from sqlagent.resolution.context import question_context
from sqlagent.resolution.date_words import resolve_not_yet, resolve_span
from sqlagent.resolution.either import resolve_either
from sqlagent.resolution.head_nouns import resolve_head_noun
from sqlagent.resolution.mentions import resolve_mention
from sqlagent.resolution.names import resolve_code, resolve_name, resolve_possessives
from sqlagent.resolution.numbered import resolve_column_numbers, resolve_numbered
from sqlagent.resolution.resolved import Resolved
from sqlagent.value_index import ValueIndex

__all__ = ["Resolved", "resolve"]


def resolve(terms: QuestionTerms, layer: SemanticLayer, values: ValueIndex) -> Resolved:
    out = Resolved()
    # Pass 1: tables named outright give the context the ambiguous words are read in.
    context, catalogue = question_context(terms, layer, values)
    for mention in terms.mentions:
        resolve_mention(mention, terms, layer, context, out, catalogue=catalogue)
    for word in terms.unknown:
        resolve_head_noun(word, terms, layer, context | set(out.tables()), out)
    for code in terms.codes:
        resolve_code(code, terms, values, out)
    for name, end in terms.names:
        resolve_name(name, end, terms, layer, values, context | set(out.tables()), out)
    resolve_possessives(terms, out, layer)
    resolve_numbered(terms, layer, out)
    resolve_either(terms, out)
    for comparison in terms.comparisons:
        resolve_comparison(comparison, terms, layer, out)
    resolve_column_numbers(terms, layer, out)
    resolve_absent(terms, out)
    resolve_span(terms, layer, out)
    resolve_not_yet(terms, layer, out)
    resolve_permission(terms, layer, out)
    resolve_shown_flags(terms, out)
    return out
