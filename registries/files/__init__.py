"""The registries as JSON files in the seed's formats: export, and import that changes
nothing unless every file is right."""

from .apply import ImportReport, import_files
from .export import export_all, write_all
from .formats import FILENAMES, ImportFailed, Problem

__all__ = [
    "FILENAMES",
    "ImportFailed",
    "ImportReport",
    "Problem",
    "export_all",
    "import_files",
    "write_all",
]
