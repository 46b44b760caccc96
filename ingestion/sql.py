"""Raw SQL ingestion runs (named parameters)."""

# Section types are computed over every section at once; one job at a time does it.
SECTION_TYPES_LOCK = "SELECT pg_advisory_xact_lock(hashtext('ingestion.section_types'))"

# Sections pointed at their types, a batch of types at a time: one statement, not one per type.
SET_SECTION_TYPES = """
UPDATE ingestion_section AS s SET section_type_id = v.type_id
FROM unnest(%(sections)s::uuid[], %(types)s::bigint[]) AS v(id, type_id)
WHERE s.id = v.id
"""
