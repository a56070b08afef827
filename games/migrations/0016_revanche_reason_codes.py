"""Revanche.reason as a code and its parameters (games.vocabulary.REVANCHE_LAPSES), read in each
player's language; the texts stored before (in the language of whoever made the offer lapse)
are read back into codes where they match the French, else kept as they were ({"code": "text"})."""

import re

from django.db import migrations, models

PATTERNS = [
    ("expired", re.compile(r"^personne n’a répondu à temps, l’offre a expiré\.$")),
    ("declined", re.compile(r"^(?P<name>.+) a décliné la revanche\.$")),
    ("not_started", re.compile(r"^la revanche n’a pas pu commencer pour (?P<name>.+?) : ", re.S)),
]


def as_code(text):
    if not text:
        return {}
    for code, pattern in PATTERNS:
        match = pattern.match(text)
        if match:
            return {"code": code, **match.groupdict()}
    return {"code": "text", "text": text}


def forwards(apps, schema_editor):
    Revanche = apps.get_model("games", "Revanche")
    for offer in Revanche.objects.exclude(reason_old="").only("pk", "reason_old"):
        Revanche.objects.filter(pk=offer.pk).update(reason=as_code(offer.reason_old))


def backwards(apps, schema_editor):
    Revanche = apps.get_model("games", "Revanche")
    for offer in Revanche.objects.exclude(reason={}).only("pk", "reason"):
        reason = offer.reason
        text = reason.get("text", "") if reason.get("code") == "text" else str(reason)
        Revanche.objects.filter(pk=offer.pk).update(reason_old=text)


class Migration(migrations.Migration):
    dependencies = [("games", "0015_end_reason_codes")]

    operations = [
        migrations.RenameField("revanche", "reason", "reason_old"),
        migrations.AddField(
            model_name="revanche",
            name="reason",
            field=models.JSONField(blank=True, default=dict, verbose_name="motif"),
        ),
        migrations.RunPython(forwards, backwards),
        migrations.RemoveField("revanche", "reason_old"),
    ]
