"""Every write of the tournaments: creation, registration, check-in, and `advance`, the one
step that runs a tournament (start, rounds, tables, no-shows, results, end).

`advance` runs under the tournament's row lock and is idempotent: the task due at each
tournament's next moment, the task queued when a partie ends and the beat's sweep all call it,
and a second call finds the tables already open. Lock order: the tournament row, then what
games' services lock (a table, its users, a game); the Finisher's signal (a partie ended)
locks only its MatchPartie row, so no path takes them the other way round."""

import logging
import secrets
from datetime import timedelta

from celery import current_app
from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from core import ratelimit
from games import engine
from games import selectors as game_selectors
from games.engine import team_of
from games.engine.types import TARGET
from games.models import Game, Seat, SeedOrigin, Table
from games.services import salle
from games.services.errors import Refused, SalleError
from pairs.models import Pair
from records import rating as records_rating
from records.models import PairRating
from tournaments import pairing, reasons
from tournaments.models import Match, MatchPartie, Round, Tournament, TournamentPair

log = logging.getLogger(__name__)

#: Enqueued by name: nothing imports tournaments.tasks.
ADVANCE = "tournaments.tasks.advance"
#: Per player, private tournaments created.
CREATIONS = ratelimit.Limit("tournament-creations", count=5, seconds=60 * 60)
ROUNDS_MAX = 15
WINDOW_MINUTES = (60, 90)


class TournamentError(Refused):
    """A tournament write refused: a French message, nothing changed."""


def check_in_minutes() -> float:
    return settings.TOURNAMENT_CHECK_IN_MINUTES


# ---------------------------------------------------------------- creation and registration


def tournament_create(
    *,
    user,
    name: str,
    format: str,
    kings: int,
    clock: str,
    starts_at,
    rounds: int | None = None,
    window_minutes: int | None = None,
    best_of: int = 1,
    min_completion: int | None = None,
    private: bool = False,
    now=None,
) -> Tournament:
    """A tournament: a public one by staff, a private one (reached by its link) by anyone."""
    now = now or timezone.now()
    if not private and not user.is_staff:
        raise TournamentError(_("Seule l’équipe du site crée des tournois publics."))
    if getattr(user, "is_robot", False):
        raise TournamentError(_("Les robots ne jouent pas en tournoi."))
    name, rounds, window_minutes, best_of = check_fields(
        name=name,
        format=format,
        kings=kings,
        clock=clock,
        starts_at=starts_at,
        rounds=rounds,
        window_minutes=window_minutes,
        best_of=best_of,
        min_completion=min_completion,
        now=now,
    )
    if private and ratelimit.hit(CREATIONS, user.pk):
        raise TournamentError(_("Trop de tournois créés : réessayez dans une heure."))
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=name,
            format=format,
            kings=kings,
            clock=clock,
            starts_at=starts_at,
            rounds=rounds,
            window_minutes=window_minutes,
            best_of=best_of,
            min_completion=min_completion,
            private=private,
            link_token=secrets.token_urlsafe(32) if private else None,
            created_by=user,
        )
        schedule_advance(tournament.pk, starts_at)
    return tournament


def check_fields(
    *, name, format, kings, clock, starts_at, rounds, window_minutes, best_of, min_completion, now
) -> tuple[str, int | None, int | None, int]:
    """The fields of a new tournament checked (the admin's form calls it too): the name
    cleaned, and the rounds, window and parties per round that the formula keeps."""
    name = " ".join(str(name or "").split())
    if not 3 <= len(name) <= 80:
        raise TournamentError(_("Le nom d’un tournoi compte de 3 à 80 caractères."))
    if format not in Tournament.Format.values:
        raise TournamentError(_("Choisissez une formule : système suisse ou tournoi éclair."))
    if kings not in Table.Kings.values:
        raise TournamentError(_("Choisissez une modalité : 4 rois ou 8 rois."))
    if clock not in Table.Clock.values:
        raise TournamentError(_("Choisissez un temps de jeu : rapide, normal ou lent."))
    if starts_at is None or starts_at <= now:
        raise TournamentError(_("Le début d’un tournoi est dans le futur."))
    if format == Tournament.Format.SWISS:
        if not isinstance(rounds, int) or not 1 <= rounds <= ROUNDS_MAX:
            raise TournamentError(
                _("Un tournoi suisse compte de 1 à %(max)d rondes.") % {"max": ROUNDS_MAX}
            )
        if best_of not in (1, 3):
            raise TournamentError(_("Une ronde se joue en une partie ou au meilleur des trois."))
        window_minutes = None
    else:
        low, high = WINDOW_MINUTES
        if not isinstance(window_minutes, int) or not low <= window_minutes <= high:
            raise TournamentError(
                _("La fenêtre d’un tournoi éclair dure de %(low)d à %(high)d minutes.")
                % {"low": low, "high": high}
            )
        rounds, best_of = None, 1
    if min_completion is not None and not 1 <= min_completion <= 100:
        raise TournamentError(_("Le taux exigé est un nombre de 1 à 100 (ou rien)."))
    return name, rounds, window_minutes, best_of


