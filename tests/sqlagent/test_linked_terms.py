"""The linked planner on the demo registry: the domain terms people confirmed name tables,
flags and values, where the term planner has no plan."""

from typing import Any

import pytest

from core.databases.scope import Scope
from registries.models import DataSource, Term
from sqlagent.agent import ask

from .agent_fixtures import agent_warehouse_schema, agent_warehouse_url, gold, no_llm, warehouse

__all__ = ["agent_warehouse_schema", "agent_warehouse_url", "no_llm", "warehouse"]

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("no_llm")]


def test_confirmed_terms_name_a_table_and_a_state(warehouse: DataSource, settings: Any) -> None:
    settings.SQL_LINKED_MIN_CONFIDENCE = 0  # the reading, whatever the fitted threshold
    # The term planner does not know "right now"; the linked one reads "jobs" as the work
    # orders (a term) and "on hold" as their stored status.
    answer = ask("How many jobs are on hold right now?", scope=Scope())
    assert answer.status == "answered", answer.reason
    assert answer.generator == "linked"
    expected = gold("SELECT COUNT(*) FROM workOrder WHERE status = 'on_hold'")
    assert [tuple(row) for row in answer.rows] == expected, answer.sql


def test_a_term_only_suggested_is_not_read(warehouse: DataSource, settings: Any) -> None:
    settings.SQL_LINKED_MIN_CONFIDENCE = 0
    Term.objects.filter(data_source=warehouse, name="work order").update(suggested=True)
    DataSource.objects.bump(warehouse.pk)
    answer = ask("How many jobs are on hold right now?", scope=Scope())
    assert answer.status == "declined"  # "jobs" names nothing a person confirmed
