"""What one player sees at the table: engine observation -> view model, pure (no database, no
render: games.display.regions renders it). The only game input is the viewer's ``Observation``
(games.engine.observation), never the engine state, so nothing hidden can leak. Each region of
the table (games.display.regions.REGIONS) has one builder here, in the page's order, the clocks
(games.display.clocks) and the decision panel (games.display.panel) apart; :func:`build_table`
calls them all and :func:`table_context` adds what the page's forms need (TablePage).

Forms post ``type``, ``version`` and, by type, ``amount`` (bet), ``to`` (raise) or ``cards``
(discard, repeated), with ``hx-swap="none"``: the answer holds every region out of band.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from itertools import repeat
from operator import itemgetter
from typing import Any, Literal, get_args

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.templatetags.static import static
from django.utils.translation import gettext_lazy, pgettext_lazy

from core import translations
from core.translations import gettext as _
from core.translations import in_language
from games import vocabulary
from games.display import answers
from games.display.clocks import (
    build_clocks,
    clock_misses,
    dealt_by_clock,
    minutes_seconds,
    misses_text,
    my_clock_note,
    timed_out_text,
    timed_out_words,
    told_once,
)
from games.display.panel import build_panel, deal_button
from games.display.score_screen import Sides, hand_summary, past_hands_of, past_history
from games.display.view_model import TableFacts, TablePage, View
from games.engine import TARGET, Kings, Lance, Observation, team_of
from games.engine.types import Declarations, HandRecord, LanceRecord, PublicEnvite

POSITIONS: tuple[str, ...] = ("bottom", "right", "top", "left")
LANCE_ORDER: tuple[Lance, ...] = get_args(Lance)


RELATIONS: dict[str, str] = {
    "bottom": gettext_lazy("Vous"),
    "right": gettext_lazy("Adversaire"),
    "top": gettext_lazy("Partenaire"),
    "left": gettext_lazy("Adversaire"),
}
#: The viewer's team and the other one, on their side of the table.
US, THEM = gettext_lazy("Nous"), gettext_lazy("Eux")
AND_LAST = gettext_lazy("%(names)s et %(last)s")
#: A seat's box: its cards face down (the screen reader's name), and its discards so far.
HIDDEN_CARDS = gettext_lazy("%(cards)s cartes cachées")
CHANGED = gettext_lazy("a changé %(changed)s")


def robot_level(robot: bool | str) -> str:
    """A robot seat's level label: ``robots`` holds it for a robot placed with a level (a
    plain True for one from before the levels, or a caller that does not say)."""
    return robot if isinstance(robot, str) else ""


def relation(position: str) -> str:
    """Who the player at ``position`` is to the viewer: "Vous", "Partenaire", "Adversaire"."""
    return in_language(RELATIONS[position])


# ---------------------------------------------------------------- small helpers


#: With eight kings, threes are kings and twos are aces ("Quatre ou huit rois" in the rules).
EIGHT_KINGS_COUNTS_AS: dict[int, str] = {
    3: gettext_lazy("roi"),
    2: pgettext_lazy("one card counted as: = as", "as"),
}


def card_view(code: str, kings: Kings = 4) -> View:
    """Everything a template needs to draw one face-up card. In a game with eight ``kings`` a
    three or a two says what it counts as: ``counts_as`` ("roi", "as"), drawn as a small "= roi"
    under its rank, and its screen-reader name "Trois de coupes (compte comme un roi)"."""
    key = (translations.language(), code, kings)
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
    labels[team_of(viewer)] = in_language(US)
    labels[1 - team_of(viewer)] = in_language(THEM)
    return labels


def join_names(names: list[str]) -> str:
    if len(names) < 2:
        return "".join(names)
    return in_language(AND_LAST) % {"names": ", ".join(names[:-1]), "last": names[-1]}


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


# ---------------------------------------------------------------- regions, in template order


def build_scoreboard(
    observation: Observation, players: list[str], viewer: int, teams: list[str]
) -> list[View]:
    """Region ``scoreboard``: the viewer's team first (a spectator's: team 1 first, neither
    theirs)."""
    mine = team_of(viewer)
    spectator = observation["seat"] is None
    return [
        {
            "team": team,
            "label": teams[team],
            "names": join_names([players[team], players[team + 2]]),
            "score": observation["scores"][team],
            "target": TARGET,
            "mine": team == mine and not spectator,
        }
        for team in (mine, 1 - mine)
    ]


def build_seats(
    facts: TableFacts, viewer: int, clocks: list[View | None], by_clock: set[int]
) -> list[View]:
    """Region ``table-seats``: the four seats in screen order: me (bottom), right, partner
    (top), left; each with its ``clock`` (games.display.clocks.build_clocks), its last word,
    "temps écoulé" when the clock made it (``by_clock``: clocks.timed_out_words), whether it is
    a computer player, and its countdown when away. A spectator (the public view) sits at
    no seat: every seat shows its backs and its team, none is "Vous"."""
    observation, players = facts.observation, facts.players
    spectator = observation["seat"] is None
    teams = team_labels(None, facts.team_names)
    robots = facts.robots or [False] * 4
    presence = facts.presence or {}
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
                "text": in_language(vocabulary.YES if values[seat] else vocabulary.NO),
            }
            for lance, values in declared(declarations)
        ]
        away = presence.get(seat)
        backs = range(0 if offset == 0 and not spectator else 4)
        seats.append(
            {
                "seat": seat,
                "name": players[seat],
                "is_robot": bool(robots[seat]),
                "robot_level": robot_level(robots[seat]),
                "position": POSITIONS[offset],
                "relation": teams[team_of(seat)] if spectator else relation(POSITIONS[offset]),
                "is_me": offset == 0 and not spectator,
                "team": team_of(seat),
                "is_mano": observation["mano"] == seat,
                "is_first_speaker": observation["mano"] is None
                and observation["first_speaker"] == seat,
                "is_turn": seat in to_act and observation["status"] == "playing",
                "discard_ready": ready[seat] if in_discard else None,
                "changed": changed,
                "changed_total": sum(changed),
                "changed_text": in_language(CHANGED)
                % {"changed": ", ".join(str(n) for n in changed)},
                "last_word": last_word,
                "last_word_timed_out": last_index in by_clock,
                "clock": clocks[seat],
                "declarations": decl,
                "backs": backs,
                "hidden_cards": in_language(HIDDEN_CARDS) % {"cards": len(backs)},
                "away": away is not None,
                "away_seconds": away,
                "away_countdown": minutes_seconds(away) if away is not None else "",
            }
        )
    return seats


def build_away_banner(seats: list[View], status: str) -> View:
    """Region ``away-banner``: every away seat but the viewer's, with its countdown to the
    partie's cancellation, and the partie's status (static/js/leave.js asks before leaving
    only while it is played). The viewer's own away seat is a return: ``returned_countdown``, the
    time they had left, shown once by the page they came back on."""
    mine = next((s for s in seats if s["is_me"]), None)
    return {
        "status": status,
        "away": [s for s in seats if s["away"] and not s["is_me"]],
        "returned_countdown": mine["away_countdown"] if mine is not None and mine["away"] else "",
    }


def build_turn(
    observation: Observation, players: list[str], viewer: int | None, host_name: str | None
) -> View:
    """Whose turn it is, in words, for the seats' centre and the panel (``host_name`` None:
    the viewer is the host; ``viewer`` None: a spectator)."""
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
    made = tuple((lance, tuple(values)) for lance, values in declared(observation["declarations"]))
    declarations = _declarations(made, tuple(players), translations.language()) if made else ()
    phase, lance = observation["phase"], observation["lance"]
    return {
        "title": vocabulary.lance_name(lance)
        if lance
        else in_language(vocabulary.PHASE_NAMES[phase]),
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


@lru_cache(maxsize=4096)
def _declarations(
    made: tuple[tuple[Lance, tuple[bool, ...]], ...],
    players: tuple[str, ...],
    language: str | None,
) -> tuple[tuple[str, tuple[tuple[str, bool, str], ...]], ...]:
    """The declarations `made` in words, worded once per hand and ``language`` (the cache's
    key): tuples, so that the region writes them once too (core.jinja.cached_macro)."""
    return tuple(
        (
            _("%(label)s :") % {"label": vocabulary.lance_name(lance)},
            tuple(
                (players[s], has[s], in_language(vocabulary.YES if has[s] else vocabulary.NO))
                for s in range(4)
            ),
        )
        for lance, has in made
    )


def lance_result_text(record: LanceRecord, players: list[str], teams: list[str]) -> str:
    """A decided lance as the last line of its log section: "Grand : tenue, pour Nous (Ane)."."""
    text = vocabulary.labelled(
        vocabulary.lance_name(record["lance"]), vocabulary.outcome_name(record["outcome"])
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
    known: dict[str, Any] | None = None,
) -> list[View]:
    """Region ``hand-log``: the hand so far, in sections: Mus, then one per lance reached; the
    words the clock made (``by_clock``) and a deal it made say "temps écoulé". ``known``: what
    a caller worked out once for every reader (``votes``: answers.counted_votes, ``runs``:
    `log_runs`) or every reader of a language (``lines``: `word_lines`)."""
    by_clock = by_clock or set()
    known = known or {}
    words = observation["words"]
    lines = known.get("lines")
    if lines is None:
        lines = word_lines(vocabulary.word_keys(words, players), by_clock)
    votes, runs = known.get("votes"), known.get("runs")
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

    counted = answers.counted_answers(words, observation["mano"], players, votes)
    for key, start, end in log_runs(words) if runs is None else runs:
        section_lines = section(key)["lines"]  # type: ignore[arg-type]
        base = len(section_lines) - start
        section_lines += lines[start:end]
        # the line of an answer that counted comes right after its team's last vote
        if counted:
            for index in sorted((i for i in counted if start <= i < end), reverse=True):
                section_lines.insert(base + index + 1, counted[index])
    sides = (tuple(players), tuple(teams), translations.language())
    for record in observation["lances"]:
        target = next((s for s in sections if s["key"] == record["lance"]), None)
        if target is None:
            target = section(record["lance"])
        text, deje_now = _lance_result_line(_result_fields(record), *sides)
        if deje_now:
            target["deje_lines"].append(len(target["lines"]))
        target["lines"].append(text)
    return [_frozen(s) for s in sections]


def _frozen(section: View) -> View:
    """A log section as the region reads it: its lines and ``items``, each line with whether it
    is a deje scored at once; tuples, so that the region writes each section once per its words
    and each line once (games.display.hand_log)."""
    lines = tuple(section["lines"])
    items = list(zip(lines, repeat(False)))
    for index in section["deje_lines"]:
        items[index] = (lines[index], True)
    return {"key": section["key"], "title": section["title"], "lines": lines, "items": tuple(items)}


#: What a lance's line in the log reads of its record, in `_lance_result_line`'s order.
_RESULT_FIELDS = ("lance", "outcome", "winner_team", "winner_seat", "deje")
_result_fields = itemgetter(*_RESULT_FIELDS)


@lru_cache(maxsize=4096)
def _lance_result_line(
    fields: tuple, players: tuple[str, ...], teams: tuple[str, ...], language: str | None
) -> tuple[str, bool]:
    """A decided lance's line in the log, and whether it says a deje scored at once (marked
    where it is: the deje is scored when the bet is refused, not at the count); written once
    per record, names and ``language`` (the cache's key), not again at every version."""
    record: Any = dict(zip(_RESULT_FIELDS, fields, strict=True))
    text = lance_result_text(record, list(players), list(teams))
    if not (record["deje"] and record["winner_team"] is not None):
        return text, False
    marked = _("Marqué tout de suite : %(team)s +%(points)s.") % {
        "team": teams[record["winner_team"]],
        "points": record["deje"],
    }
    return f"{text} {marked}", True


def log_runs(words: list) -> list[tuple[str, int, int]]:
    """The hand's words in the log's sections: (section, first word, end) for each run of words
    of one section (``mus`` for the mus, cuts and discards, else the word's lance)."""
    runs: list[tuple[str, int, int]] = []
    for index, word in enumerate(words):
        kind = word["type"]
        key = (word.get("lance") if kind not in ("mus", "cut", "discard") else None) or "mus"
        if runs and runs[-1][0] == key:
            runs[-1] = (key, runs[-1][1], index + 1)
        else:
            runs.append((key, index, index + 1))
    return runs


def word_lines(keys: list[vocabulary.WordKey], by_clock: set[int]) -> list[str]:
    """Each word of the hand as the log says it, in the active language; the words the clock
    made say so."""
    lines = vocabulary.word_sentences(keys)
    for index in by_clock:
        if index < len(lines):
            lines[index] = timed_out_text(lines[index])
    return lines


def _hand_points(observation: Observation) -> list[int] | None:
    """What each team won in the hand just closed (the last of ``hands``)."""
    hands = observation["hands"]
    if not hands:
        return None
    after = hands[-1]["scores_after"]
    before = hands[-2]["scores_after"] if len(hands) > 1 else [0, 0]
    return [after[0] - before[0], after[1] - before[1]]


def build_score_screen(
    facts: TableFacts, viewer: int, teams: list[str], scoreboard: list[View]
) -> View | None:
    """Region ``score-screen`` at hand_over / finished: four hands, each lance, the totals."""
    observation, players, host_seat = facts.observation, facts.players, facts.host_seat
    if observation["status"] not in ("hand_over", "finished"):
        return None
    robots = facts.robots or [False] * 4
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
                "is_robot": bool(robots[seat]),
                "robot_level": robot_level(robots[seat]),
                "relation": teams[team_of(seat)]
                if observation["seat"] is None
                else relation(POSITIONS[offset]),
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
        Sides(tuple(players), tuple(teams), team_of(viewer), kings),
        last_of_partie=observation["status"] == "finished",
    )
    lances = explained["rows"]
    gained = _hand_points(observation)
    mine = team_of(viewer)
    host_name = players[host_seat] if host_seat is not None else _("L'hôte")
    legal_deal = any(a["type"] == "deal" for a in observation["legal"])
    spectator = observation["seat"] is None
    is_host = not spectator and (host_seat is None or host_seat == viewer)
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
        "deal_button": deal_button(),
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
    we_won = team_of(viewer) == winner and observation["seat"] is not None
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
        "ordago_text": vocabulary.ordago_win(observation["lances"]),
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


