"""Entity and relation extraction: the LLM when one is configured, offline otherwise."""

from django.conf import settings

from core.providers.llm import llm_configured

from .types import ChunkInput, ExtractedEntity, ExtractedRelation, Extraction, entity_name_key


def use_llm() -> bool:
    choice = settings.INGESTION_EXTRACTOR
    if choice not in ("auto", "offline", "llm"):
        raise ValueError(f"INGESTION_EXTRACTOR must be auto, offline or llm, not {choice!r}")
    return choice == "llm" or (choice == "auto" and llm_configured())


def extract_entities(*, title: str, chunks: list[ChunkInput], file_name: str = "") -> Extraction:
    if use_llm():
        from .llm import extract_llm

        return extract_llm(title=title, chunks=chunks, file_name=file_name)
    from .offline import extract_offline

    return extract_offline(title=title, chunks=chunks, file_name=file_name)


def extract_entities_many(files: list[tuple[str, list[ChunkInput], str]]) -> list[Extraction]:
    """`extract_entities` for several files (title, chunks, file name) at once."""
    if use_llm():
        return [extract_entities(title=t, chunks=c, file_name=f) for t, c, f in files]
    from .offline import extract_offline_many

    return extract_offline_many(files)


__all__ = [
    "ChunkInput",
    "ExtractedEntity",
    "ExtractedRelation",
    "Extraction",
    "entity_name_key",
    "extract_entities",
    "extract_entities_many",
    "use_llm",
]
