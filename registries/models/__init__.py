"""The registries: the warehouse schema as introspected, and what people say about it."""

from .base import DataSource, Provenance, RegistryRow
from .relationships import Cardinality, Relationship, RelationshipKind
from .schema import DataType, SchemaColumn, SchemaTable
from .tables import DisplayAttributes, SecureView, TableMetadata, TableRole
from .terms import MatchType, Rank, Term, TermResolution

__all__ = [
    "Cardinality",
    "DataSource",
    "DataType",
    "DisplayAttributes",
    "MatchType",
    "Provenance",
    "Rank",
    "RegistryRow",
    "Relationship",
    "RelationshipKind",
    "SchemaColumn",
    "SchemaTable",
    "SecureView",
    "TableMetadata",
    "TableRole",
    "Term",
    "TermResolution",
]