def spoken(lines: list[str]) -> list[str]:
    """Every word of the hand as said aloud, in order (its log line, a full stop at its end):
    static/js/announce.js says those a push brought that the reader has not heard yet (several
    at once after robots or the clock)."""
    return list(map(_spoken, lines))


@lru_cache(maxsize=8192)
def _spoken(line: str) -> str:
    return line if line[-1] in ".!?…" else f"{line}."


def build_table(facts: TableFacts) -> View:
    """The whole view model of the table for one viewer (TableFacts). What the two players of a
    team see alike (the hand's log, the lance under way, the scoreboard, the past hands, all
    built from public facts) is built for the first of them and kept in ``facts.alike``."""
    with translations.one_language():
        return _build_table(facts)


def _build_table(facts: TableFacts) -> View:
    observation, players, host_seat = facts.observation, facts.players, facts.host_seat
    seat = facts.viewer_seat if facts.viewer_seat is not None else observation["seat"]
    viewer = seat if seat is not None else 0
    teams = team_labels(seat, facts.team_names)
    # Everything these builders read but the version's public facts (the caller's dict).
    team_key = (team_of(viewer), tuple(teams), translations.language())
    alike = facts.alike

    def for_the_team(name: str, build: Callable[[], Any]) -> Any:
        if alike is None:
            return build()
        key = (name, *team_key)
        if key not in alike:
            alike[key] = build()
        return alike[key]

    def for_the_language(name: str, build: Callable[[], Any]) -> Any:
        """What every viewer of the version reading this language reads alike, whatever their
        team."""
        if alike is None:
            return build()
        key = (name, translations.language())
        if key not in alike:
            alike[key] = build()
        return alike[key]

    def for_the_version(name: str, build: Callable[[], Any]) -> Any:
        """What every viewer of the version reads alike, whatever their team and language."""
        if alike is None:
            return build()
        key = (name,)
        if key not in alike:
            alike[key] = build()
        return alike[key]

    if host_seat is None:
        host_name: str | None = _("L'hôte")
    else:
        host_name = None if host_seat == seat else players[host_seat]
    clocks = build_clocks(facts.game_clock, observation, facts.now_ms)
    by_clock = timed_out_words(facts.game_clock, observation)
    clock_key = sorted(by_clock)

    def lines() -> list[str]:
        """Each word's line in the log, once per version and language."""
        keys = for_the_version(
            "word keys", lambda: vocabulary.word_keys(observation["words"], players)
        )
        return for_the_language(f"lines {clock_key}", lambda: word_lines(keys, by_clock))

    seats = build_seats(facts, viewer, clocks, by_clock)
    misses = clock_misses(facts.game_clock, observation)
    for seat_view in seats:
        seat_view["misses_text"] = misses_text(misses[seat_view["seat"]])
    scoreboard = for_the_team(
        "scoreboard", lambda: build_scoreboard(observation, players, viewer, teams)
    )
    turn = build_turn(observation, players, seat, host_name)
    # The viewer's own running clock is also shown where they decide: the panel, the deal.
    mine = clocks[viewer] if seat is not None else None
    running = mine if mine is not None and mine["running"] else None
    panel = build_panel(observation, players, viewer, turn, host_seat)
    robots = facts.robots or [False] * 4
    # a practice table: every other seat a robot, so hints help nobody against a person
    panel["practice"] = seat is not None and all(robots[s] for s in range(4) if s != seat)
    panel["help"] = help_lines(observation)
    panel["clock"] = running if panel["active"] else None
    panel["clock_note"] = (
        my_clock_note(facts.game_clock, observation, seat, misses) if seat is not None else ""
    )
    score_screen = build_score_screen(facts, viewer, teams, scoreboard)
    if score_screen is not None:
        score_screen["clock"] = running if score_screen["can_deal"] else None
    kings = observation["kings"]
    dealt = dealt_by_clock(facts.game_clock, observation)
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
            f"log {clock_key} {dealt}",
            lambda: build_log(
                observation,
                players,
                teams,
                by_clock,
                dealt,
                {
                    "votes": for_the_version(
                        "counted_votes",
                        lambda: answers.counted_votes(observation["words"], observation["mano"]),
                    ),
                    "lines": lines(),
                    "runs": for_the_version("runs", lambda: log_runs(observation["words"])),
                },
            ),
        ),
        "panel": panel,
        "score_screen": score_screen,
        "past_hands": for_the_team(
            "past_hands",
            lambda: past_hands_of(
                for_the_version(
                    "past_history",
                    lambda: past_history(observation["hands"], observation["hand_number"]),
                ),
                Sides(tuple(players), tuple(teams), team_of(viewer), kings),
            ),
        ),
        "partie_over": build_partie_over(observation, viewer, teams, scoreboard),
        "announcement": told_once(
            build_announcement(observation, players, teams, turn, panel, by_clock),
            facts,
            viewer,
            by_clock,
            misses,
            panel["clock_note"],
        ),
        "announce_words": for_the_language(f"words {clock_key}", lambda: spoken(lines())),
    }


