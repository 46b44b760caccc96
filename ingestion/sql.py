"""Raw SQL ingestion runs (named parameters)."""

# Section types are computed over every section at once; one job at a time does it.
SECTION_TYPES_LOCK = "SELECT pg_advisory_xact_lock(hashtext('ingestion.section_types'))"
