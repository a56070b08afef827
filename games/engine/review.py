"""« Revoir avec le robot »: each decision of a seat weighed against the robot's, from the
seat's observation alone (docs/review.md).

A decision is analysed from ``observation(state, seat)`` and nothing else: the hidden cards are
dealt again at random, consistently with what the seat saw (its cards, the declarations, the
pioche's size), with a shuffler seeded by the observation's hash, and each option the player had
is played out by robots to the end of the hand; the scores it leaves are turned into a chance
to win the partie by the robots' own score model. So changing any card the seat could not see
changes no figure, and the same observation always gets the same figures.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any, TypedDict

from .cards import CARD_CODES
from .hands import JEU, PAIRES, evaluate
from .machine import _record, apply, apply_owned, new_partie, to_act
from .observation import observation
from .robot import DEFAULT_LEVEL, ROBOT_VERSION, robot_action
from .robot_v1 import observation_seed
from .shuffle import SeededShuffler
from .solve import partie_chance
from .types import Action, Envite, Hand, LanceLog, Observation, State, team_of

#: Bumped when the analysis itself changes (with the robot's version it names a review).
METHOD = 1
#: Determinisations per option (the same ones for every option of a decision).
SAMPLES = 32
#: Tries to deal a seat a hand matching its declarations before taking any hand.
DEAL_TRIES = 400

# --------------------------------------------------------------------------- determinisation


def review_version() -> str:
    """What a stored review was computed with: the robot's version and this method's."""
    return f"{ROBOT_VERSION}/{METHOD}"


def seeded(obs: Observation, salt: int = 0) -> SeededShuffler:
    """A shuffler fixed by the observation (and ``salt``): never by a hidden card."""
    return SeededShuffler(seed_base(obs) + salt)


def seed_base(obs: Observation) -> int:
    """The observation's part of every seed of its analysis (hashed once per decision)."""
    return int.from_bytes(observation_seed(obs)[:8], "big") * 1000


def _matches(cards: list[str], seat: int, obs: Observation) -> bool:
    info = evaluate(cards, obs["kings"])
    for lance, idx in (("paires", PAIRES), ("jeu", JEU)):
        said = obs["declarations"][lance]  # type: ignore[literal-required]
        if said is not None and said[seat] != (info[idx] > 0):
            return False
    return True


def _deal_others(obs: Observation, rng: SeededShuffler) -> tuple[list[list[str]], list[str]]:
    """The four hands (the seat's own as it is) and the cards left, dealt consistently with
    the declarations heard."""
    seat = obs["seat"]
    mine = obs["my_cards"]
    assert seat is not None and mine is not None, "a seat's observation"
    pool = [c for c in CARD_CODES if c not in mine]
    hands: list[list[str]] = [[], [], [], []]
    hands[seat] = list(mine)
    for other in ((seat + i) % 4 for i in (1, 2, 3)):
        for _ in range(DEAL_TRIES):
            rng.shuffle(pool)
            if _matches(pool[:4], other, obs):
                break
        hands[other], pool = pool[:4], pool[4:]
    rng.shuffle(pool)
    return hands, pool


def _lance_words(obs: Observation, lance: str) -> list[dict[str, Any]]:
    return [dict(w) for w in obs["words"] if w.get("lance") == lance]


def _last_bettor(obs: Observation, lance: str) -> int | None:
    seat = None
    for w in _lance_words(obs, lance):
        if w["type"] in ("bet", "raise", "ordago"):
            seat = w["seat"]
    return seat


def _eligible(obs: Observation, lance: str, mano: int) -> list[int]:
    order = [(mano + i) % 4 for i in range(4)]
    decl = obs["declarations"]
    said = decl["paires"] if lance == "paires" else decl["jeu"] if lance == "jeu" else None
    return order if said is None else [s for s in order if said[s]]


def _lance_logs(obs: Observation, mano: int) -> list[LanceLog]:
    logs: list[LanceLog] = []
    for rec in obs["lances"]:
        eligible = [] if rec["outcome"] == "none" else _eligible(obs, rec["lance"], mano)
        bettor = _last_bettor(obs, rec["lance"])
        facts = {k: v for k, v in rec.items() if k not in ("lance", "outcome")}
        team = None if bettor is None else team_of(bettor)
        logs.append(_record(rec["lance"], rec["outcome"], eligible, **facts, bettor_team=team))
    return logs


def _envite(obs: Observation) -> Envite | None:
    public = obs["betting"]
    lance = obs["lance"]
    if public is None or lance is None:
        return None
    passes = sum(1 for w in _lance_words(obs, lance) if w["type"] == "pass")
    return {
        "eligible": list(public["eligible"]),
        "stake": public["stake"],
        "held": public["held"],
        "bettor_team": public["bettor_team"],
        "answering_team": public["answering_team"],
        "votes": {k: v.copy() for k, v in public["votes"].items()},
        "turn": passes if public["stake"] is None else 0,
        "bettor_seat": _last_bettor(obs, lance),
    }


