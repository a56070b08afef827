"""What one player sees at the table: engine observation -> view model -> template context.

Pure functions, no database. The only game input is the viewer's ``Observation``
(games.engine.observation), never the engine state, so nothing hidden can leak. Each region of
the table (:data:`REGIONS`, each name also the id of its root element and of its Jinja2
template, templates/jinja2/games/regions/<name>.html, which the page games/table.html shows
too) has one builder below, in the page's order; :func:`build_table` calls them all and
:func:`table_context` adds what every form needs (``action_url``, ``salle_url``, ``ws_url``,
``oob``, ``flash``).

Forms post ``type``, ``version`` and, by type, ``amount`` (bet), ``to`` (raise) or ``cards``
(discard, repeated), with ``hx-swap="none"``: the answer holds every region out of band
(:func:`render_regions`), and static/js/table.js lets htmx swap the 409 and 422 answers too.
A consumer rendering without a request may put ``csrf_token`` in the context itself.

``presence``: ``{seat: seconds_left}`` of the away seats; static/js/live.js ticks the clock.

``clock``: the game's turn clock (``Game.clock``, None for a game without one) and ``now_ms``
the server's time it is read at: each seat gets its decision time and reserve left, drawn with
the deadline and the server's now as data attributes that static/js/clock.js counts down, so a
reload shows the stored deadline, never a guess. Its ``timed_out`` entries mark the words (and
the deal) the clock made, "temps écoulé".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Literal, get_args

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.template.context_processors import csrf
from django.templatetags.static import static
from django.utils.translation import gettext_lazy, pgettext

from core import jinja, translations
from core.translations import gettext as _
from games import vocabulary
from games.display import answers
from games.display.score_screen import hand_summary, past_hands
from games.engine import TARGET, ActionType, Kings, Lance, LegalAction, Observation, team_of
from games.engine.types import Declarations, HandRecord, LanceRecord, PublicEnvite

REGIONS: tuple[str, ...] = (
    "flash",
    "away-banner",
    "scoreboard",
    "table-seats",
    "lance-status",
    "my-hand",
    "decision-panel",
    "hand-log",
    "score-screen",
)

POSITIONS: tuple[str, ...] = ("bottom", "right", "top", "left")
LANCE_ORDER: tuple[Lance, ...] = get_args(Lance)
QUICK_BETS: tuple[int, ...] = (2, 5, 10)

#: A view model: plain dicts for the templates.
View = dict[str, Any]


RELATIONS: dict[str, str] = {
    "bottom": gettext_lazy("Vous"),
    "right": gettext_lazy("Adversaire"),
    "top": gettext_lazy("Partenaire"),
    "left": gettext_lazy("Adversaire"),
}
#: The viewer's team and the other one, on their side of the table.
US, THEM = gettext_lazy("Nous"), gettext_lazy("Eux")
AND_LAST = gettext_lazy("%(names)s et %(last)s")
TIMED_OUT = gettext_lazy("%(word)s (temps écoulé)")
#: A seat's box: its cards face down (the screen reader's name), and its discards so far.
HIDDEN_CARDS = gettext_lazy("%(cards)s cartes cachées")
CHANGED = gettext_lazy("a changé %(changed)s")


def relation(position: str) -> str:
    """Who the player at ``position`` is to the viewer: "Vous", "Partenaire", "Adversaire"."""
    return vocabulary.in_language(RELATIONS[position])


# ---------------------------------------------------------------- small helpers


#: With eight kings, threes are kings and twos are aces ("Quatre ou huit rois" in the rules).
EIGHT_KINGS_COUNTS_AS: dict[int, str] = {3: gettext_lazy("roi"), 2: gettext_lazy("as")}


def card_view(code: str, kings: Kings = 4) -> View:
    """Everything a template needs to draw one face-up card. In a game with eight ``kings`` a
    three or a two says what it counts as: ``counts_as`` ("roi", "as"), drawn as a small "= roi"
    under its rank, and its screen-reader name "Trois de coupes (compte comme un roi)"."""
    key = (vocabulary.active_language(), code, kings)
    view = _card_views.get(key)
    if view is None:
        view = _card_views[key] = _new_card_view(code, kings)
    return dict(view)  # a copy: a caller may add to its card


#: card_view's answers by (language, code, kings): a card's words and picture never change, and
#: translating its name and looking up its picture's hashed URL cost more than the rest of the
#: card's render. At most 40 cards × 2 × the languages; dict reads and writes are atomic.
_card_views: dict[tuple[str | None, str, Kings], View] = {}


def _new_card_view(code: str, kings: Kings) -> View:
    rank = vocabulary.card_rank(code)
    counts_as = str(EIGHT_KINGS_COUNTS_AS.get(rank, "")) if kings == 8 else ""
    name = vocabulary.card_name(code)
    if counts_as:
        name = _("%(card)s (compte comme un %(rank)s)") % {"card": name, "rank": counts_as}
    suit = vocabulary.card_suit(code)
    image = f"cards/{code}.svg"  # drawn by scripts/draw_cards.py
    return {
        "code": code,
        "name": name,
        "counts_as": counts_as,
        "suit": vocabulary.SUIT_SLUGS[suit],
        "suit_name": str(vocabulary.SUIT_NAMES[suit]),
        "image": image,
        "image_url": static(image),
    }


@receiver(setting_changed)
def _forget_card_views(*, setting: str, **kwargs: Any) -> None:
    """A test that changes where static files are served from gets fresh picture URLs."""
    if setting in ("STATIC_URL", "STORAGES", "STATIC_ROOT"):
        _card_views.clear()


def team_labels(viewer: int | None, team_names: list[str] | None = None) -> list[str]:
    if team_names:
        return list(team_names)
    if viewer is None:
        return [_("Équipe 1"), _("Équipe 2")]
    labels = ["", ""]
    labels[team_of(viewer)] = vocabulary.in_language(US)
    labels[1 - team_of(viewer)] = vocabulary.in_language(THEM)
    return labels


def join_names(names: list[str]) -> str:
    if len(names) < 2:
        return "".join(names)
    return vocabulary.in_language(AND_LAST) % {"names": ", ".join(names[:-1]), "last": names[-1]}


def lance_winner(record: LanceRecord, players: list[str], teams: list[str]) -> str | None:
    """Who took a lance: the team, and its player when one hand decided it ("Nous (Ane)")."""
    team, seat = record["winner_team"], record["winner_seat"]
    if team is None:
        return None
    return teams[team] + (f" ({players[seat]})" if seat is not None else "")


def declared(declarations: Declarations) -> list[tuple[Lance, list[bool]]]:
    """The lances whose declarations were made, with who has Paires / Jeu."""
    made: list[tuple[Lance, list[bool] | None]] = [
        ("paires", declarations["paires"]),
        ("jeu", declarations["jeu"]),
    ]
    return [(lance, values) for lance, values in made if values is not None]


def clock(seconds: int) -> str:
    """42 -> "0:42", 75 -> "1:15" (the countdown of an away seat)."""
    seconds = max(0, int(seconds))
    return f"{seconds // 60}:{seconds % 60:02d}"


def clock_ms(ms: int) -> str:
    """Milliseconds left as the countdown shows them, whole seconds rounded up: 4001 -> "0:05"."""
    return clock(-(-max(0, ms) // 1000))


#: A running clock is marked for its last seconds (a colour and the words "dernières secondes").
URGENT_MS = 5000


def seat_clock(entry: Mapping[str, Any], limit_seconds: float, now_ms: int) -> View:
    """One seat's clock: while it runs (``deadline`` set), the decision time left (``limit_seconds``
    from ``started``), then the reserve it eats; otherwise the reserve it still has."""
    reserve_ms = int(entry["reserve_ms"])
    deadline = entry["deadline"]
    if deadline is None:
        return {"running": False, "reserve_left": clock_ms(reserve_ms), "urgent": False}
    turn_ends = min(int(entry["started"]) + round(limit_seconds * 1000), int(deadline))
    turn_left = max(0, turn_ends - now_ms)
    # A decision without a reserve (the deal) has its deadline at its limit: the reserve is kept.
    reserve_left = (
        min(reserve_ms, max(0, int(deadline) - max(now_ms, turn_ends)))
        if deadline > turn_ends
        else reserve_ms
    )
    return {
        "running": True,
        "now": now_ms,
        "turn_ends": turn_ends,
        "deadline": int(deadline),
        "turn_left": clock_ms(turn_left),
        "reserve_left": clock_ms(reserve_left),
        "in_reserve": turn_left == 0,
        "urgent": int(deadline) - now_ms <= URGENT_MS,
    }


def build_clocks(
    game_clock: Mapping[str, Any] | None, observation: Observation, now_ms: int
) -> list[View | None]:
    """Each seat's clock by seat number (all None for a game without a clock; None for a
    robot's seat, which has no time limit)."""
    if not game_clock or observation["status"] == "finished":
        return [None] * 4
    limit = game_clock["deal"] if observation["status"] == "hand_over" else game_clock["turn"]
    robots = set(game_clock.get("robots", ()))
    return [
        None if number in robots else seat_clock(entry, float(limit), now_ms)
        for number, entry in enumerate(game_clock["seats"])
    ]


