"""The shape of the code: no import cycles in app code, and no module too long to read.
(The layers and front doors are import-linter's contracts in pyproject.toml.)"""

from pathlib import Path

import grimp
import networkx as nx

ROOT = Path(__file__).resolve().parent.parent
APPS = ("config", "core", "chat", "retrieval", "sqlagent", "ingestion", "registries", "warehouse")
MAX_MODULE_LINES = 500
# Generated or declarative data, not logic: migrations and the demo data generators.
EXEMPT = ("/migrations/", "warehouse/data/")


def _app_packages() -> list[str]:
    return [app for app in APPS if (ROOT / app / "__init__.py").exists()]


def test_app_code_has_no_import_cycles() -> None:
    graph = grimp.build_graph(*_app_packages(), include_external_packages=False)
    imports = nx.DiGraph()
    for module in graph.modules:
        if ".migrations" in module:
            continue
        for imported in graph.find_modules_directly_imported_by(module):
            if ".migrations" not in imported:
                imports.add_edge(module, imported)
    cycles = [sorted(c) for c in nx.strongly_connected_components(imports) if len(c) > 1]
    assert cycles == [], f"import cycles: {cycles}"


def test_no_module_in_app_code_is_over_500_lines() -> None:
    long = {}
    for app in _app_packages():
        for path in (ROOT / app).rglob("*.py"):
            relative = path.relative_to(ROOT).as_posix()
            if any(part in f"/{relative}" for part in EXEMPT):
                continue
            lines = len(path.read_text(encoding="utf-8").splitlines())
            if lines > MAX_MODULE_LINES:
                long[relative] = lines
    assert long == {}, f"modules over {MAX_MODULE_LINES} lines: {long}"
