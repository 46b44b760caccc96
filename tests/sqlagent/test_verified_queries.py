"""Verified queries on the demo warehouse: saved only when the SQL is a safe read the database
runs, reused for rewordings with their own literals, still scoped to the asker, stale when
the registry changes under them, and brought in by the admin, the chat and JSONL files."""

import json
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth.models import Permission, User
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from pytest_django.fixtures import Settings
from rest_framework.test import APIClient

from chat.models import ChatSession, Message, Route
from core.databases.scope import Scope
from core.providers.embeddings import get_embedder
from registries.models import DataSource, SchemaColumn
from sqlagent.agent import ask
from sqlagent.models import DataScope, VerifiedQuery
from sqlagent.verified import VerifiedSqlError
from sqlagent.verified.pairs import confirm

from .agent_fixtures import agent_warehouse_schema, agent_warehouse_url, gold, no_llm, warehouse

__all__ = ["agent_warehouse_schema", "agent_warehouse_url", "no_llm", "warehouse"]

pytestmark = pytest.mark.usefixtures("warehouse", "no_llm")

BRANCHES_IN = "SELECT COUNT(*) FROM branch WHERE city = '{city}'"


def _cities() -> list[str]:
    rows = gold("SELECT `city` FROM `branch` GROUP BY `city` ORDER BY COUNT(*) DESC, `city`")
    assert len(rows) >= 2
    return [str(row[0]) for row in rows]


def _branches_in(city: str) -> int:
    return int(gold("SELECT COUNT(*) FROM `branch` WHERE `city` = %s", city)[0][0])


def test_a_rewording_is_answered_with_the_verified_sql_and_its_own_literal(
    warehouse: DataSource,
) -> None:
    first, second = _cities()[:2]
    row, created = confirm(
        warehouse.name, f"How many branches are in {first}?", BRANCHES_IN.format(city=first)
    )
    assert created and row.embedding
    answer = ask(f"How many branches are there in {second}?")
    assert answer.generator == "verified", answer.trace
    assert answer.verified is not None and answer.verified["id"] == row.pk
    assert answer.verified["swapped"] == [{"confirmed": f"'{first}'", "asked": f"'{second}'"}]
    assert answer.answer.startswith(f"Based on verified query #{row.pk}")
    assert answer.rows == [[_branches_in(second)]]
    assert answer.verified["url"] == reverse("admin:sqlagent_verifiedquery_change", args=[row.pk])
    assert any(step["step"] == "verified" for step in answer.trace)


def test_a_question_that_rewords_nothing_verified_is_planned_as_before(
    warehouse: DataSource,
) -> None:
    city = _cities()[0]
    confirm(warehouse.name, f"How many branches are in {city}?", BRANCHES_IN.format(city=city))
    answer = ask("How many work orders are there?", scope=Scope())
    assert answer.status == "answered"
    assert answer.generator != "verified" and answer.verified is None
    assert answer.rows == [[gold("SELECT COUNT(*) FROM `workOrder`")[0][0]]]


def test_the_askers_scope_still_applies_to_a_verified_query(warehouse: DataSource) -> None:
    confirm(warehouse.name, "List the names of all customers", "SELECT name FROM customer")
    alice = User.objects.create_user("alice", password="pw-alice-1")
    two = [
        int(r[0])
        for r in gold("SELECT `customerId` FROM `workOrder` GROUP BY 1 ORDER BY 1 LIMIT 2")
    ]
    DataScope.objects.create(name="two customers", customer_ids=two).users.add(alice)
    answer = ask("Show the names of all the customers", user=alice)
    assert answer.generator == "verified", answer.trace
    assert "secure_customer" in (answer.sql or "")
    assert len(answer.rows) == 2  # not every customer: the verified SQL read what alice sees