def timed_out_words(game_clock: Mapping[str, Any] | None, observation: Observation) -> set[int]:
    """The indexes of this hand's words the clock made: for each ``timed_out`` entry of the
    hand, the seat's first word from the entry's ``words`` on."""
    made: set[int] = set()
    words = observation["words"]
    for entry in (game_clock or {}).get("timed_out", []):
        if entry["hand"] != observation["hand_number"] or entry["type"] == "deal":
            continue
        index = next(
            (i for i in range(entry["words"], len(words)) if words[i]["seat"] == entry["seat"]),
            None,
        )
        if index is not None:
            made.add(index)
    return made


def dealt_by_clock(game_clock: Mapping[str, Any] | None, observation: Observation) -> bool:
    """Whether this hand was dealt by the clock (the host's deal at the end of the hand before)."""
    return any(
        entry["type"] == "deal" and entry["hand"] + 1 == observation["hand_number"]
        for entry in (game_clock or {}).get("timed_out", [])
    )


def timed_out_text(text: str) -> str:
    return vocabulary.in_language(TIMED_OUT) % {"word": text}


# ---------------------------------------------------------------- regions, in template order


def build_scoreboard(
    observation: Observation, players: list[str], viewer: int, teams: list[str]
) -> list[View]:
    """Region ``scoreboard``: the viewer's team first."""
    mine = team_of(viewer)
    return [
        {
            "team": team,
            "label": teams[team],
            "names": join_names([players[team], players[team + 2]]),
            "score": observation["scores"][team],
            "target": TARGET,
            "mine": team == mine,
        }
        for team in (mine, 1 - mine)
    ]