def register(*, user, tournament_id, pair_id, now=None) -> TournamentPair:
    """A member of an active pair registers it, until the start. Both members must meet the
    minimum completion rate, and neither may already be in another registered pair."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = _lock(tournament_id)
        _check_registration_open(tournament, now)
        pair = Pair.objects.select_related("proposer", "partner").filter(pk=_int(pair_id)).first()
        if pair is None or user.pk not in pair.member_ids():
            raise TournamentError(_("Choisissez une de vos parejas."))
        if pair.status != Pair.Status.ACTIVE:
            raise TournamentError(_("Cette pareja n’est plus formée."))
        for member in pair.members:
            if member.is_robot:
                raise TournamentError(_("Les robots ne jouent pas en tournoi."))
            if not member.is_active:
                raise TournamentError(
                    _("%(name)s ne peut pas jouer : son compte est suspendu.")
                    % {"name": member.username}
                )
            _check_completion(tournament, member)
        people = pair.member_ids()
        taken = (
            TournamentPair.objects.filter(tournament=tournament)
            .filter(Q(pair__proposer_id__in=people) | Q(pair__partner_id__in=people))
            .select_related("pair")
            .first()
        )
        if taken is not None:
            if taken.pair_id == pair.pk:
                raise TournamentError(_("Cette pareja est déjà inscrite."))
            raise TournamentError(
                _("Un de vous deux est déjà inscrit avec la pareja « %(pair)s ».")
                % {"pair": taken.pair.name}
            )
        try:
            with transaction.atomic():
                return TournamentPair.objects.create(
                    tournament=tournament, pair=pair, registered_by=user
                )
        except IntegrityError:
            raise TournamentError(_("Cette pareja est déjà inscrite.")) from None


def withdraw(*, user, tournament_id, now=None) -> None:
    """A member withdraws their pair, until the start."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = _lock(tournament_id)
        _check_registration_open(tournament, now)
        entry = _entry_of(tournament, user)
        if entry is None:
            raise TournamentError(_("Vous n’êtes pas inscrit à ce tournoi."))
        entry.delete()


