"""Every refusal a player or a staff member can see: a French `message` for them, and the HTTP
`status` a view answers with. Views catch `Refused` (or a subclass) and show the message, never
an error page."""


class Refused(Exception):
    status = 422

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class SalleError(Refused):
    """A salle write refused (games.services.salle)."""


class GameError(Refused):
    """A decision at the table refused (games.services.play)."""


class NotSeated(GameError):
    status = 403


class GameOver(GameError):
    status = 422


class StaleVersion(GameError):
    status = 409


class IllegalMove(GameError):
    status = 422

    def __init__(self, message: str, code: str):
        super().__init__(message)
        self.code = code