def build_seats(
    observation: Observation,
    players: list[str],
    viewer: int,
    presence: dict[int, int],
    clocks: list[View | None] | None = None,
    by_clock: set[int] | None = None,
    robots: list[bool] | None = None,
) -> list[View]:
    """Region ``table-seats``: the four seats in screen order: me (bottom), right, partner
    (top), left; each with its ``clock`` (:func:`build_clocks`), its last word, "temps
    écoulé" when the clock made it (``by_clock``: :func:`timed_out_words`), and whether it is
    a computer player (``robots``, by seat number)."""
    clocks = clocks or [None] * 4
    robots = robots or [False] * 4
    by_clock = by_clock or set()
    to_act = set(observation["to_act"])
    ready = observation["discard_ready"]
    words = observation["words"]
    declarations = observation["declarations"]
    in_discard = observation["phase"] == "discard"
    seats = []
    for offset in range(4):
        seat = (viewer + offset) % 4
        spoken = [i for i, word in enumerate(words) if word["seat"] == seat]
        last_index = spoken[-1] if spoken else None
        last_word = vocabulary.word_text(words[last_index]) if last_index is not None else ""
        if last_index in by_clock:
            last_word = timed_out_text(last_word)
        changed = [r[seat] for r in observation["discard_rounds"]]
        decl = [
            {
                "lance": vocabulary.lance_name(lance),
                "has": values[seat],
                "text": vocabulary.in_language(vocabulary.YES if values[seat] else vocabulary.NO),
            }
            for lance, values in declared(declarations)
        ]
        away = presence.get(seat)
        backs = range(0 if offset == 0 else 4)
        seats.append(
            {
                "seat": seat,
                "name": players[seat],
                "is_robot": robots[seat],
                "position": POSITIONS[offset],
                "relation": relation(POSITIONS[offset]),
                "is_me": offset == 0,
                "team": team_of(seat),
                "is_mano": observation["mano"] == seat,
                "is_first_speaker": observation["mano"] is None
                and observation["first_speaker"] == seat,
                "is_turn": seat in to_act and observation["status"] == "playing",
                "discard_ready": ready[seat] if in_discard else None,
                "changed": changed,
                "changed_total": sum(changed),
                "changed_text": vocabulary.in_language(CHANGED)
                % {"changed": ", ".join(str(n) for n in changed)},
                "last_word": last_word,
                "last_word_timed_out": last_index in by_clock,
                "clock": clocks[seat],
                "declarations": decl,
                "backs": backs,
                "hidden_cards": vocabulary.in_language(HIDDEN_CARDS) % {"cards": len(backs)},
                "away": away is not None,
                "away_seconds": away,
                "away_clock": clock(away) if away is not None else "",
            }
        )
    return seats


def build_away_banner(seats: list[View], status: str) -> View:
    """Region ``away-banner``: every away seat but the viewer's, with its countdown to the
    partie's cancellation, and the partie's status (static/js/leave.js asks before leaving
    only while it is played). The viewer's own away seat is a return: ``returned_clock``, the
    time they had left, shown once by the page they came back on."""
    mine = next((s for s in seats if s["is_me"]), None)
    return {
        "status": status,
        "away": [s for s in seats if s["away"] and not s["is_me"]],
        "returned_clock": mine["away_clock"] if mine is not None and mine["away"] else "",
    }