def check_in(*, user, tournament_id, now=None) -> TournamentPair:
    """A registered player says they are there, in the last TOURNAMENT_CHECK_IN_MINUTES
    before the start; the pair plays if both of its members did."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = _lock(tournament_id)
        _check_registration_open(tournament, now)
        opens = tournament.starts_at - timedelta(minutes=check_in_minutes())
        if now < opens:
            raise TournamentError(
                _("La confirmation de présence ouvre %(minutes)d minutes avant le début.")
                % {"minutes": check_in_minutes()}
            )
        entry = _entry_of(tournament, user)
        if entry is None:
            raise TournamentError(_("Vous n’êtes pas inscrit à ce tournoi."))
        field = "proposer_checked_in" if user.pk == entry.pair.proposer_id else "partner_checked_in"
        if getattr(entry, field) is None:
            setattr(entry, field, now)
            entry.save(update_fields=[field])
    return entry


def _lock(tournament_id) -> Tournament:
    tournament = Tournament.objects.select_for_update().filter(pk=_int(tournament_id)).first()
    if tournament is None:
        raise TournamentError(_("Ce tournoi n’existe pas."))
    return tournament


def _int(value) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


def _check_registration_open(tournament: Tournament, now) -> None:
    if tournament.state != Tournament.State.REGISTRATION or now >= tournament.starts_at:
        raise TournamentError(_("Les inscriptions sont closes : le tournoi a commencé."))


def _check_completion(tournament: Tournament, member) -> None:
    if tournament.min_completion is None:
        return
    rate = game_selectors.completion_rate(member)
    if rate is not None and rate < tournament.min_completion:
        raise TournamentError(
            _(
                "Ce tournoi demande d’avoir mené à terme au moins %(required)s %% de ses "
                "parties ; %(name)s en est à %(rate)s %%."
            )
            % {"required": tournament.min_completion, "rate": rate, "name": member.username}
        )


def _entry_of(tournament: Tournament, user) -> TournamentPair | None:
    return (
        TournamentPair.objects.filter(tournament=tournament)
        .filter(Q(pair__proposer=user) | Q(pair__partner=user))
        .select_related("pair")
        .first()
    )


# ---------------------------------------------------------------- running it


def schedule_advance(tournament_id: int, due=None) -> None:
    """Queue `advance` (at `due`, or now) once the transaction commits; the sweep is its net."""

    def send():
        try:
            current_app.send_task(ADVANCE, args=(tournament_id,), eta=due)
        except Exception:
            log.warning("tournament %s: advance not queued; the sweep will", tournament_id)

    transaction.on_commit(send)


def advance(*, tournament_id: int, now=None) -> int:
    """Do whatever is due in the tournament at `now`: start it, open a round's tables, pair the
    free pairs of an éclair, cancel a no-show's partie, settle the matches whose partie ended,
    open a best-of-3's next partie, end it. Idempotent; returns how many tables it opened."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if tournament is None:
            return 0
        if tournament.state == Tournament.State.REGISTRATION and now >= tournament.starts_at:
            _start(tournament, now)
        if tournament.state != Tournament.State.RUNNING:
            return 0
        _no_shows(tournament, now)
        opened = _settle(tournament, now)
        if tournament.format == Tournament.Format.SWISS:
            opened += _swiss_step(tournament, now)
        else:
            opened += _eclair_step(tournament, now)
    return opened


def _start(tournament: Tournament, now) -> None:
    entries = list(tournament.entries.select_related("pair"))
    playing = [e for e in entries if e.checked_in and e.pair.status == Pair.Status.ACTIVE]
    if len(playing) < 2:
        tournament.state = Tournament.State.CANCELLED
        tournament.state_reason = reasons.reason("too_few_pairs")
        tournament.finished_at = now
        tournament.save(update_fields=["state", "state_reason", "finished_at"])
        return
    ratings = dict(
        PairRating.objects.filter(pair_id__in=[e.pair_id for e in playing]).values_list(
            "pair_id", "points"
        )
    )
    start = records_rating.points(records_rating.initial())
    for entry in playing:
        entry.playing, entry.rating = True, ratings.get(entry.pair_id, start)
    TournamentPair.objects.bulk_update(playing, ["playing", "rating"])
    tournament.state = Tournament.State.RUNNING
    tournament.save(update_fields=["state"])
    if tournament.format == Tournament.Format.SWISS:
        Round.objects.create(tournament=tournament, number=1, starts_at=tournament.starts_at)
    else:
        schedule_advance(tournament.pk, window_end(tournament))


def window_end(tournament: Tournament):
    return tournament.starts_at + timedelta(minutes=tournament.window_minutes or 0)


def _swiss_step(tournament: Tournament, now) -> int:
    opened = 0
    for _step in range(2):  # a round done may open the next at once (no pause)
        current = tournament.round_set.order_by("-number").first()
        if current is None:
            return opened
        if current.opened_at is None:
            if current.starts_at > now:
                return opened
            opened += _open_round(tournament, current, now)
        if current.matches.filter(done=False).exists():
            return opened
        current.finished_at = current.finished_at or now
        current.save(update_fields=["finished_at"])
        if current.number >= (tournament.rounds or 0):
            _finish(tournament, now)
            return opened
        starts = now + timedelta(seconds=settings.TOURNAMENT_ROUND_PAUSE_SECONDS)
        Round.objects.create(tournament=tournament, number=current.number + 1, starts_at=starts)
        if starts > now:
            schedule_advance(tournament.pk, starts)
            return opened
    return opened


