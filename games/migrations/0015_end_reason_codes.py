"""Game.end_reason as a code and its parameters, rendered in the reader's language; the French
texts stored before are read back into codes (games.vocabulary.END_REASONS), and any other text
is kept as it was ({"code": "text"}). The log's end rows get the same."""

import re

from django.db import migrations, models

PATTERNS = [
    ("won", re.compile(r"^Partie gagnée\.$")),
    ("abandoned", re.compile(r"^(?P<name>.+) n'a pas rejoint la table à temps\.$")),
    ("absent", re.compile(r"^(?P<name>.+) n'a pas joué à temps (?P<count>\d+) fois de suite\.$")),
    ("idle", re.compile(r"^personne n'a joué pendant (?P<minutes>.+) minutes\.$")),
    ("moderation", re.compile(r"^décision de la modération \((?P<reason>.*)\)$", re.S)),
    (
        "excluded",
        re.compile(r"^(?P<name>.+?) a été exclu par la modération \((?P<reason>.*)\)$", re.S),
    ),
]


def as_code(text):
    if not isinstance(text, str):
        return text or {}
    if not text:
        return {}
    for code, pattern in PATTERNS:
        match = pattern.match(text)
        if match:
            params = match.groupdict()
            if "count" in params:
                params["count"] = int(params["count"])
            return {"code": code, **params}
    return {"code": "text", "text": text}


def forwards(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    GameAction = apps.get_model("games", "GameAction")
    for game in Game.objects.exclude(end_reason_text_old="").only("pk", "end_reason_text_old"):
        Game.objects.filter(pk=game.pk).update(end_reason=as_code(game.end_reason_text_old))
    for row in GameAction.objects.filter(kind="end").only("pk", "payload"):
        reason = row.payload.get("reason")
        if isinstance(reason, str):
            GameAction.objects.filter(pk=row.pk).update(
                payload={**row.payload, "reason": as_code(reason)}
            )


def backwards(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    for game in Game.objects.exclude(end_reason={}).only("pk", "end_reason"):
        reason = game.end_reason
        text = reason.get("text", "") if reason.get("code") == "text" else str(reason)
        Game.objects.filter(pk=game.pk).update(end_reason_text_old=text)


class Migration(migrations.Migration):
    dependencies = [("games", "0014_table_spectators")]

    operations = [
        migrations.RenameField("game", "end_reason", "end_reason_text_old"),
        migrations.AddField(
            model_name="game",
            name="end_reason",
            field=models.JSONField(blank=True, default=dict, verbose_name="motif de fin"),
        ),
        migrations.RunPython(forwards, backwards),
        migrations.RemoveField("game", "end_reason_text_old"),
    ]
