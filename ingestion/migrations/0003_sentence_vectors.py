# Sentence vectors of each chunk, embedded at ingestion for extractive answers.

import django.db.models.deletion
import pgvector.django.vector
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("ingestion", "0002_default_extraction_schema"),
    ]

    operations = [
        migrations.CreateModel(
            name="SentenceVector",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("text", models.TextField()),
                (
                    "embedding",
                    pgvector.django.vector.VectorField(dimensions=settings.EMBEDDING_DIM),
                ),
                (
                    "chunk",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="sentence_vectors",
                        to="ingestion.chunk",
                    ),
                ),
            ],
        ),
    ]
