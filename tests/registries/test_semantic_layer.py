"""The semantic layer the SQL agent reads: built from the registries, rebuilt after edits."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from registries.models import DataSource, Term
from registries.semantic_layer_loader import load_semantic_layer

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def test_the_demo_layer(warehouse_source: DataSource) -> None:
    layer = load_semantic_layer()
    assert layer.data_source == "warehouse" and layer.dialect == "mysql"
    assert "secure_employee" not in layer.tables and "warehouseMeta" not in layer.tables
    employee = layer.tables["employee"]
    assert employee.secure_view == "secure_employee"
    assert "firstName" in employee.sensitive_columns
    assert employee.columns["firstName"].data_type == "text"  # as the view decrypts it
    assert employee.label_columns == ("firstName", "lastName")
    assert employee.primary_key == "id" and employee.role == "instance"
    crew = layer.tables["employeeCrew"]
    assert crew.role == "assignment" and crew.never_bridge_for == {"workTime", "employee"}
    assert all(t.role for t in layer.tables.values())
    assert all(t.display_columns for t in layer.tables.values())
    terms = {t.name: t for t in layer.terms}
    action = terms["action item"].resolutions[0]
    assert (action.rank, action.match_type, action.value) == ("primary", "boolean", "true")
    assert action.columns == ("inspectionQuestionAnswer.isActionItem",)
    assert [r.rank for r in terms["crane"].resolutions] == ["primary", "secondary", "fallback"]
    fk = next(
        r
        for r in layer.relationships
        if (r.from_table, r.from_column) == ("workTime", "employeeId")
    )
    assert (fk.to_table, fk.kind, fk.confidence) == ("employee", "foreign_key", 1.0)


def test_cached_until_an_admin_edit(admin_client: Client, warehouse_source: DataSource) -> None:
    first = load_semantic_layer()
    assert load_semantic_layer() is first  # nothing changed: the same snapshot
    crane = Term.objects.get(data_source=warehouse_source, name="crane")
    url = reverse("admin:registries_term_change", args=[crane.pk])
    page = admin_client.get(url)
    form = page.context["adminform"].form
    data = {k: form[k].value() for k in ("data_source", "name", "entity", "description")}
    data["synonyms"] = "cranes, derrick"
    formset = page.context["inline_admin_formsets"][0].formset
    data.update({f"resolutions-{k}": v for k, v in formset.management_form.initial.items()})
    for i, inline in enumerate(formset.forms):
        for name, field in inline.fields.items():
            value = inline[name].value()
            if value is not None and value is not False:
                data[f"resolutions-{i}-{name}"] = (
                    field.prepare_value(value) if hasattr(field, "prepare_value") else value
                )
        data[f"resolutions-{i}-id"] = inline.instance.pk or ""
        data[f"resolutions-{i}-term"] = crane.pk
    response = admin_client.post(url, {k: v for k, v in data.items() if v is not None})
    assert response.status_code == 302, response.content.decode()[:2000]
    second = load_semantic_layer()
    assert second is not first and second.version > first.version
    assert next(t for t in second.terms if t.name == "crane").synonyms == ("cranes", "derrick")
    Term.objects.filter(pk=crane.pk).delete()  # a bulk delete also bumps, via its signals
    assert "crane" not in {t.name for t in load_semantic_layer().terms}


@pytest.mark.django_db(transaction=True)
def test_another_running_process_sees_the_edit(warehouse_source: DataSource) -> None:
    """A long-running process (like the web server or a worker) rebuilds at its next read."""
    db = settings.DATABASES["default"]
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    url = f"postgres://{db['USER']}{password}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    script = (
        "import sys, django; django.setup()\n"
        "from registries.semantic_layer_loader import load_semantic_layer\n"
        "for line in sys.stdin:\n"
        "    layer = load_semantic_layer()\n"
        "    term = next(t for t in layer.terms if t.name == 'forklift')\n"
        "    print(','.join(term.synonyms), flush=True)\n"
    )
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "config.settings"}
    process = subprocess.Popen(
        [sys.executable, "-c", script], cwd=ROOT, env=env, text=True,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
    )  # fmt: skip
    assert process.stdin and process.stdout
    try:
        process.stdin.write("read\n")
        process.stdin.flush()
        assert "lift truck" in process.stdout.readline()
        forklift = Term.objects.get(name="forklift")
        forklift.synonyms = ["hi-lo"]
        forklift.save()
        process.stdin.write("read\n")
        process.stdin.flush()
        assert process.stdout.readline().strip() == "hi-lo"
    finally:
        process.stdin.close()
        process.wait(timeout=30)