def _open_round(tournament: Tournament, current: Round, now) -> int:
    entries = {e.pk: e for e in tournament.entries.filter(playing=True).select_related("pair")}
    ratings = {pk: e.rating for pk, e in entries.items()}
    chosen = pairing.swiss_round(ratings, history(tournament))
    current.opened_at = now
    current.save(update_fields=["opened_at"])
    if chosen.bye is not None:
        Match.objects.create(
            tournament=tournament,
            round=current,
            pair_a=entries[chosen.bye],
            started_at=now,
            done=True,
            winner=0,
            points_a=pairing.SWISS_WIN,
            finished_at=now,
        )
    opened = 0
    for a, b in chosen.tables:
        match = Match.objects.create(
            tournament=tournament,
            round=current,
            pair_a=entries[a],
            pair_b=entries[b],
            started_at=now,
        )
        opened += _open_partie(tournament, match, 1)
    schedule_advance(tournament.pk, now + no_show_delay())
    return opened


def _eclair_step(tournament: Tournament, now) -> int:
    playing_matches = tournament.matches.filter(done=False)
    if now >= window_end(tournament):
        if not playing_matches.exists():
            _finish(tournament, now)
        return 0
    entries = {e.pk: e for e in tournament.entries.filter(playing=True).select_related("pair")}
    busy = set()
    for a, b in playing_matches.values_list("pair_a_id", "pair_b_id"):
        busy |= {a, b}
    free_since, last_opponent = {}, {}
    for match in tournament.matches.filter(done=True).order_by("finished_at", "pk"):
        for me, other in ((match.pair_a_id, match.pair_b_id), (match.pair_b_id, match.pair_a_id)):
            free_since[me], last_opponent[me] = match.finished_at, other
    ratings = {pk: e.rating for pk, e in entries.items()}
    waiting = sorted(
        (pk for pk in entries if pk not in busy),
        key=lambda pk: (free_since.get(pk, tournament.starts_at), -ratings[pk], pk),
    )
    opened = 0
    for a, b in pairing.eclair_pairs(waiting, ratings, last_opponent):
        match = Match.objects.create(
            tournament=tournament, pair_a=entries[a], pair_b=entries[b], started_at=now
        )
        opened += _open_partie(tournament, match, 1)
    if opened:
        schedule_advance(tournament.pk, now + no_show_delay())
    return opened


def no_show_delay() -> timedelta:
    return timedelta(minutes=settings.TOURNAMENT_NO_SHOW_MINUTES)


def _finish(tournament: Tournament, now) -> None:
    """The tournament is over: its final standings are written on its entries, once."""
    tournament.state, tournament.finished_at = Tournament.State.FINISHED, now
    tournament.save(update_fields=["state", "finished_at"])
    entries = {e.pk: e for e in tournament.entries.filter(playing=True)}
    rows = pairing.standings({pk: e.rating for pk, e in entries.items()}, history(tournament))
    for row in rows:
        entry = entries[row.pair]
        entry.final_rank, entry.final_points, entry.final_field = row.rank, row.points, len(rows)
    TournamentPair.objects.bulk_update(
        entries.values(), ["final_rank", "final_points", "final_field"]
    )


