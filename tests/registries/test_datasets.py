"""Sample-database loaders: idempotent, and usable from the command line."""

import pytest
from django.core.management import call_command

from registries.datasets import Target, existing_tables, load_chinook, load_spider_db

from .conftest import MYSQL, PREFIX


def test_loading_again_is_a_no_op(chinook_mysql_url: str, spider_urls: dict[str, str]) -> None:
    assert load_chinook(chinook_mysql_url) is False
    target, loaded = load_spider_db("hr_1", f"{MYSQL}/", database=f"{PREFIX}_spider_hr_1")
    assert not loaded and target.url == spider_urls["hr_1"]
    assert "employees" in (existing_tables(Target.parse(spider_urls["hr_1"])) or set())


def test_commands_report_where_they_loaded(
    chinook_mysql_url: str, spider_urls: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    call_command("load_chinook", "--url", chinook_mysql_url)
    call_command("load_spider_db", "hr_1", "--prefix", f"{PREFIX}_spider_")
    out = capsys.readouterr().out
    assert f"Chinook already loaded: {chinook_mysql_url}" in out
    assert f"hr_1 already loaded: {spider_urls['hr_1']}" in out
