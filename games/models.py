from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games import vocabulary
from games.engine import team_of

SEAT_COUNT = 4


class SeedOrigin(models.TextChoices):
    """Who chose a seat's seed (games.engine.fairness PERSON, ROBOT, SITE)."""

    PERSON = "person", _("son navigateur")
    ROBOT = "robot", _("règle publique des robots")
    SITE = "site", _("tirée par le site")


class Table(models.Model):
    """A table of the salle: a host, a modality and four seats (see Seat)."""

    class Kings(models.IntegerChoices):
        FOUR = 4, _("Mus · 4 rois")
        EIGHT = 8, _("Mus · 8 rois")

    class Status(models.TextChoices):
        OPEN = "open", _("ouverte")
        PLAYING = "playing", _("en jeu")
        CLOSED = "closed", _("fermée")

    class Clock(models.TextChoices):
        """The turn clock's speed (seconds in settings.TURN_CLOCKS), copied into the game."""

        RAPIDE = "rapide", _("Rapide")
        NORMAL = "normal", _("Normal")
        LENT = "lent", _("Lent")

    ACTIVE_STATUSES = (Status.OPEN, Status.PLAYING)

    host = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="hosted_tables",
        verbose_name=_("hôte"),
    )
    kings = models.IntegerField(_("modalité"), choices=Kings.choices)
    clock = models.CharField(
        _("temps de jeu"), max_length=8, choices=Clock.choices, default=Clock.NORMAL
    )
    status = models.CharField(
        _("statut"), max_length=8, choices=Status.choices, default=Status.OPEN
    )
    created = models.DateTimeField(_("ouverte le"), auto_now_add=True)
    updated = models.DateTimeField(_("modifiée le"), auto_now=True)
    # The last time one of its seated players had the salle open (see SalleConsumer): an open
    # table nobody has looked at for OPEN_TABLE_IDLE_MINUTES is closed by the sweep.
    last_seen = models.DateTimeField(_("dernière activité"), default=timezone.now)
    # The verifiable shuffle (docs/fair-shuffle.md): drawn when the table opens, the secret
    # never leaves the server before its partie ends; the commitment is shown from the start.
    # Blank for a table opened before the shuffle shipped (its partie uses the old randomness).
    server_seed = models.CharField(_("graine du site"), max_length=64, blank=True, default="")
    commitment = models.CharField(_("engagement"), max_length=64, blank=True, default="")
    # The host's requirement on the players who sit (records: completion rate, in percent).
    min_completion = models.PositiveSmallIntegerField(
        _("taux de parties menées à terme exigé"), null=True, blank=True
    )
    # A private table is not listed in the salle: one sits there only through its invitation
    # link, /tables/<id>/invitation/<invite_token>/ (games.services.invitations). The token is
    # secrets.token_urlsafe(32), compared in constant time; renewing it kills the old link.
    private = models.BooleanField(_("privée"), default=False)
    invite_token = models.CharField(  # noqa: DJ001 - null: public tables have none
        _("jeton d’invitation"), max_length=64, null=True, blank=True, unique=True
    )
    # Whether members of the site may watch its partie (« Regarder », docs/spectators.md): a
    # public table lets them unless its host opened it « sans spectateurs »; a private table
    # only if its host allowed it when opening it.
    spectators = models.BooleanField(_("spectateurs admis"), default=True)

    class Meta:
        verbose_name = _("table")
        ordering = ["-created"]
        constraints = [
            models.CheckConstraint(condition=Q(kings__in=[4, 8]), name="table_kings_4_or_8"),
            models.CheckConstraint(
                condition=Q(status__in=["open", "playing", "closed"]), name="table_status_valid"
            ),
            models.CheckConstraint(
                condition=Q(clock__in=["rapide", "normal", "lent"]), name="table_clock_valid"
            ),
        ]
        indexes = [
            models.Index(
                fields=["-created"],
                condition=Q(status__in=["open", "playing"]),
                name="table_active_idx",
            ),
            models.Index(
                fields=["last_seen"], condition=Q(status="open"), name="table_open_seen_idx"
            ),
        ]

    def __str__(self):
        return f"Table {self.pk} ({self.get_kings_display()}, {self.get_status_display()})"

    def get_absolute_url(self):
        return reverse("games:table", args=[self.pk])


class RobotLevel(models.TextChoices):
    """The robots' levels (games.engine.robot.LEVELS, docs/robots.md); Expert fills seats unless
    the host chooses another."""

    DEBUTANT = "debutant", _("Débutant")
    CONFIRME = "confirme", _("Confirmé")
    EXPERT = "expert", _("Expert")


