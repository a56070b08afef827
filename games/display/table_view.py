"""What one player sees at the table: engine observation -> view model -> template context.

Pure functions, no database. The ONLY game input is ``observation`` (games.engine.observation
for the viewer's seat); nothing here ever reads the engine state, so nothing hidden can leak.

Wiring (views and consumers)
============================
Build the context with :func:`table_context` and render ``games/table.html`` (the whole page),
one region (``render(request, "games/table.html#decision-panel", ctx)``) or every region at
once for an out-of-band push / the POST response with :func:`render_regions`.

``table_context(observation, players, viewer_seat, *, action_url, salle_url, host_seat=None,
ws_url=None, oob=False, flash=None, presence=None, team_names=None)`` returns::

    {
      "table_view": build_table(...)   # the view model below
      "action_url": str,   # POST target of every decision form (hx-post and plain action=)
      "salle_url": str,    # link back to the salle (partie over, header)
      "ws_url": str|None,  # when set, the page opens hx-ext="ws" ws-connect="{{ ws_url }}"
      "oob": bool,         # True: every region root carries hx-swap-oob="true"
      "flash": str|None,   # French message for the actor (role=alert), e.g. STALE_VERSION
    }

``csrf_token``: rendered with ``{% csrf_token %}`` in every form. With a request (views) it comes
from the request; a consumer rendering without a request may put ``csrf_token`` in the context
itself (htmx posts also send the token through ``hx-headers`` on <body>, see base.html).

Partials of ``games/table.html`` (each name is also the id of its root element):
``flash``, ``scoreboard``, ``table-seats``, ``lance-status``, ``my-hand``, ``decision-panel``,
``hand-log``, ``score-screen`` -- listed in :data:`REGIONS`; the partial ``regions`` renders
them all, in that order, in one template render (:func:`render_regions`).

Forms post ``type`` (mus, cut, discard, pass, bet, ordago, hold, refuse, raise, deal), ``version``
(observation["version"]) and, by type, ``amount`` (bet), ``to`` (raise), ``cards`` (discard,
repeated). The forms use ``hx-swap="none"``: the response is expected to hold the regions with
``hx-swap-oob="true"`` (:func:`render_regions`). static/js/table.js lets htmx swap 409 and 422
responses, so a stale-version or illegal-action answer can carry the fresh regions and a flash.

``players``: 4 display names indexed by seat. ``presence``: optional ``{seat: seconds_left}``
for the seats whose player is away: the seat shows « <pseudo> s'est déconnecté — place gardée
0:42 », and static/js/live.js ticks the clock down from ``data-seconds``.
"""

from __future__ import annotations

from games.display import vocabulary

REGIONS: tuple[str, ...] = (
    "flash",
    "scoreboard",
    "table-seats",
    "lance-status",
    "my-hand",
    "decision-panel",
    "hand-log",
    "score-screen",
)

POSITIONS: tuple[str, ...] = ("bottom", "right", "top", "left")
RELATIONS: dict[str, str] = {
    "bottom": "Vous",
    "right": "Adversaire",
    "top": "Partenaire",
    "left": "Adversaire",
}
TARGET = 40
QUICK_BETS: tuple[int, ...] = (2, 5, 10)


# ---------------------------------------------------------------- small helpers


#: With eight kings, threes are kings and twos are aces ("Quatre ou huit rois" in the rules).
EIGHT_KINGS_COUNTS_AS: dict[int, str] = {3: "roi", 2: "as"}


def card_view(code: str, kings: int | None = 4) -> dict:
    """Everything a template needs to draw one face-up card. In a game with eight ``kings`` a
    three or a two says what it counts as: ``counts_as`` ("roi", "as"), drawn as a small "= roi"
    under its rank, and its screen-reader name "Trois de coupes (compte comme un roi)"."""
    rank = vocabulary.card_rank(code)
    counts_as = EIGHT_KINGS_COUNTS_AS.get(rank, "") if kings == 8 else ""
    name = vocabulary.card_name(code)
    return {
        "code": code,
        "name": f"{name} (compte comme un {counts_as})" if counts_as else name,
        "counts_as": counts_as,
        "glyph": vocabulary.card_glyph(code),
        "letter": vocabulary.RANK_LETTERS.get(rank, ""),
        "suit": vocabulary.SUIT_SLUGS[vocabulary.card_suit(code)],
        "suit_name": vocabulary.SUIT_NAMES[vocabulary.card_suit(code)],
    }


