"""Data scopes: the admin's per-user and per-group limits reach the warehouse session."""

import pytest
from django.contrib.auth.models import Group, User
from pytest_django.fixtures import Settings

from core.databases.scope import Scope
from sqlagent.agent import ask
from sqlagent.data_scope import NOTHING, scope_for
from sqlagent.models import DataScope

from .agent_fixtures import agent_warehouse_schema, agent_warehouse_url, gold, no_llm, warehouse

__all__ = ["agent_warehouse_schema", "agent_warehouse_url", "no_llm", "warehouse"]

WORK_ORDERS = "How many work orders are there?"


def _count(question: str, user: User) -> int:
    answer = ask(question, user=user)
    assert answer.status == "answered", answer.reason
    assert len(answer.rows) == 1
    return int(answer.rows[0][0])


def _two_customers() -> list[int]:
    rows = gold("SELECT `customerId` FROM `workOrder` GROUP BY `customerId` ORDER BY 1 LIMIT 2")
    return [int(row[0]) for row in rows]


@pytest.fixture
def alice(db: None) -> User:
    return User.objects.create_user("alice", password="pw-alice-1")


@pytest.mark.usefixtures("warehouse", "no_llm")
def test_a_user_scoped_to_two_customers_counts_only_their_work_orders(alice: User) -> None:
    customers = _two_customers()
    scope = DataScope.objects.create(name="two customers", customer_ids=customers)
    scope.users.add(alice)
    expected = gold("SELECT COUNT(*) FROM `workOrder` WHERE `customerId` IN (%s, %s)", *customers)[
        0
    ][0]
    assert 0 < expected < gold("SELECT COUNT(*) FROM `workOrder`")[0][0]
    assert _count(WORK_ORDERS, alice) == expected
    assert _count("How many customers are there?", alice) == 2


@pytest.mark.usefixtures("warehouse", "no_llm")
def test_a_group_scope_applies_to_its_members(alice: User) -> None:
    group = Group.objects.create(name="northwest desk")
    alice.groups.add(group)
    customer = _two_customers()[1]
    DataScope.objects.create(name="one customer", customer_ids=[customer]).groups.add(group)
    expected = gold("SELECT COUNT(*) FROM `workOrder` WHERE `customerId` = %s", customer)[0][0]
    assert _count(WORK_ORDERS, alice) == expected


@pytest.mark.usefixtures("warehouse", "no_llm")
def test_a_closed_scope_sees_no_customer_rows(alice: User) -> None:
    DataScope.objects.create(name="closed", sees_nothing=True).users.add(alice)
    assert _count(WORK_ORDERS, alice) == 0
    # Tables nobody owns (branches) stay readable.
    assert (
        _count("How many branches are there?", alice) == gold("SELECT COUNT(*) FROM branch")[0][0]
    )


@pytest.mark.usefixtures("warehouse", "no_llm")
@pytest.mark.parametrize("default", ["all", "none"])
def test_a_user_without_a_scope_gets_the_default(
    alice: User, settings: Settings, default: str
) -> None:
    settings.SQL_DEFAULT_SCOPE = default
    total = gold("SELECT COUNT(*) FROM `workOrder`")[0][0]
    assert _count(WORK_ORDERS, alice) == (total if default == "all" else 0)


def test_scopes_of_user_and_groups_are_united(alice: User) -> None:
    group = Group.objects.create(name="desk")
    alice.groups.add(group)
    DataScope.objects.create(name="a", customer_ids=[3, 1]).users.add(alice)
    DataScope.objects.create(name="b", customer_ids=[2], work_order_ids=[9]).groups.add(group)
    scope = scope_for(alice)
    assert scope.customer_ids == (1, 2, 3)
    # Scope "a" places no limit on work orders, so the union places none either.
    assert scope.work_order_ids is None and scope.service_location_ids is None


def test_a_closed_scope_wins_only_when_it_is_the_only_one(alice: User) -> None:
    DataScope.objects.create(name="closed", sees_nothing=True).users.add(alice)
    assert scope_for(alice) == NOTHING
    DataScope.objects.create(name="open", customer_ids=[7]).users.add(alice)
    assert scope_for(alice).customer_ids == (7,)


def test_nobody_logged_in_sees_nothing(db: None) -> None:
    from django.contrib.auth.models import AnonymousUser

    assert scope_for(None) == NOTHING
    assert scope_for(AnonymousUser()) == NOTHING
    assert Scope() != NOTHING