class Seat(models.Model):
    """One player at one table. Leaving an open table deletes the row; `active` is True while
    the table is open or playing, so a player holds at most one seat at active tables."""

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="seats", verbose_name=_("table")
    )
    number = models.PositiveSmallIntegerField(_("place"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="seats",
        verbose_name=_("joueur"),
    )
    active = models.BooleanField(_("active"), default=True)
    # A computer player (its user is a robot account, accounts.User.is_robot): robots sit at
    # many tables at once, so the one-active-seat rule is for people only.
    robot = models.BooleanField(_("robot"), default=False)
    # A robot's level (RobotLevel; blank for a person): chosen when the robot is placed.
    robot_level = models.CharField(
        _("niveau du robot"), max_length=10, choices=RobotLevel.choices, blank=True, default=""
    )
    # The player's seed for the verifiable shuffle, [0-9a-z]{1,64}, until the start.
    client_seed = models.CharField(_("graine du joueur"), max_length=64, blank=True, default="")
    # Who chose it (docs/FAIR-SHUFFLE.md, protocol 1.1): the person's browser, the public robot
    # rule, or the site (a person whose browser gave none: allowed, but it proves nothing).
    seed_origin = models.CharField(
        _("origine de la graine"),
        max_length=8,
        choices=SeedOrigin.choices,
        default=SeedOrigin.SITE,
    )
    created = models.DateTimeField(_("assis le"), auto_now_add=True)

    class Meta:
        verbose_name = _("place")
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="seat_unique_number"),
            models.UniqueConstraint(fields=["table", "user"], name="seat_unique_user_per_table"),
            models.UniqueConstraint(
                fields=["user"],
                condition=Q(active=True, robot=False),
                name="seat_one_active_per_user",
            ),
            models.CheckConstraint(condition=Q(number__lt=SEAT_COUNT), name="seat_number_0_3"),
        ]

    def __str__(self):
        return _("%(user)s à la place %(number)s de la table %(table)s") % {
            "user": self.user,
            "number": self.number,
            "table": self.table_id,
        }

    @property
    def team(self) -> int:
        """Team 0 holds seats 0 and 2, team 1 seats 1 and 3: partners face each other."""
        return team_of(self.number)


class TableExclusion(models.Model):
    """A guest the host of a private table removed (« Retirer »): kept out of that table even
    with a valid invitation link (games.services.salle.seat_take checks it)."""

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="exclusions", verbose_name=_("table")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="table_exclusions",
        verbose_name=_("joueur"),
    )
    at = models.DateTimeField(_("retiré le"), auto_now_add=True)

    class Meta:
        verbose_name = _("joueur retiré d’une table")
        verbose_name_plural = _("joueurs retirés des tables")
        constraints = [
            models.UniqueConstraint(fields=["table", "user"], name="tableexclusion_once"),
        ]

    def __str__(self):
        return f"{self.user} · table {self.table_id}"


