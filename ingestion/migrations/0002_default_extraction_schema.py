from typing import Any

from django.db import migrations


def create_default(apps: Any, schema_editor: Any) -> None:
    from ingestion.entities.schema import (
        DEFAULT_ENTITY_TYPES,
        DEFAULT_INSTRUCTIONS,
        DEFAULT_RELATION_TYPES,
    )

    ExtractionSchema = apps.get_model("ingestion", "ExtractionSchema")
    ExtractionSchema.objects.get_or_create(
        name="default",
        defaults={
            "entity_types": DEFAULT_ENTITY_TYPES,
            "relation_types": DEFAULT_RELATION_TYPES,
            "instructions": DEFAULT_INSTRUCTIONS,
        },
    )


class Migration(migrations.Migration):
    dependencies = [("ingestion", "0001_initial")]
    operations = [migrations.RunPython(create_default, migrations.RunPython.noop)]
