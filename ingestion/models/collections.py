from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, Group
from django.db import models
from django.db.models import Q, QuerySet


class CollectionQuerySet(models.QuerySet["Collection"]):
    def readable_by(self, user: AbstractBaseUser | AnonymousUser) -> "CollectionQuerySet":
        """Collections whose documents the user may search: readers and writers both read."""
        return self._granted(
            user,
            lambda groups: (
                Q(owner=user)
                | Q(readers=user)
                | Q(reader_groups__in=groups)
                | Q(writers=user)
                | Q(writer_groups__in=groups)
            ),
        )

    def writable_by(self, user: AbstractBaseUser | AnonymousUser) -> "CollectionQuerySet":
        return self._granted(
            user, lambda groups: Q(owner=user) | Q(writers=user) | Q(writer_groups__in=groups)
        )

    def _granted(
        self, user: AbstractBaseUser | AnonymousUser, grant: Callable[[QuerySet[Group]], Q]
    ) -> "CollectionQuerySet":
        """All for a superuser, none for an anonymous user; otherwise what `grant` gives the
        user and the user's groups."""
        if not user.is_authenticated:
            return self.none()
        if getattr(user, "is_superuser", False):
            return self.all()
        return self.filter(grant(Group.objects.filter(user__pk=user.pk))).distinct()


class Collection(models.Model):
    """A set of documents and who may read or add to it (managed in the admin)."""

    name = models.CharField(max_length=200, unique=True)
    description = models.TextField(blank=True)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="owned_collections",
    )
    readers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="readable_collections"
    )
    reader_groups = models.ManyToManyField(Group, blank=True, related_name="readable_collections")
    writers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="writable_collections"
    )
    writer_groups = models.ManyToManyField(Group, blank=True, related_name="writable_collections")
    created_at = models.DateTimeField(auto_now_add=True)

    objects = CollectionQuerySet.as_manager()

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def is_readable_by(self, user: Any) -> bool:
        return Collection.objects.readable_by(user).filter(pk=self.pk).exists()

    def is_writable_by(self, user: Any) -> bool:
        return Collection.objects.writable_by(user).filter(pk=self.pk).exists()