def build_turn(
    observation: Observation, players: list[str], viewer: int, host_name: str | None
) -> View:
    """Whose turn it is, in words, for the seats' centre and the panel (``host_name`` None:
    the viewer is the host)."""
    status = observation["status"]
    if status == "finished":
        return {"mine": False, "text": _("Partie terminée.")}
    if status == "hand_over":
        if host_name is None:
            return {"mine": False, "text": _("Fin de la main : à vous de distribuer la suivante.")}
        text = _("Fin de la main : %(name)s distribue la suivante.") % {"name": host_name}
        return {"mine": False, "text": text}
    if any(a["type"] != "deal" for a in observation["legal"]):
        return {"mine": True, "text": _("À vous de parler.")}
    to_act = observation["to_act"]
    if observation["phase"] == "discard":
        to_act = [s for s in to_act if not observation["discard_ready"][s]]
    others = [players[s] for s in to_act if s != viewer]
    if not others:
        return {"mine": False, "text": _("En attente…")}
    return {"mine": False, "text": _("En attente de %(names)s…") % {"names": join_names(others)}}


def describe_envite(
    betting: PublicEnvite | None,
    players: list[str],
    teams: list[str],
    viewer_team: int | None = None,
) -> View | None:
    """The open envite of the current lance, in words (whose answer it awaits said from the
    viewer's side when there is one: « de votre équipe », « d’eux »)."""
    if betting is None:
        return None
    stake = betting["stake"]
    bettor, answering = betting["bettor_team"], betting["answering_team"]
    if stake is None:
        text = _("Personne n'a encore misé.")
    elif stake == "ordago":
        text = (
            _("Órdago de %(team)s !") % {"team": teams[bettor]}
            if bettor is not None
            else _("Órdago !")
        )
    else:
        text = _("Mise en jeu : %(points)s%(team)s.") % {
            "points": vocabulary.points(stake),
            "team": f" ({teams[bettor]})" if bettor is not None else "",
        }
    held = betting["held"]
    votes = [
        vocabulary.word_sentence({"seat": int(seat_key), **vote}, players[int(seat_key)])
        for seat_key, vote in sorted(betting["votes"].items())
    ]
    eligible = betting["eligible"]
    return {
        "text": text,
        "stake": stake,
        "held": held,
        "held_text": _("Déjà tenu : %(points)s.") % {"points": vocabulary.points(held)}
        if held
        else "",
        "answering": _answer_awaited(answering, viewer_team, teams)
        if answering is not None and stake is not None
        else "",
        "votes": votes,
        "eligible": join_names([players[s] for s in eligible]) if len(eligible) < 4 else "",
    }


def _answer_awaited(answering: int, viewer_team: int | None, teams: list[str]) -> str:
    if viewer_team is None:
        return _("Réponse attendue : %(team)s.") % {"team": teams[answering]}
    return vocabulary.answer_awaited(answering == viewer_team)


def build_lance_status(observation: Observation, players: list[str], teams: list[str]) -> View:
    """Region ``lance-status``: the lance (or phase) under way, its envite, the declarations."""
    declarations = [
        {
            "lance": vocabulary.lance_name(lance),
            "items": [
                {
                    "name": players[s],
                    "has": values[s],
                    "text": vocabulary.in_language(vocabulary.YES if values[s] else vocabulary.NO),
                }
                for s in range(4)
            ],
        }
        for lance, values in declared(observation["declarations"])
    ]
    phase, lance = observation["phase"], observation["lance"]
    return {
        "title": vocabulary.lance_name(lance)
        if lance
        else vocabulary.in_language(vocabulary.PHASE_NAMES[phase]),
        "lance": lance,
        "phase": phase,
        "hand_number": observation["hand_number"],
        "kings": observation["kings"],
        "pioche_size": observation["pioche_size"],
        "discard_round_count": len(observation["discard_rounds"]),
        "declarations": declarations,
        "envite": describe_envite(
            observation["betting"],
            players,
            teams,
            None if observation["seat"] is None else team_of(observation["seat"]),
        ),
    }


def _button(kind: ActionType, css: str = "", **form: Any) -> View:
    """One form of the decision_button macro (games/_table_parts.html): posts ``type`` (and
    ``hidden`` / ``number`` fields); ``label`` defaults to the action's."""
    form.setdefault("label", vocabulary.action_label(kind))
    form.setdefault("key", shortcut_key(kind))
    # Every field the macro tests, even when empty: a missing key costs an Undefined each time.
    return {"type": kind, "button_class": f"tbtn {css}".strip(), **BUTTON_FIELDS, **form}


BUTTON_FIELDS: View = {
    "form_id": "",
    "form_class": "",
    "range": None,
    "hidden": None,
    "hint": "",
    "number": None,
}


def shortcut_key(kind: ActionType) -> str:
    """The key that presses a decision's button (static/js/shortcuts.js): a French mnemonic,
    one per decision, so no two buttons of a panel share one."""
    language = vocabulary.active_language()
    keys = _shortcut_keys.get(language)
    if keys is None:
        keys = _shortcut_keys[language] = _translated_shortcut_keys()
    return keys[kind]


#: The shortcut keys by language, translated once (ten pgettext calls per button otherwise).
_shortcut_keys: dict[str | None, dict[ActionType, str]] = {}


