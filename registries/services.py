"""The registries app's front door: what other apps may call. Everything else in
registries is private to it (import-linter keeps it so); its models may be read directly
by the apps above it.

- the semantic layer, the registry as the SQL agent reads it: `load_semantic_layer` gives
  a cached, versioned snapshot (`SemanticLayer` with its `Table`s, `Column`s,
  `Relationship`s, `Term`s and `Resolution`s);
- describing a database nobody described yet: `introspect` then `bootstrap`;
- third-party sample databases for evaluation: `datasets_dir`, `BUSINESS_SPIDER_DBS`,
  `spider_split`.
"""

from .bootstrap import bootstrap
from .datasets import BUSINESS_SPIDER_DBS, SPIDER_SPLITS, datasets_dir, spider_split
from .models.base import dialect_of
from .semantic_layer import (
    NEVER_BRIDGE_ROLES,
    Column,
    Relationship,
    Resolution,
    SemanticLayer,
    Table,
    Term,
)
from .semantic_layer_loader import load_semantic_layer
from .sync import introspect

__all__ = [
    "BUSINESS_SPIDER_DBS",
    "NEVER_BRIDGE_ROLES",
    "SPIDER_SPLITS",
    "Column",
    "Relationship",
    "Resolution",
    "SemanticLayer",
    "Table",
    "Term",
    "bootstrap",
    "datasets_dir",
    "dialect_of",
    "introspect",
    "load_semantic_layer",
    "spider_split",
]
