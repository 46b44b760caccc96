import re
from typing import Any

from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVector, SearchVectorField
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Func, Value
from django.db.models.functions import Lower, Trim

# Graph labels and relationship types are written into Cypher text (they cannot be query
# parameters), so only plain identifiers are accepted.
LABEL_RE = re.compile(r"^[A-Z][A-Za-z0-9]{0,49}$")
RELATION_RE = re.compile(r"^[A-Z][A-Z0-9_]{0,49}$")
_NAME_WORD = re.compile(r"[^\W_]+")


def name_words(text: str) -> str:
    """A name as Entity.name_words holds it: its letters and digits, lower case, one
    space between words ("Eagle Warehousing Corp." -> "eagle warehousing corp")."""
    return " ".join(_NAME_WORD.findall(text.lower()))


class Entity(models.Model):
    """A person, organization, technology... mirrored from the graph so that names can be
    matched with trigram and full-text search. `graph_id` is the graph's Entity.id."""

    graph_id = models.CharField(max_length=300, unique=True)  # "entity:Person:alexis_torres"
    name = models.CharField(max_length=300)
    type = models.CharField(max_length=50)  # also the node's second label
    aliases = ArrayField(models.CharField(max_length=300), default=list, blank=True)
    # The name and its aliases in one string: what the trigram index searches.
    search_names = models.TextField(blank=True)
    # The words of the name and its aliases, indexed: the people a question may name are
    # found by its words, not by matching every person's names (which grows with them).
    search_words = models.GeneratedField(
        expression=SearchVector("search_names", config="simple"),
        output_field=SearchVectorField(),
        db_persist=True,
    )
    # The name's words (name_words above), kept by the database: a question's runs of
    # words are looked up here, so finding the names a question holds is an index lookup.
    name_words = models.GeneratedField(
        expression=Lower(
            Trim(Func(F("name"), Value(r"[^[:alnum:]]+"), Value(" "), Value("g"),
                      function="regexp_replace"))
        ),
        output_field=models.CharField(max_length=300),
        db_persist=True,
    )  # fmt: skip
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["type", "name"]
        verbose_name_plural = "entities"
        indexes = [
            # pg_trgm folds case itself, so plain columns serve case-insensitive search.
            GinIndex(fields=["name"], opclasses=["gin_trgm_ops"], name="entity_name_trgm"),
            GinIndex(fields=["search_names"], opclasses=["gin_trgm_ops"], name="entity_names_trgm"),
            GinIndex(fields=["search_words"], name="entity_search_words"),
            models.Index(fields=["type"], name="entity_type"),
            models.Index(fields=["name_words"], name="entity_name_words"),
            models.Index(Lower("name"), name="entity_name_lower"),
        ]

    def __str__(self) -> str:
        return f"{self.type}: {self.name}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.search_names = " | ".join([self.name, *self.aliases])
        super().save(*args, **kwargs)


class EntityMention(models.Model):
    entity = models.ForeignKey(Entity, on_delete=models.CASCADE, related_name="mentions")
    chunk = models.ForeignKey("ingestion.Chunk", on_delete=models.CASCADE, related_name="mentions")
    document = models.ForeignKey(
        "ingestion.Document", on_delete=models.CASCADE, related_name="mentions"
    )
    surface = models.CharField(max_length=300)  # the words as written ("Alexis")
    confidence = models.FloatField()
    source = models.CharField(max_length=20)  # "offline" or "llm"

    class Meta:
        constraints = [models.UniqueConstraint(fields=["entity", "chunk"], name="mention_unique")]

    def __str__(self) -> str:
        return f"{self.surface} ({self.confidence:.2f})"


class EntityRelation(models.Model):
    """An entity-to-entity edge as one document states it (the graph keeps one edge per
    stating document, so deleting a document removes exactly its claims)."""

    source = models.ForeignKey(Entity, on_delete=models.CASCADE, related_name="relations_out")
    target = models.ForeignKey(Entity, on_delete=models.CASCADE, related_name="relations_in")
    type = models.CharField(max_length=50)
    properties = models.JSONField(default=dict, blank=True)
    confidence = models.FloatField()
    document = models.ForeignKey(
        "ingestion.Document", on_delete=models.CASCADE, related_name="relations"
    )
    chunk = models.ForeignKey(
        "ingestion.Chunk", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["source", "target", "type", "document"], name="relation_unique"
            )
        ]

    def __str__(self) -> str:
        return f"{self.source.name} {self.type} {self.target.name}"


def _validate_schema_types(value: Any, key: str, pattern: re.Pattern[str]) -> None:
    if not isinstance(value, list):
        raise ValidationError("a JSON list of objects")
    for item in value:
        if not isinstance(item, dict) or not pattern.match(str(item.get(key, ""))):
            raise ValidationError(f"each item needs a {key!r} matching {pattern.pattern}")


def validate_entity_types(value: Any) -> None:
    _validate_schema_types(value, "label", LABEL_RE)


def validate_relation_types(value: Any) -> None:
    _validate_schema_types(value, "type", RELATION_RE)


class ExtractionSchemaQuerySet(models.QuerySet["ExtractionSchema"]):
    def active(self) -> "ExtractionSchema | None":
        return self.filter(is_active=True).order_by("-updated_at").first()


class ExtractionSchema(models.Model):
    """What the LLM extracts: entity types, relation types and their properties. Edited in
    the admin; the newest active one is used."""

    name = models.CharField(max_length=200, unique=True)
    is_active = models.BooleanField(default=True)
    instructions = models.TextField(blank=True)
    entity_types = models.JSONField(
        default=list,
        validators=[validate_entity_types],
        help_text='[{"label": "Person", "description": "..."}]',
    )
    relation_types = models.JSONField(
        default=list,
        validators=[validate_relation_types],
        help_text='[{"type": "WORKS_FOR", "source": "Person", ...}]',
    )
    updated_at = models.DateTimeField(auto_now=True)

    objects = ExtractionSchemaQuerySet.as_manager()

    def __str__(self) -> str:
        return self.name

    @property
    def labels(self) -> list[str]:
        return [str(t["label"]) for t in self.entity_types]

    @property
    def relation_names(self) -> list[str]:
        return [str(t["type"]) for t in self.relation_types]
