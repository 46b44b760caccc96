"""Ways in and out for verified queries: one confirmed from an answer (`confirm`), and
JSONL, one `{"question", "sql", "db"?, "notes"?, "tags"?}` a line, read in with every line
checked on its own (a bad line is reported by its number and the good ones are kept) and
written out the same way."""

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User

from registries.models import DataSource
from sqlagent.agent import Source
from sqlagent.models import VerifiedQuery
from sqlagent.verified.checks import VerifiedSqlError
from sqlagent.verified.store import embed_missing, save_verified


def confirm(
    source: str,
    question: str,
    sql: str,
    *,
    confirmed_by: AbstractBaseUser | AnonymousUser | None = None,
    notes: str = "",
    tags: Iterable[str] = (),
    embed: bool = True,
) -> tuple[VerifiedQuery, bool]:
    """Store `question` and `sql` as verified on data source `source` (by name), checked on
    its registry and its database first; VerifiedSqlError says what is wrong."""
    target = Source.named(source)
    return save_verified(
        DataSource.objects.get(name=target.layer.data_source),
        question,
        sql,
        url=target.url,
        agent=target.agent_login,
        confirmed_by=confirmed_by if isinstance(confirmed_by, User) else None,
        notes=notes,
        tags=tags,
        embed=embed,
    )


@dataclass
class Imported:
    created: int = 0
    updated: int = 0
    bad: list[tuple[int, str]] = field(default_factory=list)  # (line number, what is wrong)


def import_pairs(
    lines: Iterable[str],
    source_for: Callable[[str | None], str],
    *,
    confirmed_by: User | None = None,
) -> Imported:
    """`source_for` names the data source of a line's `db` (None: the line has none)."""
    done = Imported()
    saved: list[VerifiedQuery] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            item = _item(line)
            row, created = confirm(
                source_for(item.get("db")),
                item["question"],
                item["sql"],
                confirmed_by=confirmed_by,
                notes=str(item.get("notes") or ""),
                tags=[str(t) for t in item.get("tags") or []],
                embed=False,
            )
        except (VerifiedSqlError, ValueError, DataSource.DoesNotExist) as error:
            done.bad.append((number, str(error)))
            continue
        saved.append(row)
        done.created += created
        done.updated += not created
    embed_missing(saved)
    return done


def _item(line: str) -> dict[str, Any]:
    try:
        item = json.loads(line)
    except json.JSONDecodeError as error:
        raise ValueError(f"not JSON: {error}") from error
    if not isinstance(item, dict):
        raise ValueError("not a JSON object")
    for key in ("question", "sql"):
        if not isinstance(item.get(key), str) or not item[key].strip():
            raise ValueError(f'"{key}" is missing or not text')
    if not isinstance(item.get("tags") or [], list):
        raise ValueError('"tags" is not a list')
    return item


def export_pairs(rows: Iterable[VerifiedQuery], *, with_db: bool) -> Iterator[str]:
    for row in rows:
        item: dict[str, Any] = {"question": row.question, "sql": row.sql}
        if with_db:
            item["db"] = row.data_source.name
        if row.notes:
            item["notes"] = row.notes
        if row.tags:
            item["tags"] = row.tags
        if row.stale:
            item["stale"] = row.stale_reason
        yield json.dumps(item, ensure_ascii=False) + "\n"