class Game(models.Model):
    """The partie played at a started table. `state` is the engine's whole state: it holds the
    decks and the pioche, so it is never rendered; players only ever see
    `games.engine.observation(state, their_seat)`. `version` counts the rows of the action log
    (see GameAction): a form rendered at another version is stale.

    `clock` is the turn clock (games.services.clock: its speed, durations and each seat's
    running deadline and reserve, in epoch milliseconds); {} for a game started without one.
    `turn_deadline` is its earliest running deadline, for the sweep."""

    class Status(models.TextChoices):
        PLAYING = "playing", _("en cours")
        FINISHED = "finished", _("terminée")
        CANCELLED = "cancelled", _("annulée")

    table = models.OneToOneField(
        Table, on_delete=models.PROTECT, related_name="game", verbose_name=_("table")
    )
    kings = models.IntegerField(_("modalité"), choices=Table.Kings.choices)
    status = models.CharField(
        _("statut"), max_length=10, choices=Status.choices, default=Status.PLAYING
    )
    winning_team = models.PositiveSmallIntegerField(_("équipe gagnante"), null=True, blank=True)
    state = models.JSONField(_("état du moteur"))
    version = models.PositiveIntegerField(_("version"), default=0)
    created = models.DateTimeField(_("commencée le"), auto_now_add=True)
    updated = models.DateTimeField(_("modifiée le"), auto_now=True)
    finished_at = models.DateTimeField(_("terminée le"), null=True, blank=True)
    # Why it ended: {"code": a key of games.vocabulary.END_REASONS, its parameters}, rendered
    # in the reader's language (`end_reason_text`); {} while playing.
    end_reason = models.JSONField(_("motif de fin"), blank=True, default=dict)
    last_action_at = models.DateTimeField(_("dernière action le"), default=timezone.now)
    clock = models.JSONField(_("pendule"), default=dict, blank=True)
    turn_deadline = models.DateTimeField(_("échéance du tour"), null=True, blank=True)
    # The verifiable shuffle (docs/fair-shuffle.md) the partie was dealt with: FAIRNESS_V1, or
    # "" for a partie started before it shipped (secrets, nothing to verify). `server_seed` is
    # the table's secret, revealed to the players only once the game has ended.
    fairness = models.CharField(_("mélange"), max_length=16, blank=True, default="")
    server_seed = models.CharField(_("graine du site"), max_length=64, blank=True, default="")
    commitment = models.CharField(_("engagement"), max_length=64, blank=True, default="")
    client_seeds = models.JSONField(_("graines des joueurs"), default=list, blank=True)
    # SeedOrigin values in seat order; [] for a partie dealt before protocol 1.1 (not said).
    seed_origins = models.JSONField(_("origines des graines"), default=list, blank=True)

    FAIRNESS_V1 = "barajamos-v1"

    class Meta:
        verbose_name = _("partie")
        ordering = ["-created"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=["playing", "finished", "cancelled"]),
                name="game_status_valid",
            ),
            models.CheckConstraint(
                condition=Q(winning_team__isnull=True) | Q(winning_team__in=[0, 1]),
                name="game_winning_team_0_or_1",
            ),
        ]
        indexes = [
            # The sweep finds the games idle for too long.
            models.Index(
                fields=["last_action_at"],
                condition=Q(status="playing"),
                name="game_playing_idle_idx",
            ),
            # The sweep finds the clocks that ran out: only the running ones are indexed.
            models.Index(
                fields=["turn_deadline"],
                condition=Q(turn_deadline__isnull=False),
                name="game_turn_deadline_idx",
            ),
        ]

    def __str__(self):
        return f"Partie {self.pk} (table {self.table_id}, {self.get_status_display()})"

    def get_absolute_url(self):
        return reverse("games:table", args=[self.table_id])

    @property
    def end_reason_text(self) -> str:
        """Why it ended, in the active language ("" while playing)."""
        return vocabulary.end_reason_text(self.end_reason)


class GameSeat(models.Model):
    """One player's seat in one game, and the result stored for that player.

    Presence (games.services.presence): the seat's open sockets are its SeatConnection rows.
    When the last one goes, the seat is away (games.services.deadlines): `away_since` and
    `deadline` (away_since + the grace) are set, and the game is cancelled at the deadline
    unless the player comes back first. Every (re)connection bumps `presence_epoch`, so a check
    scheduled for an earlier absence (same seat, older epoch) knows it is stale."""

    class Result(models.TextChoices):
        WON = "won", _("gagnée")
        LOST = "lost", _("perdue")
        CANCELLED = "cancelled", _("annulée")

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="seats", verbose_name=_("partie")
    )
    number = models.PositiveSmallIntegerField(_("place"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="game_seats",
        verbose_name=_("joueur"),
    )
    # null while the game is played: "no result yet" differs from any result.
    result = models.CharField(  # noqa: DJ001
        _("résultat"), max_length=10, choices=Result.choices, null=True, blank=True
    )
    robot = models.BooleanField(_("robot"), default=False)
    robot_level = models.CharField(
        _("niveau du robot"), max_length=10, choices=RobotLevel.choices, blank=True, default=""
    )
    # This player's own absence (the one-minute rule) or clock (too many misses) ended the
    # partie: set by the Finisher's callers that cancel for it; the records count it.
    abandoned = models.BooleanField(_("a abandonné"), default=False)
    presence_epoch = models.PositiveIntegerField(_("absences"), default=0)
    away_since = models.DateTimeField(_("déconnecté à"), null=True, blank=True)
    deadline = models.DateTimeField(_("échéance"), null=True, blank=True)

    class Meta:
        verbose_name = _("place en partie")
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="gameseat_unique_number"),
            models.UniqueConstraint(fields=["game", "user"], name="gameseat_unique_user"),
            models.CheckConstraint(condition=Q(number__lt=SEAT_COUNT), name="gameseat_number_0_3"),
        ]
        indexes = [
            # The sweep looks for passed deadlines: only the few away seats are indexed.
            models.Index(
                fields=["deadline"],
                condition=Q(deadline__isnull=False),
                name="gameseat_deadline_idx",
            )
        ]

    def __str__(self):
        return _("%(user)s à la place %(number)s de la partie %(game)s") % {
            "user": self.user,
            "number": self.number,
            "game": self.game_id,
        }

    @property
    def team(self) -> int:
        return team_of(self.number)


