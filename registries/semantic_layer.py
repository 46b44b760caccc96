"""The semantic layer as the SQL agent reads it: an immutable snapshot of one data source's
registries (schema, roles, display attributes, secure views, joins, domain terms).

The registries app builds it from its models (`load_semantic_layer`) and rebuilds it when
an admin edit bumps the data source's version, so a running agent sees edits at its next
question without a restart. The agent never touches the registry models directly.
"""

from dataclasses import dataclass, field

ROLES = (
    "instance",
    "template",
    "bridge",
    "content_child",
    "satellite",
    "assignment",
    "configuration",
    "reference",  # small lookup lists (workTimeType, assetType); a normal bridge candidate
)
# Roles whose tables must never be used as a bridge between two other tables.
NEVER_BRIDGE_ROLES = frozenset({"satellite", "assignment", "configuration"})
MATCH_TYPES = ("text_search", "semantic", "boolean", "structural", "exact")
RESOLUTION_RANKS = ("primary", "secondary", "fallback")
RELATIONSHIP_KINDS = ("foreign_key", "association", "inferred", "manual")


@dataclass(frozen=True)
class Column:
    name: str
    data_type: str  # normalised: text, integer, decimal, boolean, date, datetime, binary, other
    nullable: bool = True
    unique: bool = False
    primary_key: bool = False


@dataclass(frozen=True)
class Table:
    name: str
    columns: dict[str, Column]
    row_estimate: int = 0
    role: str | None = None
    category: str = ""
    description: str = ""
    never_bridge_for: frozenset[str] = frozenset()
    display_columns: tuple[str, ...] = ()
    label_columns: tuple[str, ...] = ()
    display_confirmed: bool = False  # a person confirmed them (not the bootstrap's guess)
    secure_view: str | None = None
    sensitive_columns: frozenset[str] = frozenset()

    @property
    def primary_key(self) -> str | None:
        return next((c.name for c in self.columns.values() if c.primary_key), None)

    @property
    def single_key(self) -> str | None:
        """The column that tells the rows apart; None for a key of several columns."""
        keys = [c.name for c in self.columns.values() if c.primary_key]
        return keys[0] if len(keys) == 1 else None


@dataclass(frozen=True)
class Relationship:
    from_table: str
    from_column: str
    to_table: str
    to_column: str
    kind: str = "foreign_key"
    confidence: float = 1.0
    cardinality: str = "many_to_one"  # from the from_table side
    enabled: bool = True
    validated: bool = False


@dataclass(frozen=True)
class Resolution:
    rank: str  # primary, secondary, fallback
    tables: tuple[str, ...]
    columns: tuple[str, ...] = ()  # "table.column"
    match_type: str = "structural"
    value: str | None = None
    confidence: float = 1.0


@dataclass(frozen=True)
class Term:
    name: str
    synonyms: tuple[str, ...] = ()
    entity: str = ""
    description: str = ""
    resolutions: tuple[Resolution, ...] = ()
    suggested: bool = False  # proposed by bootstrap, not yet confirmed by a person


# eq=False: a snapshot is identified by the object itself (hashable, cacheable per version).
@dataclass(frozen=True, eq=False)
class SemanticLayer:
    data_source: str
    dialect: str  # mysql or postgres
    version: int
    tables: dict[str, Table] = field(default_factory=dict)
    relationships: tuple[Relationship, ...] = ()
    terms: tuple[Term, ...] = ()
