"""Fixed decks and short-hands for the engine tests (no Django, no database)."""

from __future__ import annotations

from games.engine import CARD_CODES, apply, new_partie

# The worked example of docs/rules.md section 6 (8 rois, seat 0 mano).
WORKED = {
    0: ["12o", "3o", "7o", "1o"],
    1: ["11o", "11c", "10o", "4o"],
    2: ["12c", "3c", "2o", "1c"],
    3: ["12e", "10c", "7c", "4c"],
}


def deck_for(hands: dict[int, list[str]], first: int, pioche: list[str] | None = None) -> list[str]:
    """A deck dealing ``hands[seat]`` to each seat when ``first`` is dealt to first.

    Seats left out get whatever cards remain; ``pioche`` fixes the top of the pioche.
    """
    used = [c for h in hands.values() for c in h] + list(pioche or [])
    assert len(set(used)) == len(used), "a card is used twice"
    rest = [c for c in CARD_CODES if c not in used]
    full = {s: list(hands.get(s) or [rest.pop(0) for _ in range(4)]) for s in range(4)}
    deck = [full[(first + i % 4) % 4][i // 4] for i in range(16)]
    deck += list(pioche or []) + rest
    assert sorted(deck) == sorted(CARD_CODES)
    return deck


def play(state: dict, *moves) -> dict:
    """Apply ``(seat, action)`` moves; actions may be written as short strings."""
    for seat, action in moves:
        state = apply(state, seat, parse(action))
    return state


def parse(action) -> dict:
    if isinstance(action, dict):
        return action
    words = action.split()
    kind = words[0]
    if kind == "bet":
        return {"type": "bet", "amount": int(words[1])}
    if kind == "raise":
        return {"type": "raise", "to": int(words[1])}
    if kind == "discard":
        return {"type": "discard", "cards": words[1:]}
    return {"type": kind}


def start(hands, *, kings=4, mano=0, decks_after=(), **kw) -> dict:
    """Hand 1 dealt from fixed hands with ``mano`` drawn as first speaker."""
    deck = deck_for(hands, mano, kw.pop("pioche", None))
    return new_partie(kings=kings, first_mano=mano, decks=[deck, *decks_after], **kw)


def pass_all(state: dict, order) -> dict:
    return play(state, *[(s, "pass") for s in order])


def strings(value) -> set[str]:
    """Every string leaf (and dict key) of a JSON value."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        out = set(value)
        for v in value.values():
            out |= strings(v)
        return out
    if isinstance(value, list):
        out = set()
        for v in value:
            out |= strings(v)
        return out
    return set()