@pytest.mark.parametrize(
    ("sql", "complaint"),
    [
        ("DELETE FROM branch", "only SELECT"),
        ("SELECT nickname FROM branch", "nickname"),
        ("SELECT name FROM branch; SELECT name FROM branch", "one statement"),
        ("SELECT 1 FROM nowhere_at_all", "nowhere_at_all"),
    ],
)
def test_sql_that_is_not_one_safe_known_read_is_refused(
    warehouse: DataSource, sql: str, complaint: str
) -> None:
    with pytest.raises(VerifiedSqlError, match=complaint):
        confirm(warehouse.name, "Something", sql)
    assert not VerifiedQuery.objects.exists()


def test_sql_the_database_refuses_is_refused_with_its_words(warehouse: DataSource) -> None:
    with pytest.raises(VerifiedSqlError, match="the database refused it"):
        confirm(warehouse.name, "Names", "SELECT name FROM branch WHERE name REGEXP '('")


def test_a_registry_change_makes_it_stale_and_unused_until_fixed(warehouse: DataSource) -> None:
    city = _cities()[0]
    row, _ = confirm(
        warehouse.name, f"How many branches are in {city}?", BRANCHES_IN.format(city=city)
    )
    column = SchemaColumn.objects.get(
        table__data_source=warehouse, table__name="branch", name="city"
    )
    column.delete()  # the registry no longer has branch.city
    answer = ask(f"How many branches are in {city}?")
    assert answer.generator != "verified"
    row.refresh_from_db()
    assert row.stale and "city" in row.stale_reason
    # Fixed by a person: written over a column that is there, it is used again.
    confirm(warehouse.name, row.question, "SELECT COUNT(*) FROM branch")
    assert ask(f"How many branches are in {city}?").generator == "verified"
    row.refresh_from_db()
    assert not row.stale


def test_the_admin_checks_the_sql_on_save(admin_client: Client, warehouse: DataSource) -> None:
    add = reverse("admin:sqlagent_verifiedquery_add")
    form = {
        "data_source": warehouse.pk,
        "question": "How many branches are there?",
        "sql": "SELECT COUNT(*) FROM branch WHERE colour = 'red'",
        "confirmed_at_0": "2026-11-25",
        "confirmed_at_1": "10:00:00",
        "tags": "[]",
    }
    refused = admin_client.post(add, form)
    assert refused.status_code == 200
    assert "colour" in refused.content.decode()
    assert not VerifiedQuery.objects.exists()
    saved = admin_client.post(add, form | {"sql": "SELECT COUNT(*) FROM branch"})
    assert saved.status_code == 302
    row = VerifiedQuery.objects.get()
    assert row.embedding and not row.stale
    listing = admin_client.get(reverse("admin:sqlagent_verifiedquery_changelist"))
    assert "How many branches are there?" in listing.content.decode()


def test_import_keeps_good_lines_and_reports_bad_ones_by_number(
    warehouse: DataSource, tmp_path: Path
) -> None:
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text(
        json.dumps(
            {"question": "How many branches are there?", "sql": "SELECT COUNT(*) FROM branch"}
        )
        + "\n"
        + json.dumps({"question": "Bad", "sql": "UPDATE branch SET name = 'x'"})
        + "\nnot json\n"
        + json.dumps({"question": "Tagged", "sql": "SELECT name FROM branch", "tags": ["ops"]})
        + "\n"
    )
    out, err = StringIO(), StringIO()
    call_command(
        "import_verified", str(pairs), "--data-source", warehouse.name, stdout=out, stderr=err
    )
    assert "2 verified queries added" in out.getvalue()
    assert f"{pairs}:2:" in err.getvalue() and f"{pairs}:3:" in err.getvalue()
    assert set(VerifiedQuery.objects.values_list("question", flat=True)) == {
        "How many branches are there?",
        "Tagged",
    }
    exported = tmp_path / "out.jsonl"
    call_command(
        "export_verified", "--data-source", warehouse.name, "--out", str(exported), stdout=out
    )
    lines = [json.loads(line) for line in exported.read_text().splitlines()]
    assert {"question": "Tagged", "sql": "SELECT name FROM branch", "tags": ["ops"]} in lines


