"""Which warehouse rows a person may see: data scopes the admin assigns to users or groups."""

from django.conf import settings
from django.contrib.auth.models import Group
from django.db import models


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
