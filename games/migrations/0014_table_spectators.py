"""Table.spectators: who may watch a table's partie (docs/spectators.md). Public tables admit
spectators; the private tables already opened do not (their hosts never said they may)."""

from django.db import migrations, models


def private_tables_closed_to_spectators(apps, schema_editor):
    apps.get_model("games", "Table").objects.filter(private=True).update(spectators=False)


class Migration(migrations.Migration):
    dependencies = [("games", "0013_robot_level")]

    operations = [
        migrations.AddField(
            model_name="table",
            name="spectators",
            field=models.BooleanField(default=True, verbose_name="spectateurs admis"),
        ),
        migrations.RunPython(private_tables_closed_to_spectators, migrations.RunPython.noop),
    ]
