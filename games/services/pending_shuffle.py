"""The secret of the next table a player opens, committed before their seed is given.

Protocol 1.1 (docs/FAIR-SHUFFLE.md) wants a person's seed to come from their browser *after*
the table's commitment was shown. A table opened by a form (« Ouvrir une table », « Jouer
contre les robots », « Jouer maintenant » when it opens one, a revanche offered) does not exist
when the form is shown, so its secret is drawn then and kept for that player
(models.PendingShuffle): the form shows its commitment and posts it back; the table (or the
offer) takes that very secret. A form whose commitment is no longer the pending one (taken
meanwhile in another tab) is refused in French, so a seed is never joined to a commitment its
sender did not see."""

import secrets

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from games import engine
from games.models import PendingShuffle
from games.services.errors import SalleError


def commitment_for(user) -> str:
    """The commitment of the next table `user` opens: drawn now if none is pending (one
    query once drawn)."""
    pending = PendingShuffle.objects.filter(user_id=user.pk).first()
    if pending is None:
        pending = _draw(user)
    return pending.commitment


def take(user, shown: str | None) -> bytes:
    """The pending secret of `user`, removed (the caller is opening the table with it). `shown`:
    the commitment the form showed (None: a form that showed none, e.g. a script; the pending
    secret, or a fresh one, is used). Call within the caller's transaction."""
    pending = PendingShuffle.objects.select_for_update().filter(user_id=user.pk).first()
    shown = (shown or "").strip().lower() or None
    if shown is not None and (pending is None or pending.commitment != shown):
        raise SalleError(
            _(
                "Le mélange de votre future table a changé depuis l’affichage de ce formulaire "
                "(ouvert dans un autre onglet ?). Vérifiez le nouvel engagement et recommencez."
            )
        )
    if pending is None:
        return secrets.token_bytes(engine.fairness.SERVER_SEED_BYTES)
    pending.delete()
    return bytes.fromhex(pending.server_seed)


def _draw(user) -> PendingShuffle:
    server_seed = secrets.token_bytes(engine.fairness.SERVER_SEED_BYTES)
    try:
        with transaction.atomic():
            return PendingShuffle.objects.create(
                user_id=user.pk,
                server_seed=server_seed.hex(),
                commitment=engine.commitment(server_seed),
            )
    except IntegrityError:  # drawn at the same instant by another render: theirs is kept
        return PendingShuffle.objects.get(user_id=user.pk)
