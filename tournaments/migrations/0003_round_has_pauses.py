from django.db import migrations, models


def mark_paused_rounds(apps, schema_editor):
    Round = apps.get_model("tournaments", "Round")
    Round.objects.filter(pauses__isnull=False).update(has_pauses=True)


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0002_order_by_key_columns'),
    ]

    operations = [
        migrations.AddField(
            model_name='round',
            name='has_pauses',
            field=models.BooleanField(default=False),
        ),
        migrations.RunPython(mark_paused_rounds, migrations.RunPython.noop),
    ]
