"""`manage.py load_warehouse` hands the settings to the loader and reports what it did."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from pytest_django.fixtures import Settings

from warehouse.testing import TEST_AES_KEY, TEST_AGENT_PASSWORD, TEST_AGENT_USER


def test_the_command_leaves_a_loaded_warehouse_alone(
    warehouse_url: str, settings: Settings
) -> None:
    settings.WAREHOUSE_AES_KEY = TEST_AES_KEY
    settings.WAREHOUSE_AGENT_USER = TEST_AGENT_USER
    settings.WAREHOUSE_AGENT_PASSWORD = TEST_AGENT_PASSWORD
    out = StringIO()
    call_command("load_warehouse", "--url", warehouse_url, stdout=out)
    assert "up to date" in out.getvalue()


def test_the_command_reports_bad_urls() -> None:
    with pytest.raises(CommandError):
        call_command("load_warehouse", "--url", "sqlite:///nowhere.db", stdout=StringIO())
