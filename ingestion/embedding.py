"""The embedding stage of a batch: one pass of the model over every chunk of every file.

A sentence's vector is the mean of its chunk's token vectors over the sentence (a heading
line's, over the heading): the tokens were read after the chunk's heading, so they carry it
as "heading: sentence" embedded alone would, and sentences cost no model pass of their own.
On 250 demo chunks, 88 % of pooled vectors are nearest to their own sentence embedded alone
among their chunk's sentences (81 % when the heading's tokens are pooled in too). Sentences
the model did not read (past its input limit), and every sentence with a backend that gives
no token vectors, are embedded on their own."""

import os
from dataclasses import dataclass

from django.conf import settings

from core.providers.embeddings import embed_texts, embed_with_parts

from .prepared import Prepared
from .sentences import chunk_sentence_parts

Vector = list[float]


@dataclass(frozen=True)
class ChunkText:
    section: str  # the name of the chunk's section, which its sentences are embedded with
    header: str  # the heading line the chunk is embedded with
    text: str

    def embedding_input(self) -> str:
        return f"{self.header}\n{self.text}" if self.header else self.text


def embed_chunks(chunks: list[ChunkText]) -> tuple[list[Vector], list[list[tuple[str, Vector]]]]:
    """Each chunk's vector, and per chunk (embedding input, vector) of its sentences."""
    texts: list[str] = []
    parts: list[list[list[tuple[int, int]]]] = []
    inputs: list[list[str]] = []
    for chunk in chunks:
        header = len(chunk.header)
        body = header + 1 if chunk.header else 0
        sentences = chunk_sentence_parts(chunk.section, chunk.text)
        texts.append(chunk.embedding_input())
        inputs.append(list(sentences))
        parts.append(
            [[(body + s[0], body + s[1])] if s else [(0, header)] for s in sentences.values()]
        )
    threads = settings.INGESTION_TORCH_THREADS or os.cpu_count() or 1
    vectors, pooled = embed_with_parts(texts, parts, threads)
    return vectors, _complete(inputs, pooled)


def _complete(
    inputs: list[list[str]], pooled: list[list[Vector | None]]
) -> list[list[tuple[str, Vector]]]:
    """Per chunk, (input, vector) of its sentences, embedding those no pooling covered."""
    missing = sorted(
        ((i, j) for i, group in enumerate(pooled) for j, v in enumerate(group) if v is None),
        key=lambda ij: len(inputs[ij[0]][ij[1]]),  # by length: little padding
    )
    embedded = dict(zip(missing, embed_texts([inputs[i][j] for i, j in missing]), strict=True))
    return [
        [
            (text, vector or embedded[(i, j)])
            for j, (text, vector) in enumerate(zip(group, pooled[i], strict=True))
        ]
        for i, group in enumerate(inputs)
    ]


def embed_batch(batch: list[Prepared]) -> None:
    """Fill in the vectors of every chunk, sentence and section name of the batch."""
    chunks = []
    for prepared in batch:
        names = {s.position: s.name[:500] for s in prepared.sections}
        chunks += [
            ChunkText(
                names.get(c.section, "") if c.section is not None else "", c.header_text, c.text
            )
            for c in prepared.chunks
        ]
    vectors, sentences = embed_chunks(chunks)
    section_vectors = iter(embed_texts([s.name for p in batch for s in p.sections]))
    chunk_vectors = iter(zip(vectors, sentences, strict=True))
    for prepared in batch:
        pairs = [next(chunk_vectors) for _ in prepared.chunks]
        prepared.chunk_vectors = [vector for vector, _ in pairs]
        prepared.sentences = [group for _, group in pairs]
        prepared.section_vectors = [next(section_vectors) for _ in prepared.sections]
