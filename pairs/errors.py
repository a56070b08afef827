from games.services.errors import SalleError


class PairError(SalleError):
    """A pareja write refused: a French message, nothing changed (the salle's refusals, so the
    salle's views show it like theirs)."""
