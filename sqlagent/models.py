"""The SQL agent's own records: who sees which warehouse rows (data scopes) and the question
and SQL pairs people confirmed (verified queries)."""

from django.conf import settings
from django.contrib.auth.models import Group
from django.db import models
from django.utils import timezone


def _ids_help(what: str) -> str:
    return f"Ids of the {what} it sees (empty: all of them)."


class DataScope(models.Model):
    """A person sees the union of the scopes given to them and to their groups. A list left
    empty places no limit on that kind of row; `sees_nothing` closes the scope entirely."""

    name = models.CharField(max_length=100, unique=True)
    users = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="+")
    groups = models.ManyToManyField(Group, blank=True, related_name="+")
    customer_ids = models.JSONField(default=list, blank=True, help_text=_ids_help("customers"))
    service_location_ids = models.JSONField(
        default=list, blank=True, help_text=_ids_help("service locations")
    )
    work_order_ids = models.JSONField(default=list, blank=True, help_text=_ids_help("work orders"))
    sees_nothing = models.BooleanField(
        default=False, help_text="A closed scope: no customer-owned rows at all."
    )

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class VerifiedQuery(models.Model):
    """A question and the SQL a person confirmed answers it, on one data source. Its
    rewordings are answered with this SQL (literals swapped in), related questions learn from
    it; it always runs through validation, the secure-view rewrite and the asker's scope."""

    data_source = models.ForeignKey(
        "registries.DataSource", on_delete=models.CASCADE, related_name="verified_queries"
    )
    question = models.TextField()
    sql = models.TextField(
        "SQL", help_text="Over the tables the agent shows; secure views apply when run."
    )
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    confirmed_at = models.DateTimeField(default=timezone.now)
    notes = models.TextField(blank=True)
    tags = models.JSONField(default=list, blank=True, help_text='A list of words: ["finance"]')
    stale = models.BooleanField(
        default=False, editable=False, help_text="No longer valid on the registry: not used."
    )
    stale_reason = models.TextField(blank=True, editable=False)
    checked_version = models.PositiveIntegerField(
        default=0, editable=False, help_text="The data source's registry version last checked."
    )
    embedding = models.JSONField(default=list, blank=True, editable=False)
    embedding_model = models.CharField(max_length=200, blank=True, editable=False)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["data_source", "question"]
        verbose_name = "verified query"
        verbose_name_plural = "verified queries"
        constraints = [
            models.UniqueConstraint(
                fields=["data_source", "question"], name="verified_query_once_per_source"
            )
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.question[:60]}"
