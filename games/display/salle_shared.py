"""What the salle sockets of a web process show alike after a salle change, worked out once:
every open salle re-renders at each change, and each used to read the parties in play, the
page of open tables and their reputations, and render them, for itself. A change is named by
its event (games.broadcast.salle_changed); the first socket that needs a part (a read, or a
section rendered in one language) works it out under the change's name and the others reuse
it. A socket's own parts (its seat, its table, its friends, its forms) stay its own.

A part is kept only under a change's name: a socket that opens, or changes page, reads from a
memo of its own (`ChangeMemo.private`), so it never shows a state older than its group joined."""

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

#: The salle changes whose parts a process keeps (a socket renders the newest change it heard,
#: at most its push window later).
KEPT_CHANGES = 8


class ChangeMemo:
    """One salle change's parts, each worked out by the first caller that needs it while the
    others needing it wait for it (the sockets render in threads of their own)."""

    def __init__(self, change: str | None):
        self.change = change
        self.lock = threading.Lock()
        self.values: dict[Hashable, Any] = {}
        self.pending: dict[Hashable, threading.Lock] = {}

    @property
    def private(self) -> bool:
        """A memo of one render (a socket's first, a page asked for): nothing shared."""
        return self.change is None

    def kept(self, key: Hashable, work_out: Callable[[], Any]) -> Any:
        with self.lock:
            if key in self.values:
                return self.values[key]
            pending = self.pending.setdefault(key, threading.Lock())
        with pending:
            with self.lock:
                if key in self.values:
                    return self.values[key]
            value = work_out()
            with self.lock:
                self.values[key] = value
                self.pending.pop(key, None)
            return value


class RecentChanges:
    """The memos of this process's last KEPT_CHANGES salle changes, the oldest out first."""

    def __init__(self, kept: int = KEPT_CHANGES):
        self.kept = kept
        self.lock = threading.Lock()
        self.memos: OrderedDict[str, ChangeMemo] = OrderedDict()

    def memo(self, change: str | None) -> ChangeMemo:
        if change is None:
            return ChangeMemo(None)
        with self.lock:
            memo = self.memos.get(change)
            if memo is None:
                memo = self.memos[change] = ChangeMemo(change)
                while len(self.memos) > self.kept:
                    self.memos.popitem(last=False)
            return memo

    def __len__(self) -> int:
        return len(self.memos)


CHANGES = RecentChanges()
