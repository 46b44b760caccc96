"""The row scope a warehouse session runs with, from the asking person's data scopes.

No person is unlimited by accident: someone with no scope at all gets SQL_DEFAULT_SCOPE
("all" for an internal deployment where staff see every customer, or "none").
"""

from collections.abc import Sequence

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q

from core.databases.scope import Scope
from sqlagent.models import DataScope

_FIELDS = ("customer_ids", "service_location_ids", "work_order_ids")
NOTHING = Scope(customer_ids=(), service_location_ids=(), work_order_ids=())


def scope_for(user: AbstractBaseUser | AnonymousUser | None) -> Scope:
    if user is None or not user.is_authenticated:
        return NOTHING
    scopes = list(DataScope.objects.filter(Q(users=user) | Q(groups__user=user)).distinct())
    if not scopes:
        return Scope() if settings.SQL_DEFAULT_SCOPE == "all" else NOTHING
    open_scopes = [s for s in scopes if not s.sees_nothing]
    if not open_scopes:
        return NOTHING
    return Scope(**{name: _union([getattr(s, name) for s in open_scopes]) for name in _FIELDS})


def _union(lists: Sequence[list[int]]) -> tuple[int, ...] | None:
    """An empty list in any scope means that kind of row is unlimited."""
    if any(not ids for ids in lists):
        return None
    return tuple(sorted({int(i) for ids in lists for i in ids}))
