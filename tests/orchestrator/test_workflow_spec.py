import copy
import json
from pathlib import Path
from typing import Any

import pytest

from chat.models import Workflow
from chat.orchestrator.workflow import (
    WORKFLOWS_DIR,
    AgentNode,
    FanoutNode,
    Input,
    Limits,
    LoopNode,
    MergeNode,
    WorkflowError,
    WorkflowNotFound,
    load_workflow,
    parse_workflow,
    validate_workflow,
)

from . import engine_tools  # noqa: F401 - registers the test_* tools

VALID: dict[str, Any] = {
    "name": "Valid",
    "entry_node_id": "start",
    "state": {"angles": ["a", "b"]},
    "limits": {"max_steps": 50, "timeout_ms": 5000, "max_iters": 4, "max_parallel": 2},
    "nodes": [
        {
            "id": "start",
            "type": "agent",
            "tool": "test_echo",
            "inputs": {"text": "state.question", "n": {"value": 3}},
            "output": "echo",
        },
        {"id": "choose", "type": "conditional"},
        {
            "id": "spread",
            "type": "fanout",
            "items": "angles",
            "as": "angle",
            "body": "work",
            "merge": "join",
            "output": "per_angle",
        },
        {"id": "work", "type": "agent", "tool": "test_echo", "inputs": {"a": "angle"},
         "output": "done"},
        {"id": "join", "type": "merge", "strategy": "collect", "from": "done.a",
         "output": "joined"},
        {"id": "again", "type": "loop", "body": "bump", "until": "count.value >= 2",
         "max_iters": 3},
        {"id": "bump", "type": "agent", "tool": "test_add",
         "inputs": {"value": "count.value"}, "output": "count"},
    ],
    "edges": [
        {"from": "start", "to": "choose"},
        {"from": "choose", "to": "spread", "condition": "len(angles) > 0"},
        {"from": "choose", "to": "again"},
        {"from": "join", "to": "again"},
        {"from": "bump", "to": "again"},
    ],
}  # fmt: skip


def definition(**changes: Any) -> dict[str, Any]:
    data = copy.deepcopy(VALID)
    data.update(changes)
    return data


def test_a_valid_definition_parses_into_frozen_dataclasses() -> None:
    assert validate_workflow(VALID) == []
    spec = parse_workflow(VALID)
    assert spec.name == "Valid"
    assert spec.entry_node_id == "start"
    assert spec.limits == Limits(max_steps=50, timeout_ms=5000, max_iters=4, max_parallel=2)
    assert dict(spec.defaults) == {"angles": ["a", "b"]}
    start = spec.nodes["start"]
    assert isinstance(start, AgentNode)
    assert dict(start.inputs) == {"text": Input(expression="state.question"), "n": Input(value=3)}
    assert start.output == ("echo",)
    spread = spec.nodes["spread"]
    assert isinstance(spread, FanoutNode)
    assert (spread.items, spread.as_name, spread.body, spread.merge) == (
        "angles", "angle", "work", "join"
    )  # fmt: skip
    assert isinstance(spec.nodes["join"], MergeNode)
    loop = spec.nodes["again"]
    assert isinstance(loop, LoopNode) and loop.max_iters == 3
    assert [(e.target, e.condition) for e in spec.outgoing("choose")] == [
        ("spread", "len(angles) > 0"),
        ("again", None),
    ]
    with pytest.raises(AttributeError):
        spec.name = "changed"  # type: ignore[misc]


def test_limits_default_when_left_out() -> None:
    data = definition()
    del data["limits"]
    assert parse_workflow(data).limits == Limits()


