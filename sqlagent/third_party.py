"""A database nobody described gets a data source of its own, from introspection and the
bootstrap's suggestions alone (no hand-written registry rows)."""

import re

from django.conf import settings

from registries.models import DataSource
from registries.services import bootstrap, dialect_of, introspect


def source_for_url(url: str) -> tuple[str, str]:
    """The data source reading `url`, created and bootstrapped on first use."""
    if url == settings.WAREHOUSE_URL:
        return DataSource.objects.default().name, url
    found = DataSource.objects.filter(url=url).first()
    if found is None:
        database = url.rstrip("/").rsplit("/", 1)[-1].split("?")[0]
        name = re.sub(r"[^a-z0-9-]+", "-", database.lower()).strip("-")[:60] or "database"
        if DataSource.objects.filter(name=name).exists():
            name = f"{name}-{DataSource.objects.count()}"
        found = DataSource.objects.create(name=name, url=url, dialect=dialect_of(url))
    if found.introspected_at is None:
        introspect(found)
        bootstrap(found)
    return found.name, url
