"""Files attached to a question. The upload tool ingests the run's attachments by path, so a
client never names a path: it uploads a file, gets an id, and sends the id with the
question; only ids of the asker's own uploads resolve.

Each upload lives in MEDIA_ROOT/chat-uploads/<user id>/<upload id>/<file name>. Ingestion
copies what it takes, so the clean-up task deletes uploads older than a day.
"""

import re
import shutil
import time
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.files.uploadedfile import UploadedFile
from django.utils.text import get_valid_filename

_UPLOAD_ID = re.compile(r"[0-9a-f]{32}")
KEEP_SECONDS = 24 * 3600


class AttachmentRejected(ValueError):
    """An upload id that is not one of the asker's uploads, or a file too large."""

    code = "bad_request"


class AttachmentTooLarge(AttachmentRejected):
    code = "too_large"


class AttachmentNotFound(AttachmentRejected):
    code = "not_found"


def check_size(upload: UploadedFile) -> None:
    limit = int(settings.INGESTION_MAX_FILE_MB * 1024 * 1024)
    if upload.size and upload.size > limit:
        raise AttachmentTooLarge(
            f"{upload.name} is larger than {settings.INGESTION_MAX_FILE_MB:g} MB."
        )


def _root() -> Path:
    return Path(settings.MEDIA_ROOT) / "chat-uploads"


def save_upload(user: Any, upload: UploadedFile) -> dict[str, Any]:
    check_size(upload)
    upload_id = uuid.uuid4().hex
    name = get_valid_filename(Path(upload.name or "upload").name) or "upload"
    folder = _root() / str(user.pk) / upload_id
    folder.mkdir(parents=True)
    with (folder / name).open("wb") as target:
        for chunk in upload.chunks():
            target.write(chunk)
    return {"id": upload_id, "file_name": name, "size": upload.size}


def resolve(user: Any, upload_ids: Sequence[str]) -> list[str]:
    """The paths of the asker's uploads, in the order given."""
    paths = []
    for upload_id in upload_ids:
        folder = _root() / str(user.pk) / upload_id
        files = (
            sorted(folder.iterdir()) if _UPLOAD_ID.fullmatch(upload_id) and folder.is_dir() else []
        )
        if len(files) != 1:
            raise AttachmentNotFound(f"No upload of yours has the id {upload_id[:40]!r}.")
        paths.append(str(files[0]))
    return paths


def delete_old_uploads(*, older_than_seconds: float = KEEP_SECONDS) -> int:
    cutoff = time.time() - older_than_seconds
    deleted = 0
    for folder in _root().glob("*/*"):
        if folder.is_dir() and folder.stat().st_mtime < cutoff:
            shutil.rmtree(folder, ignore_errors=True)
            deleted += 1
    return deleted