def _translated_shortcut_keys() -> dict[ActionType, str]:
    return {
        "mus": pgettext("keyboard shortcut of Mus", "M"),
        "cut": pgettext("keyboard shortcut of Je coupe", "C"),
        "discard": pgettext("keyboard shortcut of Écarter", "E"),
        "pass": pgettext("keyboard shortcut of Je passe", "P"),
        "hold": pgettext("keyboard shortcut of Je tiens", "T"),
        "refuse": pgettext("keyboard shortcut of Je ne tiens pas", "N"),
        "bet": pgettext("keyboard shortcut of Mise (free amount)", "S"),
        "raise": pgettext("keyboard shortcut of Relancer", "R"),
        "ordago": pgettext("keyboard shortcut of Órdago", "O"),
        "deal": pgettext("keyboard shortcut of Distribuer la main suivante", "D"),
    }


def _amount_buttons(kind: ActionType, legal: LegalAction) -> list[View]:
    """A bet: one button per quick amount in the engine's range, then the free amount; a raise:
    the free amount only."""
    low, high = legal["min"], legal["max"]
    if kind == "bet":
        field, field_id, label = "amount", "bet-amount", _("Points (%(min)s à %(max)s)")
        quick = [
            _button(
                "bet",
                "tbtn--quick",
                label=_("Mise %(amount)s") % {"amount": q},
                form_class="form-quick",
                hidden={"name": "amount", "value": q},
                key=str(q)[0],  # the amount's first digit: 2, 5, 1 for 10
            )
            for q in QUICK_BETS
            if low <= q <= high
        ]
    else:
        field, field_id, label = "to", "raise-to", _("Relancer à (%(min)s à %(max)s)")
        quick = []
    number = {
        "id": field_id,
        "name": field,
        "label": label % {"min": low, "max": high},
        "min": low,
        "max": high,
    }
    return [*quick, _button(kind, form_class="form-amount", number=number)]


def decision_buttons(legal: list[LegalAction]) -> list[View]:
    """Every form of the panel, in the panel's order, built only from the engine's ``legal``."""
    by_type = {item["type"]: item for item in legal}
    buttons: list[View] = []
    order: tuple[tuple[ActionType, str], ...] = (
        ("mus", "tbtn--primary"),
        ("cut", ""),
        ("discard", "tbtn--primary"),
        ("pass", ""),
        ("hold", "tbtn--primary"),
        ("refuse", ""),
        ("bet", ""),
        ("raise", ""),
        ("ordago", "tbtn--ordago"),
    )
    for kind, css in order:
        item = by_type.get(kind)
        if item is None:
            continue
        if kind in ("bet", "raise"):
            buttons += _amount_buttons(kind, item)
        elif kind == "discard":
            hint = _("Cochez de %(min)s à %(max)s cartes dans votre main.")
            buttons.append(
                _button(
                    kind,
                    css,
                    form_id="discard-form",
                    range={"min": item["min"], "max": item["max"]},
                    hint=hint % {"min": item["min"], "max": item["max"]},
                )
            )
        else:
            buttons.append(_button(kind, css))
    return buttons


def attention_cue(observation: Observation) -> str:
    """What should catch the viewer's eye outside the page (static/js/attention.js: the title,
    a sound, a notification): "ordago" or "bet" when they must answer one, "turn" when they
    have any other decision, else ""."""
    types = {item["type"] for item in observation["legal"]} - {"deal"}
    if types & {"hold", "refuse"}:
        betting = observation["betting"]
        return "ordago" if betting and betting["stake"] == "ordago" else "bet"
    return "turn" if types else ""


def build_panel(
    observation: Observation, players: list[str], viewer: int, turn: View, host_seat: int | None
) -> View:
    """Region ``decision-panel``: a prompt and the forms, only from observation["legal"]."""
    legal = observation["legal"]
    types = {item["type"] for item in legal}
    prompt = ""
    if types & {"mus", "cut"}:
        prompt = _("Mus ou couper ?")
    elif "discard" in types:
        d = next(item for item in legal if item["type"] == "discard")
        prompt = _("Choisissez de %(min)s à %(max)s cartes à écarter.") % {
            "min": d["min"],
            "max": d["max"],
        }
    elif types & {"hold", "refuse"}:
        stake = observation["betting"]["stake"] if observation["betting"] else None
        amount = _("un órdago") if stake == "ordago" else vocabulary.points(stake or 0)
        prompt = _("On vous mise %(amount)s %(at_lance)s.") % {
            "amount": amount,
            "at_lance": vocabulary.at_lance(observation["lance"]),
        }
    elif types & {"pass", "bet"}:
        prompt = _("%(lance)s : à vous.") % {"lance": vocabulary.lance_name(observation["lance"])}
    # Both partners answer a bet at once: only what can still change the team's answer.
    legal, partner_note = answers.answer_choices(observation, viewer, players[(viewer + 2) % 4])
    discard_status = []
    if observation["phase"] == "discard":
        ready = observation["discard_ready"]
        discard_status = [
            {"name": players[(viewer + i) % 4], "ready": ready[(viewer + i) % 4]} for i in range(4)
        ]
    return {
        "version": observation["version"],
        "types": sorted(types),
        "active": bool(types - {"deal"}),
        "buttons": decision_buttons([item for item in legal if item["type"] != "deal"]),
        "deal": "deal" in types and host_seat in (None, viewer),
        "waiting": "" if turn["mine"] else turn["text"],
        "prompt": prompt,
        "cue": attention_cue(observation),
        "partner_note": partner_note,
        "discard_status": discard_status,
    }


