"""Reads of the records: a player's profile, the classement, the reputations the salle shows.
Each is a fixed number of queries whatever the number of parties (tests assert it)."""

from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.db.models import Count, Exists, F, OuterRef, Q
from django.db.models.functions import Mod
from django.utils.translation import gettext as _

from games.engine import team_of
from games.models import SEAT_COUNT, GameSeat, RobotLevel, Table
from games.selectors import ENDED_STATUSES, Completion
from pairs.models import Pair
from records import rating
from records.models import (
    PairRating,
    PairRatingChange,
    PlayedWith,
    PlayerTally,
    Rating,
    RatingChange,
    RatingVoid,
)

#: Rated parties a player needs to appear in the classement: a rating after one or two
#: parties says more about luck and partners than about the player.
CLASSEMENT_MIN_PARTIES = 5
CLASSEMENT_SIZE = 100
LAST_PARTIES = 10
PEOPLE_SHOWN = 5


@dataclass(frozen=True)
class Reputation:
    """What the salle shows next to a name: the rating (None: never rated) and the completion
    rate (None: no ended partie yet)."""

    points: int | None
    completion: int | None

    @property
    def label(self) -> str:
        shown = str(self.points) if self.points is not None else _("nouveau")
        if self.completion is None:
            return shown
        return _("%(rating)s · %(rate)s %% menées") % {"rating": shown, "rate": self.completion}


def reputations(user_ids) -> dict[int, Reputation]:
    """{user id: Reputation} for the names a page shows, in one query: the rating and the
    tally (PlayerTally) are rows kept as parties end, never counted here."""
    ids = {pk for pk in user_ids if pk is not None}
    if not ids:
        return {}
    rows = (
        get_user_model()
        .objects.filter(pk__in=ids)
        .values_list("pk", "rating__points", "tally__ended", "tally__abandoned")
    )
    return {
        pk: Reputation(points, Completion(ended or 0, gone or 0).rate)
        for pk, points, ended, gone in rows
    }


def completion_rate(user_id: int) -> int | None:
    """The player's completion rate from their tally (one row; None before any ended partie
    between people)."""
    row = PlayerTally.objects.filter(user_id=user_id).values_list("ended", "abandoned").first()
    return Completion(*row).rate if row is not None else None


def played_with(user_id: int, among) -> set[int]:
    """Those of the users `among` who have sat at an ended partie with this one (one query,
    one indexed row per name at most)."""
    return set(
        PlayedWith.objects.filter(user_id=user_id, other_id__in=list(among)).values_list(
            "other_id", flat=True
        )
    )


@dataclass
class PartieLine:
    """One partie in a profile's list."""

    game_id: int
    finished_at: object
    kings_label: str
    result: str  # GameSeat.Result value
    result_label: str
    abandoned: bool
    training: bool
    voided: bool  # its rating voided by the moderation (RatingVoid)
    robot_levels: list[str] = field(default_factory=list)  # a practice partie's robots' levels
    partners: list[str] = field(default_factory=list)
    opponents: list[str] = field(default_factory=list)
    visible: bool = False  # the viewer may open its page (a player of it, or staff)


@dataclass
class Profile:
    player: object
    played: int
    won: int
    lost: int
    cancelled: int
    abandoned: int
    training: int
    completion: int | None
    favourite: str | None
    points: int | None
    rated: int
    history: list[int]
    last_parties: list[PartieLine]
    partners: list[tuple[str, int]]
    opponents: list[tuple[str, int]]