def _open_partie(tournament: Tournament, match: Match, number: int) -> int:
    """Open and seat partie `number` of `match` (pair_a at seats 0 and 2), once: a partie row
    that has its table (or its forfeit) is left as it is. The seats wait without a seed: each
    player gives theirs from their browser when they arrive (`arrive`), and the partie starts
    when the four have. A member seated at an open table elsewhere is moved from it; one
    playing a partie elsewhere, or suspended, makes the pair absent: it loses this partie."""
    mp, _created = MatchPartie.objects.get_or_create(match=match, number=number)
    if mp.table_id is not None or mp.ended:
        return 0
    pair_a, pair_b = match.pair_a.pair, match.pair_b.pair
    order = [pair_a.proposer, pair_b.proposer, pair_a.partner, pair_b.partner]
    absent = set()
    for number_, user in enumerate(order):
        seat = Seat.objects.filter(user=user, active=True).select_related("table").first()
        if seat is not None and seat.table.status == Table.Status.OPEN:
            try:
                salle.seat_leave(user=user, table_id=seat.table_id)
            except SalleError:
                absent.add(team_of(number_))
        elif seat is not None or not user.is_active:
            absent.add(team_of(number_))
    current = 0
    if not absent:
        try:
            with transaction.atomic():
                table = salle.table_create(
                    user=order[0],
                    kings=tournament.kings,
                    clock=tournament.clock,
                    private=True,
                    spectators=not tournament.private,
                    server_seed=secrets.token_bytes(engine.fairness.SERVER_SEED_BYTES),
                )
                for current in range(1, 4):
                    salle.seat_take(
                        user=order[current],
                        table_id=table.pk,
                        number=current,
                        invite_token=table.invite_token,
                    )
                current = 0
                # No seed yet: each comes from its player's browser on arrival.
                Seat.objects.filter(table=table).update(client_seed="", seed_origin=SeedOrigin.SITE)
        except SalleError as error:
            log.info("tournament %s: partie not opened: %s", tournament.pk, error.message)
            absent.add(team_of(current))
        else:
            mp.table = table
            mp.save(update_fields=["table"])
            return 1
    mp.ended, mp.outcome = True, _winner_if_absent(absent)
    mp.note = reasons.reason("absent_at_opening")
    mp.save(update_fields=["ended", "outcome", "note"])
    return 0


def _winner_if_absent(absent: set[int]) -> int | None:
    """The side that wins when the sides in `absent` did not come: the other, or nobody."""
    return 1 - next(iter(absent)) if len(absent) == 1 else None


def _no_shows(tournament: Tournament, now) -> None:
    """NO_SHOW_MINUTES after its table opened, a partie still waiting for its four is not
    played: a pair one of whose members has not arrived (given their seed) loses it, both if
    both are incomplete; the table is closed."""
    since = now - no_show_delay()
    waiting = MatchPartie.objects.filter(
        match__tournament=tournament,
        match__done=False,
        ended=False,
        table__status=Table.Status.OPEN,
    ).select_related("match", "table")
    for mp in list(waiting):
        if max(mp.match.started_at, mp.table.created) > since:
            continue
        absent = _not_arrived(mp.table)
        if not absent:
            _start_if_all_arrived(mp.table)
            continue
        salle.table_close_unstarted(table_id=mp.table_id)
        mp.ended, mp.outcome = True, _winner_if_absent(absent)
        mp.note = reasons.reason("no_show", minutes=f"{settings.TOURNAMENT_NO_SHOW_MINUTES:g}")
        mp.save(update_fields=["ended", "outcome", "note"])


def _not_arrived(table: Table) -> set[int]:
    """The sides (teams) of `table` with a seat left empty or whose player gave no seed yet."""
    seeded = {
        number: bool(seed)
        for number, seed in table.seats.filter(active=True).values_list("number", "client_seed")
    }
    return {team_of(n) for n in range(4) if not seeded.get(n)}


def _start_if_all_arrived(table: Table) -> bool:
    """Start the partie of a tournament's table whose four players arrived (with the clock)."""
    if table.status != Table.Status.OPEN or _not_arrived(table):
        return False
    salle.table_start(user=table.host, table_id=table.pk, by_site=True)
    return True


def arrive(*, user, tournament_id, client_seed: str | None, now=None) -> Table:
    """« Je suis là »: a player of a partie waiting for its four arrives with the seed their
    browser proposed after showing them the table's commitment (blank, without JavaScript:
    the site draws one, recorded as the site's). The fourth arrival starts the partie."""
    seed, origin = salle.person_seed(client_seed)
    with transaction.atomic():
        tournament = _lock(tournament_id)
        mp = (
            MatchPartie.objects.filter(
                match__tournament=tournament,
                ended=False,
                table__status=Table.Status.OPEN,
                table__seats__user=user,
                table__seats__active=True,
            )
            .select_related("table")
            .first()
        )
        if mp is None:
            raise TournamentError(_("Aucune table de ce tournoi ne vous attend."))
        table = salle.lock_table(mp.table_id)
        if table.status != Table.Status.OPEN:
            raise TournamentError(_("La partie a déjà commencé à cette table."))
        seat = table.seats.filter(user=user, active=True).first()
        if seat is None:
            raise TournamentError(_("Aucune table de ce tournoi ne vous attend."))
        if not seat.client_seed:
            seat.client_seed, seat.seed_origin = seed, origin
            seat.save(update_fields=["client_seed", "seed_origin"])
        if _start_if_all_arrived(table):
            table.refresh_from_db(fields=["status"])
    return table


