"""The verifiable shuffle (commit before, reveal after), derivation version 1.

``docs/FAIR-SHUFFLE.md`` is the contract and docs/fair-shuffle.md its documentation here: the
first mano, the deck of every hand and every reshuffle come from HMAC-SHA256 keyed by
the site's secret ``server_seed`` over the commitment and the four players' seeds. Anyone given
the revealed ``server_seed`` recomputes them with this module (or another implementation of the
same text) and checks a partie with ``python -m games.engine fairness verify``.

:class:`FairDeal` derives; :meth:`FairDeal.shuffler` is the ``shuffler`` the engine takes, so a
partie can be played with derived randomness only. Stdlib only; never the ``random`` module.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import sys
from collections.abc import Iterator, Sequence
from typing import IO, Any, cast

from .cards import RANKS
from .errors import IllegalAction, ReplayError
from .machine import apply, new_partie
from .replay import InputError as ReplayInputError
from .replay import json_object, replay_document
from .types import Action, State

VERSION = 1
SEATS = 4
WORD_BYTES = 4
WORD_SPACE = 2**32
SERVER_SEED_BYTES = 32
CLIENT_SEED = re.compile(r"[0-9a-z]{1,64}")
#: Who chose each seed (protocol 1.1): a person's browser, the public robot rule, or the site
#: (a person whose browser gave none; no proof).
PERSON, ROBOT, SITE = "person", "robot", "site"
SEED_ORIGINS = (PERSON, ROBOT, SITE)
ROBOT_SEED_PREFIX = "barajamos-robot|"
ROBOT_SEED_LENGTH = 32
HEX64 = re.compile(r"[0-9a-f]{64}")
DECK_SIZE = 40
#: Hands hold 16 cards, so a pioche made again from discards never has the whole deck: a
#: 40-card list handed to the shuffler is a new deck, anything shorter a reshuffle.

#: The order the contract shuffles from: suit-major (o, c, e, b), ranks 1-7, 10, 11, 12. It is
#: not ``cards.CARD_CODES`` (rank-major), which the engine uses for everything else.
CANONICAL_SUITS: tuple[str, ...] = ("o", "c", "e", "b")
CANONICAL_DECK: tuple[str, ...] = tuple(
    f"{rank}{suit}" for suit in CANONICAL_SUITS for rank in RANKS
)
CANONICAL_INDEX: dict[str, int] = {code: i for i, code in enumerate(CANONICAL_DECK)}


class FairnessError(ValueError):
    """A server seed, a client seed or a card list the derivation cannot take."""


def commitment(server_seed: bytes) -> str:
    """SHA-256 of the raw secret, lowercase hex: what the table shows from its opening."""
    return hashlib.sha256(server_seed).hexdigest()


def parse_server_seed(text: str) -> bytes:
    """The 32 bytes of a server seed written as 64 hex digits (either case)."""
    if not isinstance(text, str) or not HEX64.fullmatch(text.lower()):
        raise FairnessError("server_seed must be 64 hexadecimal digits (32 bytes)")
    return bytes.fromhex(text)


def check_client_seed(seed: object) -> str:
    """A client seed as given, or FairnessError: 1-64 characters of [0-9a-z]."""
    if not isinstance(seed, str) or not CLIENT_SEED.fullmatch(seed):
        raise FairnessError(
            f"a client seed is 1 to 64 characters among 0-9 and a-z, not {str(seed)[:80]!r}"
        )
    return seed


def robot_seed(commitment_hex: str, seat: int) -> str:
    """A robot's seed (protocol 1.1): a public function of the commitment and the seat, so the
    site, which knows its secret, has no free choice left once it has committed."""
    message = f"{ROBOT_SEED_PREFIX}{commitment_hex}|{seat}".encode()
    return hashlib.sha256(message).hexdigest()[:ROBOT_SEED_LENGTH]


def check_seed_origins(origins: object) -> list[str]:
    if (
        not isinstance(origins, list | tuple)
        or len(origins) != SEATS
        or not all(o in SEED_ORIGINS for o in origins)
    ):
        raise FairnessError("seed_origins must list 4 of 'person', 'robot', 'site', in seat order")
    return list(origins)


def proof_holds(origins: Sequence[str]) -> bool:
    """The commitment binds the cards only if at least one seed came after it from a person."""
    return PERSON in origins


def check_client_seeds(seeds: object) -> list[str]:
    if not isinstance(seeds, list | tuple) or len(seeds) != SEATS:
        raise FairnessError("client_seeds must list the 4 seeds of seats 0-3, in seat order")
    return [check_client_seed(s) for s in seeds]


def in_canonical_order(cards: Sequence[str]) -> list[str]:
    """``cards`` sorted in canonical-deck order (distinct valid codes, else FairnessError)."""
    if len(set(cards)) != len(cards) or not all(c in CANONICAL_INDEX for c in cards):
        raise FairnessError("cards must be distinct card codes")
    return sorted(cards, key=CANONICAL_INDEX.__getitem__)


class Stream:
    """The words of one label: HMAC-SHA256 blocks for i = 0, 1, ..., read as 4-byte big-endian."""

    def __init__(self, key: bytes, message: str, label: str) -> None:
        self._key = key
        self._prefix = f"{message}|{label}|"
        self._words = self._generate()

    def _generate(self) -> Iterator[int]:
        i = 0
        while True:
            block = hmac.new(
                self._key, (self._prefix + str(i)).encode("utf-8"), hashlib.sha256
            ).digest()
            for at in range(0, len(block), WORD_BYTES):
                yield int.from_bytes(block[at : at + WORD_BYTES], "big")
            i += 1

    def word(self) -> int:
        return next(self._words)

    def uniform(self, n: int) -> int:
        """A word below 2^32 - (2^32 mod n), mod n: no bias (a word is read even when n is 1)."""
        if n < 1:
            raise ValueError("uniform(n) needs n >= 1")
        limit = WORD_SPACE - (WORD_SPACE % n)
        while True:
            value = self.word()
            if value < limit:
                return value % n

    def shuffle(self, cards: Sequence[str]) -> list[str]:
        """Fisher-Yates on a copy, from the last index down to 1."""
        out = list(cards)
        for i in range(len(out) - 1, 0, -1):
            j = self.uniform(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


class FairDeal:
    """Everything random in one partie, from the secret and the four seeds (seat order)."""

    def __init__(self, server_seed: bytes, client_seeds: Sequence[str]) -> None:
        if not isinstance(server_seed, bytes) or len(server_seed) != SERVER_SEED_BYTES:
            raise FairnessError("server_seed must be 32 bytes")
        seeds = check_client_seeds(list(client_seeds))
        self._key = server_seed
        self.commitment = commitment(server_seed)
        self.client_seeds = seeds
        self.message = "|".join([f"barajamos-v{VERSION}", self.commitment, *seeds])

    def stream(self, label: str) -> Stream:
        return Stream(self._key, self.message, label)

    def first_mano(self) -> int:
        return self.stream("mano").uniform(SEATS)

    def deck(self, hand: int) -> list[str]:
        """The deck of hand ``hand`` (1, 2, ...)."""
        _check_index("hand", hand)
        return self.stream(f"deck|{hand}").shuffle(CANONICAL_DECK)

    def reshuffle(self, hand: int, round_: int, cards: Sequence[str]) -> list[str]:
        """Reshuffle ``round_`` (1, 2, ... within the hand) of ``hand``: the cards, whatever
        order they come in, sorted canonically and shuffled."""
        _check_index("hand", hand)
        _check_index("round", round_)
        ordered = in_canonical_order(cards)
        return self.stream(f"reshuffle|{hand}|{round_}").shuffle(ordered)

    def shuffler(self, state: State | None = None) -> FairShuffler:
        """The engine's shuffler, placed after ``state`` (None: before ``new_partie``).

        Pass a fresh one to every ``apply`` (``shuffler=deal.shuffler(state)``): it reads from
        the state which hand's deck or which reshuffle of the hand comes next.
        """
        if state is None:
            return FairShuffler(self, next_hand=1, hand=0, reshuffles_made=0)
        return FairShuffler(
            self,
            next_hand=len(state["decks"]) + 1,
            hand=state["hand_number"],
            reshuffles_made=reshuffles_in_hand(state),
        )


def _check_index(name: str, value: object) -> None:
    if type(value) is not int or value < 1:
        raise FairnessError(f"{name} must be an integer from 1, not {value!r}")


def reshuffles_in_hand(state: State) -> int:
    """How many reshuffles the current hand has had, counted as the engine serves discards.

    The state keeps only the partie's total; the hand's own count follows from its served
    rounds: 24 cards in the pioche after the deal, each round drawn one card at a time, an
    empty pioche made again from the earlier rounds' discards.
    """
    hand = state["hand"]
    pioche = DECK_SIZE - 16
    old_discards = 0
    made = 0
    for counts in hand["discard_rounds"]:
        drawn = sum(counts)
        for _ in range(drawn):
            if pioche == 0:
                made += 1
                pioche, old_discards = old_discards, 0
            pioche -= 1
        old_discards += drawn
    return made


class FairShuffler:
    """What the engine calls ``shuffle(list)`` on: a 40-card list is the next hand's deck,
    anything else the next reshuffle of the current hand. The list is replaced by the derived
    order; the order it came in never matters."""

    def __init__(self, deal: FairDeal, *, next_hand: int, hand: int, reshuffles_made: int) -> None:
        self.deal = deal
        self.next_hand = next_hand
        self.hand = hand
        self.reshuffles_made = reshuffles_made
        #: ("deck", k, 0) / ("reshuffle", k, r) for each derivation made, in order.
        self.made: list[tuple[str, int, int]] = []

    def shuffle(self, x: list[Any], /) -> None:
        if len(x) == DECK_SIZE:
            self.hand = self.next_hand
            self.next_hand += 1
            self.reshuffles_made = 0
            x[:] = self.deal.deck(self.hand)
            self.made.append(("deck", self.hand, 0))
            return
        self.reshuffles_made += 1
        x[:] = self.deal.reshuffle(self.hand, self.reshuffles_made, x)
        self.made.append(("reshuffle", self.hand, self.reshuffles_made))


# --------------------------------------------------------------------------- commands


class InputError(Exception):
    """A malformed input: one line for standard error."""


MAX_HANDS = 10_000  # far beyond any partie; keeps a typo from asking for millions of decks


def _read(path: str, stdin: IO[str]) -> Any:
    if path == "-":
        text = stdin.read()
    else:
        try:
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
        except OSError as exc:
            raise InputError(f"cannot read {path}: {exc.strerror or exc}") from None
        except UnicodeDecodeError:
            raise InputError(f"cannot read {path}: not UTF-8 text") from None
    try:
        return json_object(text)
    except ReplayInputError as exc:
        raise InputError(f"invalid input: {exc}") from None


def _field(doc: dict[str, Any], key: str) -> Any:
    if key not in doc:
        raise InputError(f"invalid input: missing field {key!r}")
    return doc[key]


def _deal_of(doc: dict[str, Any]) -> FairDeal:
    try:
        seed = parse_server_seed(_field(doc, "server_seed"))
        return FairDeal(seed, check_client_seeds(_field(doc, "client_seeds")))
    except FairnessError as exc:
        raise InputError(f"invalid input: {exc}") from None


def derive(doc: dict[str, Any]) -> dict[str, Any]:
    """The ``derive`` command's output for its input object (InputError when malformed)."""
    deal = _deal_of(doc)
    hands = _field(doc, "hands")
    if type(hands) is not int or not 0 <= hands <= MAX_HANDS:
        raise InputError(f"invalid input: hands must be an integer 0-{MAX_HANDS}")
    wanted = doc.get("reshuffles", [])
    if not isinstance(wanted, list):
        raise InputError("invalid input: reshuffles must be a list of {hand, round, cards}")
    reshuffles = []
    for i, item in enumerate(wanted):
        if not isinstance(item, dict) or not {"hand", "round", "cards"} <= set(item):
            raise InputError(f"invalid input: reshuffle {i} must have hand, round and cards")
        cards = item["cards"]
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
            raise InputError(f"invalid input: reshuffle {i}: cards must be a list of card codes")
        try:
            reshuffles.append(deal.reshuffle(item["hand"], item["round"], cards))
        except FairnessError as exc:
            raise InputError(f"invalid input: reshuffle {i}: {exc}") from None
    return {
        "commitment": deal.commitment,
        "first_mano": deal.first_mano(),
        "decks": [deal.deck(k) for k in range(1, hands + 1)],
        "reshuffles": reshuffles,
    }


