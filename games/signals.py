"""Signals games sends to the apps built on it (which games never imports)."""

from django.dispatch import Signal

#: Sent by the Finisher (games.services.play._finish) inside the transaction that ends the
#: partie, once per partie: `game` (its status, winning_team and seats' results written).
#: A receiver's write is part of that transaction; an error in it rolls the ending back.
partie_ended = Signal()