def position_of(seat: int, viewer: int) -> str:
    """Where ``seat`` sits on the viewer's screen (speaking order is counter-clockwise)."""
    return POSITIONS[(seat - viewer) % 4]


def team_of(seat: int) -> int:
    return seat % 2


def team_labels(viewer: int | None, team_names: list[str] | None = None) -> list[str]:
    if team_names:
        return list(team_names)
    if viewer is None:
        return ["Équipe 1", "Équipe 2"]
    mine = team_of(viewer)
    out = ["", ""]
    out[mine], out[1 - mine] = "Nous", "Eux"
    return out


def join_names(names: list[str]) -> str:
    if not names:
        return ""
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " et " + names[-1]


def _legal_by_type(legal: list[dict]) -> dict[str, dict]:
    return {item["type"]: item for item in legal}


def _bounds(item: dict | None) -> dict | None:
    if item is None:
        return None
    low, high = int(item.get("min", 2)), int(item.get("max", TARGET))
    return {"min": low, "max": high, "quick": [q for q in QUICK_BETS if low <= q <= high]}


def _viewer(observation: dict, viewer_seat: int | None) -> int:
    if viewer_seat is not None:
        return viewer_seat
    seat = observation.get("seat")
    return seat if seat is not None else 0


# ---------------------------------------------------------------- regions


def build_seats(observation: dict, players: list[str], viewer: int, presence: dict) -> list[dict]:
    """The four seats in screen order: me (bottom), right, partner (top), left."""
    to_act = set(observation.get("to_act") or [])
    rounds = observation.get("discard_rounds") or []
    ready = observation.get("discard_ready") or [False] * 4
    words = observation.get("words") or []
    declarations = observation.get("declarations") or {}
    in_discard = observation.get("phase") == "discard"
    seats = []
    for offset in range(4):
        seat = (viewer + offset) % 4
        last = next((w for w in reversed(words) if w.get("seat") == seat), None)
        changed = [int(r[seat]) for r in rounds]
        decl = []
        for lance in ("paires", "jeu"):
            values = declarations.get(lance)
            if values is not None:
                has = bool(values[seat])
                decl.append({"lance": vocabulary.lance_name(lance), "has": has})
        away = presence.get(seat, presence.get(str(seat)))
        seats.append(
            {
                "seat": seat,
                "name": players[seat],
                "position": POSITIONS[offset],
                "relation": RELATIONS[POSITIONS[offset]],
                "is_me": offset == 0,
                "team": team_of(seat),
                "is_mano": observation.get("mano") == seat,
                "is_first_speaker": observation.get("mano") is None
                and observation.get("first_speaker") == seat,
                "is_turn": seat in to_act and observation.get("status") == "playing",
                "discard_ready": bool(ready[seat]) if in_discard else None,
                "changed": changed,
                "changed_total": sum(changed),
                "last_word": vocabulary.word_text(last) if last else "",
                "declarations": decl,
                "backs": range(0 if offset == 0 else 4),
                "away": away is not None,
                "away_seconds": away,
                "away_clock": clock(away) if away is not None else "",
            }
        )
    return seats


def clock(seconds: int) -> str:
    """42 -> "0:42", 75 -> "1:15" (the countdown of an away seat)."""
    seconds = max(0, int(seconds))
    return f"{seconds // 60}:{seconds % 60:02d}"


def build_turn(observation: dict, players: list[str], viewer: int, host_name: str | None) -> dict:
    """Whose turn it is, in words (``host_name`` None: the viewer is the host)."""
    status = observation.get("status")
    if status == "finished":
        return {"mine": False, "text": "Partie terminée."}
    if status == "hand_over":
        if host_name is None:
            return {"mine": False, "text": "Fin de la main : à vous de distribuer la suivante."}
        return {"mine": False, "text": f"Fin de la main : {host_name} distribue la suivante."}
    legal = [a for a in observation.get("legal") or [] if a["type"] != "deal"]
    to_act = list(observation.get("to_act") or [])
    if observation.get("phase") == "discard":
        ready = observation.get("discard_ready") or [False] * 4
        to_act = [s for s in to_act if not ready[s]]
    if legal:
        return {"mine": True, "text": "À vous de parler."}
    others = [players[s] for s in to_act if s != viewer]
    if not others:
        return {"mine": False, "text": "En attente…"}
    return {"mine": False, "text": f"En attente de {join_names(others)}…"}