def player_profile(player, viewer) -> Profile:
    """The profile of `player` as `viewer` sees it, in eight queries whatever the history: the
    counts (one aggregate), the favourite modality, the last LAST_PARTIES parties and the other
    seats of those, the PEOPLE_SHOWN partners and opponents met most (each a GROUP BY with a
    LIMIT), the rating, its history. Nothing is counted row by row here."""
    ended = GameSeat.objects.filter(user=player, game__status__in=ENDED_STATUSES).annotate(
        training=Exists(GameSeat.objects.filter(game_id=OuterRef("game_id"), robot=True))
    )
    people = Q(training=False)
    counts = ended.aggregate(
        all=Count("pk"),
        played=Count("pk", filter=people),
        won=Count("pk", filter=people & Q(result=GameSeat.Result.WON)),
        lost=Count("pk", filter=people & Q(result=GameSeat.Result.LOST)),
        cancelled=Count("pk", filter=people & Q(result=GameSeat.Result.CANCELLED)),
        abandoned=Count("pk", filter=people & Q(abandoned=True)),
    )
    kings = list(
        ended.filter(people)
        .order_by()
        .values_list("game__kings")
        .annotate(n=Count("pk"))
        .order_by("-n", "game__kings")[:2]
    )
    favourite = None
    if kings and (len(kings) == 1 or kings[0][1] > kings[1][1]):
        favourite = str(Table.Kings(kings[0][0]).label)
    last = list(
        ended.annotate(voided=Exists(RatingVoid.objects.filter(game_id=OuterRef("game_id"))))
        .select_related("game")
        .only("number", "result", "abandoned", "game__kings", "game__status", "game__finished_at")
        .order_by("-game__finished_at", "-game_id")[:LAST_PARTIES]
    )
    seated: dict[int, list[tuple[int, str, int]]] = {}
    levels: dict[int, set[str]] = {}
    others = (
        GameSeat.objects.filter(game_id__in=[s.game_id for s in last])
        .exclude(user=player)
        .values_list("game_id", "number", "user__username", "user_id", "robot_level")
    )
    for game_id, number, name, user_id, level in others:
        seated.setdefault(game_id, []).append((number, name, user_id))
        if level:
            levels.setdefault(game_id, set()).add(level)
    current = Rating.objects.filter(user=player).first()
    history = list(
        RatingChange.objects.filter(user=player)
        .order_by("at", "game_id")
        .values_list("points", flat=True)
    )
    if history:
        history.insert(0, rating.points(rating.initial()))
    return Profile(
        player=player,
        played=counts["played"],
        won=counts["won"],
        lost=counts["lost"],
        cancelled=counts["cancelled"],
        abandoned=counts["abandoned"],
        training=counts["all"] - counts["played"],
        completion=Completion(counts["played"], counts["abandoned"]).rate,
        favourite=favourite,
        points=current.points if current else None,
        rated=current.parties if current else 0,
        history=history,
        last_parties=[_line(s, seated, levels, viewer, player) for s in last],
        partners=_met_most(player, partners=True),
        opponents=_met_most(player, partners=False),
    )


def _met_most(player, *, partners: bool) -> list[tuple[str, int]]:
    """The PEOPLE_SHOWN people `player` sat with most as partners (or facing them, as
    opponents) in ended parties between people, most first: one GROUP BY with a LIMIT."""
    robot_seat = GameSeat.objects.filter(game_id=OuterRef("game_id"), robot=True)
    others = (
        GameSeat.objects.filter(game__seats__user=player, game__status__in=ENDED_STATUSES)
        .exclude(user=player)
        .exclude(Exists(robot_seat))
        .annotate(team=Mod("number", 2), my_team=Mod("game__seats__number", 2))
    )
    chosen = others.filter(team=F("my_team")) if partners else others.exclude(team=F("my_team"))
    return list(
        chosen.order_by()
        .values_list("user__username")
        .annotate(n=Count("pk"))
        .order_by("-n", "user__username")[:PEOPLE_SHOWN]
    )


def _line(seat: GameSeat, seated, levels, viewer, player) -> PartieLine:
    game = seat.game
    others = seated.get(seat.game_id, [])
    robot_levels = [
        str(label) for value, label in RobotLevel.choices if value in levels.get(seat.game_id, ())
    ]
    return PartieLine(
        game_id=seat.game_id,
        finished_at=game.finished_at,
        kings_label=str(Table.Kings(game.kings).label),
        result=seat.result or "",
        result_label=str(GameSeat.Result(seat.result).label) if seat.result else "",
        abandoned=seat.abandoned,
        training=seat.training,
        robot_levels=robot_levels,
        voided=seat.voided,
        partners=[name for n, name, _u in others if team_of(n) == team_of(seat.number)],
        opponents=[name for n, name, _u in others if team_of(n) != team_of(seat.number)],
        visible=viewer.has_perm("moderation.can_moderate")
        or viewer.pk == player.pk
        or any(u == viewer.pk for _n, _name, u in others),
    )


def partie_rating_voided(game) -> bool:
    """Whether the moderation voided `game`'s rating (the partie page says so)."""
    return RatingVoid.objects.filter(game=game).exists()


def classement(limit: int = CLASSEMENT_SIZE) -> list[Rating]:
    """The rated players with at least CLASSEMENT_MIN_PARTIES rated parties, best first, in one
    query (active accounts only: a banned player leaves the classement)."""
    return list(
        Rating.objects.filter(parties__gte=CLASSEMENT_MIN_PARTIES, user__is_active=True)
        .select_related("user")
        .only("points", "parties", "user__username")
        .order_by("-points", "user__username")[:limit]
    )


