"""The partie state machine: ``new_partie``, ``apply``, ``legal_actions``, ``to_act``.

The state is a plain JSON dict and :func:`apply` copies it and never mutates its input, so a
partie is stored, replayed and verified from its actions alone. The state's layout and the rule
choices made where the rules pages leave a gap (each what a Mus table expects) are in
docs/engine.md (« The state machine »).
"""

from __future__ import annotations

from typing import Any, TypeGuard, cast

from . import betting
from .cards import CARD_CODES, CARD_SET, is_deck
from .errors import IllegalAction
from .hands import JEU as JEU_IDX
from .hands import PAIRES as PAIRES_IDX
from .hands import evaluate
from .scoring import count, decide, infos
from .types import (
    TARGET,
    Action,
    ActionType,
    Envite,
    Hand,
    HandRecord,
    Kings,
    LanceLog,
    LanceRecord,
    LegalAction,
    Outcome,
    Shuffler,
    State,
    Vote,
    Word,
    WordType,
    team_of,
)
from .types import Lance as LanceName

FORMAT = 1
ACTION_FIELDS: dict[ActionType, dict[str, type]] = {
    "mus": {},
    "cut": {},
    "discard": {"cards": list},
    "pass": {},
    "bet": {"amount": int},
    "ordago": {},
    "hold": {},
    "refuse": {},
    "raise": {"to": int},
    "deal": {},
}
PHASE_TYPES: dict[str, frozenset[str]] = {
    "mus": frozenset({"mus", "cut"}),
    "discard": frozenset({"discard"}),
    "lance": betting.OPENING_TYPES | betting.VOTE_TYPES,
    "hand_over": frozenset({"deal"}),
}
VERB: dict[ActionType, str] = {
    "mus": "say mus",
    "cut": "cut",
    "discard": "discard",
    "pass": "pass",
    "bet": "bet",
    "ordago": "call ordago",
    "hold": "hold",
    "refuse": "refuse",
    "raise": "raise",
    "deal": "deal",
}


# --------------------------------------------------------------------------- helpers


