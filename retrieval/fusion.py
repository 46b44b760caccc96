"""The fusions re-ranking offers, and the learned one's weights: which evidence it reads
and the file they are stored in. Light on purpose: the start-up checks read it without
loading the search (see retrieval.search.learned_ranking for the score itself)."""

import json
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from django.conf import settings

FUSIONS = ("learned", "weighted", "rrf")
MODEL_PATH = Path(__file__).resolve().parent / "search" / "ranker.json"

# Each feature of the learned fusion, and the signal of the weighted fusion its share is
# reported under.
FAMILY = {
    "vector": "vector",
    "cosine": "vector",
    "vector_rank": "vector",
    "keyword": "keyword",
    "terms_held": "keyword",
    "keyword_rank": "keyword",
    "title_named": "keyword",
    "path": "path",
    "seed": "path",
    "direct": "path",
    "proximity": "proximity",
    "document_support": "proximity",
    "document_best_cosine": "proximity",
}
FEATURES = tuple(FAMILY)


class RankerModelError(RuntimeError):
    """The ranker's model file is missing or not a model of these features."""


@lru_cache(maxsize=4)
def load_model(path: Path = MODEL_PATH) -> dict[str, Any]:
    try:
        model = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise RankerModelError(f"ranker model {path}: {exc}") from exc
    unknown = set(model.get("weights", {})) - set(FEATURES)
    if not model.get("weights") or unknown:
        raise RankerModelError(f"ranker model {path}: weights of unknown features {unknown}")
    return model


def configured_model() -> dict[str, Any]:
    """The weights the settings name (RETRIEVAL_RANKER_MODEL), or the shipped ones."""
    return load_model(Path(settings.RETRIEVAL_RANKER_MODEL or MODEL_PATH))


def coefficients(model: Mapping[str, Any]) -> dict[str, float]:
    """Per feature, what one unit of it adds to the score (standardisation folded in)."""
    scale = model.get("scale", {})
    return {
        name: max(0.0, float(weight)) / float(scale.get(name, (0.0, 1.0))[1])
        for name, weight in model["weights"].items()
    }