HELP_LINES: dict[str, str] = {
    "mus": gettext_lazy(
        "Mus : demandez mus pour changer des cartes, ou coupez pour jouer la main."
    ),
    "discard": gettext_lazy(
        "Écart : choisissez les cartes à changer ; personne ne saura lesquelles."
    ),
    "grand": gettext_lazy("Grand : les plus hautes cartes gagnent (les rois d’abord)."),
    "petit": gettext_lazy("Petit : les plus basses cartes gagnent (les as d’abord)."),
    "paires": gettext_lazy(
        "Paires : seuls ceux qui ont une paire jouent ; duples, puis medias, puis par."
    ),
    "jeu": gettext_lazy(
        "Jeu : 31 points ou plus ; 31 est le meilleur, puis 32, 40, 37… jusqu’à 33."
    ),
    "point": gettext_lazy("Point : sans Jeu, le plus près de 30 gagne."),
}
FIRST_HAND_MANO = gettext_lazy(
    "Première main : celui qui coupe devient mano — il parle en premier à chaque lance et gagne "
    "les égalités."
)


def help_lines(observation: Observation) -> list[str]:
    """The « Aide » lines of the panel: the lance (or phase) in play, and in the first hand
    before anyone cut, who becomes the mano."""
    lines = []
    key = observation["lance"] or observation["phase"]
    if key in HELP_LINES:
        lines.append(str(HELP_LINES[key]))
    if observation["hand_number"] == 1 and observation["mano"] is None:
        lines.append(str(FIRST_HAND_MANO))
    return lines


def table_context(facts: TableFacts, page: TablePage) -> View:
    """The template context of games/table.html and each of its regions."""
    return {
        "table_view": build_table(facts),
        "action_url": page.action_url,
        "salle_url": page.salle_url,
        "ws_url": page.ws_url,
        "oob": page.oob,
        "flash": page.flash,
        "refusal": page.refusal,
    }
