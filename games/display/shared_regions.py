"""The table's regions for one viewer, each region that several viewers of a game see byte for
byte rendered once and reused, across viewers and across versions while what it shows is the
same: a push renders every region for each of a game's four players at every decision.

HIDDEN INFORMATION. Only the regions of SLICES are shared across viewers, each rendered from its
slice alone (the part of the view model its template reads, no request, no token) and kept under
that slice's pickled bytes and the language: two viewers share a render only when everything it
was made from is equal (tests/presentation/test_shared_regions.py compares with the plain render
for every seat of many states). my-hand (OWN_SLICES) is reused for the same seat only."""

from __future__ import annotations

import pickle
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

from core import translations
from games.display.regions import REGIONS, render_region, with_csrf_token
from games.display.view_model import View


def _flash(context: View) -> View:
    return {"flash": context["flash"]}


def _away_banner(context: View) -> View:
    banner = context["table_view"]["away_banner"]
    away = [
        {
            "name": s["name"],
            "away_seconds": s["away_seconds"],
            "away_countdown": s["away_countdown"],
        }
        for s in banner["away"]
    ]
    return {"table_view": {"away_banner": {"status": banner["status"], "away": away}}}


def _scoreboard(context: View) -> View:
    view = context["table_view"]
    return {"table_view": {key: view[key] for key in ("scoreboard", "kings_label", "hand_number")}}


def _score_screen(context: View) -> View | None:
    """Only the hidden, empty score screen of a hand under way (the screen itself is drawn
    from the viewer's side: "Vous", the deal button)."""
    view = context["table_view"]
    if view["score_screen"] is not None:
        return None
    return {"table_view": {"score_screen": None, "partie_over": view["partie_over"]}}


def _my_hand(context: View) -> View | None:
    """The viewer's cards (their discard choice while they may discard: the checkboxes of a form
    with no token of its own, the panel's form carries it)."""
    view = context["table_view"]
    return {"table_view": {"can_discard": view["can_discard"], "my_cards": view["my_cards"]}}


#: What each shareable region reads of the template context; None: not shareable this time.
#: The hand log and the lance status are not shared: they change at every version (the lance
#: status at every word of a bet), per team and language, and their parts are kept instead
#: (games.display.hand_log, games.display.lance_status): a key cost more than their render.
SLICES: dict[str, Callable[[View], View | None]] = {
    "flash": _flash,
    "away-banner": _away_banner,
    "scoreboard": _scoreboard,
    "score-screen": _score_screen,
}
#: The viewer's own regions reused for the same seat's later renders (never another's).
OWN_SLICES: dict[str, Callable[[View], View | None]] = {"my-hand": _my_hand}


class RegionMemo:
    """Rendered regions by key, least recently used first out, bounded in entries and in
    characters. Safe to share between threads (and the event loop's): the lock is held only to
    read or store, never while rendering, so two threads missing the same key both render it
    and store the same text."""

    def __init__(self, *, max_entries: int = 8192, max_chars: int = 16_000_000):
        self.max_entries = max_entries
        self.max_chars = max_chars
        self._entries: OrderedDict[Hashable, str] = OrderedDict()
        self._chars = 0
        self._lock = threading.Lock()
        self.hits = 0

    def get(self, key: Hashable) -> str | None:
        with self._lock:
            html = self._entries.get(key)
            if html is not None:
                self._entries.move_to_end(key)
                self.hits += 1
            return html

    def put(self, key: Hashable, html: str) -> None:
        size = len(html) + _key_size(key)
        if size > self.max_chars:
            return
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._chars -= len(old) + _key_size(key)
            self._entries[key] = html
            self._chars += size
            while len(self._entries) > self.max_entries or self._chars > self.max_chars:
                old_key, old_html = self._entries.popitem(last=False)
                self._chars -= len(old_html) + _key_size(old_key)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._chars = 0
            self.hits = 0

    def texts(self) -> list[str]:
        with self._lock:
            return list(self._entries.values())

    def entries(self) -> list[tuple[Hashable, str]]:
        with self._lock:
            return list(self._entries.items())

    @property
    def chars(self) -> int:
        return self._chars

    def __len__(self) -> int:
        return len(self._entries)


def _key_size(key: Hashable) -> int:
    return len(key[-1]) if isinstance(key, tuple) and isinstance(key[-1], bytes) else 0


#: This process's memo: a few hundred live tables' regions of their last versions (about nine
#: entries per table, two to five kB each).
MEMO = RegionMemo()


def render_regions(
    context: View,
    *,
    request: Any = None,
    scope: Hashable,
    memo: RegionMemo = MEMO,
    names: tuple[str, ...] = REGIONS,
) -> str:
    """Every region of the table (of `names`) for the viewer of `context`, out of band, as
    regions.render_regions renders it; `scope` names the game rendered (its id): regions
    are reused within it only (None: rendered, not kept)."""
    values = dict(context, oob=True)
    if request is None:
        # No token to write in the forms (htmx sends the page's): said, not looked up in vain.
        values.setdefault("csrf_token", None)
    own = with_csrf_token(values, request)
    viewer = context["table_view"]["viewer"]
    parts = []
    with translations.one_language():
        shared_by = (scope, translations.language())
        for name in names:
            parts.append(_region(name, context, own, shared_by, viewer, memo))
    return "\n".join(parts)


def _region(
    name: str,
    context: View,
    own: View,
    shared_by: tuple[Hashable, str | None],
    viewer: int,
    memo: RegionMemo,
) -> str:
    """One region: rendered, or taken from the memo (under its slice's key); `shared_by`: the
    game rendered and the language (a region of a game None is rendered, never kept)."""
    region: View | None = None
    key_scope: tuple[Hashable, ...] = shared_by
    scope = shared_by[0]
    if scope is not None and name in SLICES:
        region = SLICES[name](context)
    elif scope is not None and name in OWN_SLICES:
        region, key_scope = OWN_SLICES[name](context), (*shared_by, viewer)
    if region is None:
        return render_region(name, own)
    return _shared(name, region, key_scope, memo)


def _shared(name: str, region: View, scope: Hashable, memo: RegionMemo) -> str:
    try:
        key = (scope, name, pickle.dumps(region, protocol=pickle.HIGHEST_PROTOCOL))
    except (pickle.PicklingError, TypeError, AttributeError):
        key = None  # something unpicklable in the slice: rendered, never shared
    html = memo.get(key) if key is not None else None
    if html is None:
        html = render_region(name, dict(region, oob=True))
        if key is not None:
            memo.put(key, html)
    return html