def test_eval_sql_imports_pairs_and_counts_answers_from_them(
    warehouse: DataSource, tmp_path: Path
) -> None:
    first, second = _cities()[:2]
    pairs, asked = tmp_path / "pairs.jsonl", tmp_path / "asked.jsonl"
    pairs.write_text(
        json.dumps(
            {
                "question": f"How many branches are in {first}?",
                "sql": BRANCHES_IN.format(city=first),
            }
        )
        + "\n"
    )
    asked.write_text(
        json.dumps(
            {"question": f"Count the branches in {second}.", "sql": BRANCHES_IN.format(city=second)}
        )
        + "\n"
    )
    out = StringIO()
    call_command(
        "eval_sql",
        str(asked),
        "--verified",
        str(pairs),
        "--data-source",
        warehouse.name,
        stdout=out,
    )
    text = out.getvalue()
    assert "verified queries: 1 added" in text
    assert "from_verified  1" in text and "correct        1" in text


def _sql_answer(user: User) -> Message:
    session = ChatSession.objects.create(owner=user)
    return Message.objects.create(
        session=session,
        owner=user,
        role=Message.Role.ASSISTANT,
        content="3 branches.",
        route=Route.SQL,
        data={
            "question": "How many branches are there?",
            "logical_sql": "SELECT COUNT(*) FROM `branch`",
            "data_source": "warehouse",
        },
    )


def test_the_chat_confirms_an_answer_for_those_allowed(warehouse: DataSource) -> None:
    plain = User.objects.create_user("plain", password="pw-plain-1")
    analyst = User.objects.create_user("analyst", password="pw-analyst-1")
    analyst.user_permissions.add(Permission.objects.get(codename="add_verifiedquery"))
    message = _sql_answer(plain)
    url = reverse("chat-api:verify", args=[message.pk])
    client = APIClient()
    client.force_authenticate(plain)
    assert client.post(url, {}, format="json").status_code == 403

    mine = _sql_answer(analyst)
    client.force_authenticate(analyst)
    url = reverse("chat-api:verify", args=[mine.pk])
    refused = client.post(url, {"sql": "SELECT COUNT(*) FROM branch WHERE size > 3"}, format="json")
    assert refused.status_code == 400 and "size" in refused.json()["detail"]
    created = client.post(url, {"sql": "SELECT COUNT(*) FROM branch"}, format="json")
    assert created.status_code == 201, created.json()
    row = VerifiedQuery.objects.get(pk=created.json()["id"])
    assert row.confirmed_by == analyst and row.sql == "SELECT COUNT(*) FROM branch"
    assert row.question == "How many branches are there?"
    assert client.post(url, {}, format="json").status_code == 200  # the SQL that ran, again
    other = reverse("chat-api:verify", args=[message.pk])  # plain's answer, not analyst's
    assert client.post(other, {}, format="json").status_code == 404


def test_a_number_the_verified_query_does_not_hold_is_not_a_rewording(
    warehouse: DataSource,
) -> None:
    confirm(
        warehouse.name,
        "How many work orders were completed in 2025?",
        "SELECT COUNT(*) FROM workOrder WHERE status = 'completed' "
        "AND completedAt >= '2025-01-01' AND completedAt < '2026-01-01'",
    )
    assert ask("How many work orders were completed in 2025?", scope=Scope()).verified
    answer = ask("How many work orders were completed in 2024?", scope=Scope())
    assert answer.verified is None  # its dates are 2025's, whatever the words say


@pytest.mark.parametrize(
    "asked",
    [
        "Which technician completed the fewest work orders in 2025?",  # the other way round
        "How many technicians completed work orders in 2025?",  # a count, not the first
        "Which branch completed the most work orders in 2025?",  # other things
        "Which technician completed the most work orders in March 2025?",  # a month more
        "Which technician has not completed the most work orders in 2025?",  # a negation
    ],
)
def test_a_question_that_asks_otherwise_is_not_a_rewording(
    warehouse: DataSource, asked: str
) -> None:
    confirm(
        warehouse.name,
        "Which technician completed the most work orders in 2025?",
        "SELECT e.firstName, e.lastName, COUNT(*) AS completed FROM workOrder w "
        "JOIN employee e ON e.id = w.supervisorId WHERE w.status = 'completed' "
        "AND YEAR(w.completedAt) = 2025 GROUP BY e.id, e.firstName, e.lastName "
        "ORDER BY completed DESC LIMIT 1",
    )
    assert ask("Which technician closed the most work orders in 2025?", scope=Scope()).verified
    answer = ask(asked, scope=Scope())
    assert answer.verified is None
    step = next(e for e in answer.trace if e["step"] == "verified" and e["status"] == "end")
    assert step["detail"]["candidates"][0]["contradicts"]