def lance_result_text(record: LanceRecord, players: list[str], teams: list[str]) -> str:
    """A decided lance as the last line of its log section: "Grand : tenue, pour Nous (Ane)."."""
    text = (
        f"{vocabulary.lance_name(record['lance'])} : {vocabulary.outcome_name(record['outcome'])}"
    )
    winner = lance_winner(record, players, teams)
    if winner is not None:
        text += _(", pour %(winner)s") % {"winner": winner}
    if record["deje"]:
        text += _(", deje %(points)s") % {"points": vocabulary.points(record["deje"])}
    return text + "."


def build_log(
    observation: Observation,
    players: list[str],
    teams: list[str],
    by_clock: set[int] | None = None,
    dealt_by_clock: bool = False,
) -> list[View]:
    """Region ``hand-log``: the hand so far, in sections: Mus, then one per lance reached; the
    words the clock made (``by_clock``) and a deal it made say "temps écoulé"."""
    by_clock = by_clock or set()
    sections: list[View] = []
    if dealt_by_clock:
        sections.append(
            {
                "key": "deal",
                "title": _("Donne"),
                "lines": [_("Main distribuée automatiquement (temps écoulé).")],
                "deje_lines": [],
            }
        )

    def section(key: Lance | Literal["mus"]) -> View:
        if not sections or sections[-1]["key"] != key:
            title = _("Mus") if key == "mus" else vocabulary.lance_name(key)
            sections.append({"key": key, "title": title, "lines": [], "deje_lines": []})
        return sections[-1]

    counted = answers.counted_answers(observation["words"], observation["mano"], players)
    for index, word in enumerate(observation["words"]):
        lance = word.get("lance") if word["type"] not in ("mus", "cut", "discard") else None
        line = vocabulary.word_sentence(word, players[word["seat"]])
        lines = section(lance or "mus")["lines"]
        lines.append(timed_out_text(line) if index in by_clock else line)
        if index in counted:
            lines.append(counted[index])
    for record in observation["lances"]:
        target = next((s for s in sections if s["key"] == record["lance"]), None)
        if target is None:
            target = section(record["lance"])
        text = lance_result_text(record, players, teams)
        if record["deje"] and record["winner_team"] is not None:
            # The deje is scored when the bet is refused, not at the count: marked where it is.
            target["deje_lines"].append(len(target["lines"]))
            text += " " + _("Marqué tout de suite : %(team)s +%(points)s.") % {
                "team": teams[record["winner_team"]],
                "points": record["deje"],
            }
        target["lines"].append(text)
    return sections


def _hand_points(observation: Observation) -> list[int] | None:
    """What each team won in the hand just closed (the last of ``hands``)."""
    hands = observation["hands"]
    if not hands:
        return None
    after = hands[-1]["scores_after"]
    before = hands[-2]["scores_after"] if len(hands) > 1 else [0, 0]
    return [after[0] - before[0], after[1] - before[1]]