def _settle(tournament: Tournament, now) -> int:
    """Each match whose last partie ended: decided (its points written), or its next partie
    opened (best of 3)."""
    opened = 0
    matches = tournament.matches.filter(done=False, pair_b__isnull=False).select_related(
        "pair_a__pair__proposer",
        "pair_a__pair__partner",
        "pair_b__pair__proposer",
        "pair_b__pair__partner",
    )
    for match in matches:
        parties = list(match.parties.all())
        if not parties or not parties[-1].ended:
            continue
        decided, side = pairing.match_winner([p.outcome for p in parties], tournament.best_of)
        if not decided:
            more = _open_partie(tournament, match, parties[-1].number + 1)
            if more:
                schedule_advance(tournament.pk, now + no_show_delay())
            opened += more
            continue
        win = (
            pairing.SWISS_WIN
            if tournament.format == Tournament.Format.SWISS
            else pairing.ECLAIR_WIN
        )
        match.done, match.winner, match.finished_at = True, side, now
        match.points_a = win if side == 0 else 0
        match.points_b = win if side == 1 else 0
        match.diff_a = sum(p.diff_a for p in parties)
        match.save(
            update_fields=["done", "winner", "finished_at", "points_a", "points_b", "diff_a"]
        )
    return opened


def history(tournament: Tournament) -> list[pairing.Played]:
    """The done matches as the pairing module reads them: each pair's side of each."""
    rows = []
    for a, b, points_a, points_b, diff in tournament.matches.filter(done=True).values_list(
        "pair_a_id", "pair_b_id", "points_a", "points_b", "diff_a"
    ):
        rows.append(pairing.Played(a, b, points_a, diff))
        if b is not None:
            rows.append(pairing.Played(b, a, points_b, -diff))
    return rows


# ---------------------------------------------------------------- a partie's end


def partie_result(game: Game) -> None:
    """The Finisher's signal (in its transaction): the result of a tournament's partie. A
    finished partie is won by its winning team (pair_a is team 0); one cancelled is lost by the
    pair whose member's absence or clock ended it (both, or neither: both lose it). A won
    partie counts 40 for the winner: the difference is 40 minus the loser's score."""
    mp = (
        MatchPartie.objects.select_for_update(of=("self",))
        .filter(table_id=game.table_id)
        .values_list("pk", "ended", "match__tournament_id")
        .first()
    )
    if mp is None or mp[1]:
        return
    pk, _ended, tournament_id = mp
    if game.status == Game.Status.FINISHED and game.winning_team is not None:
        side = game.winning_team
        diff = max(0, TARGET - int(game.state["scores"][1 - side]))
        outcome, diff_a, note = side, diff if side == 0 else -diff, {}
    else:
        blamed = {
            team_of(n) for n in game.seats.filter(abandoned=True).values_list("number", flat=True)
        }
        outcome, diff_a, note = (
            _winner_if_absent(blamed) if blamed else None,
            0,
            game.end_reason,
        )
    MatchPartie.objects.filter(pk=pk).update(ended=True, outcome=outcome, diff_a=diff_a, note=note)
    schedule_advance(tournament_id)


def sweep(*, now=None) -> int:
    """The beat's net: advance every tournament due to start and every running one."""
    now = now or timezone.now()
    due = Tournament.objects.filter(
        Q(state=Tournament.State.RUNNING)
        | Q(state=Tournament.State.REGISTRATION, starts_at__lte=now)
    ).values_list("pk", flat=True)
    return sum(advance(tournament_id=pk, now=now) for pk in list(due))
