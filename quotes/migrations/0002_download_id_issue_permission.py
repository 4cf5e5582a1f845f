# An opaque download id for the e-mailed (signed, expiring) links, and the ``issue_quote`` permission.
# Three steps (nullable field, fill every row with its own value, then unique), because a callable default
# gives every existing row the same value when a unique column is added in one go.

import secrets

from django.db import migrations, models

import quotes.models


def fill_download_ids(apps, schema_editor):
    Quote = apps.get_model("quotes", "Quote")
    for pk in Quote.objects.filter(download_id__isnull=True).values_list("pk", flat=True).iterator():
        Quote.objects.filter(pk=pk).update(download_id=secrets.token_urlsafe(18))


class Migration(migrations.Migration):
    dependencies = [
        ("quotes", "0001_initial"),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="quote",
            options={
                "ordering": ["-created_at", "-id"],
                "permissions": [
                    ("approve_quote", "Can approve quotes with a discount above the threshold"),
                    ("issue_quote", "Can issue quotes whose design warnings were accepted"),
                ],
            },
        ),
        migrations.AddField(
            model_name="quote",
            name="download_id",
            field=models.CharField(editable=False, max_length=32, null=True),
        ),
        migrations.RunPython(fill_download_ids, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="quote",
            name="download_id",
            field=models.CharField(
                default=quotes.models.new_download_id, editable=False, max_length=32, unique=True
            ),
        ),
    ]