def test_a_grouping_its_question_names_is_not_taken_for_one_total(warehouse: DataSource) -> None:
    confirm(
        warehouse.name,
        "How much do customers owe on overdue invoices?",
        "SELECT c.name AS customer, SUM(i.total) AS owed FROM invoice i "
        "JOIN customer c ON c.id = i.customerId WHERE i.status = 'overdue' "
        "GROUP BY c.id, c.name ORDER BY owed DESC",
    )
    assert ask("How much do our customers owe on overdue invoices?", scope=Scope()).verified
    answer = ask("What is the total of overdue invoices?", scope=Scope())
    assert answer.verified is None
    step = next(e for e in answer.trace if e["step"] == "verified" and e["status"] == "end")
    assert "groups by" in step["detail"]["candidates"][0]["contradicts"]


def test_the_conversation_offers_this_is_right_to_those_allowed(warehouse: DataSource) -> None:
    plain = User.objects.create_user("plain", password="pw-plain-1")
    analyst = User.objects.create_user("analyst", password="pw-analyst-1")
    analyst.user_permissions.add(Permission.objects.get(codename="add_verifiedquery"))
    for user, offered in ((plain, False), (analyst, True)):
        message = _sql_answer(user)
        message.data |= {"verified": {"id": 7, "question": "How many branches?", "url": "/x"}}
        message.save()
        client = Client()
        client.force_login(user)
        page = client.get(reverse("chat:conversation", args=[message.session_id])).content.decode()
        assert ('data-action="verify"' in page) is offered
        assert "Based on verified query #7" in page


def test_an_embedding_service_out_of_reach_leaves_the_planners_to_answer(
    warehouse: DataSource, settings: Settings
) -> None:
    city = _cities()[0]
    confirm(warehouse.name, f"How many branches are in {city}?", BRANCHES_IN.format(city=city))
    settings.EMBEDDING_BACKEND, settings.EMBEDDING_MODEL = "openai", "unreachable-model"
    settings.OPENAI_BASE_URL, settings.OPENAI_API_KEY = "http://127.0.0.1:9/v1", "key"
    settings.LLM_TIMEOUT_SECONDS = 1
    get_embedder.cache_clear()
    try:
        saved, _ = confirm(warehouse.name, "How many branches?", "SELECT COUNT(*) FROM branch")
        answer = ask("How many work orders are there?", scope=Scope())
    finally:
        get_embedder.cache_clear()
    assert saved.pk and not saved.embedding  # kept, to be embedded when the service is back
    assert answer.status == "answered" and answer.verified is None


def test_a_year_the_question_does_not_say_is_left_out(warehouse: DataSource) -> None:
    confirm(
        warehouse.name,
        "Which customer had the most quotes in 2025?",
        "SELECT c.name, COUNT(*) AS quotes FROM quote q JOIN customer c ON c.id = q.customerId "
        "WHERE q.status <> 'void' AND YEAR(q.issuedOn) = 2025 GROUP BY c.id, c.name "
        "ORDER BY quotes DESC LIMIT 1",
    )
    answer = ask("Which customer had the most quotes?", scope=Scope())
    assert answer.verified and answer.sql
    assert "2025" not in answer.sql and "'void'" in answer.sql  # every year's quotes
    # a year said only in a range of dates is no one condition to leave out: not taken
    confirm(
        warehouse.name,
        "How many quotes were accepted in 2025?",
        "SELECT COUNT(*) FROM quote WHERE status = 'accepted' "
        "AND issuedOn >= '2025-01-01' AND issuedOn < '2026-01-01'",
    )
    assert ask("How many quotes were accepted?", scope=Scope()).verified is None
