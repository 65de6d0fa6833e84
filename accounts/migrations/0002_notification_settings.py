import django.core.validators
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="profile",
            name="notify",
            field=models.CharField(
                choices=[
                    ("every_turn", "Every turn"),
                    ("daily_digest", "A daily digest"),
                    ("none", "Never"),
                ],
                default="every_turn",
                help_text="When to email this player about games waiting for their move.",
                max_length=12,
            ),
        ),
        migrations.AddField(
            model_name="profile",
            name="digest_hour",
            field=models.PositiveSmallIntegerField(
                default=8,
                help_text="The hour (0–23, in time_zone) the daily digest goes out.",
                validators=[django.core.validators.MaxValueValidator(23)],
            ),
        ),
        migrations.AddField(
            model_name="profile",
            name="time_zone",
            field=models.CharField(
                default="UTC",
                help_text="An IANA time zone name, e.g. Europe/Paris.",
                max_length=64,
            ),
        ),
    ]