def _mus_said(obs: Observation) -> int:
    said = 0
    for w in reversed(obs["words"]):
        if w["type"] != "mus":
            break
        said += 1
    return said


def determinise(obs: Observation, rng: SeededShuffler) -> State:
    """A whole state the seat's observation could come from: its own cards as seen, every
    hidden card dealt at random (declarations kept), the public facts copied. Observing it
    from the seat gives back ``obs``."""
    seat = obs["seat"]
    assert seat is not None, "a seat's observation"
    cards, rest = _deal_others(obs, rng)
    size = obs["pioche_size"]
    mano = obs["mano"] if obs["mano"] is not None else obs["first_speaker"]
    phase = obs["phase"]
    hand: Hand = {
        "mano": obs["mano"],
        "first_speaker": obs["first_speaker"],
        "cards": cards,
        "pioche": rest[:size],
        "old_discards": rest[size:],
        "speaker": obs["to_act"][0] if phase == "mus" and obs["to_act"] else None,
        "mus_said": _mus_said(obs) if phase == "mus" else 0,
        "pending": [None, None, None, None],
        "discard_rounds": [list(r) for r in obs["discard_rounds"]],
        "words": [w.copy() for w in obs["words"]],
        "lance": obs["lance"],
        "declarations": {
            "paires": None
            if obs["declarations"]["paires"] is None
            else list(obs["declarations"]["paires"]),
            "jeu": None if obs["declarations"]["jeu"] is None else list(obs["declarations"]["jeu"]),
        },
        "betting": _envite(obs),
        "lances": _lance_logs(obs, mano),
        "closed": False,
        "hands_shown": None,
    }
    state: State = {
        "format": 1,
        "version": obs["version"],
        "kings": obs["kings"],
        "first_mano": obs["first_speaker"],
        "decks": [],
        "reshuffles": [],
        "reshuffles_used": 0,
        "actions": [],
        "status": obs["status"],
        "phase": phase,
        "scores": list(obs["scores"]),
        "winner": obs["winner"],
        "hand_number": obs["hand_number"],
        "hands": [dict(h) for h in obs["hands"][:-1]],  # type: ignore[misc]
        "hand": hand,
    }
    if phase == "discard":  # who already chose: a choice the seat did not see, the robot's
        for other, ready in enumerate(obs["discard_ready"]):
            if ready and other != seat:
                choice = robot_action(observation(state, other), DEFAULT_LEVEL)
                hand["pending"][other] = list(choice.get("cards", []))
    return state


# --------------------------------------------------------------------------- rollouts


def rollout(state: State, seat: int, action: Action, rng: SeededShuffler) -> float:
    """The seat's team's chance to win the partie once ``action`` is played and robots play
    the hand out: 1 or 0 if the partie ends in it, else the score model's chance."""
    team = team_of(seat)
    st = apply(state, seat, action, shuffler=rng)  # a copy the rollout alone holds
    while st["status"] == "playing":
        actor = to_act(st)[0]
        move = robot_action(observation(st, actor), DEFAULT_LEVEL)
        apply_owned(st, actor, move, shuffler=rng)
    if st["status"] == "finished":
        return 1.0 if st["winner"] == team else 0.0
    return partie_chance(st["scores"][team], st["scores"][1 - team])


def key(action: Action) -> str:
    """One text per distinct action (a discard's cards in any order are one action)."""
    out: dict[str, Any] = dict(action)
    if "cards" in out:
        out["cards"] = sorted(out["cards"], key=CARD_CODES.index)
    return json.dumps(out, sort_keys=True)


def options(obs: Observation, played: Action | None, advice: Action) -> list[Action]:
    """What the player could have done, as the review weighs it: every kind of answer (a bet
    of 2, a raise of 2), plus the player's own and the robot's when they differ."""
    out: list[Action] = []
    betting = obs["betting"]
    for template in obs["legal"]:
        kind = template["type"]
        if kind == "bet":
            out.append({"type": "bet", "amount": template.get("min", 2)})
        elif kind == "raise":
            stake = betting["stake"] if betting is not None else None
            base = stake if isinstance(stake, int) else 0
            to = min(template.get("max", 40), max(template.get("min", 1), base + 2))
            out.append({"type": "raise", "to": to})
        elif kind != "discard":
            out.append({"type": kind})
    for extra in (advice, played):
        if extra is not None:
            out.append(extra)
    seen: set[str] = set()
    unique = []
    for action in out:
        if key(action) not in seen:
            seen.add(key(action))
            unique.append(action)
    return unique


class Option(TypedDict):
    action: Action
    chance: float  # estimated chance to win the partie after it, 0-1


