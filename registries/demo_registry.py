"""The complete registry of the demo warehouse, shipped as JSON in registries/demo/."""

from __future__ import annotations

from pathlib import Path

from .files import FILENAMES, ImportReport, import_files
from .files.formats import DISPLAY, DOMAIN, MANUAL, SECURE_VIEWS
from .models import DataSource, Provenance
from .sync import IntrospectionReport, introspect

DEMO_DIR = Path(__file__).resolve().parent / "demo"
DEMO_FILES = [FILENAMES[kind] for kind in (DOMAIN, DISPLAY, MANUAL, SECURE_VIEWS)]


class WarehouseMissing(RuntimeError):
    pass


def load_demo_registry(source: DataSource) -> tuple[IntrospectionReport, ImportReport]:
    """Introspect the warehouse, then store the demo registry over it.

    Idempotent, and rows a person edited in the admin stay as the person left them; rows an
    earlier demo registry held and this one does not are removed.
    """
    introspection = introspect(source)
    if introspection.tables == 0:
        raise WarehouseMissing(
            f"{source.name} has no tables: load the demo warehouse first (manage.py load_warehouse)"
        )
    files = [(name, (DEMO_DIR / name).read_text(encoding="utf-8")) for name in DEMO_FILES]
    report = import_files(
        source,
        files,
        provenance=Provenance.DEMO,
        keep_person_edits=True,
        replace_from=Provenance.DEMO,
    )
    return introspection, report
