from django.db import migrations


class Migration(migrations.Migration):
    """The model ``Seat`` is ``Seating``: ``Seat`` is the rules' word for N, E, S, W."""

    dependencies = [
        ("tournaments", "0011_tablet_version"),
    ]

    operations = [
        migrations.RenameModel(old_name="Seat", new_name="Seating"),
    ]
