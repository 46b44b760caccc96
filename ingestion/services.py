"""The ingestion app's front door: what other apps may call. Everything else in ingestion
is private to it (import-linter keeps it so); its models (collections, documents, chunks,
entities, sentence vectors) may be read directly by the apps above it.

- adding files: `create_job` from `Source`s, then `enqueue` it for the Celery worker or
  `run_in_process`; `link_similar_chunks` once documents are in; `summary_line` of a job;
- sentences as ingestion embedded them: `split_sentences`, `heading_line`,
  `embedding_input`, and the `WORD` pattern;
- the technology names the entity extractor knows (`TECHNOLOGIES`).
"""

from .entities.gazetteer import TECHNOLOGIES
from .jobs import Source, create_job, enqueue, run_in_process
from .progress_bar import summary_line
from .sentences import WORD, embedding_input, heading_line, split_sentences
from .similarity import link_similar_chunks

__all__ = [
    "TECHNOLOGIES",
    "WORD",
    "Source",
    "create_job",
    "embedding_input",
    "enqueue",
    "heading_line",
    "link_similar_chunks",
    "run_in_process",
    "split_sentences",
    "summary_line",
]