class WebProcess(models.Model):
    """A running web (ASGI) process holding table sockets. It says it is alive every
    HEARTBEAT_FLUSH_SECONDS (games.live.heartbeats); one silent past WEB_PROCESS_LIMIT_SECONDS was
    killed, crashed or restarted, and the sweep drops its sockets at once instead of waiting
    for each one's heartbeats to lapse."""

    id = models.CharField(primary_key=True, max_length=100)
    started_at = models.DateTimeField(_("démarré le"), default=timezone.now)
    last_seen = models.DateTimeField(_("dernier signe de vie"), default=timezone.now, db_index=True)

    class Meta:
        verbose_name = _("processus web")
        verbose_name_plural = _("processus web")

    def __str__(self):
        return self.id


class SeatConnection(models.Model):
    """One open table socket of a seated player (any tab, any device): inserted on connect,
    deleted on disconnect, by the sweep once silent (no heartbeat) for HEARTBEAT_LIMIT, or as
    soon as the web process holding it is known dead."""

    game_seat = models.ForeignKey(
        GameSeat,
        on_delete=models.CASCADE,
        related_name="connections",
        verbose_name=_("place en partie"),
    )
    channel_name = models.CharField(_("canal"), max_length=200, unique=True)
    server = models.ForeignKey(
        WebProcess,
        null=True,
        on_delete=models.CASCADE,
        related_name="connections",
        verbose_name=_("processus web"),
    )
    connected_at = models.DateTimeField(_("connecté le"), default=timezone.now)
    last_seen = models.DateTimeField(_("dernier signe de vie"), default=timezone.now, db_index=True)

    class Meta:
        verbose_name = _("connexion")

    def __str__(self):
        return f"Connexion {self.channel_name} ({self.game_seat})"


class GameAction(models.Model):
    """The append-only log of a game (a PostgreSQL trigger refuses UPDATE and DELETE).

    kind "play": `payload` is the engine action of `seat`, and `seq` is the game version after
    it, so replaying the "play" rows from the decks in the state rebuilds the state exactly.
    kind "end": the last row, `payload` = {"status", "reason", "by"} and `seat` is null."""

    class Kind(models.TextChoices):
        PLAY = "play", _("action")
        END = "end", _("fin")

    game = models.ForeignKey(
        Game, on_delete=models.PROTECT, related_name="actions", verbose_name=_("partie")
    )
    seq = models.PositiveIntegerField(_("n°"))
    seat = models.PositiveSmallIntegerField(_("place"), null=True, blank=True)
    kind = models.CharField(_("type"), max_length=4, choices=Kind.choices, default=Kind.PLAY)
    payload = models.JSONField(_("décision"))
    at = models.DateTimeField(_("le"), default=timezone.now)

    class Meta:
        verbose_name = _("action de partie")
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="gameaction_unique_seq"),
            models.CheckConstraint(condition=Q(kind__in=["play", "end"]), name="gameaction_kind"),
        ]

    def __str__(self):
        return f"Partie {self.game_id} #{self.seq} ({self.kind})"