def test_every_problem_is_reported_at_once() -> None:
    data = definition(entry_node_id="nowhere")
    data["limits"] = {"max_steps": 0, "timeout_ms": "fast", "max_parallel": 65, "speed": 1}
    data["nodes"] += [
        {"id": "odd", "type": "teleport"},
        {"id": "ghost", "type": "agent", "tool": "no_such_tool"},
        {"id": "check", "type": "conditional"},
        {"id": "bad_loop", "type": "loop", "body": "missing", "until": "x ="},
    ]
    data["edges"] += [
        {"from": "start", "to": "elsewhere"},
        {"from": "check", "to": "start", "condition": "__import__('os')"},
        {"from": "check", "to": "start"},
        {"from": "check", "to": "bump"},
    ]
    problems = validate_workflow(data)
    expected = [
        "limits: unknown keys speed",
        "limits.max_steps: expected a whole number from 1 to 10000, got 0",
        "limits.timeout_ms: expected a whole number from 100 to 3600000, got 'fast'",
        "limits.max_parallel: expected a whole number from 1 to 64, got 65",
        "node odd: unknown type 'teleport' (known: agent, conditional, fanout, loop, merge)",
        "edges[5].to: unknown node 'elsewhere'",
        "entry_node_id: unknown node 'nowhere'",
        "node check: a conditional has at most one default edge",
        "node bad_loop.body: unknown node 'missing'",
    ]
    for text in expected:
        assert text in problems, (text, problems)
    assert any(p.startswith("node ghost.tool: unknown tool 'no_such_tool'") for p in problems)
    assert any(p.startswith("edges[6].condition: names starting with '_'") for p in problems)
    assert any(
        p.startswith("node bad_loop.until: unexpected character '='") and "position 3" in p
        for p in problems
    )
    with pytest.raises(WorkflowError) as raised:
        parse_workflow(data)
    assert raised.value.problems == problems


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (lambda d: d["nodes"].append({"id": "lonely", "type": "conditional"}),
         "node lonely: a conditional needs outgoing edges"),
        (lambda d: d["nodes"].append(
            {"id": "island", "type": "agent", "tool": "test_echo"}),
         "node island: unreachable from the entry node 'start'"),
        (lambda d: d["nodes"].append(dict(d["nodes"][0])), "node start: duplicate id"),
        (lambda d: d["nodes"][2].update(merge="work"),
         "node spread.merge: 'work' is not a merge node"),
        (lambda d: d["edges"].append({"from": "spread", "to": "work"}),
         "node spread: a fanout has no edges of its own; its branches start at its body and "
         "the run continues after its merge"),
        (lambda d: d["nodes"].append(
            {"id": "join2", "type": "merge", "strategy": "collect", "from": "x"}),
         "node join2: a merge must close exactly one fanout"),
        (lambda d: d["nodes"][4].update(strategy="zip"),
         "node join.strategy: unknown 'zip' (known: collect, stitch, concat, first_ok)"),
        (lambda d: d["nodes"][5].update(max_iters=9),
         "node again.max_iters: expected a whole number from 1 to 4, got 9"),
        (lambda d: d["nodes"][2].update(max_parallel=3),
         "node spread.max_parallel: expected a whole number from 1 to 2, got 3"),
        (lambda d: d["nodes"][2].update({"as": "state"}),
         "node spread.as: expected a state key name, got 'state'"),
        (lambda d: d["nodes"][0].update(output="a[0]"),
         "node start.output: an output path is dotted names, not 'a[0]' at position 1"),
        (lambda d: d["nodes"][0].update(inputs={"x": 5}),
         'node start.inputs.x: expected a state path or {"value": literal}'),
        (lambda d: d["nodes"][0].update(tool=""), "node start.tool: expected a non-empty string"),
        (lambda d: d["nodes"][0].update(tools="x"), "node start: unknown keys tools"),
        (lambda d: d["edges"].append({"from": "start", "to": "bump", "when": "x"}),
         "edges[5]: unknown keys when"),
        (lambda d: d.update(state=[1]), "state: expected an object (the initial state)"),
        (lambda d: d.update(nodes=[]), "nodes: expected a non-empty list"),
        (lambda d: d["nodes"].append({"id": "1st", "type": "conditional"}),
         "nodes[7]: id must be a name (letters, digits, - and _)"),
    ],
)  # fmt: skip
def test_each_kind_of_problem_is_named(change: Any, problem: str) -> None:
    data = definition()
    change(data)
    assert problem in validate_workflow(data)


def test_a_definition_that_is_not_an_object() -> None:
    assert validate_workflow([1, 2]) == ["a workflow is a JSON object"]


def test_shipped_workflow_files_are_valid() -> None:
    files = sorted(WORKFLOWS_DIR.glob("*.json"))
    assert files, "no shipped workflows"
    for path in files:
        assert validate_workflow(json.loads(path.read_text())) == [], path.name


@pytest.mark.django_db
def test_load_prefers_the_enabled_row_and_falls_back_to_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("chat.orchestrator.workflow.WORKFLOWS_DIR", tmp_path)
    file_version = definition(name="From the file")
    (tmp_path / "spec-test.json").write_text(json.dumps(file_version))
    assert load_workflow("spec-test").name == "From the file"

    row = Workflow.objects.create(
        slug="spec-test", name="Row", definition=definition(name="From the row")
    )
    assert load_workflow("spec-test").name == "From the row"

    row.enabled = False
    row.save()
    assert load_workflow("spec-test").name == "From the file"

    row.enabled, row.definition = True, definition(entry_node_id="gone")
    row.save()
    with pytest.raises(WorkflowError, match="entry_node_id: unknown node 'gone'"):
        load_workflow("spec-test")


@pytest.mark.django_db
def test_unknown_and_unsafe_slugs_are_not_found(tmp_path: Path) -> None:
    with pytest.raises(WorkflowNotFound, match="no enabled workflow 'absent'"):
        load_workflow("absent")
    with pytest.raises(WorkflowNotFound, match="is not a workflow name"):
        load_workflow("../settings")


