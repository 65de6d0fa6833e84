from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("notifications", "0001_mail_records_and_presence"),
    ]

    operations = [
        migrations.RenameField(
            model_name="gamepresence", old_name="seen_at", new_name="present_until"
        ),
        migrations.AlterField(
            model_name="gamepresence",
            name="present_until",
            field=models.DateTimeField(
                blank=True,
                help_text="Present until then.",
                null=True,
            ),
        ),
        migrations.AddField(
            model_name="gamepresence",
            name="returned_at",
            field=models.DateTimeField(
                blank=True, help_text="When the player last came back after being away.", null=True
            ),
        ),
        # The last time a player was seen is when they last came back, as far as anyone knows:
        # mails sent before it then belong to an absence that is over.
        migrations.RunSQL(
            "UPDATE notifications_gamepresence SET returned_at = present_until",
            reverse_sql=migrations.RunSQL.noop,
        ),
    ]
