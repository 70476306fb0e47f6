from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0012_rename_seat_seating'),
    ]

    operations = [
        migrations.AddField(
            model_name='tournament',
            name='standings_revealed_at',
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
