from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("ingestion", "0003_sentence_vectors"),
    ]

    operations = [
        migrations.AddField(
            model_name="chunk",
            name="page_end",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        # Chunks written before knew their first page only.
        migrations.RunSQL(
            "UPDATE ingestion_chunk SET page_end = page WHERE page IS NOT NULL",
            migrations.RunSQL.noop,
        ),
    ]
