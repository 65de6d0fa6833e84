from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0003_notify_from_email_on_turn"),
    ]

    operations = [
        migrations.RemoveField(model_name="profile", name="email_on_turn"),
    ]