# ---------------------------------------------------------------- parejas


@dataclass
class PairPage:
    """A pareja's page: its record between people while it was formed, its rating, its last
    parties (PartieLine, as the members' profiles show them)."""

    pair: Pair
    played: int
    won: int
    lost: int
    cancelled: int
    training: int
    points: int | None
    rated: int
    history: list[int]
    last_parties: list[PartieLine]


def pair_page(pair: Pair, viewer) -> PairPage:
    """The page of `pair` as `viewer` sees it, in four queries whatever its history: the
    first member's seats with the second facing them while the pair was formed, the other
    seats of those parties, the rating, its history."""
    facing = GameSeat.objects.filter(
        game_id=OuterRef("game_id"),
        user_id=pair.partner_id,
        number=Mod(OuterRef("number") + 2, SEAT_COUNT),
    )
    robot_seat = GameSeat.objects.filter(game_id=OuterRef("game_id"), robot=True)
    during = {"game__created__gte": pair.accepted_at}
    if pair.ended_at is not None:
        during["game__created__lt"] = pair.ended_at
    seats = list(
        GameSeat.objects.filter(
            Exists(facing), user_id=pair.proposer_id, game__status__in=ENDED_STATUSES, **during
        )
        .annotate(
            training=Exists(robot_seat),
            voided=Exists(RatingVoid.objects.filter(game_id=OuterRef("game_id"))),
        )
        .select_related("game")
        .only("number", "result", "abandoned", "game__kings", "game__status", "game__finished_at")
        .order_by("-game__finished_at", "-game_id")
    )
    seated: dict[int, list[tuple[int, str, int]]] = {}
    for game_id, number, name, user_id in (
        GameSeat.objects.filter(game_id__in=[s.game_id for s in seats[:LAST_PARTIES]])
        .exclude(user_id=pair.proposer_id)
        .values_list("game_id", "number", "user__username", "user_id")
    ):
        seated.setdefault(game_id, []).append((number, name, user_id))
    people = [s for s in seats if not s.training]
    current = PairRating.objects.filter(pair=pair).first()
    history = list(
        PairRatingChange.objects.filter(pair=pair)
        .order_by("at", "game_id")
        .values_list("points", flat=True)
    )
    if history:
        history.insert(0, rating.points(rating.initial()))
    return PairPage(
        pair=pair,
        played=len(people),
        won=sum(1 for s in people if s.result == GameSeat.Result.WON),
        lost=sum(1 for s in people if s.result == GameSeat.Result.LOST),
        cancelled=sum(1 for s in people if s.result == GameSeat.Result.CANCELLED),
        training=len(seats) - len(people),
        points=current.points if current else None,
        rated=current.parties if current else 0,
        history=history,
        last_parties=[_line(s, seated, {}, viewer, pair.proposer) for s in seats[:LAST_PARTIES]],
    )


def pair_by_slug(slug: str) -> Pair | None:
    """The formed or dissolved pareja at /parejas/<slug>/ (a proposal has no page yet)."""
    return (
        Pair.objects.filter(slug=slug, status__in=[Pair.Status.ACTIVE, Pair.Status.DISSOLVED])
        .select_related("proposer", "partner")
        .first()
    )


def player_pairs(player) -> list[Pair]:
    """`player`'s formed and dissolved parejas, each with its rating (`rating_points`, None
    before a rated partie), the formed first: one query."""
    return list(
        Pair.objects.filter(
            Q(proposer=player) | Q(partner=player),
            status__in=[Pair.Status.ACTIVE, Pair.Status.DISSOLVED],
        )
        .select_related("proposer", "partner")
        .annotate(rating_points=F("rating__points"), rated=F("rating__parties"))
        .order_by("status", "-accepted_at")
    )


def pair_classement(limit: int = CLASSEMENT_SIZE) -> list[PairRating]:
    """The formed parejas with at least CLASSEMENT_MIN_PARTIES rated parties whose two members
    are active, best first: one query."""
    return list(
        PairRating.objects.filter(
            parties__gte=CLASSEMENT_MIN_PARTIES,
            pair__status=Pair.Status.ACTIVE,
            pair__proposer__is_active=True,
            pair__partner__is_active=True,
        )
        .select_related("pair__proposer", "pair__partner")
        .order_by("-points", "pair__name")[:limit]
    )