@pytest.mark.django_db
def test_a_broken_file_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("chat.orchestrator.workflow.WORKFLOWS_DIR", tmp_path)
    (tmp_path / "broken.json").write_text("{not json")
    with pytest.raises(WorkflowError, match=r"broken\.json: not valid JSON"):
        load_workflow("broken")


def admin_form(definition_text: str, slug: str = "admin-test") -> dict[str, str]:
    return {"slug": slug, "name": "Admin test", "description": "", "enabled": "on",
            "definition": definition_text}  # fmt: skip


@pytest.mark.django_db
def test_the_admin_lists_every_problem_and_keeps_what_was_typed(admin_client: Any) -> None:
    broken = definition(entry_node_id="nowhere")
    broken["nodes"].append({"id": "odd", "type": "teleport"})
    response = admin_client.post("/admin/chat/workflow/add/", admin_form(json.dumps(broken)))
    assert response.status_code == 200
    page = response.content.decode()
    assert "entry_node_id: unknown node &#x27;nowhere&#x27;" in page
    assert "node odd: unknown type &#x27;teleport&#x27;" in page
    assert not Workflow.objects.filter(slug="admin-test").exists()

    response = admin_client.post("/admin/chat/workflow/add/", admin_form('{"name": "half'))
    page = response.content.decode()
    assert "Enter a valid JSON." in page
    assert "{&quot;name&quot;: &quot;half" in page
    assert not Workflow.objects.filter(slug="admin-test").exists()


@pytest.mark.django_db
def test_saving_in_the_admin_marks_the_row_edited(admin_client: Any) -> None:
    response = admin_client.post("/admin/chat/workflow/add/", admin_form(json.dumps(VALID)))
    assert response.status_code == 302
    row = Workflow.objects.get(slug="admin-test")
    assert row.edited and row.definition == VALID
    page = admin_client.get(f"/admin/chat/workflow/{row.pk}/change/").content.decode()
    assert "\n  &quot;name&quot;: &quot;Valid&quot;," in page  # indented for editing


@pytest.mark.django_db
def test_route_examples_admin_filters_and_searches(admin_client: Any) -> None:
    from chat.models import RouteExample

    RouteExample.objects.create(route="sql", question="How many invoices in May?")
    RouteExample.objects.create(route="documents", question="What does the handbook say?")
    page = admin_client.get("/admin/chat/routeexample/?route__exact=sql").content.decode()
    assert "How many invoices in May?" in page and "handbook" not in page
    page = admin_client.get("/admin/chat/routeexample/?q=handbook").content.decode()
    assert "What does the handbook say?" in page and "invoices" not in page


@pytest.mark.django_db
def test_load_workflows_is_idempotent_and_keeps_admin_edits(tmp_path: Path) -> None:
    from io import StringIO

    from django.core.management import CommandError, call_command

    def load() -> str:
        out = StringIO()
        call_command("load_workflows", "--dir", str(tmp_path), stdout=out, stderr=StringIO())
        return out.getvalue()

    path = tmp_path / "loader-test.json"
    path.write_text(json.dumps(VALID))
    assert load() == "loader-test: created\n"
    row = Workflow.objects.get(slug="loader-test")
    assert (row.name, row.definition, row.edited) == ("Valid", VALID, False)
    assert row.source_file == str(path)
    assert load() == "loader-test: unchanged\n"

    path.write_text(json.dumps(definition(name="Valid, renamed")))
    assert load() == "loader-test: updated from the file\n"
    assert Workflow.objects.get(slug="loader-test").name == "Valid, renamed"

    Workflow.objects.filter(slug="loader-test").update(edited=True, name="Mine")
    path.write_text(json.dumps(definition(name="Valid, again")))
    assert load() == ("loader-test: kept: edited in the admin, so the file does not overwrite it\n")
    assert Workflow.objects.get(slug="loader-test").name == "Mine"

    (tmp_path / "broken.json").write_text(json.dumps(definition(entry_node_id="nowhere")))
    errors = StringIO()
    with pytest.raises(CommandError, match=r"invalid workflow files: broken\.json"):
        call_command("load_workflows", "--dir", str(tmp_path), stdout=StringIO(), stderr=errors)
    assert "entry_node_id: unknown node 'nowhere'" in errors.getvalue()
    assert not Workflow.objects.filter(slug="broken").exists()


@pytest.mark.django_db
def test_load_workflows_loads_the_shipped_files() -> None:
    from io import StringIO

    from django.core.management import call_command

    call_command("load_workflows", stdout=StringIO())
    shipped = {path.stem for path in WORKFLOWS_DIR.glob("*.json")}
    rows = Workflow.objects.filter(slug__in=shipped)
    assert {row.slug for row in rows} == shipped
    assert all(row.source_file == f"chat/workflows/{row.slug}.json" for row in rows)
