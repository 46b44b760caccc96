"""Originals and pictures in Django's storage."""

import re
import uuid

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage

from .parsers import ImageRef


def safe_name(name: str) -> str:
    cleaned = re.sub(r"[^\w.\-]+", "_", name.rsplit("/", 1)[-1]).strip("._")
    return cleaned[:150] or "file"


def stage(*, collection_id: int, content_hash: str, name: str, data: bytes) -> str:
    path = f"ingestion/{collection_id}/{content_hash[:16]}/{safe_name(name)}"
    return default_storage.save(path, ContentFile(data))


def read(name: str) -> bytes:
    with default_storage.open(name, "rb") as handle:
        return handle.read()


def delete(name: str) -> None:
    if name and default_storage.exists(name):
        default_storage.delete(name)


def save_image(*, document_id: uuid.UUID, position: int, image: ImageRef, data: bytes) -> str:
    name = safe_name(image.name or image.source or f"image-{position}")
    path = f"ingestion/images/{document_id}/{position:03d}-{name}"
    return default_storage.save(path, ContentFile(data))
