# ruff: noqa: E501
"""# Engine API contract (games/engine) — fixed so the Django shell can be written against it in parallel

Everything below is importable from `games.engine` (the package `__init__`). Pure Python 3.12+,
stdlib only, no Django, no I/O, no import of the `random` module anywhere under games/ (a project hook flags it).

## State
- A state is a plain `dict` of JSON types only (str keys, lists, ints, str, bool, None).
  `json.loads(json.dumps(s)) == s` always. The shell stores it in a JSONField as is.
- `apply` never mutates its input; it returns a new dict.
- `state["version"]`: int, 0 for a new partie, +1 for every applied action (the shell's
  optimistic-concurrency version; the shell may also keep its own copy).
- The state keeps every deck and reshuffle order it used (`state["decks"]`,
  `state["reshuffles"]`) and its action log (`state["actions"]`: list of `[seat, action]`), so
  `replay(kings, first_mano, decks, reshuffles, actions)` rebuilds an identical state.

## Randomness is data
- `shuffler`: any object with a `.shuffle(list)` method. The site passes `secrets.SystemRandom()`.
- Decks / reshuffle orders already present in the state (supplied to `new_partie`) are consumed
  first, in order; when one more is needed and none is left, the engine asks `shuffler`
  (shuffle a fresh 40-card deck, or the discard cards being reshuffled) and records the result in
  the state. If one is needed and no shuffler was given → `IllegalAction(code="no_randomness")`.
- For the replay command's `seed`: `seeded_shuffler(seed: int)` returns a deterministic shuffler
  built on hashlib (SHA-256 counter mode + Fisher–Yates), NOT the `random` module.

## Functions
```python
CARD_CODES: tuple[str, ...]            # the 40 codes, "1o".."12b" (ranks 1-7,10,11,12; suits o c e b)
class IllegalAction(Exception):        # .code: str (stable, snake_case), .reason: str (English,
    ...                                 # one line, e.g. "seat 2 cannot bet now: it is seat 3's turn"),
                                        # .params: dict (JSON types, for a translated message)
ILLEGAL_CODES: dict[str, str]          # every code the engine can raise -> English description

new_partie(*, kings: int, first_mano: int, decks: list[list[str]] | None = None,
           reshuffles: list[list[str]] | None = None, shuffler=None) -> dict
    # deals hand 1 at once (needs decks[0] or a shuffler). Validates decks (40 distinct codes).
apply(state: dict, seat: int, action: dict, *, shuffler=None) -> dict
    # action dicts exactly as REPLAY.md: {"type": "mus"}, {"type": "cut"},
    # {"type": "discard", "cards": [...]}, {"type": "pass"}, {"type": "bet", "amount": N},
    # {"type": "ordago"}, {"type": "hold"}, {"type": "refuse"}, {"type": "raise", "to": M},
    # {"type": "deal"}.  Anything else (unknown type, extra/missing/ill-typed field, bool as int,
    # seat not 0-3) -> IllegalAction, input state untouched.
    # "deal": legal only in hand_over; the engine does not check which seat sends it.
legal_actions(state: dict, seat: int) -> list[dict]
    # templates of what `seat` may do now, e.g.
    # [{"type": "mus"}, {"type": "cut"}]
    # [{"type": "discard", "min": 1, "max": 4}]
    # [{"type": "pass"}, {"type": "bet", "min": 2, "max": 40}, {"type": "ordago"}]
    # [{"type": "refuse"}, {"type": "hold"}, {"type": "raise", "min": M, "max": 40}, {"type": "ordago"}]
    # [{"type": "deal"}] for every seat in hand_over; [] when not this seat's turn / finished.
to_act(state: dict) -> list[int]       # seats that may act now (several during discards / team votes)
observation(state: dict, seat: int | None) -> dict   # see below; None = public view
hand_records(state: dict) -> list[dict]  # exactly REPLAY.md's "hands" list
replay_document(state: dict) -> dict     # exactly REPLAY.md's output document
replay(*, kings, first_mano, decks, actions, reshuffles=None, seed=None) -> dict  # final state;
    # raises ReplayError(index, reason) for an illegal action (index 0-based)
dumps(state) -> str ; loads(text) -> dict   # canonical JSON (sort_keys, compact)
```

## observation(state, seat) — the ONLY thing the shell renders from (all keys always present)
```
{
  "seat": 0..3 | None,
  "kings": 4 | 8,
  "version": int,
  "status": "playing" | "hand_over" | "finished",
  "phase": "mus" | "discard" | "declare_paires" | "declare_jeu" | "lance" | "hand_over" | "finished",
     # (declarations are made by the engine, so "declare_*" may never be a resting phase; keep
     #  the key set stable anyway)
  "hand_number": int (1-based),
  "mano": int | None,            # None only in hand 1 before anyone cut (mano not fixed yet)
  "first_speaker": int,          # who speaks first in the mus phase of this hand (drawn mano in hand 1)
  "scores": [int, int],
  "winner": 0 | 1 | None,
  "to_act": [seats],
  "legal": legal_actions(state, seat) or [] for None,
  "my_cards": [4 codes] | None,  # this seat's own hand; None for the public view
  "pioche_size": int,
  "discard_rounds": [[n0, n1, n2, n3], ...],   # cards changed by each seat, per finished round
  "discard_ready": [bool, bool, bool, bool],   # who has already chosen in the open discard round
  "lance": "grand" | "petit" | "paires" | "jeu" | "point" | None,   # the lance being bet now
  "declarations": {"paires": [bool x4] | None, "jeu": [bool x4] | None},
  "betting": None | {            # the open envite of the current lance
      "eligible": [seats],
      "stake": int | "ordago" | None,   # current bet on the table (None = nobody bet yet)
      "held": int,                        # what is already held (the deje base)
      "bettor_team": 0 | 1 | None,
      "answering_team": 0 | 1 | None,
      "votes": {"<seat>": {"type": ..., "to": M?}},   # votes of the answering team so far (public)
  },
  "words": [ {"seat": s, "type": "mus"|"cut"|"discard"|"pass"|"bet"|"ordago"|"hold"|"refuse"|"raise"|"declare",
              "lance": ..., "amount"/"to"/"count"/"has": ...}, ... ],
     # every public word of the current hand in order; discards give only "count", never cards;
     # declarations appear as {"seat": s, "type": "declare", "lance": "paires"|"jeu", "has": bool}
  "lances": [ lance records of the current hand so far, REPLAY shape ],
  "hands_shown": {"0": [...], "1": [...], "2": [...], "3": [...]} | None,  # only at showdown
  "hands": hand_records(state)   # all hands so far (REPLAY "hands" shape; hands_shown only for
                                 # hands that reached their showdown)
}
```
Before the showdown the observation of seat s contains no card code of any other seat, no pioche
order, no discarded card identity, no future deck, no reshuffle order. At the showdown of a hand
(status hand_over / finished) "hands_shown" holds all four hands.
"""
