"""The value index: read from the warehouse once per registry version, then kept."""

from typing import Any

import pytest

from registries.models import DataSource
from registries.semantic_layer_loader import load_semantic_layer
from sqlagent.value_index import value_index

from .agent_fixtures import agent_warehouse_schema, agent_warehouse_url, warehouse  # noqa: F401

pytestmark = pytest.mark.django_db


def test_a_process_keeps_its_index_until_the_registry_changes(
    warehouse: DataSource,  # noqa: F811
    agent_warehouse_url: str,  # noqa: F811
) -> None:
    layer = load_semantic_layer()
    first = value_index(layer, agent_warehouse_url, agent=False)
    assert first.values  # statuses, branch names, ...
    # Kept in the process: the same object, not a copy unpickled from the cache each time.
    assert value_index(layer, agent_warehouse_url, agent=False) is first

    DataSource.objects.bump(warehouse.pk)
    changed = load_semantic_layer()
    assert changed.version != layer.version
    again: Any = value_index(changed, agent_warehouse_url, agent=False)
    assert again is not first and again.values
