"""The robots' accounts (accounts.robot_names), made before a new site's first sign-up: nobody
can take a robot's name, or a look-alike, before the robots have it. On a site where a person
already holds a look-alike, the robot takes its "-robot" form (accounts.usernames)."""

from django.db import migrations


def robot_accounts_create(apps, schema_editor):
    from accounts.usernames import robot_accounts_create as create

    create(apps.get_model("accounts", "User"))


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0005_user_is_robot"),
    ]

    operations = [
        migrations.RunPython(robot_accounts_create, migrations.RunPython.noop, elidable=False),
    ]