def _deep(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _deep(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_deep(v) for v in value]
    return value


def _copy_state(state: State) -> State:
    """Copy for a new version: logs get new lists (their items are never mutated)."""
    new = state.copy()
    new["decks"] = list(state["decks"])
    new["reshuffles"] = list(state["reshuffles"])
    new["actions"] = list(state["actions"])
    new["hands"] = list(state["hands"])
    new["scores"] = list(state["scores"])
    new["hand"] = _deep(state["hand"])
    return new


def _is_int(value: object) -> TypeGuard[int]:
    """Exactly an int: JSON booleans are ints to Python and never a seat or an amount."""
    return type(value) is int


def check_seat(seat: object) -> None:
    if not _is_int(seat) or not 0 <= seat <= 3:
        raise IllegalAction("invalid_seat", f"seat {seat!r} is not a seat 0-3", seat=repr(seat))


def parse_action(action: object) -> Action:
    """A clean copy of a well-formed action, or IllegalAction (unknown / malformed)."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise IllegalAction("malformed_action", "an action is an object with a string 'type'")
    kind = action["type"]
    fields = ACTION_FIELDS.get(kind)
    if fields is None:
        raise IllegalAction("unknown_action", f"unknown action type {kind!r}", type=kind)
    if set(action) != {"type", *fields}:
        want = ", ".join(sorted(fields)) or "no other field"
        raise IllegalAction(
            "malformed_action", f"a {kind} action takes {want}", type=kind, fields=sorted(fields)
        )
    for name, typ in fields.items():
        value = action[name]
        ok = _is_int(value) if typ is int else isinstance(value, typ)
        if not ok:
            raise IllegalAction(
                "malformed_action", f"{kind}: field {name!r} must be {typ.__name__}", type=kind
            )
    if kind == "discard":
        if not all(isinstance(c, str) for c in action["cards"]):
            raise IllegalAction("malformed_action", "discard: cards must be card codes")
        return {"type": kind, "cards": list(action["cards"])}
    return cast(Action, dict(action))  # its fields were checked just above


def _order_from(first: int) -> list[int]:
    return [(first + i) % 4 for i in range(4)]


def _mano(hand: Hand) -> int:
    """The mano, fixed from the cut of hand 1 on (so in every lance and at every showdown)."""
    mano = hand["mano"]
    assert mano is not None, "no mano before the first cut"
    return mano


def _speaker(hand: Hand) -> int:
    """Whose word it is in the mus phase (None outside it)."""
    speaker = hand["speaker"]
    assert speaker is not None, "no speaker outside the mus phase"
    return speaker


def _envite(hand: Hand) -> Envite:
    """The open betting, there whenever the phase is ``lance``."""
    envite = hand["betting"]
    assert envite is not None, "no betting outside the lance phase"
    return envite


def _lance(hand: Hand) -> LanceName:
    """The lance being bet, there whenever the phase is ``lance``."""
    lance = hand["lance"]
    assert lance is not None, "no lance outside the lance phase"
    return lance


def _lead(hand: Hand) -> int:
    """The seat everything starts from now: the mano, or the drawn mano before the cut."""
    return hand["mano"] if hand["mano"] is not None else hand["first_speaker"]


def _record(lance: LanceName, outcome: Outcome, eligible: list[int], **extra: Any) -> LanceLog:
    rec: LanceLog = {
        "lance": lance,
        "outcome": outcome,
        "stake": None,
        "winner_team": None,
        "winner_seat": None,
        "deje": 0,
        "points": 0,
        "eligible": list(eligible),
        "bettor_team": None,
    }
    rec.update(extra)  # type: ignore[typeddict-item]
    return rec


# --------------------------------------------------------------------------- randomness


def _need_shuffle(kind: str, items: list[str], shuffler: Shuffler | None) -> list[str]:
    if shuffler is None:
        raise IllegalAction(
            "no_randomness", f"a {kind} must be shuffled and no shuffler was given", need=kind
        )
    out = list(items)
    shuffler.shuffle(out)
    return out


def _next_deck(decks: list[list[str]], hand_number: int, shuffler: Shuffler | None) -> list[str]:
    """The deck of hand ``hand_number``: the given one, or a shuffled one added to ``decks``."""
    idx = hand_number - 1
    if idx < len(decks):
        return decks[idx]
    deck = _need_shuffle("deck", list(CARD_CODES), shuffler)
    if not is_deck(deck):
        raise IllegalAction("invalid_deck", "the shuffler did not return the 40 cards")
    decks.append(deck)
    return deck


def _reshuffle(state: State, cards: list[str], shuffler: Shuffler | None) -> list[str]:
    used = state["reshuffles_used"]
    if used < len(state["reshuffles"]):
        order = state["reshuffles"][used]
        if sorted(order) != sorted(cards):
            raise IllegalAction(
                "invalid_reshuffle",
                f"reshuffle {used} does not list exactly the {len(cards)} discards reshuffled",
                index=used,
            )
    else:
        order = _need_shuffle("reshuffle", cards, shuffler)
        state["reshuffles"].append(order)
    state["reshuffles_used"] = used + 1
    return list(order)


# --------------------------------------------------------------------------- creation / deal


def new_partie(
    *,
    kings: Kings,
    first_mano: int,
    decks: list[list[str]] | None = None,
    reshuffles: list[list[str]] | None = None,
    shuffler: Shuffler | None = None,
) -> State:
    """A new partie with hand 1 dealt (from ``decks[0]`` or the shuffler)."""
    if not _is_int(kings) or kings not in (4, 8):
        raise IllegalAction("invalid_argument", f"kings must be 4 or 8, not {kings!r}")
    if not _is_int(first_mano) or not 0 <= first_mano <= 3:
        raise IllegalAction(
            "invalid_argument", f"first_mano must be a seat 0-3, not {first_mano!r}"
        )
    decks = [] if decks is None else decks
    reshuffles = [] if reshuffles is None else reshuffles
    if not isinstance(decks, list):
        raise IllegalAction("invalid_deck", "decks must be a list of decks")
    for i, deck in enumerate(decks):
        if not is_deck(deck):
            raise IllegalAction("invalid_deck", f"deck {i} is not the 40 cards once each", index=i)
    if not isinstance(reshuffles, list):
        raise IllegalAction("invalid_reshuffle", "reshuffles must be a list of card lists")
    for i, order in enumerate(reshuffles):
        ok = isinstance(order, list) and all(isinstance(c, str) and c in CARD_SET for c in order)
        if not ok or len(set(order)) != len(order) or not 1 <= len(order) <= 24:
            raise IllegalAction(
                "invalid_reshuffle", f"reshuffle {i} is not a list of distinct cards", index=i
            )
    own_decks = [list(d) for d in decks]
    first_deck = _next_deck(own_decks, 1, shuffler)
    return {
        "format": FORMAT,
        "version": 0,
        "kings": kings,
        "first_mano": first_mano,
        "decks": own_decks,
        "reshuffles": [list(r) for r in reshuffles],
        "reshuffles_used": 0,
        "actions": [],
        "status": "playing",
        "phase": "mus",
        "scores": [0, 0],
        "winner": None,
        "hand_number": 1,
        "hands": [],
        "hand": _new_hand(first_deck, first_mano, None),
    }


def _new_hand(deck: list[str], first_speaker: int, mano: int | None) -> Hand:
    """A hand dealt from ``deck``: four cards each, one at a time from ``first_speaker``."""
    cards: list[list[str]] = [[], [], [], []]
    for i in range(16):
        cards[(first_speaker + i) % 4].append(deck[i])
    return {
        "mano": mano,
        "first_speaker": first_speaker,
        "cards": cards,
        "pioche": list(deck[16:]),
        "old_discards": [],
        "speaker": first_speaker,
        "mus_said": 0,
        "pending": [None, None, None, None],
        "discard_rounds": [],
        "words": [],
        "lance": None,
        "declarations": {"paires": None, "jeu": None},
        "betting": None,
        "lances": [],
        "closed": False,
        "hands_shown": None,
    }


# --------------------------------------------------------------------------- queries


def to_act(state: State) -> list[int]:
    """Seats that may act now (several during discards and team votes)."""
    phase = state["phase"]
    hand = state["hand"]
    if phase == "mus":
        return [_speaker(hand)]
    if phase == "discard":
        lead = _lead(hand)
        return [s for s in _order_from(lead) if hand["pending"][s] is None]
    if phase == "lance":
        return betting.to_act(_envite(hand))
    if phase == "hand_over":
        return [0, 1, 2, 3]
    return []


def legal_actions(state: State, seat: int) -> list[LegalAction]:
    """Templates of what ``seat`` may do now; [] when it is not its turn or the partie is over."""
    phase = state["phase"]
    hand = state["hand"]
    if phase == "mus":
        return [{"type": "mus"}, {"type": "cut"}] if seat == hand["speaker"] else []
    if phase == "discard":
        if hand["pending"][seat] is None:
            return [{"type": "discard", "min": 1, "max": 4}]
        return []
    if phase == "lance":
        return betting.templates(_envite(hand), seat)
    if phase == "hand_over":
        return [{"type": "deal"}]
    return []


# --------------------------------------------------------------------------- apply


def apply(state: State, seat: int, action: Action, *, shuffler: Shuffler | None = None) -> State:
    """The state after ``seat`` plays ``action``; IllegalAction leaves ``state`` untouched."""
    return _apply(state, seat, action, shuffler, copy=True)


def apply_owned(
    state: State, seat: int, action: Action, *, shuffler: Shuffler | None = None
) -> None:
    """``apply`` in place, for a state its caller alone holds (a review's rollout, which played
    every decision of its hand in a fresh copy): no copy of the hand per decision. An illegal
    action may leave ``state`` half changed."""
    _apply(state, seat, action, shuffler, copy=False)


def _apply(
    state: State, seat: int, action: Action, shuffler: Shuffler | None, *, copy: bool
) -> State:
    if state["status"] == "finished":
        raise IllegalAction("game_finished", "the partie is over", winner=state["winner"])
    check_seat(seat)
    act = parse_action(action)
    kind = act["type"]
    phase = state["phase"]
    if kind not in PHASE_TYPES.get(phase, ()):
        raise IllegalAction(
            "wrong_phase",
            f"seat {seat} cannot {VERB[kind]} now: the hand is in the {phase} phase",
            seat=seat,
            type=kind,
            phase=phase,
        )
    new = _copy_state(state) if copy else state
    if phase == "mus":
        _on_mus(new, seat, act)
    elif phase == "discard":
        _on_discard(new, seat, act, shuffler)
    elif phase == "lance":
        _on_lance(new, seat, act)
    else:
        _on_deal(new, shuffler)
    new["actions"].append([seat, act])
    new["version"] += 1
    return new


def _not_turn(seat: int, kind: ActionType, turn: int | None) -> IllegalAction:
    return IllegalAction(
        "not_your_turn",
        f"seat {seat} cannot {VERB[kind]} now: it is seat {turn}'s turn",
        seat=seat,
        type=kind,
        turn=turn,
    )


def _on_mus(state: State, seat: int, act: Action) -> None:
    hand = state["hand"]
    if seat != hand["speaker"]:
        raise _not_turn(seat, act["type"], hand["speaker"])
    hand["words"].append({"seat": seat, "type": "cut" if act["type"] == "cut" else "mus"})
    if act["type"] == "cut":
        if hand["mano"] is None:
            hand["mano"] = seat  # hand 1: whoever cuts becomes the mano
        hand["speaker"] = None
        _start_lance(state, "grand")
        return
    hand["mus_said"] += 1
    hand["speaker"] = (seat + 1) % 4
    if hand["mus_said"] == 4:
        state["phase"] = "discard"
        hand["speaker"] = None
        hand["pending"] = [None, None, None, None]


def _on_discard(state: State, seat: int, act: Action, shuffler: Shuffler | None) -> None:
    hand = state["hand"]
    if hand["pending"][seat] is not None:
        raise IllegalAction(
            "already_discarded", f"seat {seat} has already chosen its discard", seat=seat
        )
    cards = act["cards"]
    if not 1 <= len(cards) <= 4:
        raise IllegalAction(
            "wrong_discard_count",
            f"seat {seat} must discard 1 to 4 cards, not {len(cards)}",
            seat=seat,
            count=len(cards),
        )
    if len(set(cards)) != len(cards):
        raise IllegalAction("duplicate_cards", f"seat {seat} names a card twice", seat=seat)
    for card in cards:
        if card not in hand["cards"][seat]:
            raise IllegalAction(
                "card_not_held", f"seat {seat} does not hold {card!r}", seat=seat, card=card
            )
    hand["pending"][seat] = list(cards)
    if all(p is not None for p in hand["pending"]):
        _serve_discards(state, shuffler)


def _serve_discards(state: State, shuffler: Shuffler | None) -> None:
    hand = state["hand"]
    lead = _lead(hand)
    thrown: list[str] = []
    counts = [0, 0, 0, 0]
    for seat in _order_from(lead):
        out = hand["pending"][seat]
        assert out is not None, "served once every seat has chosen"
        counts[seat] = len(out)
        keep = [c for c in hand["cards"][seat] if c not in out]
        thrown.extend(out)
        for _ in out:
            if not hand["pioche"]:
                hand["pioche"] = _reshuffle(state, hand["old_discards"], shuffler)
                hand["old_discards"] = []
            keep.append(hand["pioche"].pop(0))
        hand["cards"][seat] = keep
    hand["old_discards"].extend(thrown)
    hand["discard_rounds"].append(counts)
    for seat in _order_from(lead):
        hand["words"].append({"seat": seat, "type": "discard", "count": counts[seat]})
    hand["pending"] = [None, None, None, None]
    hand["mus_said"] = 0
    hand["speaker"] = lead
    state["phase"] = "mus"


# --------------------------------------------------------------------------- lances


def _start_lance(state: State, lance: LanceName) -> None:
    """Open ``lance`` (or skip / settle it as the declarations say) and move on as needed."""
    hand = state["hand"]
    state["phase"] = "lance"
    order = _order_from(_mano(hand))
    if lance in ("paires", "jeu"):
        idx = PAIRES_IDX if lance == "paires" else JEU_IDX
        has = [evaluate(c, state["kings"])[idx] > 0 for c in hand["cards"]]
        hand["declarations"][lance] = has
        for seat in order:
            word: Word = {"seat": seat, "type": "declare", "lance": lance, "has": has[seat]}
            hand["words"].append(word)
        holders = [s for s in order if has[s]]
        teams = {team_of(s) for s in holders}
        if not holders:
            if lance == "paires":
                hand["lances"].append(_record("paires", "none", []))
                _start_lance(state, "jeu")
            else:
                _start_lance(state, "point")
            return
        if len(teams) == 1:
            team = teams.pop()
            hand["lances"].append(_record(lance, "unopposed", holders, winner_team=team))
            _after_lance(state, lance)
            return
        order = holders
    hand["lance"] = lance
    hand["betting"] = betting.open_envite(order)


def _after_lance(state: State, lance: LanceName) -> None:
    hand = state["hand"]
    hand["lance"] = None
    hand["betting"] = None
    if state["status"] == "finished":
        return
    if lance == "grand":
        _start_lance(state, "petit")
    elif lance == "petit":
        _start_lance(state, "paires")
    elif lance == "paires":
        _start_lance(state, "jeu")
    else:
        _showdown(state, count_it=True)


def _word(seat: int, act: Action, lance: LanceName) -> Word:
    word: Word = {"seat": seat, "type": cast(WordType, act["type"]), "lance": lance}
    if act["type"] == "bet":
        word["amount"] = act["amount"]
    elif act["type"] == "raise":
        word["to"] = act["to"]
    return word


def _on_lance(state: State, seat: int, act: Action) -> None:
    hand = state["hand"]
    b = _envite(hand)
    kind = act["type"]
    if betting.is_opening(b):
        if kind in ("hold", "refuse", "raise"):
            raise IllegalAction(
                "wrong_phase",
                f"seat {seat} cannot {VERB[kind]} now: there is no bet to answer",
                seat=seat,
                type=kind,
                phase="lance",
            )
        if seat not in b["eligible"]:
            raise _not_eligible(seat, kind, _lance(hand))
        if seat != betting.opener(b):
            raise _not_turn(seat, kind, betting.opener(b))
        _opening(state, seat, act)
    else:
        if kind in ("pass", "bet"):
            raise IllegalAction(
                "wrong_phase",
                f"seat {seat} cannot {VERB[kind]} now: a bet must be answered",
                seat=seat,
                type=kind,
                phase="lance",
            )
        if team_of(seat) == b["bettor_team"]:
            raise IllegalAction(
                "betting_team_cannot_vote",
                f"seat {seat} cannot {VERB[kind]}: its team made the bet",
                seat=seat,
                type=kind,
            )
        if seat not in b["eligible"]:
            raise _not_eligible(seat, kind, _lance(hand))
        if str(seat) in b["votes"]:
            raise IllegalAction(
                "already_voted", f"seat {seat} has already answered this bet", seat=seat
            )
        _vote(state, seat, act)


def _not_eligible(seat: int, kind: ActionType, lance: LanceName | None) -> IllegalAction:
    return IllegalAction(
        "not_eligible",
        f"seat {seat} cannot {VERB[kind]}: it takes no part in the {lance} betting",
        seat=seat,
        type=kind,
        lance=lance,
    )


def _opening(state: State, seat: int, act: Action) -> None:
    hand = state["hand"]
    b = _envite(hand)
    lance = _lance(hand)
    kind = act["type"]
    if kind == "bet" and not betting.MIN_BET <= act["amount"] <= betting.MAX_STAKE:
        raise IllegalAction(
            "amount_out_of_range",
            f"a bet is 2 to 40, not {act['amount']}",
            amount=act["amount"],
            min=betting.MIN_BET,
            max=betting.MAX_STAKE,
        )
    hand["words"].append(_word(seat, act, lance))
    if kind == "pass":
        b["turn"] += 1
        if b["turn"] == len(b["eligible"]):
            hand["lances"].append(_record(lance, "paso", b["eligible"]))
            _after_lance(state, lance)
        return
    betting.place_bet(b, seat, act["amount"] if kind == "bet" else "ordago")


def _vote(state: State, seat: int, act: Action) -> None:
    hand = state["hand"]
    b = _envite(hand)
    lance = _lance(hand)
    kind = act["type"]
    stake = b["stake"]
    if kind in ("raise", "ordago") and stake == "ordago":
        raise IllegalAction(
            "stake_is_ordago", f"seat {seat} cannot {VERB[kind]}: the stake is an ordago", seat=seat
        )
    if kind == "raise":
        assert isinstance(stake, int), "an órdago is refused above; only an opening has no stake"
        to = act["to"]
        if to <= stake:
            raise IllegalAction(
                "raise_not_above_stake",
                f"a raise must go above the stake of {stake}, not to {to}"
                + (" (at 40 only an ordago)" if stake >= betting.MAX_STAKE else ""),
                to=to,
                stake=stake,
            )
        if to > betting.MAX_STAKE:
            raise IllegalAction(
                "amount_out_of_range",
                f"a raise goes at most to 40, not {to}",
                to=to,
                max=betting.MAX_STAKE,
            )
    hand["words"].append(_word(seat, act, lance))
    vote: Vote = {"type": kind}  # type: ignore[typeddict-item]  # a vote type: checked above
    if kind == "raise":
        vote["to"] = act["to"]
    b["votes"][str(seat)] = vote
    if not betting.vote_is_final(b, vote):
        return
    answer, raised_to, who = betting.team_answer(b)
    if answer == "raise":
        assert raised_to is not None, "a raise vote carries its amount"
        betting.raise_to(b, who, raised_to)
    elif answer == "ordago":
        betting.raise_to(b, who, "ordago")
    elif answer == "hold":
        if b["stake"] == "ordago":
            rec = _record(lance, "ordago", b["eligible"], stake="ordago")
            rec["bettor_team"] = b["bettor_team"]
            hand["lances"].append(rec)
            _showdown(state, count_it=False, ordago=True)
            return
        hand["lances"].append(
            _record(lance, "held", b["eligible"], stake=b["stake"], bettor_team=b["bettor_team"])
        )
        _after_lance(state, lance)
    else:
        deje = betting.deje(b)
        team = b["bettor_team"]
        assert team is not None, "a refused bet has a bettor"
        hand["lances"].append(
            _record(
                lance,
                "refused",
                b["eligible"],
                stake=b["stake"],
                bettor_team=team,
                winner_team=team,
                deje=deje,
            )
        )
        state["scores"][team] += deje
        if state["scores"][team] >= TARGET:
            state["winner"] = team
            _showdown(state, count_it=False)
            return
        _after_lance(state, lance)


# --------------------------------------------------------------------------- showdown


def public_record(rec: LanceRecord) -> LanceRecord:
    return {
        "lance": rec["lance"],
        "outcome": rec["outcome"],
        "stake": rec["stake"],
        "winner_team": rec["winner_team"],
        "winner_seat": rec["winner_seat"],
        "deje": rec["deje"],
        "points": rec["points"],
    }


def hand_record(state: State) -> HandRecord:
    """The REPLAY-shaped record of the current hand (closed or not)."""
    hand = state["hand"]
    out: HandRecord = {
        "mano": hand["mano"],
        "lances": [public_record(r) for r in hand["lances"]],
        "scores_after": list(state["scores"]),
    }
    if hand["hands_shown"] is not None:
        out["hands_shown"] = {k: list(v) for k, v in hand["hands_shown"].items()}
    return out


def _showdown(state: State, *, count_it: bool, ordago: bool = False) -> None:
    """Show the four hands, decide every lance, count (unless the partie already ended)."""
    hand = state["hand"]
    hand["lance"] = None
    hand["betting"] = None
    hand["speaker"] = None
    hand["hands_shown"] = {str(s): list(hand["cards"][s]) for s in range(4)}
    info = infos(hand["cards"], state["kings"])
    for rec in hand["lances"]:
        decide(rec, info, _mano(hand))
    if ordago:
        state["winner"] = hand["lances"][-1]["winner_team"]
    elif count_it:
        reached = count(hand["lances"], info, state["scores"])
        if reached is not None:
            state["winner"] = reached
    hand["closed"] = True
    state["hands"].append(hand_record(state))
    if state["winner"] is not None:
        state["status"] = "finished"
        state["phase"] = "finished"
    else:
        state["status"] = "hand_over"
        state["phase"] = "hand_over"


def _on_deal(state: State, shuffler: Shuffler | None) -> None:
    mano = (_mano(state["hand"]) + 1) % 4
    state["hand_number"] += 1
    deck = _next_deck(state["decks"], state["hand_number"], shuffler)
    state["hand"] = _new_hand(deck, mano, mano)
    state["status"] = "playing"
    state["phase"] = "mus"
