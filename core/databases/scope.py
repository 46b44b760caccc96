"""The row scope a session runs with, and the session variables that carry it.

Secured databases (the demo warehouse's `secure_*` views) read the AES key and three id
lists from session variables; the agent sets them when it opens a session. The names here
are that contract: a database built to be secured reads exactly these.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

# The AES key the secure views decrypt with.
MYSQL_KEY_VARIABLE = "aesKey"
POSTGRES_KEY_SETTING = "switchboard.aes_key"


class ScopeList(Enum):
    """A session's scope lists: (MySQL user variable, PostgreSQL setting suffix)."""

    CUSTOMERS = ("customerIds", "customer_ids")
    LOCATIONS = ("serviceLocationIds", "service_location_ids")
    WORK_ORDERS = ("workOrderIds", "work_order_ids")

    @property
    def mysql_variable(self) -> str:
        return self.value[0]

    @property
    def postgres_setting(self) -> str:
        return f"switchboard.{self.value[1]}"


@dataclass(frozen=True)
class Scope:
    """Row-level scope of a session; None means unrestricted, an empty list means nothing."""

    customer_ids: Sequence[int] | None = None
    service_location_ids: Sequence[int] | None = None
    work_order_ids: Sequence[int] | None = None

    def lists(self) -> dict[ScopeList, str | None]:
        def encode(ids: Sequence[int] | None) -> str | None:
            # An empty list becomes "0", an id no row has, so the session sees nothing.
            return None if ids is None else ",".join(str(int(i)) for i in ids) or "0"

        return {
            ScopeList.CUSTOMERS: encode(self.customer_ids),
            ScopeList.LOCATIONS: encode(self.service_location_ids),
            ScopeList.WORK_ORDERS: encode(self.work_order_ids),
        }
