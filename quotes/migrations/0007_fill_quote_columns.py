"""Fill the columns lists and reads of quotes show (``at_least``, ``indicative``, ``design_hash``) from each existing
quote's snapshot. Only those three values leave the database (JSON key lookups), not the snapshots, and the rows
are updated a batch at a time."""

from django.db import migrations

BATCH = 500


def fill(apps, schema_editor):
    quote_model = apps.get_model("quotes", "Quote")
    rows = quote_model.objects.using(schema_editor.connection.alias).order_by("pk")
    values = rows.values_list("pk", "frozen__totals__at_least", "frozen__indicative", "frozen__receipt__design_hash")
    batch = []
    for pk, at_least, indicative, design_hash in values.iterator(chunk_size=BATCH):
        batch.append(
            quote_model(
                pk=pk,
                at_least=at_least is True,
                indicative=indicative is True,
                design_hash=design_hash if isinstance(design_hash, str) else "",
            )
        )
        if len(batch) >= BATCH:
            rows.bulk_update(batch, ["at_least", "indicative", "design_hash"])
            batch = []
    if batch:
        rows.bulk_update(batch, ["at_least", "indicative", "design_hash"])


class Migration(migrations.Migration):
    dependencies = [("quotes", "0006_quote_columns_from_snapshot")]

    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]
