"""Tournament.state_reason and MatchPartie.note as codes and parameters (tournaments.reasons),
read in each reader's language; the French texts stored before are read back into codes, any
other text kept as it was ({"code": "text"})."""

import re

from django.db import migrations, models

PATTERNS = [
    ("too_few_pairs", re.compile(r"^Moins de deux parejas ont confirmé leur présence\.$")),
    ("absent_at_opening", re.compile(r"^Pareja absente à l’ouverture de la table\.$")),
    (
        "no_show",
        re.compile(r"^Tournoi : pareja absente (?P<minutes>.+) minutes après l’ouverture"),
    ),
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
    for model, field in (("Tournament", "state_reason"), ("MatchPartie", "note")):
        Model = apps.get_model("tournaments", model)
        for row in Model.objects.exclude(**{f"{field}_old": ""}).only("pk", f"{field}_old"):
            text = getattr(row, f"{field}_old")
            Model.objects.filter(pk=row.pk).update(**{field: as_code(text)})


def backwards(apps, schema_editor):
    for model, field in (("Tournament", "state_reason"), ("MatchPartie", "note")):
        Model = apps.get_model("tournaments", model)
        for row in Model.objects.exclude(**{field: {}}).only("pk", field):
            stored = getattr(row, field)
            text = stored.get("text", "") if stored.get("code") == "text" else str(stored)
            Model.objects.filter(pk=row.pk).update(**{f"{field}_old": text})


def swap(model, field):
    return [
        migrations.RenameField(model, field, f"{field}_old"),
        migrations.AddField(
            model_name=model,
            name=field,
            field=models.JSONField(blank=True, default=dict, verbose_name="motif"),
        ),
    ]


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0001_tournaments")]

    operations = [
        *swap("tournament", "state_reason"),
        *swap("matchpartie", "note"),
        migrations.RunPython(forwards, backwards),
        migrations.RemoveField("tournament", "state_reason_old"),
        migrations.RemoveField("matchpartie", "note_old"),
    ]
