"""Random legal play, for the benchmark and the property tests (seeded, no ``random`` module)."""

from __future__ import annotations

from .cards import CARD_CODES
from .machine import apply, legal_actions, new_partie, to_act
from .shuffle import SeededShuffler
from .types import Action, Kings, State

#: percent weights: opening (pass, bet, ordago), answer (refuse, hold, raise, ordago), mus
DEFAULT_WEIGHTS: dict[str, int] = {
    "pass": 55,
    "bet": 40,
    "ordago": 5,
    "refuse": 40,
    "hold": 40,
    "raise": 17,
}
DEFAULT_WEIGHTS.update({"ordago_vote": 3, "mus": 50})


def _weighted(rng: SeededShuffler, options: list[tuple[int, Action]]) -> Action:
    total = sum(w for w, _ in options)
    pick = rng.randbelow(total)
    for weight, option in options:
        if pick < weight:
            return option
        pick -= weight
    return options[-1][1]


def pick_action(
    state: State, seat: int, rng: SeededShuffler, weights: dict[str, int] | None = None
) -> Action:
    """A random legal action of ``seat`` (which must be in ``to_act(state)``)."""
    w = DEFAULT_WEIGHTS if weights is None else weights
    templates = legal_actions(state, seat)
    kinds = {t["type"]: t for t in templates}
    if "deal" in kinds:
        return {"type": "deal"}
    if "mus" in kinds:
        return {"type": "mus"} if rng.randbelow(100) < w["mus"] else {"type": "cut"}
    if "discard" in kinds:
        cards = list(state["hand"]["cards"][seat])
        rng.shuffle(cards)
        return {"type": "discard", "cards": cards[: 1 + rng.randbelow(4)]}
    options: list[tuple[int, Action]] = []
    if "pass" in kinds:
        options.append((w["pass"], {"type": "pass"}))
        t = kinds["bet"]
        amount = t["min"] + rng.randbelow(min(t["max"], 12) - t["min"] + 1)
        if rng.randbelow(20) == 0:
            amount = t["max"]
        options.append((w["bet"], {"type": "bet", "amount": amount}))
        options.append((w["ordago"], {"type": "ordago"}))
    else:
        options.append((w["refuse"], {"type": "refuse"}))
        options.append((w["hold"], {"type": "hold"}))
        if "raise" in kinds:
            t = kinds["raise"]
            to = t["min"] + rng.randbelow(min(t["max"] - t["min"], 6) + 1)
            options.append((w["raise"], {"type": "raise", "to": to}))
        if "ordago" in kinds:
            options.append((w["ordago_vote"], {"type": "ordago"}))
    return _weighted(rng, options)


def play_partie(
    seed: int,
    kings: Kings | None = None,
    weights: dict[str, int] | None = None,
    max_actions: int = 100_000,
) -> State:
    """Play a whole partie at random; returns the final state (and yields nothing else)."""
    rng = SeededShuffler(seed)
    if kings is None:
        kings = 4 if rng.randbelow(2) == 0 else 8
    state = new_partie(kings=kings, first_mano=rng.randbelow(4), shuffler=rng)
    for _ in range(max_actions):
        if state["status"] == "finished":
            return state
        seats = to_act(state)
        seat = seats[rng.randbelow(len(seats))]
        state = apply(state, seat, pick_action(state, seat, rng, weights), shuffler=rng)
    raise RuntimeError(f"partie {seed} did not end in {max_actions} actions")


def shuffled_deck(rng: SeededShuffler) -> list[str]:
    deck = list(CARD_CODES)
    rng.shuffle(deck)
    return deck
