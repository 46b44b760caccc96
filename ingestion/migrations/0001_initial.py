# Vector columns take their size from EMBEDDING_DIM, so that a deployment with another
# embedding model gets columns of its size.

import uuid

import django.contrib.postgres.fields
import django.contrib.postgres.indexes
import django.contrib.postgres.search
import django.db.models.deletion
import pgvector.django.indexes
import pgvector.django.vector
from django.conf import settings
from django.db import migrations, models

import ingestion.models.entities


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("core", "0001_extensions"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="ExtractionSchema",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("name", models.CharField(max_length=200, unique=True)),
                ("is_active", models.BooleanField(default=True)),
                ("instructions", models.TextField(blank=True)),
                (
                    "entity_types",
                    models.JSONField(
                        default=list,
                        help_text='[{"label": "Person", "description": "..."}]',
                        validators=[ingestion.models.entities.validate_entity_types],
                    ),
                ),
                (
                    "relation_types",
                    models.JSONField(
                        default=list,
                        help_text='[{"type": "WORKS_FOR", "source": "Person", ...}]',
                        validators=[ingestion.models.entities.validate_relation_types],
                    ),
                ),
                ("updated_at", models.DateTimeField(auto_now=True)),
            ],
        ),
        migrations.CreateModel(
            name="SectionType",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("key", models.CharField(max_length=200, unique=True)),
                ("canonical_name", models.CharField(max_length=200)),
                ("normalized_name", models.CharField(max_length=200)),
                (
                    "variants",
                    django.contrib.postgres.fields.ArrayField(
                        base_field=models.CharField(max_length=300), default=list, size=None
                    ),
                ),
                ("member_count", models.PositiveIntegerField(default=0)),
                ("centroid", pgvector.django.vector.VectorField(dimensions=settings.EMBEDDING_DIM)),
                ("updated_at", models.DateTimeField(auto_now=True)),
            ],
            options={
                "ordering": ["canonical_name"],
            },
        ),
        migrations.CreateModel(
            name="Collection",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("name", models.CharField(max_length=200, unique=True)),
                ("description", models.TextField(blank=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "owner",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="owned_collections",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "reader_groups",
                    models.ManyToManyField(
                        blank=True, related_name="readable_collections", to="auth.group"
                    ),
                ),
                (
                    "readers",
                    models.ManyToManyField(
                        blank=True, related_name="readable_collections", to=settings.AUTH_USER_MODEL
                    ),
                ),
                (
                    "writer_groups",
                    models.ManyToManyField(
                        blank=True, related_name="writable_collections", to="auth.group"
                    ),
                ),
                (
                    "writers",
                    models.ManyToManyField(
                        blank=True, related_name="writable_collections", to=settings.AUTH_USER_MODEL
                    ),
                ),
            ],
            options={
                "ordering": ["name"],
            },
        ),
        migrations.CreateModel(
            name="Document",
            fields=[
                (
                    "id",
                    models.UUIDField(
                        default=uuid.uuid4, editable=False, primary_key=True, serialize=False
                    ),
                ),
                ("file", models.FileField(max_length=500, upload_to="ingestion/")),
                ("file_name", models.CharField(max_length=255)),
                ("file_path", models.CharField(max_length=1000)),
                ("directory_name", models.CharField(blank=True, max_length=255)),
                ("content_hash", models.CharField(max_length=64)),
                ("size", models.PositiveBigIntegerField(default=0)),
                ("format", models.CharField(max_length=16)),
                ("title", models.CharField(blank=True, max_length=500)),
                ("page_count", models.PositiveIntegerField(blank=True, null=True)),
                ("chunk_count", models.PositiveIntegerField(default=0)),
                ("section_count", models.PositiveIntegerField(default=0)),
                ("entity_count", models.PositiveIntegerField(default=0)),
                ("relation_count", models.PositiveIntegerField(default=0)),
                ("image_count", models.PositiveIntegerField(default=0)),
                ("graph_hash", models.CharField(blank=True, max_length=64)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("ingested_at", models.DateTimeField(blank=True, null=True)),
                (
                    "collection",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="documents",
                        to="ingestion.collection",
                    ),
                ),
                (
                    "uploaded_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ["collection", "file_path"],
            },
        ),
        migrations.CreateModel(
            name="Chunk",
            fields=[
                (
                    "id",
                    models.UUIDField(
                        default=uuid.uuid4, editable=False, primary_key=True, serialize=False
                    ),
                ),
                ("index", models.PositiveIntegerField()),
                ("text", models.TextField()),
                ("token_count", models.PositiveIntegerField()),
                ("header_text", models.CharField(blank=True, max_length=500)),
                ("header_path", models.TextField(blank=True)),
                ("header_level", models.PositiveSmallIntegerField(default=0)),
                ("page", models.PositiveIntegerField(blank=True, null=True)),
                (
                    "keywords",
                    django.contrib.postgres.fields.ArrayField(
                        base_field=models.CharField(max_length=100), default=list, size=None
                    ),
                ),
                (
                    "embedding",
                    pgvector.django.vector.VectorField(dimensions=settings.EMBEDDING_DIM),
                ),
                (
                    "search_vector",
                    models.GeneratedField(
                        db_persist=True,
                        expression=django.contrib.postgres.search.CombinedSearchVector(
                            django.contrib.postgres.search.SearchVector(
                                "header_path", config="english", weight="A"
                            ),
                            "||",
                            django.contrib.postgres.search.SearchVector(
                                "text", config="english", weight="B"
                            ),
                            django.contrib.postgres.search.SearchConfig("english"),
                        ),
                        output_field=django.contrib.postgres.search.SearchVectorField(),
                    ),
                ),
                (
                    "collection",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="chunks",
                        to="ingestion.collection",
                    ),
                ),
                (
                    "document",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="chunks",
                        to="ingestion.document",
                    ),
                ),
            ],
            options={
                "ordering": ["document", "index"],
            },
        ),
        migrations.CreateModel(
            name="Entity",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("graph_id", models.CharField(max_length=300, unique=True)),
                ("name", models.CharField(max_length=300)),
                ("type", models.CharField(max_length=50)),
                (
                    "aliases",
                    django.contrib.postgres.fields.ArrayField(
                        base_field=models.CharField(max_length=300),
                        blank=True,
                        default=list,
                        size=None,
                    ),
                ),
                ("search_names", models.TextField(blank=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
            ],
            options={
                "verbose_name_plural": "entities",
                "ordering": ["type", "name"],
                "indexes": [
                    django.contrib.postgres.indexes.GinIndex(
                        fields=["name"], name="entity_name_trgm", opclasses=["gin_trgm_ops"]
                    ),
                    django.contrib.postgres.indexes.GinIndex(
                        fields=["search_names"],
                        name="entity_names_trgm",
                        opclasses=["gin_trgm_ops"],
                    ),
                    models.Index(fields=["type"], name="entity_type"),
                ],
            },
        ),
        migrations.CreateModel(
            name="EntityMention",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("surface", models.CharField(max_length=300)),
                ("confidence", models.FloatField()),
                ("source", models.CharField(max_length=20)),
                (
                    "chunk",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="mentions",
                        to="ingestion.chunk",
                    ),
                ),
                (
                    "document",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="mentions",
                        to="ingestion.document",
                    ),
                ),
                (
                    "entity",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="mentions",
                        to="ingestion.entity",
                    ),
                ),
            ],
        ),
        migrations.CreateModel(
            name="EntityRelation",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("type", models.CharField(max_length=50)),
                ("properties", models.JSONField(blank=True, default=dict)),
                ("confidence", models.FloatField()),
                (
                    "chunk",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to="ingestion.chunk",
                    ),
                ),
                (
                    "document",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="relations",
                        to="ingestion.document",
                    ),
                ),
                (
                    "source",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="relations_out",
                        to="ingestion.entity",
                    ),
                ),
                (
                    "target",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="relations_in",
                        to="ingestion.entity",
                    ),
                ),
            ],
        ),
        migrations.CreateModel(
            name="Image",
            fields=[
                (
                    "id",
                    models.UUIDField(
                        default=uuid.uuid4, editable=False, primary_key=True, serialize=False
                    ),
                ),
                (
                    "file",
                    models.FileField(blank=True, max_length=500, upload_to="ingestion/images/"),
                ),
                ("source", models.CharField(blank=True, max_length=1000)),
                ("caption", models.TextField(blank=True)),
                ("page", models.PositiveIntegerField(blank=True, null=True)),
                ("position", models.PositiveIntegerField(default=0)),
                (
                    "chunk",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="images",
                        to="ingestion.chunk",
                    ),
                ),
                (
                    "document",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="images",
                        to="ingestion.document",
                    ),
                ),
            ],
            options={
                "ordering": ["document", "position"],
            },
        ),
        migrations.CreateModel(
            name="IngestionJob",
            fields=[
                (
                    "id",
                    models.UUIDField(
                        default=uuid.uuid4, editable=False, primary_key=True, serialize=False
                    ),
                ),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("queued", "Queued"),
                            ("running", "Running"),
                            ("finalizing", "Finalizing"),
                            ("done", "Done"),
                            ("failed", "Failed"),
                        ],
                        default="queued",
                        max_length=20,
                    ),
                ),
                ("total", models.PositiveIntegerField(default=0)),
                ("similarity_edges", models.PositiveIntegerField(default=0)),
                ("section_types", models.PositiveIntegerField(default=0)),
                ("error", models.TextField(blank=True)),
                ("worker", models.CharField(blank=True, max_length=200)),
                ("heartbeat_at", models.DateTimeField(blank=True, null=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("started_at", models.DateTimeField(blank=True, null=True)),
                ("finished_at", models.DateTimeField(blank=True, null=True)),
                (
                    "collection",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="jobs",
                        to="ingestion.collection",
                    ),
                ),
                (
                    "created_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ["-created_at"],
            },
        ),
        migrations.CreateModel(
            name="JobItem",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("file_name", models.CharField(max_length=255)),
                ("file_path", models.CharField(max_length=1000)),
                ("directory_name", models.CharField(blank=True, max_length=255)),
                ("staged_file", models.CharField(blank=True, max_length=500)),
                ("origin_dir", models.CharField(blank=True, max_length=1000)),
                ("content_hash", models.CharField(blank=True, max_length=64)),
                ("size", models.PositiveBigIntegerField(default=0)),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("queued", "Queued"),
                            ("processing", "Processing"),
                            ("done", "Done"),
                            ("skipped", "Skipped"),
                            ("failed", "Failed"),
                        ],
                        default="queued",
                        max_length=20,
                    ),
                ),
                ("stage", models.CharField(default="queued", max_length=20)),
                ("chunk_count", models.PositiveIntegerField(default=0)),
                ("section_count", models.PositiveIntegerField(default=0)),
                ("entity_count", models.PositiveIntegerField(default=0)),
                ("edge_count", models.PositiveIntegerField(default=0)),
                ("image_count", models.PositiveIntegerField(default=0)),
                ("timings", models.JSONField(blank=True, default=dict)),
                ("error", models.TextField(blank=True)),
                ("attempts", models.PositiveSmallIntegerField(default=0)),
                ("worker", models.CharField(blank=True, max_length=200)),
                ("heartbeat_at", models.DateTimeField(blank=True, null=True)),
                ("started_at", models.DateTimeField(blank=True, null=True)),
                ("finished_at", models.DateTimeField(blank=True, null=True)),
                (
                    "document",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to="ingestion.document",
                    ),
                ),
                (
                    "job",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="items",
                        to="ingestion.ingestionjob",
                    ),
                ),
            ],
            options={
                "ordering": ["job", "id"],
            },
        ),
        migrations.CreateModel(
            name="Section",
            fields=[
                (
                    "id",
                    models.UUIDField(
                        default=uuid.uuid4, editable=False, primary_key=True, serialize=False
                    ),
                ),
                ("name", models.CharField(max_length=500)),
                ("normalized_name", models.CharField(max_length=500)),
                ("level", models.PositiveSmallIntegerField()),
                ("path", models.TextField()),
                ("parent_path", models.TextField(blank=True)),
                ("position", models.PositiveIntegerField()),
                ("chunk_count", models.PositiveIntegerField(default=0)),
                ("start_chunk_index", models.IntegerField(blank=True, null=True)),
                ("end_chunk_index", models.IntegerField(blank=True, null=True)),
                (
                    "embedding",
                    pgvector.django.vector.VectorField(dimensions=settings.EMBEDDING_DIM),
                ),
                (
                    "collection",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="ingestion.collection",
                    ),
                ),
                (
                    "document",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="sections",
                        to="ingestion.document",
                    ),
                ),
                (
                    "parent",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="children",
                        to="ingestion.section",
                    ),
                ),
                (
                    "section_type",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="sections",
                        to="ingestion.sectiontype",
                    ),
                ),
            ],
            options={
                "ordering": ["document", "position"],
            },
        ),
        migrations.AddField(
            model_name="chunk",
            name="section",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="chunks",
                to="ingestion.section",
            ),
        ),
        migrations.AddConstraint(
            model_name="document",
            constraint=models.UniqueConstraint(
                fields=("collection", "file_path"), name="document_path_unique"
            ),
        ),
        migrations.AddConstraint(
            model_name="entitymention",
            constraint=models.UniqueConstraint(fields=("entity", "chunk"), name="mention_unique"),
        ),
        migrations.AddConstraint(
            model_name="entityrelation",
            constraint=models.UniqueConstraint(
                fields=("source", "target", "type", "document"), name="relation_unique"
            ),
        ),
        migrations.AddIndex(
            model_name="chunk",
            index=pgvector.django.indexes.HnswIndex(
                ef_construction=64,
                fields=["embedding"],
                m=16,
                name="chunk_embedding_hnsw",
                opclasses=["vector_cosine_ops"],
            ),
        ),
        migrations.AddIndex(
            model_name="chunk",
            index=django.contrib.postgres.indexes.GinIndex(
                fields=["search_vector"], name="chunk_search_vector"
            ),
        ),
        migrations.AddIndex(
            model_name="chunk",
            index=django.contrib.postgres.indexes.GinIndex(
                fields=["keywords"], name="chunk_keywords"
            ),
        ),
        migrations.AddConstraint(
            model_name="chunk",
            constraint=models.UniqueConstraint(
                fields=("document", "index"), name="chunk_index_unique"
            ),
        ),
        migrations.AddIndex(
            model_name="section",
            index=pgvector.django.indexes.HnswIndex(
                ef_construction=64,
                fields=["embedding"],
                m=16,
                name="section_embedding_hnsw",
                opclasses=["vector_cosine_ops"],
            ),
        ),
    ]
