"""Fill the columns lists and reads of quotes show (``at_least``, ``indicative``, ``design_hash``, ``agreement``) from
each existing quote's snapshot. Only those four values leave the database (JSON key lookups), not the snapshots, and the rows
are updated a batch at a time."""

from django.db import migrations

BATCH = 500
FIELDS = ["at_least", "indicative", "design_hash", "agreement"]


def fill(apps, schema_editor):
    quote_model = apps.get_model("quotes", "Quote")
    rows = quote_model.objects.using(schema_editor.connection.alias).order_by("pk")
    values = rows.values_list(
        "pk", "frozen__totals__at_least", "frozen__indicative", "frozen__receipt__design_hash", "frozen__agreement"
    )
    last = 0
    while True:  # a batch at a time, by primary key (plain queries on every database, no server-side cursor)
        page = list(values.filter(pk__gt=last)[:BATCH])
        if not page:
            return
        batch = [
            quote_model(
                pk=pk,
                at_least=at_least is True,
                indicative=indicative is True,
                design_hash=design_hash if isinstance(design_hash, str) else "",
                agreement=agreement if isinstance(agreement, dict) else None,
            )
            for pk, at_least, indicative, design_hash, agreement in page
        ]
        rows.bulk_update(batch, FIELDS)
        last = page[-1][0]


class Migration(migrations.Migration):
    dependencies = [("quotes", "0011_quote_agreement")]

    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]
