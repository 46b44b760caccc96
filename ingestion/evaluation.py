"""Precision and recall of entity and relation extraction against a labelled sample
(demo/labels/entities.jsonl: one document per line with its entities and relations)."""

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .chunking import build_chunks
from .entities import ChunkInput, extract_entities
from .parsers import parse_bytes


def _norm(name: str) -> str:
    return re.sub(r"[^a-z0-9+#]+", " ", name.lower()).strip()


@dataclass
class Score:
    """Counts for one entity or relation type. Two predictions can match one gold entity,
    so predictions that match (for precision) and gold entities found (for recall) are
    counted apart."""

    true_positive: int = 0
    predicted: int = 0
    gold: int = 0
    found_gold: int = 0

    @property
    def precision(self) -> float:
        return self.true_positive / self.predicted if self.predicted else 0.0

    @property
    def recall(self) -> float:
        return self.found_gold / self.gold if self.gold else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


@dataclass
class Report:
    documents: int = 0
    entities: dict[str, Score] = field(default_factory=dict)
    relations: dict[str, Score] = field(default_factory=dict)
    missed: Counter[str] = field(default_factory=Counter)
    spurious: Counter[str] = field(default_factory=Counter)

    def total(self, scores: dict[str, Score], kinds: set[str] | None = None) -> Score:
        total = Score()
        for kind, score in scores.items():
            if kinds is None or kind in kinds:
                total.true_positive += score.true_positive
                total.predicted += score.predicted
                total.gold += score.gold
                total.found_gold += score.found_gold
        return total


def _find(corpus: Path, name: str) -> Path:
    direct = corpus / name
    if direct.is_file():
        return direct
    matches = sorted(corpus.rglob(Path(name).name))
    if not matches:
        raise FileNotFoundError(f"{name} not found under {corpus}")
    return matches[0]


def evaluate(labels: Path, corpus: Path, *, max_tokens: int, overlap: int) -> Report:
    report = Report()
    for line in labels.read_text().splitlines():
        if not line.strip():
            continue
        record: dict[str, Any] = json.loads(line)
        path = _find(corpus, record["document"])
        parsed = parse_bytes(path.read_bytes(), file_name=path.name)
        _, chunks = build_chunks(parsed.blocks, max_tokens=max_tokens, overlap=overlap)
        inputs = [ChunkInput(c.index, c.text, c.header_text, c.header_path) for c in chunks]
        extraction = extract_entities(title=parsed.title, chunks=inputs, file_name=path.name)
        report.documents += 1
        _score_document(report, record, extraction)
    return report


def _score_document(report: Report, record: dict[str, Any], extraction: Any) -> None:
    gold = record.get("entities", [])
    # Every spelling of a gold entity points at it (name and aliases, per type).
    spellings: dict[tuple[str, str], str] = {}
    for entity in gold:
        for spelling in [entity["name"], *entity.get("aliases", [])]:
            spellings.setdefault((entity["type"], _norm(spelling)), _norm(entity["name"]))
    predicted_to_gold: dict[str, str] = {}
    found: set[tuple[str, str]] = set()
    for key, entity in extraction.entities.items():
        score = report.entities.setdefault(entity.type, Score())
        score.predicted += 1
        match = next(
            (
                spellings[(entity.type, _norm(s))]
                for s in [entity.name, *entity.aliases]
                if (entity.type, _norm(s)) in spellings
            ),
            None,
        )
        if match is not None:
            score.true_positive += 1
            predicted_to_gold[key] = match
            found.add((entity.type, match))
        else:
            report.spurious[f"{entity.type}: {entity.name}"] += 1
    for entity in gold:
        score = report.entities.setdefault(entity["type"], Score())
        score.gold += 1
        if (entity["type"], _norm(entity["name"])) in found:
            score.found_gold += 1
        else:
            report.missed[f"{entity['type']}: {entity['name']}"] += 1

    gold_relations = {
        (_norm(r["source"]), r["type"], _norm(r["target"])) for r in record.get("relations", [])
    }
    predicted_relations = set()
    for relation in extraction.relations:
        source = predicted_to_gold.get(relation.source, relation.source)
        target = predicted_to_gold.get(relation.target, relation.target)
        predicted_relations.add((source, relation.type, target))
    for kind in {r[1] for r in gold_relations} | {r[1] for r in predicted_relations}:
        score = report.relations.setdefault(kind, Score())
        mine = {r for r in predicted_relations if r[1] == kind}
        theirs = {r for r in gold_relations if r[1] == kind}
        score.predicted += len(mine)
        score.gold += len(theirs)
        score.true_positive += len(mine & theirs)
        score.found_gold += len(mine & theirs)
