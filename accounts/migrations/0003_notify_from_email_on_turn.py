"""Each player's old "Email me when a game waits for my move" box becomes a notify setting.

Its own migration (its own transaction): on PostgreSQL, changing rows and then altering the
table in one transaction fails with "pending trigger events".
"""

from django.db import migrations


def keep_each_choice(apps, schema_editor):
    """Whoever had unticked "Email me when a game waits for my move" gets no mail at all."""
    Profile = apps.get_model("accounts", "Profile")
    Profile.objects.filter(email_on_turn=False).update(notify="none")
    Profile.objects.filter(email_on_turn=True).update(notify="every_turn")


def back_to_the_boolean(apps, schema_editor):
    Profile = apps.get_model("accounts", "Profile")
    Profile.objects.update(email_on_turn=True)
    Profile.objects.filter(notify="none").update(email_on_turn=False)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0002_notification_settings"),
    ]

    operations = [
        migrations.RunPython(keep_each_choice, back_to_the_boolean),
    ]