class Revanche(models.Model):
    """The offer, at the end of a partie, of a new partie to the same four (games.services.
    revanche). `seats` is the proposed order, one user id per seat number (the host at seat
    0; the host may swap partners); `answers` holds each seat's "yes" or "no" ("" while it has
    not answered; a robot says "yes" at once). The offer lapses at `expires_at` or at the first
    "no"; once all said yes, `table` is the new, started table."""

    class Status(models.TextChoices):
        OPEN = "open", _("proposée")
        STARTED = "started", _("lancée")
        LAPSED = "lapsed", _("caduque")

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, related_name="revanche", verbose_name=_("partie")
    )
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="revanches_hosted",
        verbose_name=_("hôte"),
    )
    seats = models.JSONField(_("places proposées"))
    robots = models.JSONField(_("places des robots"), default=list, blank=True)
    answers = models.JSONField(_("réponses"))
    status = models.CharField(
        _("statut"), max_length=8, choices=Status.choices, default=Status.OPEN
    )
    # Why the offer lapsed: {"code": ..., parameters} (games.vocabulary.REVANCHE_LAPSES), shown
    # in each reader's language; {} while it has not lapsed.
    reason = models.JSONField(_("motif"), blank=True, default=dict)
    table = models.OneToOneField(
        Table,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="revanche_source",
        verbose_name=_("nouvelle table"),
    )
    created = models.DateTimeField(_("proposée le"), auto_now_add=True)
    expires_at = models.DateTimeField(_("expire le"))
    # The new table's shuffle, committed when the offer is made (the offer shows `commitment`):
    # its secret, and each person's seed as their « oui » (or the offer) carried it ("" if none).
    server_seed = models.CharField(_("graine du site"), max_length=64, blank=True, default="")
    commitment = models.CharField(_("engagement"), max_length=64, blank=True, default="")
    client_seeds = models.JSONField(_("graines des joueurs"), default=list, blank=True)

    class Meta:
        verbose_name = _("revanche")
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=["open", "started", "lapsed"]), name="revanche_status_valid"
            ),
        ]
        indexes = [
            models.Index(
                fields=["expires_at"], condition=Q(status="open"), name="revanche_open_idx"
            )
        ]

    def __str__(self):
        return _("Revanche de la partie %(game)s (%(status)s)") % {
            "game": self.game_id,
            "status": self.get_status_display(),
        }

    @property
    def reason_text(self) -> str:
        """Why the offer lapsed, in the active language ("" if it has not)."""
        return vocabulary.revanche_lapse_text(self.reason)


class PendingShuffle(models.Model):
    """The secret of the next table a player opens (« Ouvrir une table », « Jouer contre les
    robots », « Jouer maintenant » when it opens one, a revanche offered), drawn when a form
    that may open it is shown, so the form shows its commitment before the player's seed is
    given (protocol 1.1). Taken (deleted) by the table or the offer that uses it; never shown."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="pending_shuffle",
        verbose_name=_("joueur"),
    )
    server_seed = models.CharField(_("graine du site"), max_length=64)
    commitment = models.CharField(_("engagement"), max_length=64)
    created = models.DateTimeField(_("tirée le"), auto_now_add=True)

    class Meta:
        verbose_name = _("mélange en attente")

    def __str__(self):
        return _("Mélange en attente de %(user)s") % {"user": self.user_id}


class TablePhrase(models.Model):
    """A quick phrase said at a table (docs/phrases.md): its id (games.phrases), never its
    text, rendered in each reader's language. `hand_number` is the hand whose score screen it
    was said on, 0 before the partie; `game` is None before the partie."""

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="phrases", verbose_name=_("table")
    )
    game = models.ForeignKey(
        Game,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="phrases",
        verbose_name=_("partie"),
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="table_phrases",
        verbose_name=_("joueur"),
    )
    seat = models.PositiveSmallIntegerField(_("place"))
    phrase = models.CharField(_("phrase"), max_length=16)  # games.phrases.ID_MAX_LENGTH
    hand_number = models.PositiveSmallIntegerField(
        pgettext_lazy("a hand of the partie", "main"), default=0
    )
    robot = models.BooleanField(_("robot"), default=False)
    # A robot's answer names the phrase it answers (one answer per phrase: a task run twice
    # answers once).
    reply_to = models.OneToOneField(
        "self",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="reply",
        verbose_name=_("en réponse à"),
    )
    at = models.DateTimeField(_("dite le"), auto_now_add=True)

    class Meta:
        verbose_name = _("phrase de table")
        verbose_name_plural = _("phrases de table")
        ordering = ["table", "pk"]
        indexes = [models.Index(fields=["table", "-id"], name="tablephrase_table_newest_idx")]

    def __str__(self):
        return f"{self.user} · {self.phrase} (table {self.table_id})"


class PhraseMute(models.Model):
    """`muter` no longer sees `muted`'s phrases at this table (its partie): per reader, never
    told to the muted player."""

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="phrase_mutes", verbose_name=_("table")
    )
    muter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("masqué par"),
    )
    muted = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("joueur masqué"),
    )

    class Meta:
        verbose_name = _("joueur masqué")
        verbose_name_plural = _("joueurs masqués")
        constraints = [
            models.UniqueConstraint(
                fields=["table", "muter", "muted"], name="phrasemute_once_per_table"
            )
        ]

    def __str__(self):
        return f"{self.muter} → {self.muted} (table {self.table_id})"
