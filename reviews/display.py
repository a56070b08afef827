"""What the review page shows of a seat's review: each decision in the reader's language, its
options' estimated chances in percent, the agreement rate, the costliest decisions, and one
position at a time for « Trouvez mieux »."""

from typing import Any

from django.utils.translation import gettext as _

from games import vocabulary
from games.display.replay import action_text
from games.display.table_view import card_view
from games.engine import review as analysis
from games.engine import team_of


def percent(chance: float) -> int:
    return round(100 * chance)


def decision_view(number: int, found: dict[str, Any], kings, players: list[str]) -> dict[str, Any]:
    position = found["position"]
    team = team_of(position["seat"])
    played, advice = analysis.key(found["played"]), analysis.key(found["advice"])
    best = max(o["chance"] for o in found["options"])
    options = [
        {
            "number": i,
            "text": action_text(o["action"]),
            "percent": percent(o["chance"]),
            "played": analysis.key(o["action"]) == played,
            "advice": analysis.key(o["action"]) == advice,
            "best": o["chance"] == best,
        }
        for i, o in enumerate(found["options"])
    ]
    lance = position["lance"]
    return {
        "number": number,
        "hand_number": position["hand_number"],
        "moment": vocabulary.lance_name(lance) if lance else phase_name(position["phase"]),
        "cards": [card_view(code, kings) for code in position["cards"]],
        "ours": position["scores"][team],
        "theirs": position["scores"][1 - team],
        "words": [
            vocabulary.word_sentence(w, players[w["seat"]])
            for w in position["words"]
            if w["type"] != "declare"
        ],
        "played": action_text(found["played"]),
        "advice": action_text(found["advice"]),
        "agrees": found["agrees"],
        "options": options,
        "samples": found["samples"],
        "cost": percent(found["cost"]),
    }


def phase_name(phase: str) -> str:
    return {"mus": _("Mus"), "discard": _("Écart")}.get(phase, phase)


def seat_view(data: dict[str, Any], kings, players: list[str]) -> dict[str, Any]:
    rows = [decision_view(i + 1, d, kings, players) for i, d in enumerate(data["decisions"])]
    summary = data["summary"]
    agreement = summary["agreement"]
    return {
        "rows": rows,
        "count": summary["decisions"],
        "agreed": summary["agreed"],
        "agreement": None if agreement is None else percent(agreement),
        "costliest": [rows[i] for i in summary["costliest"]],
        "samples": rows[0]["samples"] if rows else analysis.SAMPLES,
    }


def quiz_view(seat: dict[str, Any], n: int | None, choice: int | None) -> dict[str, Any] | None:
    """« Trouvez mieux »: decision `n` (the costliest first when not given), its options to
    pick from, and once `choice` is picked, the robot's answer and the estimates."""
    rows = seat["rows"]
    if not rows:
        return None
    order = [r["number"] for r in seat["costliest"]] + [
        r["number"] for r in rows if r not in seat["costliest"]
    ]
    if n is None or not 1 <= n <= len(rows):
        n = order[0]
    row = rows[n - 1]
    at = order.index(n)
    picked = None
    if choice is not None and 0 <= choice < len(row["options"]):
        picked = row["options"][choice]
    return {
        "row": row,
        "picked": picked,
        "next": order[(at + 1) % len(order)],
        "position": at + 1,
        "count": len(order),
    }