def run_derive(
    stdin: IO[str] | None = None, stdout: IO[str] | None = None, stderr: IO[str] | None = None
) -> int:
    """``python -m games.engine fairness derive``: JSON on stdin, JSON on stdout."""
    stdin, stdout, stderr = stdin or sys.stdin, stdout or sys.stdout, stderr or sys.stderr
    try:
        out = derive(_read("-", stdin))
    except InputError as exc:
        print(exc, file=stderr)
        return 2
    stdout.write(json.dumps(out) + "\n")
    return 0


def _check_record(doc: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The record's ``fairness`` and ``result`` objects, its replay fields checked in shape."""
    for key in ("kings", "first_mano", "decks", "actions", "result"):
        _field(doc, key)
    if "fairness" not in doc:
        raise InputError(
            "not verifiable: the record has no 'fairness' object "
            "(a partie dealt before verifiable shuffles)"
        )
    fairness = doc["fairness"]
    if not isinstance(fairness, dict):
        raise InputError("invalid input: fairness must be an object")
    if "version" in fairness and fairness["version"] is None:
        # The site's record of a partie dealt with the old randomness says so this way.
        raise InputError(
            "not verifiable: the record's fairness version is null "
            "(a partie dealt before verifiable shuffles)"
        )
    if fairness.get("version") != VERSION:
        raise InputError(
            f"invalid input: fairness version {fairness.get('version')!r} is not {VERSION}"
        )
    for key in ("server_seed", "commitment", "client_seeds"):
        _field(fairness, key)
    if not isinstance(fairness["commitment"], str):
        raise InputError("invalid input: commitment must be 64 hexadecimal digits")
    _seed_origins(fairness)
    if type(doc["kings"]) is not int or doc["kings"] not in (4, 8):
        raise InputError("invalid input: kings must be 4 or 8")
    if not isinstance(doc["decks"], list) or not all(isinstance(d, list) for d in doc["decks"]):
        raise InputError("invalid input: decks must be a list of decks")
    if not isinstance(doc["actions"], list):
        raise InputError("invalid input: actions must be a list of [seat, action] pairs")
    if not isinstance(doc.get("reshuffles", []), list):
        raise InputError("invalid input: reshuffles must be a list of card lists")
    result = doc["result"]
    if not isinstance(result, dict) or not {"scores", "winner"} <= set(result):
        raise InputError("invalid input: result must be an object with scores and winner")
    return fairness, result


class Report:
    """One line per check on stdout; counts the failures. `proof` is the line that says whether
    the proof holds (who chose the seeds), printed after the checks."""

    def __init__(self, out: IO[str]) -> None:
        self.out = out
        self.failures = 0
        self.proof = ""

    def check(self, ok: bool, what: str, detail: str = "") -> bool:
        if not ok:
            self.failures += 1
        self.out.write(f"{'ok  ' if ok else 'FAIL'} {what}{': ' + detail if detail else ''}\n")
        return ok


def _short(cards: Sequence[str]) -> str:
    return " ".join(cards[:6]) + (" ..." if len(cards) > 6 else "")


def verify(doc: dict[str, Any], report: Report) -> None:
    """Every check of the ``verify`` command, written to ``report`` (InputError if malformed)."""
    fairness, result = _check_record(doc)
    deal = _deal_of(fairness)
    report.check(
        deal.commitment == fairness["commitment"].lower(),
        "commitment",
        f"sha256(server_seed) = {deal.commitment}"
        + (
            ""
            if deal.commitment == fairness["commitment"].lower()
            else f", the record says {fairness['commitment']}"
        ),
    )
    report.check(True, "client seeds", ", ".join(deal.client_seeds))
    origins = _seed_origins(fairness)
    if origins is not None:
        recorded = fairness["commitment"].lower()
        for seat, origin in enumerate(origins):
            if origin == ROBOT:
                rule = robot_seed(recorded, seat)
                ok = deal.client_seeds[seat] == rule
                report.check(
                    ok,
                    f"robot seed of seat {seat}",
                    "follows the public rule" if ok else f"the rule gives {rule}",
                )
    report.proof = _proof_line(origins)
    mano = deal.first_mano()
    report.check(
        doc["first_mano"] == mano,
        "first mano",
        f"derived seat {mano}, recorded {doc['first_mano']!r}",
    )
    for k, recorded in enumerate(doc["decks"], start=1):
        derived = deal.deck(k)
        report.check(
            recorded == derived,
            f"deck of hand {k}",
            _short(derived) if recorded == derived else f"derived {_short(derived)}",
        )
    shuffler = deal.shuffler()
    try:
        state = new_partie(kings=doc["kings"], first_mano=mano, shuffler=shuffler)
        for index, pair in enumerate(doc["actions"]):
            if not isinstance(pair, list) or len(pair) != 2:
                raise ReplayError(index, "not a [seat, action] pair", "malformed_action")
            try:
                state = apply(state, pair[0], cast(Action, pair[1]), shuffler=shuffler)
            except IllegalAction as exc:
                raise ReplayError(index, exc.reason, exc.code) from None
    except ReplayError as exc:
        report.check(False, "replay", f"action {exc.index}: {exc.reason}")
        return
    except (IllegalAction, FairnessError, IndexError) as exc:  # cards the engine cannot serve
        report.check(False, "replay", f"stopped: {exc}")
        return
    report.check(True, "replay", f"{len(doc['actions'])} actions legal with the derived cards")
    report.check(
        len(state["decks"]) == len(doc["decks"]),
        "hands dealt",
        f"{len(state['decks'])} dealt, {len(doc['decks'])} decks recorded",
    )
    recorded_reshuffles = doc.get("reshuffles", [])
    labels = [(k, r) for kind, k, r in shuffler.made if kind == "reshuffle"]
    for i, derived in enumerate(state["reshuffles"]):
        k, r = labels[i]
        given = recorded_reshuffles[i] if i < len(recorded_reshuffles) else None
        report.check(
            given == derived,
            f"reshuffle {r} of hand {k}",
            _short(derived) if given == derived else f"derived {_short(derived)}",
        )
    report.check(
        len(recorded_reshuffles) == len(state["reshuffles"]),
        "reshuffles",
        f"{len(state['reshuffles'])} made, {len(recorded_reshuffles)} recorded",
    )
    replayed = replay_document(state)
    for key in sorted(result):
        value = replayed.get(key, "(no such field)")
        report.check(
            value == result[key],
            f"result {key}",
            _short_json(value)
            + ("" if value == result[key] else f", the record says {_short_json(result[key])}"),
        )


def _seed_origins(fairness: dict[str, Any]) -> list[str] | None:
    """The record's seed origins, or None for a record of protocol 1.0 (not said)."""
    if "seed_origins" not in fairness:
        return None
    try:
        return check_seed_origins(fairness["seed_origins"])
    except FairnessError as exc:
        raise InputError(f"invalid input: {exc}") from None


def _proof_line(origins: list[str] | None) -> str:
    if origins is None:
        return (
            "proof: unknown: the record does not say who chose each seed "
            "(seed_origins, protocol 1.1)"
        )
    people = [str(seat) for seat, origin in enumerate(origins) if origin == PERSON]
    if proof_holds(origins):
        return (
            f"proof: holds: the seed of seat {', '.join(people)} came from a person's browser "
            "after the commitment, so the site could not choose the cards"
        )
    return (
        "proof: does not hold: no seed is a person's (seed origins: "
        f"{', '.join(origins)}); the cards follow the commitment, but the site could have "
        "chosen them"
    )


def _short_json(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 80 else text[:77] + "..."


def run_verify(
    path: str,
    stdin: IO[str] | None = None,
    stdout: IO[str] | None = None,
    stderr: IO[str] | None = None,
) -> int:
    """``python -m games.engine fairness verify FILE|-``: 0 only when every check passes."""
    stdin, stdout, stderr = stdin or sys.stdin, stdout or sys.stdout, stderr or sys.stderr
    report = Report(stdout)
    try:
        verify(_read(path, stdin), report)
    except InputError as exc:
        print(exc, file=stderr)
        return 2
    if report.proof:
        stdout.write(report.proof + "\n")
    if report.failures:
        print(f"not verified: {report.failures} check(s) failed", file=stderr)
        return 1
    stdout.write("verified: every card and the result follow from the commitment and the seeds\n")
    return 0