def build_score_screen(
    observation: Observation,
    players: list[str],
    viewer: int,
    teams: list[str],
    host_seat: int | None,
    scoreboard: list[View],
    robots: list[bool] | None = None,
) -> View | None:
    """Region ``score-screen`` at hand_over / finished: four hands (``robots``: which seats
    are computer players), each lance, the totals."""
    if observation["status"] not in ("hand_over", "finished"):
        return None
    robots = robots or [False] * 4
    shown = observation["hands_shown"]
    kings = observation["kings"]
    hands = []
    for offset in range(4):
        seat = (viewer + offset) % 4
        cards = (shown or {}).get(str(seat))
        hands.append(
            {
                "seat": seat,
                "name": players[seat],
                "is_robot": robots[seat],
                "relation": relation(POSITIONS[offset]),
                "team_label": teams[team_of(seat)],
                "is_mano": observation["mano"] == seat,
                "cards": [card_view(c, kings) for c in cards] if cards else [],
            }
        )
    records = observation["hands"]
    closed: HandRecord = {
        "mano": observation["mano"],
        "lances": observation["lances"],
        "scores_after": observation["scores"],
    }
    if shown:
        closed["hands_shown"] = shown
    explained = hand_summary(
        closed,
        records[-2]["scores_after"] if len(records) > 1 else [0, 0],
        kings,
        players,
        teams,
        team_of(viewer),
        last_of_partie=observation["status"] == "finished",
    )
    lances = explained["rows"]
    gained = _hand_points(observation)
    mine = team_of(viewer)
    host_name = players[host_seat] if host_seat is not None else _("L'hôte")
    legal_deal = any(a["type"] == "deal" for a in observation["legal"])
    is_host = host_seat is None or host_seat == viewer
    return {
        "hand_number": observation["hand_number"],
        "shown": bool(shown),
        "hands": hands,
        "lances": lances,
        "headline": explained["headline"],
        "gained": (
            [
                {"label": teams[mine], "points": gained[mine]},
                {"label": teams[1 - mine], "points": gained[1 - mine]},
            ]
            if gained
            else None
        ),
        "totals": scoreboard,
        "finished": observation["status"] == "finished",
        "can_deal": legal_deal and is_host and observation["status"] == "hand_over",
        "deal_button": _button("deal", "tbtn--primary"),
        "host_deals_text": (
            _("%(name)s distribue la main suivante.") % {"name": host_name} if not is_host else ""
        ),
    }


def build_partie_over(
    observation: Observation, viewer: int, teams: list[str], scoreboard: list[View]
) -> View | None:
    """The banner of the score screen once the partie is won."""
    winner = observation["winner"]
    if observation["status"] != "finished" or winner is None:
        return None
    we_won = team_of(viewer) == winner
    scores = observation["scores"]
    return {
        "winner": winner,
        "winner_label": teams[winner],
        "we_won": we_won,
        "text": _("Vous avez gagné la partie !")
        if we_won
        else _("%(team)s gagnent la partie.") % {"team": teams[winner]},
        "final": _("%(ours)s à %(theirs)s")
        % {"ours": scores[team_of(viewer)], "theirs": scores[1 - team_of(viewer)]},
        "totals": scoreboard,
    }


# ---------------------------------------------------------------- the whole table


def build_announcement(
    observation: Observation,
    players: list[str],
    teams: list[str],
    turn: View,
    panel: View,
    by_clock: set[int],
) -> str:
    """What the table's one persistent live region says after this render (static/js/
    announce.js speaks it when it changed): the newest public word, the lances decided since,
    then the viewer's turn and its question, or the end of the hand or of the partie."""
    parts: list[str] = []
    words = observation["words"]
    since = 0
    if words:
        word = words[-1]
        line = vocabulary.word_sentence(word, players[word["seat"]])
        parts.append(timed_out_text(line) if len(words) - 1 in by_clock else line)
        if word["type"] not in ("mus", "cut", "discard") and "lance" in word:
            since = LANCE_ORDER.index(word["lance"])
    parts += [
        lance_result_text(record, players, teams)
        for record in observation["lances"]
        if LANCE_ORDER.index(record["lance"]) >= since
    ]
    if panel["active"]:
        parts += [turn["text"], panel["prompt"]]
    elif observation["status"] != "playing":
        parts.append(turn["text"])
    # A word has no full stop ("Ane : Mus"): spoken before the next part, it needs one.
    return " ".join(part if part[-1] in ".!?…" else f"{part}." for part in parts if part)


def build_table(
    observation: Observation,
    players: list[str],
    viewer_seat: int | None,
    *,
    host_seat: int | None = None,
    presence: dict[int, int] | None = None,
    team_names: list[str] | None = None,
    game_clock: Mapping[str, Any] | None = None,
    now_ms: int = 0,
    robots: list[bool] | None = None,
    alike: dict | None = None,
) -> View:
    """The whole view model of the table for one viewer (the public view sits at seat 0);
    ``robots``: which seats (by number) are computer players. ``alike``: a dict the caller
    keeps for one game version and passes to each of its viewers' builds: what the two players
    of a team see alike (the hand's log, the lance under way, the scoreboard, the past hands,
    all built from public facts) is built for the first of them and reused for the other."""
    with vocabulary.one_language():
        return _build_table(
            observation,
            players,
            viewer_seat,
            host_seat=host_seat,
            presence=presence,
            team_names=team_names,
            game_clock=game_clock,
            now_ms=now_ms,
            robots=robots,
            alike=alike,
        )


