"""Which tables hide behind `secure_*` views, and the row-level scope those views apply.

A table gets a secure view when it holds personal data (decrypted in the view) or when it
belongs to a customer: the view then shows only rows inside the session's scope. Such base
tables are never granted to the agent; every other table is granted as it is.

Scope works on three anchors, each filtered by its own session list (unset = everything;
the lists are `core.databases.scope.ScopeList`, set by the agent's session):

- `customer`          customer ids           on `id`
- `customerLocation`  customer ids           on `customerId`, location ids on `id`
- `workOrder`         customer ids           on `customerId`, location ids on
                      `customerLocationId`, work order ids on `id`

Every other customer-owned table follows one ownership foreign key to its parent's secure
view (`inspectionQuestionAnswer.inspectionId` -> `secure_inspection` -> `secure_workorder`),
so a row is visible exactly when its parent is. A nullable ownership key that is NULL
means the row is company-internal (e.g. shop time in `workTime`) and stays visible.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.databases.scope import ScopeList

from .schema import TABLES, Table

# Anchor table -> (column, scope list) filters applied directly on its rows.
ANCHORS: dict[str, tuple[tuple[str, ScopeList], ...]] = {
    "customer": (("id", ScopeList.CUSTOMERS),),
    "customerLocation": (("customerId", ScopeList.CUSTOMERS), ("id", ScopeList.LOCATIONS)),
    "workOrder": (
        ("customerId", ScopeList.CUSTOMERS),
        ("customerLocationId", ScopeList.LOCATIONS),
        ("id", ScopeList.WORK_ORDERS),
    ),
}


@dataclass(frozen=True)
class Owner:
    """The foreign key through which a customer-owned row inherits its parent's scope."""

    column: str
    table: str
    nullable: bool


@dataclass(frozen=True)
class SecureView:
    table: str
    view: str
    sensitive_columns: tuple[str, ...]
    anchor_filters: tuple[tuple[str, ScopeList], ...] = ()
    owner: Owner | None = None

    @property
    def is_scoped(self) -> bool:
        return bool(self.anchor_filters) or self.owner is not None


def secure_view_name(table: str) -> str:
    return f"secure_{table.lower()}"


def _owner(table: Table, scoped: set[str]) -> Owner | None:
    candidates = [c for c in table.foreign_keys if c.references in scoped]
    if table.scope_via:
        candidates = [table.column(table.scope_via)]
    if not candidates:
        return None
    column = candidates[0]
    assert column.references is not None
    return Owner(column.name, column.references, column.nullable)


def _build() -> dict[str, SecureView]:
    views: dict[str, SecureView] = {}
    scoped = set(ANCHORS)
    for table in TABLES:  # dependency order: parents are decided before their children
        anchor = ANCHORS.get(table.name, ())
        owner = None if anchor else _owner(table, scoped)
        if owner:
            scoped.add(table.name)
        if anchor or owner or table.pii_columns:
            views[table.name] = SecureView(
                table.name, secure_view_name(table.name), table.pii_columns, anchor, owner
            )
    return views


SECURE_VIEWS = _build()


def secure_view_map() -> dict[str, SecureView]:
    """Logical table name -> its secure view and sensitive columns, e.g.
    `{"employee": SecureView(view="secure_employee", sensitive_columns=("firstName", ...))}`.
    """
    return dict(SECURE_VIEWS)


def agent_readable() -> list[str]:
    """Every relation the agent may SELECT: secure views plus tables that need none."""
    return [SECURE_VIEWS[t.name].view if t.name in SECURE_VIEWS else t.name for t in TABLES]
