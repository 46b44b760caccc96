"""Data sources and the provenance every registry row carries."""

from __future__ import annotations

import os
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured, ValidationError
from django.db import models
from django.db.models import F

from core.databases.urls import URL_SCHEMES


def dialect_of(url: str) -> str:
    scheme = urlsplit(url).scheme.split("+")[0].lower()
    if scheme not in URL_SCHEMES:
        raise ValueError(
            f"unsupported database URL scheme {scheme!r} (use mysql:// or postgres://)"
        )
    return URL_SCHEMES[scheme]


def masked(url: str) -> str:
    parts = urlsplit(url)
    if not parts.password:
        return url
    return url.replace(f":{parts.password}@", ":***@", 1)


class DataSourceQuerySet(models.QuerySet["DataSource"]):
    def default(self) -> DataSource:
        """The warehouse the agent answers from unless told otherwise; created on first use."""
        source, _ = self.get_or_create(
            name=settings.REGISTRIES_DEFAULT_DATA_SOURCE,
            defaults={"url_env": "WAREHOUSE_URL", "dialect": dialect_of(settings.WAREHOUSE_URL)},
        )
        return source

    def bump(self, pk: int) -> None:
        """A registry row of this source changed: the next semantic-layer read rebuilds."""
        self.filter(pk=pk).update(version=F("version") + 1)


class DataSource(models.Model):
    """A database the SQL agent can answer from; every registry row belongs to one."""

    name = models.SlugField(max_length=63, unique=True)
    url = models.CharField(
        max_length=500,
        blank=True,
        help_text="mysql://user:pass@host/db or postgres://...; or empty",
    )
    url_env = models.CharField(
        "URL variable",
        max_length=100,
        blank=True,
        help_text="Setting or environment variable with the URL: WAREHOUSE_URL",
    )
    dialect = models.CharField(
        max_length=10, choices=[("mysql", "MySQL/MariaDB"), ("postgres", "PostgreSQL")]
    )
    description = models.TextField(blank=True)
    version = models.PositiveIntegerField(default=1, editable=False)
    introspected_at = models.DateTimeField(null=True, blank=True, editable=False)

    objects = DataSourceQuerySet.as_manager()

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def resolved_url(self) -> str:
        if self.url:
            return self.url
        if self.url_env:
            value = getattr(settings, self.url_env, None) or os.environ.get(self.url_env)
            if value:
                return str(value)
        raise ImproperlyConfigured(
            f"data source {self.name!r} has no URL: set its URL or the variable "
            f"{self.url_env or '(none given)'}"
        )

    def clean(self) -> None:
        try:
            url = self.resolved_url()
        except ImproperlyConfigured as error:
            raise ValidationError({"url": str(error)}) from None
        try:
            self.dialect = dialect_of(url)
        except ValueError as error:
            raise ValidationError({"url": str(error)}) from None


class Provenance(models.TextChoices):
    INTROSPECTION = "introspection", "introspection"
    INFERENCE = "inference", "inferred from names"
    BOOTSTRAP = "bootstrap", "bootstrap suggestion"
    IMPORT = "import", "imported file"
    DEMO = "demo", "demo registry"
    ADMIN = "admin", "entered in the admin"


# Rows a machine read from the schema; a re-run may change or drop them, while what a file
# or a person gave stays as written.
MACHINE_PROVENANCE = frozenset({Provenance.INTROSPECTION, Provenance.INFERENCE})


class RegistryRow(models.Model):
    """Where a row came from, and whether a person changed it (then no machine overwrites it)."""

    data_source = models.ForeignKey(DataSource, on_delete=models.CASCADE)
    source = models.CharField(max_length=20, choices=Provenance.choices, default=Provenance.ADMIN)
    edited_by_person = models.BooleanField(
        default=False, help_text="Set when a person saves the row; automated runs then keep it."
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        abstract = True


class SuggestableRow(RegistryRow):
    suggested = models.BooleanField(
        default=False, help_text="Proposed by bootstrap; not yet confirmed by a person."
    )

    class Meta:
        abstract = True