class Analysis(TypedDict):
    advice: Action  # the robot's decision from the same observation
    options: list[Option]
    samples: int


def analyse(obs: Observation, played: Action | None = None, samples: int = SAMPLES) -> Analysis:
    """The robot's decision and every option's estimated chance, from ``obs`` only."""
    seat = obs["seat"]
    assert seat is not None, "a seat's observation"
    advice = robot_action(obs, DEFAULT_LEVEL)
    choices = options(obs, played, advice)
    totals = [0.0] * len(choices)
    base = seed_base(obs)
    for k in range(samples):
        world = determinise(obs, SeededShuffler(base + 2 * k))
        for i, action in enumerate(choices):
            # the same world and the same later shuffles for every option: only the choice differs
            totals[i] += rollout(world, seat, action, SeededShuffler(base + 2 * k + 1))
    return {
        "advice": advice,
        "options": [
            {"action": a, "chance": t / samples} for a, t in zip(choices, totals, strict=True)
        ],
        "samples": samples,
    }


# --------------------------------------------------------------------------- a whole partie


def decisions(log: State, seats: set[int]) -> Iterator[tuple[int, Observation, Action]]:
    """``(index in the log, observation, action)`` of each decision of ``seats`` (the deals
    aside), replaying the partie's recorded log (its decks and actions) as far as it goes."""
    state = new_partie(
        kings=log["kings"],
        first_mano=log["first_mano"],
        decks=log["decks"],
        reshuffles=log["reshuffles"],
    )
    for index, (seat, action) in enumerate(log["actions"]):
        if seat in seats and action["type"] != "deal":
            yield index, observation(state, seat), action
        state = apply(state, seat, action)


def same_decision(a: Action, b: Action) -> bool:
    """Agreement as a player reads it: the same kind of word (any bet amount is a bet), the
    same cards for a discard."""
    if a["type"] != b["type"]:
        return False
    return a["type"] != "discard" or key(a) == key(b)


def review_decision(
    index: int, obs: Observation, played: Action, samples: int = SAMPLES
) -> dict[str, Any]:
    """One decision as the review keeps it: its position, the word played, the robot's, each
    option's estimated chance and the cost. A function of its arguments alone, so a review may
    analyse its decisions in any order and in any process (reviews.services splits them)."""
    found = analyse(obs, played, samples)
    chances = {key(o["action"]): o["chance"] for o in found["options"]}
    best = max(chances.values())
    return {
        "index": index,
        "position": position(obs),
        "played": played,
        "advice": found["advice"],
        "agrees": same_decision(played, found["advice"]),
        "options": found["options"],
        "samples": found["samples"],
        "cost": round(best - chances[key(played)], 4),
    }


def by_seat(rows: list[dict[str, Any]], seats: set[int]) -> dict[int, list[dict[str, Any]]]:
    """Reviewed decisions (any order) as {seat: [decision]} in play order."""
    out: dict[int, list[dict[str, Any]]] = {s: [] for s in sorted(seats)}
    for row in sorted(rows, key=lambda r: r["index"]):
        out[row["position"]["seat"]].append(row)
    return out


def review_seats(
    log: State,
    seats: set[int],
    samples: int = SAMPLES,
    progress: Callable[[int, int], None] | None = None,
) -> dict[int, list[dict[str, Any]]]:
    """Every decision of ``seats`` in the partie ``log``, analysed from that seat's observation
    alone, one after the other: {seat: [decision]} in play order."""
    todo = list(decisions(log, seats))
    rows = []
    for done, (index, obs, played) in enumerate(todo):
        rows.append(review_decision(index, obs, played, samples))
        if progress is not None:
            progress(done + 1, len(todo))
    return by_seat(rows, seats)


def position(obs: Observation) -> dict[str, Any]:
    """What the review shows of the moment: what the seat saw that matters for its choice."""
    betting = obs["betting"]
    return {
        "hand_number": obs["hand_number"],
        "phase": obs["phase"],
        "lance": obs["lance"],
        "cards": list(obs["my_cards"] or []),
        "scores": list(obs["scores"]),
        "mano": obs["mano"],
        "seat": obs["seat"],
        "stake": None if betting is None else betting["stake"],
        "words": [w.copy() for w in obs["words"]][-6:],
        "legal": [t["type"] for t in obs["legal"]],
    }


def summary(found: list[dict[str, Any]], worst: int = 3) -> dict[str, Any]:
    """The agreement rate and the costliest decisions (indices in ``found``)."""
    agreed = sum(1 for d in found if d["agrees"])
    costly = sorted(
        (i for i, d in enumerate(found) if d["cost"] > 0), key=lambda i: -found[i]["cost"]
    )
    return {
        "decisions": len(found),
        "agreed": agreed,
        "agreement": agreed / len(found) if found else None,
        "costliest": costly[:worst],
    }
