from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0019_french"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="language",
            field=models.CharField(
                choices=[("en", "English"), ("fr", "Français")], default="en", max_length=8
            ),
        ),
        migrations.AddField(
            model_name="tournament",
            name="bilingual_sheets",
            field=models.BooleanField(default=False),
        ),
        migrations.AddConstraint(
            model_name="tournament",
            constraint=models.CheckConstraint(
                condition=models.Q(("language__in", ["en", "fr"])),
                name="tournament_language_known",
            ),
        ),
    ]