def build_scoreboard(observation: dict, players: list[str], viewer: int, teams: list[str]):
    scores = observation.get("scores") or [0, 0]
    mine = team_of(viewer)
    out = []
    for team in (mine, 1 - mine):
        score = int(scores[team])
        out.append(
            {
                "team": team,
                "label": teams[team],
                "names": join_names([players[team], players[team + 2]]),
                "score": score,
                "target": TARGET,
                "percent": min(100, score * 100 // TARGET),
                "mine": team == mine,
            }
        )
    return out


def describe_envite(betting: dict | None, players: list[str], teams: list[str]) -> dict | None:
    """The open envite of the current lance, in words."""
    if not betting:
        return None
    stake = betting.get("stake")
    bettor, answering = betting.get("bettor_team"), betting.get("answering_team")
    if stake is None:
        text = "Personne n'a encore misé."
    elif stake == "ordago":
        text = f"Órdago de {teams[bettor]} !" if bettor is not None else "Órdago !"
    else:
        who = f" ({teams[bettor]})" if bettor is not None else ""
        text = f"Mise en jeu : {vocabulary.points(int(stake))}{who}."
    held = int(betting.get("held") or 0)
    votes = []
    for seat_key, vote in sorted((betting.get("votes") or {}).items()):
        word = dict(vote, seat=int(seat_key))
        votes.append(vocabulary.word_sentence(word, players[int(seat_key)]))
    eligible = [int(s) for s in betting.get("eligible") or []]
    return {
        "text": text,
        "stake": stake,
        "held": held,
        "held_text": f"Déjà tenu : {vocabulary.points(held)}." if held else "",
        "answering": (
            f"Réponse attendue de {teams[answering]}."
            if answering is not None and stake is not None
            else ""
        ),
        "votes": votes,
        "eligible": join_names([players[s] for s in eligible]) if len(eligible) < 4 else "",
    }


def build_lance_status(observation: dict, players: list[str], teams: list[str]) -> dict:
    declarations = []
    for lance in ("paires", "jeu"):
        values = (observation.get("declarations") or {}).get(lance)
        if values is None:
            continue
        declarations.append(
            {
                "lance": vocabulary.lance_name(lance),
                "items": [
                    {
                        "name": players[s],
                        "has": bool(values[s]),
                        "text": "oui" if values[s] else "non",
                    }
                    for s in range(4)
                ],
            }
        )
    phase = observation.get("phase")
    lance = observation.get("lance")
    title = vocabulary.lance_name(lance) if lance else vocabulary.PHASE_NAMES.get(phase or "", "")
    return {
        "title": title,
        "lance": lance,
        "phase": phase,
        "hand_number": observation.get("hand_number"),
        "kings": observation.get("kings"),
        "pioche_size": observation.get("pioche_size"),
        "discard_round_count": len(observation.get("discard_rounds") or []),
        "declarations": declarations,
        "envite": describe_envite(observation.get("betting"), players, teams),
    }


def lance_result_text(record: dict, players: list[str], teams: list[str]) -> str:
    outcome = record.get("outcome")
    text = f"{vocabulary.lance_name(record.get('lance'))} : {vocabulary.outcome_name(outcome)}"
    team = record.get("winner_team")
    if team is not None:
        seat = record.get("winner_seat")
        who = teams[team] + (f" ({players[seat]})" if seat is not None else "")
        text += f", pour {who}"
    if record.get("deje"):
        text += f", deje {vocabulary.points(int(record['deje']))}"
    return text + "."


def build_log(observation: dict, players: list[str], teams: list[str]) -> list[dict]:
    """The hand so far, in French, in sections: Mus, then one per lance reached."""
    sections: list[dict] = []

    def section(key: str | None) -> dict:
        key = key or "mus"
        if not sections or sections[-1]["key"] != key:
            title = "Mus" if key == "mus" else vocabulary.lance_name(key)
            sections.append({"key": key, "title": title, "lines": []})
        return sections[-1]

    for word in observation.get("words") or []:
        name = players[word["seat"]] if word.get("seat") is not None else "?"
        lance = word.get("lance") if word.get("type") not in ("mus", "cut", "discard") else None
        section(lance)["lines"].append(vocabulary.word_sentence(word, name))
    for record in observation.get("lances") or []:
        key = record.get("lance")
        target = next((s for s in sections if s["key"] == key), None)
        if target is None:
            target = section(key)
        target["lines"].append(lance_result_text(record, players, teams))
    return sections


def build_panel(
    observation: dict, players: list[str], viewer: int, turn: dict, host_seat: int | None
) -> dict:
    """The decision panel, built ONLY from observation["legal"]."""
    legal = _legal_by_type(observation.get("legal") or [])
    discard = legal.get("discard")
    betting = observation.get("betting") or {}
    stake = betting.get("stake")
    phase = observation.get("phase")
    panel = {
        "version": observation.get("version"),
        "types": sorted(legal),
        "active": bool(set(legal) - {"deal"}),
        "mus": "mus" in legal,
        "cut": "cut" in legal,
        "discard": (
            {"min": int(discard.get("min", 1)), "max": int(discard.get("max", 4))}
            if discard
            else None
        ),
        "pass": "pass" in legal,
        "bet": _bounds(legal.get("bet")),
        "ordago": "ordago" in legal,
        "hold": "hold" in legal,
        "refuse": "refuse" in legal,
        "raise": _bounds(legal.get("raise")),
        "deal": "deal" in legal and host_seat in (None, viewer),
        "waiting": "" if turn["mine"] else turn["text"],
        "prompt": "",
        "discard_status": [],
    }
    if panel["mus"] or panel["cut"]:
        panel["prompt"] = "Mus ou couper ?"
    elif panel["discard"]:
        d = panel["discard"]
        panel["prompt"] = f"Choisissez de {d['min']} à {d['max']} cartes à écarter."
    elif panel["hold"] or panel["refuse"]:
        amount = "un órdago" if stake == "ordago" else vocabulary.points(int(stake or 0))
        lance = vocabulary.lance_name(observation.get("lance"))
        panel["prompt"] = f"On vous mise {amount} au {lance}."
    elif panel["pass"] or panel["bet"]:
        panel["prompt"] = f"{vocabulary.lance_name(observation.get('lance'))} : à vous."
    if phase == "discard":
        ready = observation.get("discard_ready") or [False] * 4
        panel["discard_status"] = [
            {"name": players[(viewer + i) % 4], "ready": bool(ready[(viewer + i) % 4])}
            for i in range(4)
        ]
    return panel


def _hand_points(observation: dict) -> list[int] | None:
    hands = observation.get("hands") or []
    if not hands:
        return None
    after = hands[-1].get("scores_after")
    if after is None:
        return None
    before = hands[-2].get("scores_after", [0, 0]) if len(hands) > 1 else [0, 0]
    return [int(after[0]) - int(before[0]), int(after[1]) - int(before[1])]


def build_score_screen(
    observation: dict,
    players: list[str],
    viewer: int,
    teams: list[str],
    host_seat: int | None,
    scoreboard: list[dict],
) -> dict | None:
    """The score screen at hand_over / finished: four hands, each lance, the totals."""
    if observation.get("status") not in ("hand_over", "finished"):
        return None
    shown = observation.get("hands_shown")
    kings = observation.get("kings")
    hands = []
    for offset in range(4):
        seat = (viewer + offset) % 4
        cards = (shown or {}).get(str(seat))
        hands.append(
            {
                "seat": seat,
                "name": players[seat],
                "relation": RELATIONS[POSITIONS[offset]],
                "team_label": teams[team_of(seat)],
                "is_mano": observation.get("mano") == seat,
                "cards": [card_view(c, kings) for c in cards] if cards else [],
            }
        )
    records = observation.get("lances")
    if not records and observation.get("hands"):
        records = observation["hands"][-1].get("lances") or []
    lances = []
    for record in records or []:
        team, seat = record.get("winner_team"), record.get("winner_seat")
        stake = record.get("stake")
        lances.append(
            {
                "name": vocabulary.lance_name(record.get("lance")),
                "outcome": vocabulary.outcome_name(record.get("outcome")),
                "winner": (
                    teams[team] + (f" ({players[seat]})" if seat is not None else "")
                    if team is not None
                    else "—"
                ),
                "stake": "Órdago" if stake == "ordago" else (str(stake) if stake else "—"),
                "deje": int(record.get("deje") or 0),
                "points": int(record.get("points") or 0),
            }
        )
    gained = _hand_points(observation)
    mine = team_of(viewer)
    host_name = players[host_seat] if host_seat is not None else "L'hôte"
    legal_deal = any(a["type"] == "deal" for a in observation.get("legal") or [])
    is_host = host_seat is None or host_seat == viewer
    return {
        "hand_number": observation.get("hand_number"),
        "shown": bool(shown),
        "hands": hands,
        "lances": lances,
        "gained": (
            [
                {"label": teams[mine], "points": gained[mine]},
                {"label": teams[1 - mine], "points": gained[1 - mine]},
            ]
            if gained
            else None
        ),
        "totals": scoreboard,
        "finished": observation.get("status") == "finished",
        "can_deal": legal_deal and is_host and observation.get("status") == "hand_over",
        "host_deals_text": f"{host_name} distribue la main suivante." if not is_host else "",
    }


def build_partie_over(observation: dict, viewer: int, teams: list[str], scoreboard):
    if observation.get("status") != "finished" or observation.get("winner") is None:
        return None
    winner = int(observation["winner"])
    we_won = team_of(viewer) == winner
    scores = observation.get("scores") or [0, 0]
    return {
        "winner": winner,
        "winner_label": teams[winner],
        "we_won": we_won,
        "text": "Vous avez gagné la partie !" if we_won else f"{teams[winner]} gagnent la partie.",
        "final": f"{scores[team_of(viewer)]} à {scores[1 - team_of(viewer)]}",
        "totals": scoreboard,
    }


# ---------------------------------------------------------------- the whole table


def build_table(
    observation: dict,
    players: list[str],
    viewer_seat: int | None,
    *,
    host_seat: int | None = None,
    presence: dict | None = None,
    team_names: list[str] | None = None,
) -> dict:
    """The whole view model of the table for one viewer (see the module docstring)."""
    viewer = _viewer(observation, viewer_seat)
    teams = team_labels(
        viewer if viewer_seat is not None or observation.get("seat") is not None else None,
        team_names,
    )
    if host_seat is None:
        host_name = "L'hôte"
    else:
        host_name = None if host_seat == viewer else players[host_seat]
    seats = build_seats(observation, players, viewer, presence or {})
    turn = build_turn(observation, players, viewer, host_name)
    scoreboard = build_scoreboard(observation, players, viewer, teams)
    my_cards = observation.get("my_cards") or []
    legal_types = {a["type"] for a in observation.get("legal") or []}
    return {
        "version": observation.get("version"),
        "status": observation.get("status"),
        "phase": observation.get("phase"),
        "kings_label": f"Mus · {observation.get('kings')} rois",
        "hand_number": observation.get("hand_number"),
        "viewer": viewer,
        "seats": seats,
        "by_position": {s["position"]: s for s in seats},
        "turn": turn,
        "scoreboard": scoreboard,
        "my_cards": [card_view(c, observation.get("kings")) for c in my_cards],
        "can_discard": "discard" in legal_types,
        "lance_status": build_lance_status(observation, players, teams),
        "log": build_log(observation, players, teams),
        "panel": build_panel(observation, players, viewer, turn, host_seat),
        "score_screen": build_score_screen(
            observation, players, viewer, teams, host_seat, scoreboard
        ),
        "partie_over": build_partie_over(observation, viewer, teams, scoreboard),
    }


def table_context(
    observation: dict,
    players: list[str],
    viewer_seat: int | None,
    *,
    action_url: str,
    salle_url: str = "/",
    host_seat: int | None = None,
    ws_url: str | None = None,
    oob: bool = False,
    flash: str | None = None,
    presence: dict | None = None,
    team_names: list[str] | None = None,
) -> dict:
    """The template context of games/table.html and each of its partials."""
    return {
        "table_view": build_table(
            observation,
            players,
            viewer_seat,
            host_seat=host_seat,
            presence=presence,
            team_names=team_names,
        ),
        "action_url": action_url,
        "salle_url": salle_url,
        "ws_url": ws_url,
        "oob": oob,
        "flash": flash,
    }


def render_regions(context: dict, request=None) -> str:
    """Every region of the table, each root with hx-swap-oob="true": one push / POST body, in
    ONE template render (the ``regions`` partial of games/table.html includes each of
    :data:`REGIONS` in turn), so the request's context processors and CSRF token run once."""
    from django.template.loader import render_to_string

    return render_to_string("games/table.html#regions", dict(context, oob=True), request=request)
