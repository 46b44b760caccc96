"""The answer writers: from a tool's result to the text people read (streamed as `token`
events), its sources or table, and follow-up questions. `answers.tools` registers them as
workflow tools."""

from chat.orchestrator.answers.documents import write_document_answer
from chat.orchestrator.answers.general import (
    write_clarification,
    write_general_answer,
    write_upload_answer,
)
from chat.orchestrator.answers.graph import write_graph_answer
from chat.orchestrator.answers.sql import write_sql_answer

__all__ = [
    "write_clarification",
    "write_document_answer",
    "write_general_answer",
    "write_graph_answer",
    "write_sql_answer",
    "write_upload_answer",
]
