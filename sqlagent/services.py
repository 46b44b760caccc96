"""The SQL agent's front door: what other apps may call. Everything else in sqlagent is
private to it (import-linter keeps it so); its models may be read directly.

- asking the business database: `ask` (plan, SQL, validation, secure views, the asker's
  scope, execution) returning a `SqlAnswer`; `WarehouseUnavailable` when it cannot be
  reached;
- reading a question as the agent does: `extract_terms` over a `Vocabulary`,
  `find_date_range`, `phrase` and `singular` for word forms;
- evidence for the chat's router: `warehouse_words` and `assess_question`;
- `warm_up_sql_agent`, for a server process starting;
- confirming an answer's SQL as a verified query: `confirm_verified`, which raises
  `VerifiedSqlError` with what is wrong.
"""

from .agent import ask
from .answer import SqlAnswer, Turn
from .assessment import (
    CODE_TOKEN,
    FUNCTION_WORDS,
    SqlEvidence,
    WarehouseWords,
    assess_question,
    forget_warehouse_words,
    warehouse_words,
)
from .dates import find_date_range
from .execution import WarehouseUnavailable
from .question_terms import QuestionReading, QuestionTerms, extract_terms
from .verified import VerifiedSqlError
from .verified.pairs import confirm as confirm_verified
from .vocabulary import Vocabulary, phrase, singular
from .warmup import warm_up as warm_up_sql_agent

__all__ = [
    "CODE_TOKEN",
    "FUNCTION_WORDS",
    "QuestionReading",
    "QuestionTerms",
    "SqlAnswer",
    "SqlEvidence",
    "Turn",
    "VerifiedSqlError",
    "Vocabulary",
    "WarehouseUnavailable",
    "WarehouseWords",
    "ask",
    "assess_question",
    "confirm_verified",
    "extract_terms",
    "find_date_range",
    "forget_warehouse_words",
    "phrase",
    "singular",
    "warehouse_words",
    "warm_up_sql_agent",
]