def _build_table(
    observation: Observation,
    players: list[str],
    viewer_seat: int | None,
    *,
    host_seat: int | None,
    presence: dict[int, int] | None,
    team_names: list[str] | None,
    game_clock: Mapping[str, Any] | None,
    now_ms: int,
    robots: list[bool] | None,
    alike: dict | None,
) -> View:
    seat = viewer_seat if viewer_seat is not None else observation["seat"]
    viewer = seat if seat is not None else 0
    teams = team_labels(seat, team_names)
    # Everything these builders read but the version's public facts (the caller's dict).
    team_key = (team_of(viewer), tuple(teams), translations.language())

    def for_the_team(name: str, build: Callable[[], Any]) -> Any:
        if alike is None:
            return build()
        key = (name, *team_key)
        if key not in alike:
            alike[key] = build()
        return alike[key]

    if host_seat is None:
        host_name: str | None = _("L'hôte")
    else:
        host_name = None if host_seat == viewer else players[host_seat]
    clocks = build_clocks(game_clock, observation, now_ms)
    by_clock = timed_out_words(game_clock, observation)
    seats = build_seats(observation, players, viewer, presence or {}, clocks, by_clock, robots)
    scoreboard = for_the_team(
        "scoreboard", lambda: build_scoreboard(observation, players, viewer, teams)
    )
    turn = build_turn(observation, players, viewer, host_name)
    # The viewer's own running clock is also shown where they decide: the panel, the deal.
    mine = clocks[viewer] if seat is not None else None
    running = mine if mine is not None and mine["running"] else None
    panel = build_panel(observation, players, viewer, turn, host_seat)
    panel["clock"] = running if panel["active"] else None
    score_screen = build_score_screen(
        observation, players, viewer, teams, host_seat, scoreboard, robots
    )
    if score_screen is not None:
        score_screen["clock"] = running if score_screen["can_deal"] else None
    kings = observation["kings"]
    dealt = dealt_by_clock(game_clock, observation)
    return {
        "version": observation["version"],
        "status": observation["status"],
        "phase": observation["phase"],
        "kings_label": _("Mus · %(kings)s rois") % {"kings": kings},
        "hand_number": observation["hand_number"],
        "viewer": viewer,
        "seats": seats,
        "away_banner": build_away_banner(seats, observation["status"]),
        "by_position": {s["position"]: s for s in seats},
        "turn": turn,
        "scoreboard": scoreboard,
        "my_cards": [card_view(c, kings) for c in observation["my_cards"] or []],
        "can_discard": any(a["type"] == "discard" for a in observation["legal"]),
        "lance_status": for_the_team(
            "lance_status", lambda: build_lance_status(observation, players, teams)
        ),
        "log": for_the_team(
            f"log {sorted(by_clock)} {dealt}",
            lambda: build_log(observation, players, teams, by_clock, dealt),
        ),
        "panel": panel,
        "score_screen": score_screen,
        "past_hands": for_the_team(
            "past_hands",
            lambda: past_hands(
                observation["hands"], observation["hand_number"], kings, players, viewer, teams
            ),
        ),
        "partie_over": build_partie_over(observation, viewer, teams, scoreboard),
        "announcement": build_announcement(observation, players, teams, turn, panel, by_clock),
    }


def table_context(
    observation: Observation,
    players: list[str],
    viewer_seat: int | None,
    *,
    action_url: str,
    salle_url: str = "/",
    host_seat: int | None = None,
    ws_url: str | None = None,
    oob: bool = False,
    flash: str | None = None,
    presence: dict[int, int] | None = None,
    team_names: list[str] | None = None,
    game_clock: Mapping[str, Any] | None = None,
    now_ms: int = 0,
    refusal: str | None = None,
    robots: list[bool] | None = None,
    alike: dict | None = None,
) -> View:
    """The template context of games/table.html and each of its regions. ``flash`` is a
    message about the game, at the top; ``refusal`` why the viewer's decision was refused,
    shown in the decision panel, where they just clicked."""
    return {
        "table_view": build_table(
            observation,
            players,
            viewer_seat,
            host_seat=host_seat,
            presence=presence,
            team_names=team_names,
            game_clock=game_clock,
            now_ms=now_ms,
            robots=robots,
            alike=alike,
        ),
        "action_url": action_url,
        "salle_url": salle_url,
        "ws_url": ws_url,
        "oob": oob,
        "flash": flash,
        "refusal": refusal,
    }


def render_regions(context: View, request: Any = None) -> str:
    """Every region of the table, each root with hx-swap-oob="true", one newline apart: one push
    / POST body. With a `request` (a POST's answer) the forms carry its CSRF token."""
    values = with_csrf_token(dict(context, oob=True), request)
    return "\n".join(render_region(name, values) for name in REGIONS)


def render_region(name: str, context: View) -> str:
    """One region of :data:`REGIONS` (templates/jinja2/games/regions/<name>.html, Jinja2: the
    table's regions are rendered by it, the page games/table.html included)."""
    return jinja.render(f"games/regions/{name}.html", context)


def with_csrf_token(values: View, request: Any) -> View:
    """`values` with the request's CSRF token, as Django's csrf context processor gives it:
    lazy, so that only a render that writes a form asks for one (a token asked for is set
    again in the answer's cookie). A context's own csrf_token wins, as in a Django render."""
    if request is not None and "csrf_token" not in values:
        values["csrf_token"] = csrf(request)["csrf_token"]
    return values
