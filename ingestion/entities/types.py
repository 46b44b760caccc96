import re
from dataclasses import dataclass, field

from django.conf import settings

# Suffixes that do not make a different organization ("TechCorp Inc." is TechCorp).
_ORG_SUFFIX = re.compile(
    r"[,\s]+(inc|llc|ltd|limited|corp|corporation|co|company|gmbh|plc|s\.a|ag)\.?$", re.I
)


def entity_name_key(entity_type: str, name: str) -> str:
    base = name.strip()
    if entity_type == "Organization":
        base = _ORG_SUFFIX.sub("", base)
    slug = re.sub(r"[^a-z0-9+#]+", "_", base.lower()).strip("_")
    return f"{settings.INGESTION_GRAPH_NAMESPACE}entity:{entity_type}:{slug}"


@dataclass
class ChunkInput:
    index: int
    text: str
    header_text: str = ""
    header_path: str = ""


@dataclass
class Mention:
    chunk_index: int
    surface: str
    confidence: float


@dataclass
class ExtractedEntity:
    key: str
    name: str
    type: str
    aliases: set[str] = field(default_factory=set)
    mentions: list[Mention] = field(default_factory=list)

    def mention(self, chunk_index: int, surface: str, confidence: float) -> None:
        for existing in self.mentions:
            if existing.chunk_index == chunk_index:
                existing.confidence = max(existing.confidence, confidence)
                return
        self.mentions.append(Mention(chunk_index, surface, confidence))
        if surface != self.name:
            self.aliases.add(surface)


@dataclass
class ExtractedRelation:
    source: str  # entity keys
    target: str
    type: str
    confidence: float
    chunk_index: int | None = None
    properties: dict[str, str | int | float] = field(default_factory=dict)


@dataclass
class Extraction:
    source: str  # "offline" or "llm"
    entities: dict[str, ExtractedEntity] = field(default_factory=dict)
    relations: list[ExtractedRelation] = field(default_factory=list)

    def add(self, entity_type: str, name: str) -> ExtractedEntity:
        key = entity_name_key(entity_type, name)
        if key not in self.entities:
            self.entities[key] = ExtractedEntity(key=key, name=name, type=entity_type)
        return self.entities[key]

    def relate(self, relation: ExtractedRelation) -> None:
        if relation.source == relation.target:
            return
        for existing in self.relations:
            if (existing.source, existing.target, existing.type) == (
                relation.source,
                relation.target,
                relation.type,
            ):
                existing.confidence = max(existing.confidence, relation.confidence)
                for key, value in relation.properties.items():
                    existing.properties.setdefault(key, value)
                return
        self.relations.append(relation)
